"""`hclgpu import --from nomad-json`: API JSON back to a job file that compiles to the same JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hclgpu.backends.nomad.api import render
from hclgpu.cli import main
from hclgpu.importers.hcl_writer import go_duration, quote
from hclgpu.importers.nomad_json import NomadJsonError, import_nomad_json
from hclgpu.ir.schema import parse_go_duration
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import vendored

CONFORMANCE = vendored("conformance", "nomad")
CASES = sorted(p for p in CONFORMANCE.rglob("*.json") if not p.name.endswith(".canonical.json"))


def _compile(hcl: str) -> dict[str, object]:
    result = compile_source(SourceFile("j.hcl", hcl), checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]
    loaded: dict[str, object] = json.loads(render(result.job))
    return loaded


def test_the_whole_conformance_corpus_is_there() -> None:
    assert len(CASES) == 128


@pytest.mark.parametrize("path", CASES, ids=lambda p: str(p.relative_to(CONFORMANCE)))
def test_round_trip(path: Path) -> None:
    text = path.read_text()
    imported = import_nomad_json(text)
    assert _compile(imported.hcl) == json.loads(text)


MINIMAL = {"ID": "web", "Name": "web", "Type": "service", "TaskGroups": None}


def _job(**fields: object) -> str:
    return json.dumps({"Job": {**MINIMAL, **fields}})


def test_a_bare_job_object_is_accepted() -> None:
    imported = import_nomad_json(json.dumps(MINIMAL))
    assert imported.hcl.startswith('job "web" {')
    assert _compile(imported.hcl)["Job"] == _compile(import_nomad_json(_job()).hcl)["Job"]


def test_name_is_written_only_when_it_differs_from_the_id() -> None:
    assert "name =" not in import_nomad_json(_job()).hcl
    assert 'name = "Web site"' in import_nomad_json(_job(Name="Web site")).hcl


def test_server_set_fields_are_reported_by_pointer() -> None:
    imported = import_nomad_json(_job(Status="running", SubmitTime=1700000000, Stop=False))
    pointers = {d.pointer for d in imported.dropped}
    assert pointers == {"/Job/Status", "/Job/SubmitTime", "/Job/Stop"}
    assert "running" not in imported.hcl


def test_strings_are_escaped_and_round_trip() -> None:
    tricky = 'a "quoted" \\ ${not_a_var} %{ not_a_directive } tab\tend'
    imported = import_nomad_json(_job(Meta={"note": tricky, "dotted.key": "x"}))
    assert "meta = {" in imported.hcl  # a key that is not an identifier needs the attribute form
    assert _compile(imported.hcl)["Job"]["Meta"] == {"dotted.key": "x", "note": tricky}  # type: ignore[index]


@pytest.mark.parametrize("nanoseconds", [0, 1, 1_500_000_000, 90 * 10**9, 5_400 * 10**9, -(3 * 10**9)])
def test_durations_are_go_duration_strings(nanoseconds: int) -> None:
    assert parse_go_duration(go_duration(nanoseconds)) == nanoseconds


def test_durations_read_well() -> None:
    assert go_duration(30 * 10**9) == "30s"
    assert go_duration(5_400 * 10**9) == "1h30m"


def test_quote() -> None:
    assert quote('say "hi"\n') == '"say \\"hi\\"\\n"'
    assert quote("${var.x}") == '"$${var.x}"'
    assert quote("%{ if x }") == '"%%{ if x }"'


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("${NOMAD_TASK_DIR}/models", "${NOMAD_TASK_DIR}/models"),  # run-time references stay readable
        ("${attr.unique.network.ip-address}", "${attr.unique.network.ip-address}"),
        ("${meta[0]}", "${meta[0]}"),
        ("${var.x} ${local.y}", "$${var.x} $${local.y}"),  # real roots would be evaluated
        ("${true}", "$${true}"),
        ("${a + b}", "$${a + b}"),  # not a plain reference: evaluated, so escaped
        ("$${x}", "$$${x}"),
    ],
)
def test_runtime_references_are_written_as_nomad_keeps_them(text: str, written: str) -> None:
    assert quote(text) == f'"{written}"'
    job = _compile(f'job "j" {{\n  meta {{\n    k = {quote(text)}\n  }}\n}}\n')["Job"]
    assert job["Meta"] == {"k": text}  # type: ignore[index]


def test_bad_json_is_an_error() -> None:
    with pytest.raises(NomadJsonError):
        import_nomad_json("{nope")
    with pytest.raises(NomadJsonError):
        import_nomad_json('{"Job": {"NoSuchField": 1}}')


def test_cli_prints_hcl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "job.json"
    source.write_text(_job(Status="dead"))
    assert main(["import", str(source), "--from", "nomad-json"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith('job "web" {')
    assert "warning" in err and "/Job/Status" in err


def test_cli_writes_the_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "job.json"
    source.write_text(_job())
    target = tmp_path / "out" / "job.nomad.hcl"
    assert main(["import", str(source), "--from", "nomad-json", "-o", str(target)]) == 0
    assert target.read_text().startswith('job "web" {')
    assert capsys.readouterr().out == ""
    assert [p.name for p in target.parent.iterdir()] == ["job.nomad.hcl"]  # no temporary left behind


def test_cli_rejects_bad_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "job.json"
    source.write_text("{not json")
    assert main(["import", str(source), "--from", "nomad-json"]) == 1
    assert f"{source}:1:2: error: not valid JSON" in capsys.readouterr().err


def test_cli_cannot_read_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path / "missing.json"), "--from", "nomad-json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_labels_escape_every_template_opener() -> None:
    hcl = import_nomad_json(_job(ID="${x}", TaskGroups=[{"Name": "%{y}", "Tasks": None}])).hcl
    assert hcl.startswith('job "$${x}" {') and 'group "%%{y}" {' in hcl
    job = _compile(hcl)["Job"]
    assert job["ID"] == "${x}" and job["TaskGroups"][0]["Name"] == "%{y}"  # type: ignore[index]
