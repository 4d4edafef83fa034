"""Real-world files nobody here wrote (tests/data/wild/): job files, Kubernetes manifests and
Compose files from public repositories, each unmodified, with its provenance.

Every job file is checked without a crash, and what it finds is exactly what a reviewer
wrote down in tests/golden/wild/<file>.txt, each finding followed by the reason it is true
of the job as Nomad treats it (a finding that is not true is a bug in a rule, not a golden
to bless). Every job Nomad would accept renders to every target, and the outputs pass the
validators the samples pass; formatting is idempotent and keeps the job; every manifest and
Compose file imports to a job that checks without errors.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.codes import Severity
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.io.inputs import Input, decode
from hclgpu.pipeline import Result, compile_source
from hclgpu.printer import format_tree, same_tree
from hclgpu.settings.profile import Profile
from tests.conftest import ROOT, Golden
from tests.test_fuzz import render_everything, validate

WILD = ROOT / "tests" / "data" / "wild"
GOLDEN = ROOT / "tests" / "golden" / "wild"
LICENSES = {"MIT", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "MPL-2.0", "Unlicense", "CC0-1.0", "ISC"}
"""Licenses that let the files be kept here."""


def _rows(name: str) -> list[list[str]]:
    """The rows of a tab-separated table of WILD."""
    return [line.split("\t") for line in (WILD / name).read_text(encoding="utf-8").splitlines() if line]


def corpus_name(repo: str, path: str) -> str:
    """The file's name in the corpus: ``<owner>__<repo>__<path>``, every ``/`` as ``__``."""
    return "__".join([*repo.split("/"), *path.split("/")])


def _provenance() -> dict[str, list[str]]:
    """Corpus file name → [repo, path, commit, license]."""
    return {corpus_name(row[0], row[1]): row for row in _rows("PROVENANCE.tsv")}


def _kind(name: str) -> str:
    if name.endswith((".nomad", ".hcl")):
        return "nomad"
    return "compose" if "compose" in name.rsplit("__", 1)[-1] else "kubernetes"


FILES = (
    sorted(p for p in WILD.iterdir() if p.is_file() and not p.name.endswith((".tsv", ".md")))
    if WILD.exists()
    else []
)
JOBS = [p for p in FILES if _kind(p.name) == "nomad"]
IMPORTS = [p for p in FILES if _kind(p.name) != "nomad"]
ARGS = {row[0]: row[1:] for row in _rows("ARGS.tsv")} if (WILD / "ARGS.tsv").exists() else {}


def compiled(path: Path) -> Result:
    """The file compiled as `hclgpu check` compiles it, with its ``-var`` values from ARGS.tsv."""
    sink = Sink()
    source = decode(Input(path.name, path.read_bytes(), str(path)), sink)
    assert source is not None, [d.message for d in sink.sorted()]
    return compile_source(source, _options(path))


def finding(diagnostic: Diagnostic) -> str:
    """One line of a golden file: ``line:column severity code message``."""
    where = diagnostic.source.position(diagnostic.span.start) if diagnostic.span else None
    at = f"{where.line}:{where.column}" if where else "-"
    return f"{at} {diagnostic.severity} {diagnostic.code} {diagnostic.message}"


def reviewed(name: str) -> list[tuple[str, str]]:
    """(finding, why) pairs of a golden file; no golden file means no finding."""
    path = GOLDEN / f"{name}.txt"
    if not path.exists():
        return []
    pairs: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("  why: "):
            assert pairs and not pairs[-1][1], f"{path}: a `why` line must follow one finding"
            pairs[-1] = (pairs[-1][0], line.removeprefix("  why: ").strip())
        elif line:
            pairs.append((line, ""))
    return pairs


def test_every_file_has_its_provenance_and_a_license_that_lets_it_be_kept() -> None:
    provenance = _provenance()
    names = {p.name for p in FILES}
    assert sorted(names - set(provenance)) == [], "files without a PROVENANCE.tsv row"
    assert sorted(set(provenance) - names) == [], "PROVENANCE.tsv rows without their file"
    for name, (repo, _path, commit, license) in provenance.items():
        assert license in LICENSES, (name, license)
        assert len(commit) == 40 and int(commit, 16) >= 0, (name, commit)
        assert repo != "hashicorp/nomad", name
    assert set(ARGS) <= {p.name for p in JOBS}
    assert {p.name for p in GOLDEN.glob("*.txt")} <= {f"{p.name}.txt" for p in FILES}
    fixed = _rows("FIXED.tsv")  # rule<TAB>the file that showed the false alarm<TAB>what it does now
    assert fixed and all(len(row) == 3 and row[1] in names for row in fixed), fixed


def test_every_repository_has_its_licence_row_and_every_kept_licence_file_is_named() -> None:
    table = re.findall(r"^\| (\S+/\S+) \| ([^|]+) \| [^|]* \| ([^|]+) \|$", _notice(), re.MULTILINE)
    rows = {repo: (set(licences.split(", ")), text.strip()) for repo, licences, text in table}
    expected: dict[str, set[str]] = {}
    for repo, _path, _commit, license in _provenance().values():
        expected.setdefault(repo, set()).add(license)
    assert {repo: licences for repo, (licences, _) in rows.items()} == expected
    kept = {f"LICENSES/{p.name}" for p in (WILD / "LICENSES").glob("*.txt")}
    assert kept == {text for _, text in rows.values() if text != "standard text"}


def _notice() -> str:
    return (WILD / "NOTICE.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", JOBS, ids=lambda p: p.name)
def test_a_job_file_finds_what_was_reviewed(path: Path) -> None:
    result = compiled(path)
    found = [finding(d) for d in result.diagnostics if d.severity is not Severity.INFO]
    internal = [d for d in found if " HG9" in d]
    assert internal == [], internal
    pairs = reviewed(path.name)
    assert found == [f for f, _ in pairs], f"update tests/golden/wild/{path.name}.txt after review"
    assert all(why for _, why in pairs), "every finding needs the reviewer's reason"


@pytest.mark.parametrize("path", JOBS, ids=lambda p: p.name)
def test_an_accepted_job_renders_to_every_target_and_formats_stably(path: Path) -> None:
    result = compiled(path)
    if result.job is None:  # Nomad refuses the file: its errors are the reviewed findings
        assert any(" error " in found for found, _ in reviewed(path.name))
        return
    validate(render_everything(result))
    assert result.tree is not None
    formatted = format_tree(result.tree, result.source.text)
    again = compile_source(type(result.source)(result.source.path, formatted), _options(path))
    assert again.tree is not None and same_tree(result.tree, again.tree)
    assert format_tree(again.tree, formatted) == formatted
    assert again.job is not None and again.job.model_dump() == result.job.model_dump()


def _options(path: Path, profile: Profile | None = None) -> EvalOptions:
    variables = shlex.split(ARGS[path.name][0]) if path.name in ARGS else []
    inputs = VariableInputs(args=variables, env={})
    return EvalOptions(inputs, base_dir=path.parent, profile=profile or Profile())


def test_a_profile_that_states_the_cluster_adds_exactly_the_findings_of_its_facts(golden: Golden) -> None:
    """The reviewed findings above are those of the default profile, which states no cluster
    fact. A Community Edition cluster without memory oversubscription (Nomad's defaults, as
    `enterprise = false` and `memory-oversubscription = false` state them) adds exactly the
    findings of those facts: here HG289 for a multiregion job and HG264
    `memory-oversubscription-disabled` for each `memory_max`."""
    community = Profile(enterprise=False, memory_oversubscription=False)
    added = []
    for path in JOBS:
        plain = [finding(d) for d in compiled(path).diagnostics]
        stated = compile_source(compiled(path).source, _options(path, community)).diagnostics
        added += [f"{path.name}: {finding(d)} [{d.check}]" for d in stated if finding(d) not in plain]
    golden(
        ROOT / "tests" / "golden" / "profiles" / "wild-community.txt", "".join(line + "\n" for line in added)
    )


_IMPORT_ERROR = re.compile(r":(\d+):(\d+): error: (.*)$")


@pytest.mark.parametrize("path", IMPORTS, ids=lambda p: p.name)
def test_a_manifest_or_compose_file_imports_to_a_job_that_checks(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file the importer refuses says why in one located error, reviewed like a finding."""
    job = tmp_path / "imported.nomad.hcl"
    status = main(["import", str(path), "--from", _kind(path.name), "-o", str(job)])
    printed = capsys.readouterr().err.splitlines()
    errors = [f"{m[1]}:{m[2]} error {m[3]}" for m in map(_IMPORT_ERROR.search, printed) if m]
    pairs = reviewed(path.name)
    assert errors == [f for f, _ in pairs] and all(why for _, why in pairs)
    if status == 0:
        assert main(["check", "--no-cache", str(job)]) == 0, capsys.readouterr()
    else:
        assert status == 1 and errors and not job.exists()


def test_the_command_line_checks_the_whole_corpus_in_parallel_without_a_crash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The batch path (worker processes, the content cache off) on every job file at once."""
    status = main(["check", "--no-cache", "--jobs", "2", "--format", "json", str(WILD)])
    report = json.loads(capsys.readouterr().out)
    assert status == 1 and report["summary"]["files"] == len(JOBS)
    assert [d for d in report["diagnostics"] if d["code"].startswith("HG9")] == []
