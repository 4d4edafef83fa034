"""hclgpu's verdict on a job file, and where it differs from Nomad's.

hclgpu runs as ``hclgpu check`` does, for the cluster the oracle stands for: Nomad's newest
release, Community Edition (the offline validator refuses Enterprise features as
unlicensed), the server's default configuration. File functions read from the job's folder,
where the oracle runs.

Three things are compared:

- the decision, by stage: Nomad's parser refuses the file exactly when hclgpu reports an
  error of the parsing stages (HG0xx, HG1xx), at the lines Nomad names; Nomad's validation
  (``Job.Validate`` and the server's admission checks) refuses a parsed file exactly when
  hclgpu reports an error of its checks (HG2xx);
- the API JSON of a file Nomad parses, exactly (keys, order, types);
- the words: each of Nomad's validation errors and warnings is the message of one of
  hclgpu's findings of that severity (after the place in the job hclgpu puts before it),
  and each of hclgpu's check errors is one of Nomad's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hclgpu.codes import Severity
from hclgpu.diagnostics import Diagnostic, Sink
from tests.differential.oracle import NomadVerdict, digest


@dataclass(frozen=True)
class OurVerdict:
    findings: tuple[Diagnostic, ...]
    api: str
    api_json: dict[str, object] | None

    def errors(self, parsing: bool) -> list[Diagnostic]:
        """The errors of the parsing stages, or of the checks."""
        return [
            d
            for d in self.findings
            if d.severity is Severity.ERROR and (d.code < "HG200") is parsing and d.code < "HG400"
        ]

    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.findings if d.severity is Severity.WARNING]


def run_ours(path: Path, args: Sequence[str] = (), text: str | None = None) -> OurVerdict:
    """hclgpu on the job file at ``path`` (``-var``/``-var-file`` arguments as Nomad's)."""
    from hclgpu.backends.nomad.api import render
    from hclgpu.eval.program import EvalOptions
    from hclgpu.eval.variables import VariableInputs
    from hclgpu.io.inputs import Input, decode
    from hclgpu.pipeline import compile_source
    from hclgpu.settings.profile import Profile

    values = [value for flag, value in zip(args[::2], args[1::2], strict=True) if flag == "-var"]
    files = [
        path.parent / value for flag, value in zip(args[::2], args[1::2], strict=True) if flag == "-var-file"
    ]
    inputs = VariableInputs(args=values, files=files, env={})
    # Nomad's CLI lets file functions read anywhere (AllowFS); so does hclgpu with --allow-fs
    options = EvalOptions(inputs, base_dir=path.parent, allow_fs=True, profile=Profile(enterprise=False))
    sink = Sink()
    data = path.read_bytes() if text is None else text.encode("utf-8")
    source = decode(Input(path.name, data, str(path)), sink)
    if source is None:  # not text at all: hclgpu reports it as unreadable, at parsing
        return OurVerdict(tuple(sink.sorted()), "", None)
    checked = compile_source(source, options)
    parsed = compile_source(source, options, checks=False)
    api_json = json.loads(render(parsed.job)) if parsed.job is not None else None
    return OurVerdict(tuple(checked.diagnostics), digest(api_json) if api_json else "", api_json)


SERVER_HOOKS = "nomad/job_endpoint_hook"
"""Where Nomad's server admission hooks are: checks ``validate-oracle`` does not run, as
``nomad job validate`` without an agent does not (its README, item 3), except the
self-contained ones of ``jobValidate`` it reports as ``ServerHookErrors``."""
_CONNECT = re.compile(r"\bconnect\s*\{")
_IDENTITY = re.compile(r"\bidentity\s*\{")
MUTATED = (
    (
        "shutdown_delay set",
        _CONNECT,
        "a Connect job: the server's jobConnectHook injects the Envoy task with ShutdownDelay 5s "
        "(nomad/job_endpoint_hook_connect.go:514, :535 at aa026cc99c) before Job.Warnings",
    ),
    (
        "Missing tasks for task group",
        _CONNECT,
        "a Connect gateway group: the server's jobConnectHook injects its gateway task "
        "(nomad/job_endpoint_hook_connect.go:535 at aa026cc99c) before Job.Validate",
    ),
    (
        "is Connect Native and requires setting the task",
        _CONNECT,
        "the server's jobConnectHook.Mutate sets the task of a Connect native service of a one-task "
        "group, and refuses the job as ambiguous otherwise (getNamedTaskForNativeService, "
        "nomad/job_endpoint_hook_connect.go at aa026cc99c), before Service.Validate "
        "(nomad/structs/services.go:895) runs: hclgpu reports the server's error (HG292)",
    ),
    (
        "job priority must be between",
        re.compile(r"\bpriority\s*=\s*0\s*$", re.MULTILINE),
        "`priority = 0`: the server's jobCanonicalizer replaces 0 by its default priority "
        "(nomad/job_endpoint_hooks.go:245 at aa026cc99c) before jobValidate checks the range",
    ),
    (
        "has an identity with an empty name",
        _IDENTITY,
        "a Consul service's identity: the server's jobImplicitIdentitiesHook names it "
        "(nomad/job_endpoint_hook_implicit_identities.go:87 at aa026cc99c) before "
        "jobValidate.validateServiceIdentity (nomad/job_endpoint_hooks.go:570)",
    ),
)
"""Nomad's findings that the server's mutators make untrue (the offline validator does not
mutate), for a job with the block each needs: words → why."""


LIMITS = {
    "HG014": "hclgpu's bound on numbers, 4300 digits (hclgpu/numbers.py MAX_DIGITS): cty holds "
    "1e999999 and Nomad would print its million digits; hclgpu refuses it, on purpose",
}
"""hclgpu's own limits on hostile input, which Nomad does not have: code → why."""


def excuse(line: str, text: str, ours: OurVerdict) -> str:
    """Why a difference is a server rule the offline validator skips, or one of hclgpu's
    deliberate limits ("" when it is neither)."""
    from hclgpu.checks.server import CONDITIONS

    for code, why in LIMITS.items():
        if f": {code}@" in line:
            return why

    for finding in ours.findings:
        condition = CONDITIONS.get(finding.check or "")
        hook = (
            condition
            and condition.source.startswith(SERVER_HOOKS)
            and not condition.nomad.startswith("jobValidate")
        )
        if condition and hook and f"{finding.code} {finding.message!r}" in line:
            return f"server admission check {condition.nomad} ({condition.source} at aa026cc99c)"
    if line.startswith("Nomad's"):
        return next((why for words, block, why in MUTATED if words in line and block.search(text)), "")
    return ""


def differences(nomad: NomadVerdict, ours: OurVerdict) -> list[str]:
    """Every way hclgpu's verdict differs from Nomad's, each as one line."""
    found: list[str] = []
    parse_errors = ours.errors(parsing=True)
    if nomad.parse_error:
        if not parse_errors:
            found.append("Nomad's parser refuses the file; hclgpu parses it")
        lines = {_line(d) for d in parse_errors}
        missing = sorted({line for line, _ in nomad.places} - lines)
        if parse_errors and missing:
            found.append(f"Nomad's parser names lines {missing} that hclgpu does not")
        return found
    if parse_errors:
        found.append("hclgpu refuses the file at parsing; Nomad parses it: " + _shown(parse_errors))
        return found
    if nomad.api != ours.api:
        found.append(
            "the API JSON differs" + (": " + _first_difference(nomad, ours) if nomad.api_json else "")
        )
    found += _words(nomad.errors + nomad.server_errors, ours.errors(parsing=False), "error")
    found += _words(nomad.warnings, ours.warnings(), "warning", both_ways=False)
    return found


def _words(nomad: Sequence[str], ours: list[Diagnostic], kind: str, both_ways: bool = True) -> list[str]:
    found = [
        f"Nomad's {kind} {m!r}: hclgpu has no finding with these words" for m in nomad if not _said(m, ours)
    ]
    if both_ways:
        found += [
            f"hclgpu's {kind} {d.code} {d.message!r} at {_line(d)}: Nomad has no such {kind}"
            for d in ours
            if not any(_same(d.message, m) for m in nomad)
        ]
    return found


def _said(message: str, ours: list[Diagnostic]) -> bool:
    return any(_same(d.message, message) for d in ours)


_CONTEXT = re.compile(
    r"^(?:(?:Constraint|Affinity|Spread|Volume Mount|Template|Artifact) \d+ validation failed: "
    r"|Check .+? invalid: |Lifecycle validation failed: |Service .+? is invalid: "
    r"|Dispatch Payload validation failed: )"
)
"""The place Nomad writes before a message of a block's Validate (``Constraint 1 validation
failed: ``), which hclgpu says its own way ("service `web`, check `ready`: ")."""


def _same(ours: str, nomad: str) -> bool:
    """Whether hclgpu's message is Nomad's, after the place in the job each puts first."""
    for words in dict.fromkeys((nomad, _CONTEXT.sub("", nomad))):
        if ours == words or ours.endswith(": " + words):
            return True
    return False


def _line(diagnostic: Diagnostic) -> int:
    return diagnostic.source.position(diagnostic.span.start).line if diagnostic.span else 0


def _shown(diagnostics: list[Diagnostic]) -> str:
    return "; ".join(f"{d.code}@{_line(d)} {d.message}" for d in diagnostics[:3])


def _first_difference(nomad: NomadVerdict, ours: OurVerdict) -> str:
    from tests.test_nomad_output import _difference

    return _difference(nomad.api_json, ours.api_json) or "the same values, written differently"
