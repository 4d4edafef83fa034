"""One case file per diagnostic code: `tests/cases/HG001_syntax_error.hcl`, and beside it
its reviewed snapshot, `HG001_syntax_error.snap`.

The first line of a case says what it must produce: `# expect: HG001@4:5` (more
than one separated by commas). A second line `# settings: {enterprise = false}` (a TOML
inline table of configuration keys) states the cluster the case is checked for, where a
finding depends on it. Every registered code has a case, except the few that concern
reading files rather than their contents, and the policy codes (a case needs a policy
beside it); those have their own tests.

The snapshot is the whole of what a user is shown, as `hclgpu check` prints it without
colour (message, check, help, the source with its carets, related places), each finding's
exact span, and the file as its fix would leave it: a changed word fails a test. After a
deliberate change, `pytest tests/test_cases.py --update-golden` rewrites the snapshots, and
the diff is reviewed before it is committed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from hclgpu.codes import CODES
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.eval.program import EvalOptions
from hclgpu.io.inputs import Input, decode
from hclgpu.pipeline import check_source, compile_source
from hclgpu.settings.profile import Profile
from tests.conftest import Golden

CASES = Path(__file__).parent / "cases"
WITHOUT_CASE_FILE = {
    "HG013": "test_file_too_large_is_reported",
    "HG020": "test_cli.py::test_empty_directory_and_missing_file_exit_two",
    "HG021": "test_cli.py::test_empty_directory_and_missing_file_exit_two",
    "HG022": "test_fmt.py::test_a_file_that_cannot_be_written_does_not_stop_the_others",
    "HG023": "test_settings.py::test_a_folder_with_jobs_variables_and_agent_configuration_passes",
    "HG901": "test_internal_errors_become_hg901",
    # policy codes need a policy beside the job: each has its tests in test_policies.py
    "HG401": "test_policies.py::test_deny_without_a_path_is_an_error_at_the_job",
    "HG402": "test_policies.py::test_warn_is_a_warning_and_does_not_fail_the_run",
    "HG410": "test_policies.py::test_a_syntax_error_is_located_in_the_policy_file",
    "HG411": "test_policies.py::test_a_runtime_error_names_the_rule",
    "HG412": "test_policies.py::test_a_rule_that_never_ends_is_stopped_and_named",
    "HG413": "test_policies.py::test_unusable_policy_directories_exit_two",
    "HG414": "test_policy_sandbox.py::test_a_rule_that_takes_too_much_memory_is_stopped_and_named",
    "HG415": "test_policy_sandbox.py::test_http_send_is_refused_where_it_is_called",
}
_EXPECT = re.compile(r"# expect: (.*)")
_SETTINGS = re.compile(r"# settings: (\{.*\})")


def _case_files() -> list[Path]:
    return sorted(CASES.glob("HG*.hcl"))


def _profile(path: Path) -> Profile:
    """The cluster a case states on its second line (targets: Kubernetes for the target
    cases, which are rendered for it), else the default profile."""
    import tomllib

    from hclgpu.settings import Settings
    from hclgpu.settings.files import read_values

    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    match = _SETTINGS.match(lines[1]) if len(lines) > 1 else None
    given = tomllib.loads(f"s = {match.group(1)}")["s"] if match else {}
    values, problems = read_values(given, str(path.parent), {o.name: o for o in Settings.options()}, "key")
    assert not problems, problems
    settings = Settings(values)
    return settings.profile_for("kubernetes") if path.name.startswith("HG3") else settings.profile


def _diagnostics(path: Path) -> list[Diagnostic]:
    """What checking the case finds, in output order."""
    sink = Sink()
    source = decode(Input(path.name, path.read_bytes()), sink)
    if source is not None:
        # Syntax cases are only parsed; the rest are compiled to the IR like `check` does;
        # target cases (HG3xx) are also rendered for Kubernetes with device plugins.
        if path.name.startswith("HG0"):
            result = check_source(source)
        else:
            result = compile_source(source, EvalOptions(profile=_profile(path)))
        sink.extend(result.diagnostics)
        if path.name.startswith("HG3") and result.job is not None:
            from hclgpu.backends import registry
            from hclgpu.backends.target import Lowering

            registry.render(result.job, "kubernetes", Lowering("kubernetes", source, sink))
    return sink.sorted()


def _found(path: Path) -> set[str]:
    found = set()
    for diagnostic in _diagnostics(path):
        assert diagnostic.span is not None
        position = diagnostic.source.position(diagnostic.span.start)
        found.add(f"{diagnostic.code}@{position.line}:{position.column}")
    return found


def test_every_code_has_a_case_file() -> None:
    covered = {path.name[:5] for path in _case_files()}
    missing = sorted(set(CODES) - covered - set(WITHOUT_CASE_FILE))
    assert missing == []
    assert all(path.name[:5] in CODES for path in _case_files())


def test_case_file_names_match_code_names() -> None:
    for path in _case_files():
        code = CODES[path.name[:5]]
        assert path.stem == f"{code.id}_{code.name.replace('-', '_')}"


@pytest.mark.parametrize("path", _case_files(), ids=lambda p: p.stem)
def test_case_emits_exactly_what_it_expects(path: Path) -> None:
    first_line = path.read_bytes().split(b"\n", 1)[0].decode()
    match = _EXPECT.match(first_line)
    assert match, f"{path.name} must start with `# expect: CODE@LINE:COL`"
    expected = {item.strip() for item in match.group(1).split(",")}
    assert _found(path) == expected


def _snapshot(diagnostics: list[Diagnostic]) -> str:
    """The findings as `hclgpu check` shows them without colour, with each span and fix."""
    from hclgpu.report.location import region
    from hclgpu.report.text import format_diagnostic

    parts = []
    for diagnostic in diagnostics:
        lines = [line.plain.rstrip() for line in format_diagnostic(diagnostic)]
        lead = " " * (lines[1].index("|") - 1) if len(lines) > 1 and lines[1].strip() == "|" else " "
        where = region(diagnostic.source, diagnostic.span)
        if where is not None:
            lines.append(f"{lead} = span: {where.line}:{where.column}-{where.end_line}:{where.end_column}")
        lines.extend(_fixed(diagnostic, lead))
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts).replace(os.getcwd(), "<working directory>")  # HG107 names where it reads


def _fixed(diagnostic: Diagnostic, lead: str) -> list[str]:
    """The lines the fix changes, as a unified diff of the file before and after it."""
    import difflib

    if not diagnostic.fix:
        return []
    text = diagnostic.source.text
    for edit in sorted(diagnostic.fix, key=lambda e: e.span.start, reverse=True):
        text = text[: edit.span.start] + edit.text + text[edit.span.end :]
    diff = difflib.unified_diff(
        diagnostic.source.text.splitlines(), text.splitlines(), "before", "after", n=0, lineterm=""
    )
    return [f"{lead} = fix:", *(f"{lead}   {line}" for line in list(diff)[2:])]


@pytest.mark.parametrize("path", _case_files(), ids=lambda p: p.stem)
def test_case_output_is_its_reviewed_snapshot(path: Path, golden: Golden) -> None:
    golden(path.with_suffix(".snap"), _snapshot(_diagnostics(path)))


def test_every_snapshot_has_its_case() -> None:
    """A snapshot outlives its case only by mistake (a renamed or removed case)."""
    cases = {path.stem for path in _case_files()}
    assert sorted(path.stem for path in CASES.glob("*.snap") if path.stem not in cases) == []


def test_file_too_large_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import hclgpu.io.inputs

    monkeypatch.setattr(hclgpu.io.inputs, "MAX_BYTES", 10)
    sink = Sink()
    assert decode(Input("big.hcl", b"a = 1234567890\n"), sink) is None
    assert [d.code for d in sink] == ["HG013"]


def test_internal_errors_become_hg901(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import hclgpu.pipeline
    from hclgpu.cli import main

    def explode(source: object) -> None:
        raise ValueError("boom")

    monkeypatch.setattr(hclgpu.pipeline, "compile_source", explode)
    path = tmp_path / "job.hcl"
    path.write_text("a = 1\n")
    assert main(["check", "--format", "json", str(path)]) == 2
