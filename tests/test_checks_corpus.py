"""The semantic rules on real jobs: the conformance fixtures (Nomad's parser fixtures and the
job files written for the suite, tests/data/conformance/nomad), and the samples (clean).

A parser fixture is a file Nomad's parser accepts, not a job its server accepts: many have
no `driver`, or a `periodic` block in a service job. Each error found in one is in its
reviewed golden file (tests/golden/conformance/<path with / as __>.txt), followed by the
reason from Nomad's source that the server refuses it; a fixture without one is clean of
errors. Warnings are allowed (Nomad accepts much it never schedules) and are listed by
`python -m tests.test_checks_corpus`. The reviews are of a Community Edition server with
Nomad's default scheduler configuration, the profile :data:`COMMUNITY` states.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hclgpu.codes import Severity
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import Result, compile_source
from hclgpu.settings.profile import Profile
from hclgpu.source import SourceFile
from tests.conftest import ROOT, vendored

FIXTURES = vendored("conformance", "nomad")
COMMUNITY = Profile(enterprise=False, memory_oversubscription=False)


def _accepted() -> list[str]:
    files = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".hcl", ".nomad") and p.is_file())
    return [str(p.relative_to(FIXTURES)) for p in files if p.with_name(p.name + ".json").exists()]


def compile_file(path: Path) -> Result:
    argfile = path.with_name(path.name + ".args")
    words = [w for w in argfile.read_text().split("\n") if w] if argfile.exists() else []
    assignments = [value for flag, value in zip(words[::2], words[1::2], strict=True) if flag == "-var"]
    options = EvalOptions(VariableInputs(args=assignments, env={}), base_dir=path.parent, profile=COMMUNITY)
    return compile_source(SourceFile(path.name, path.read_text(encoding="utf-8")), options)


GOLDEN = ROOT / "tests" / "golden" / "conformance"


def reviewed(relative: str) -> list[tuple[str, str]]:
    """(finding, why) pairs of a fixture's golden file; none means no error."""
    path = GOLDEN / (relative.replace("/", "__") + ".txt")
    pairs: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        if line.startswith("  why: "):
            pairs[-1] = (pairs[-1][0], line.removeprefix("  why: "))
        else:
            pairs.append((line, ""))
    return pairs


@pytest.mark.parametrize("relative", _accepted())
def test_a_parser_fixture_has_only_the_reviewed_server_errors(relative: str) -> None:
    result = compile_file(FIXTURES / relative)
    found = []
    for d in result.diagnostics:
        if d.severity is Severity.ERROR:
            where = d.source.position(d.span.start) if d.span else None
            found.append(
                f"{f'{where.line}:{where.column}' if where else '-'} {d.severity} {d.code} {d.message}"
            )
    pairs = reviewed(relative)
    assert found == [finding for finding, _ in pairs]
    assert all(why for _, why in pairs), "every finding needs its reason"


def test_most_parser_fixtures_are_valid_jobs() -> None:
    """The goldens cannot grow silently: 60 of the 128 fixtures are not jobs Nomad's server takes
    (17 of them only for want of a group or a task: a parser fixture need not be a whole job)."""
    assert sum(1 for relative in _accepted() if reviewed(relative)) == 60


@pytest.mark.parametrize("sample", sorted((ROOT / "samples").glob("*.hcl")), ids=lambda p: p.name)
def test_sample_is_clean(sample: Path) -> None:
    result = compile_file(sample)
    assert [f"{d.code} {d.message}" for d in result.diagnostics] == []


if __name__ == "__main__":  # list the warnings the rules give on the fixtures
    for relative in _accepted():
        for d in compile_file(FIXTURES / relative).diagnostics:
            line = d.source.position(d.span.start).line if d.span else 0
            sys.stdout.write(f"{relative}:{line}: {d.severity} {d.code} {d.message}\n")
