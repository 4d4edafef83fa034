"""The policy options of ``check`` and ``lsp``, and the policy set they ask for, loaded and
compiled once per run (or language-server session).

The policies are compiled before any job is read: a policy that does not compile stops the
run with its error located in the `.rego` file (exit 2), as an unreadable job file would.
"""

from __future__ import annotations

import argparse

from hclgpu.rego import DEFAULT_NAMESPACES, DEFAULT_TIMEOUT

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Sequence

    from hclgpu.config import Config
    from hclgpu.diagnostics import Sink
    from hclgpu.rego.policies import PolicySet


def add_policy_options(parser: argparse.ArgumentParser, unit: str = "job file") -> None:
    """``--policy``, ``--namespace``, ``--all-namespaces`` and ``--policy-timeout`` (for
    ``check``, and for ``lsp``, whose ``unit`` of work is a document)."""
    group = parser.add_argument_group("policies (Rego, as conftest runs them; docs/policies.md)")
    group.add_argument(
        "--policy", action="append", default=[], metavar="DIR",
        help="a directory of .rego files (repeatable; default: `policy` in [tool.hclgpu])",
    )  # fmt: skip
    group.add_argument(
        "--namespace", action="append", default=[], metavar="PACKAGE",
        help="the Rego package whose deny/warn/violation rules run (repeatable; default: main)",
    )  # fmt: skip
    group.add_argument(
        "--all-namespaces", action="store_true", help="run the rules of every package of the policies"
    )
    group.add_argument(
        "--policy-timeout", type=seconds, default=None, metavar="SECONDS",
        help=f"time the policies may take on one {unit} (default: {DEFAULT_TIMEOUT:g})",
    )  # fmt: skip


def seconds(text: str) -> float:
    """A time limit from the command line: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not is_time_limit(value):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}")
    return value


def is_time_limit(value: float) -> bool:
    """Whether ``value`` is usable as a time limit: above 0 and finite (NaN is neither)."""
    return 0 < value < float("inf")


def policies_for(args: argparse.Namespace, config: Config, sink: Sink) -> PolicySet | None:
    """The run's compiled policy set (see :func:`policy_set`)."""
    return policy_set(args.policy, args.namespace, args.all_namespaces, args.policy_timeout, config, sink)


def policy_set(
    places: Sequence[str],
    namespaces: Sequence[str],
    all_namespaces: bool,
    timeout: float | None,
    config: Config | None,
    sink: Sink,
) -> PolicySet | None:
    """The compiled policy set that the command line (or an editor's settings) asks for, each
    setting not given taken from the configuration: None when none is asked for, or (with
    diagnostics in ``sink``) when the policies cannot be used."""
    from hclgpu.rego.policies import load_policies

    places = list(places) or (list(config.policy) if config else [])
    if not places:
        return None
    packages = tuple(namespaces) or (tuple(config.policy_namespaces) if config else ())
    packages = () if all_namespaces else packages or DEFAULT_NAMESPACES
    limit = timeout or (config.policy_timeout if config else None) or DEFAULT_TIMEOUT
    policies = load_policies(places, packages, limit, sink)
    if policies is None or not compiled(policies, sink):
        return None
    return policies


def compiled(policies: PolicySet, sink: Sink) -> bool:
    """Compile the policies in this process's engine; each error as HG410 at its place."""
    from hclgpu.rego.engine import EngineMissing, engine_for
    from hclgpu.source import SourceFile, Span

    try:
        errors = engine_for(policies).start()
    except EngineMissing as error:
        sink.emit("HG413", str(error), SourceFile(policies.modules[0].path, ""))
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
        sink.emit("HG410", problem.message, source, span)
    return not errors
