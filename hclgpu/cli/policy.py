"""The policy set that the settings ask for (`policy`, `policy-namespace`,
`policy-all-namespaces`, `policy-timeout`), loaded and compiled once per run (or
language-server session).

The policies are compiled before any job is read: a policy that does not compile stops the
run with its error located in the `.rego` file (exit 2), as an unreadable job file would.
"""

from __future__ import annotations

from hclgpu.codes.policies import HG413, HG415
from hclgpu.rego import DEFAULT_NAMESPACES, DEFAULT_TIMEOUT

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.diagnostics import Sink
    from hclgpu.rego.policies import PolicySet
    from hclgpu.settings import Settings


def policy_set(settings: Settings, sink: Sink) -> PolicySet | None:
    """The compiled policy set the settings ask for: None when they name no policy, or (with
    diagnostics in ``sink``) when the policies cannot be used."""
    from hclgpu.rego.policies import load_policies

    if not settings.policy:
        return None
    packages = () if settings.policy_all_namespaces else settings.policy_namespace or DEFAULT_NAMESPACES
    limit = settings.policy_timeout or DEFAULT_TIMEOUT
    policies = load_policies(list(settings.policy), packages, limit, sink)
    if policies is None or not compiled(policies, sink):
        return None
    return policies


UNAVAILABLE_HELP = (
    "policies run offline here: write the data the rule needs into the policy (approved registries,"
    " CIDRs), or test with string built-ins"
)


def compiled(policies: PolicySet, sink: Sink) -> bool:
    """Compile the policies in this process's engine; each error at its place: HG410, or
    HG415 for a call of a built-in the engine does not provide."""
    from hclgpu.rego.engine import EngineMissing, engine_for
    from hclgpu.source import SourceFile, Span

    try:
        errors = engine_for(policies).start()
    except EngineMissing as error:
        sink.emit(HG413, str(error), SourceFile(policies.modules[0].path, ""))
        return False
    texts = {module.path: module.text for module in policies.modules}
    for problem in errors:
        text = texts.get(problem.file)
        source = SourceFile(problem.file or policies.modules[0].path, text or "")
        span = None
        if text is not None and problem.offset is not None:
            data = text.encode("utf-8")
            start = len(data[: problem.offset].decode("utf-8", "ignore"))
            end = len(data[: problem.offset + max(problem.length, 1)].decode("utf-8", "ignore"))
            span = Span(start, max(start, min(end, len(text))))
        help = UNAVAILABLE_HELP if problem.code == HG415 else None
        sink.emit(problem.code, problem.message, source, span, help=help)
    return not errors
