"""The command line: exit codes, output formats and input handling."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from hclgpu.cli import main
from tests.conftest import GROUP, ROOT, vendored

BAD = 'job "x" {\n  group "g" {\n    count 2\n  }\n}\n'
GOOD = 'job "x" {\n  group "g" {\n    count = 2\n    task "t" {\n      driver = "docker"\n    }\n  }\n}\n'


@pytest.fixture()
def bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "bad.nomad.hcl"
    path.write_text(BAD)
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_clean_file_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ok.nomad.hcl"
    path.write_text(GOOD)
    status, out, err = run(capsys, "check", str(path))
    assert (status, out) == (0, "")
    assert "All checks passed (1 file)" in err


def test_json_report_has_exact_shape_and_location(bad_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "check", "--format", "json", str(bad_file))
    assert status == 1
    report = json.loads(out)
    assert report["version"] == 1
    assert report["summary"] == {"files": 1, "errors": 1, "warnings": 0, "infos": 0}
    (diagnostic,) = report["diagnostics"]
    assert diagnostic == {
        "path": str(bad_file),
        "code": "HG001",
        "name": "syntax-error",
        "check": "syntax-error",
        "severity": "error",
        "message": "expected `=` or a block `{` after `count`, found `2`",
        "help": 'write an attribute as `name = value`, a block as `name "label" { ... }`',
        "line": 3,
        "column": 11,
        "end_line": 3,
        "end_column": 12,
    }


def test_text_report_shows_source_and_carets(bad_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "check", "--color", "never", str(bad_file))
    assert status == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == f"{bad_file}:3:11: error[HG001]: expected `=` or a block `{{` after `count`, found `2`"
    assert lines[2] == "3 |     count 2"
    assert lines[3] == "  |           ^"
    assert "\x1b[" not in err
    assert err.rstrip().endswith("Found 1 error in 1 file.")


def test_sarif_report_validates_against_the_schema(
    bad_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = vendored("schemas", "sarif") / "sarif-schema-2.1.0.json"
    status, out, _ = run(capsys, "check", "--format", "sarif", str(bad_file))
    assert status == 1
    log = json.loads(out)
    jsonschema.validate(log, json.loads(schema_path.read_text()))
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "HG001"
    assert result["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 3, "startColumn": 11, "endLine": 3, "endColumn": 12,
    }  # fmt: skip
    assert log["runs"][0]["tool"]["driver"]["rules"][0]["id"] == "HG001"


def test_github_annotations_escape_properties_and_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "a,b:c.hcl"
    path.write_text("a = 50%\n")
    status, out, _ = run(capsys, "check", "--format", "github", str(path))
    assert status == 1
    line = out.splitlines()[0]
    assert line.startswith("::error file=")
    assert "a%2Cb%3Ac.hcl" in line
    where = "line=1,endLine=1,col=8,endColumn=8"
    assert f"{where},title=hclgpu (HG001 syntax-error)::expected an expression" in line
    assert "50%25" not in line  # the message names no user text here


def test_directories_are_searched_for_job_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "deep" / "er").mkdir(parents=True)
    (tmp_path / "deep" / "er" / "one.nomad").write_text(GOOD)
    (tmp_path / "two.nomad.hcl").write_text(BAD)
    (tmp_path / "notes.txt").write_text("not a job")
    status, out, _ = run(capsys, "check", "--format", "json", str(tmp_path))
    report = json.loads(out)
    assert status == 1 and report["summary"]["files"] == 2
    assert [d["path"].endswith("two.nomad.hcl") for d in report["diagnostics"]] == [True]


def test_empty_directory_and_missing_file_exit_two(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "check", str(tmp_path))
    assert status == 2 and "HG021" in err
    status, _, err = run(capsys, "check", str(tmp_path / "missing.hcl"))
    assert status == 2 and "HG020" in err and "No such file" in err


@pytest.mark.parametrize("command", [["check"], ["check", "--no-cache"], ["fmt", "--check"]])
def test_a_directory_named_twice_is_reported_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    status, _, err = run(capsys, *command, str(tmp_path), str(tmp_path) + "/", str(tmp_path / "."))
    assert status == 2 and err.count("HG021") == 1


def test_invalid_utf8_and_nul_bytes_are_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = tmp_path / "latin.hcl"
    latin.write_bytes(b'a = "caf\xe9"\n')
    nul = tmp_path / "nul.hcl"
    nul.write_bytes(b"a = 1\nb\x00 = 2\n")
    status, out, _ = run(capsys, "check", "--format", "json", str(latin), str(nul))
    assert status == 1
    found = {(d["code"], d["line"], d["column"]) for d in json.loads(out)["diagnostics"]}
    assert found == {("HG010", 1, 9), ("HG011", 2, 2)}


def test_stdin_is_read_with_dash(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD.encode())))
    status, out, _ = run(capsys, "check", "--format", "json", "--stdin-filename", "job.hcl", "-")
    assert status == 1 and json.loads(out)["diagnostics"][0]["path"] == "job.hcl"


def test_strict_and_exit_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "warn.hcl"
    path.write_text('job "x" {\n  type = "batch"\n  periodic {\n    cron = "@daily"\n  }\n' + GROUP + "}\n")
    assert run(capsys, "check", str(path))[0] == 0
    assert run(capsys, "check", "--strict", str(path))[0] == 1
    assert run(capsys, "check", "--strict", "--ignore", "HG258", str(path))[0] == 0  # `cron`
    bad = tmp_path / "bad.hcl"
    bad.write_text(BAD)
    assert run(capsys, "check", "--exit-zero", str(bad))[0] == 0


def test_dump_ast_prints_nodes_with_spans(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "job.hcl"
    path.write_text(GOOD)
    status, out, _ = run(capsys, "dump", "ast", str(path))
    assert status == 0
    tree = json.loads(out)
    job = tree["body"]["items"][0]
    assert (job["node"], job["type"], job["labels"][0]["value"]) == ("Block", "job", "x")
    count = job["body"]["items"][0]["body"]["items"][0]
    assert count["name_span"] == {"line": 3, "column": 5, "end_line": 3, "end_column": 10}
    assert count["value"] == {
        "node": "Literal", "value": 2, "span": {"line": 3, "column": 13, "end_line": 3, "end_column": 14},
    }  # fmt: skip


def test_dump_ast_on_error_writes_nothing_to_stdout(
    bad_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "dump", "ast", str(bad_file))
    assert (status, out) == (1, "") and "HG001" in err


def test_explain_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "explain", "HG003")
    assert status == 0 and out.startswith("HG003 unclosed-heredoc (error)") and "Fix:" in out
    assert run(capsys, "explain", "unterminated-string")[0] == 0
    assert run(capsys, "explain", "HG999")[0] == 2
    status, out, _ = run(capsys, "rules", "--format", "json")
    codes = [row["code"] for row in json.loads(out)]
    assert status == 0 and "HG001" in codes and codes == sorted(codes)


def test_usage_error_exits_two() -> None:
    process = subprocess.run(
        [sys.executable, "-m", "hclgpu", "check", "--format", "yaml", "x"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert process.returncode == 2 and "invalid choice" in process.stderr


def test_check_does_not_import_heavy_modules_on_success(tmp_path: Path) -> None:
    """rich, jinja2, lark (cached tables), pygls and pydantic (the IR is plain classes; only
    reading API JSON or an inventory validates with it) are not needed."""
    from hclgpu.syntax.tables import load_tables

    load_tables()  # the parser's tables are in the run's cache: building them is lark's work
    path = tmp_path / "ok.hcl"
    path.write_text(GOOD)
    code = (
        "import sys; from hclgpu.cli import main; main(['check', sys.argv[1]]);"
        "print(sorted(m for m in ('rich', 'jinja2', 'lark', 'pygls', 'regopy', 'hclgpu.rego.policies',"
        " 'pydantic') if m in sys.modules))"
    )
    process = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    assert process.stdout.strip() == "[]"


def test_one_job_commands_and_the_warm_check_leave_openssl_unloaded(tmp_path: Path) -> None:
    """`import hashlib` loads OpenSSL (2-3 ms of a start): the digests of records, names and
    the warm re-check's key come from the interpreter's own SHA-256 (hclgpu.digests)."""
    path = tmp_path / "ok.nomad.hcl"
    path.write_text(GOOD)
    os.utime(path, (time.time() - 60, time.time() - 60))  # not "racily clean": recorded as clean
    code = (
        "import sys; from hclgpu.cli import main\n"
        "try: main(sys.argv[1:])\n"
        "except SystemExit: pass\n"
        "print('hashlib' in sys.modules, '_hashlib' in sys.modules)"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("HCLGPU_NO_CACHE", None)
    render = ["render", str(path), "--target", "nomad"]
    seen = []
    for args in (render, render, ["check", str(path)], ["check", str(path)]):
        process = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=True
        )
        seen.append(process.stdout.splitlines()[-1])
    # the first render builds the parser's tables (lark); then a render, a cold and a warm check
    assert seen[1:] == ["False False", "True True", "False False"]


def test_the_program_ends_after_writing_its_whole_result(tmp_path: Path) -> None:
    """`hclgpu` (hclgpu.cli.run) ends a one-job command without freeing the job: what it
    wrote is all there, to a file as to a pipe, with the command's status, and the exit
    handlers still run."""
    from hclgpu.backends.nomad.api import render
    from hclgpu.pipeline import compile_source
    from hclgpu.source import SourceFile

    path = tmp_path / "ok.nomad.hcl"
    path.write_text(GOOD)
    job = compile_source(SourceFile(str(path), GOOD)).job
    assert job is not None
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write('exit handlers ran'))\n"
        "from hclgpu.cli import run\n"
        "sys.argv[0] = 'hclgpu'\n"
        "run()"
    )
    render_args = [sys.executable, "-c", code, "render", str(path), "--target", "nomad"]
    with (tmp_path / "out.json").open("w") as out:
        written = subprocess.run(render_args, stdout=out, stderr=subprocess.PIPE, text=True, check=False)
    piped = subprocess.run(render_args, capture_output=True, text=True, check=False)
    assert written.returncode == piped.returncode == 0
    assert (tmp_path / "out.json").read_text() == piped.stdout == render(job)
    assert written.stderr.endswith("exit handlers ran") and piped.stderr.endswith("exit handlers ran")
    path.write_text(BAD)
    failed = subprocess.run(render_args, capture_output=True, text=True, check=False)
    assert failed.returncode == 1 and failed.stdout == "" and "error[" in failed.stderr


def test_long_source_lines_are_shown_as_a_window(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "long.hcl"
    path.write_text('job "j" {\n  meta { a = "' + "x" * 300 + '" ' + "y" * 300 + " }\n}\n")
    status, _, err = run(capsys, "check", "--color", "never", str(path))
    lines = err.splitlines()
    snippet = [line for line in lines if " | " in line]
    assert status == 1 and len(snippet) == 2 and max(len(line) for line in snippet) < 140
    assert len(lines[0]) < 200  # the message quotes at most the start of a long token
    source_line = next(line for line in lines if line.startswith("2 |"))
    carets = lines[lines.index(source_line) + 1]
    assert source_line.startswith("2 | …") and source_line.endswith("…")
    assert source_line[carets.index("^")] == "y"  # the carets stand under the unexpected token


def test_every_code_is_explained_in_the_same_shape(capsys: pytest.CaptureFixture[str]) -> None:
    from hclgpu.codes import CODES

    for code in CODES.values():
        status, out, _ = run(capsys, "explain", code.id)
        assert status == 0 and out.startswith(f"{code.id} {code.name} ({code.severity})")
        for part in ("What:", "Why:", "Example:", "Fix:"):
            assert part in out, f"{code.id} has no {part}"
    status, out, _ = run(capsys, "rules")
    assert status == 0 and all(f"{c.id}  {c.name}" in out for c in CODES.values())


_URI_CHARACTERS = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")


def assert_uri_reference(uri: str, path: str) -> None:
    """``uri`` is an RFC 3986 URI reference naming ``path``: only the characters RFC 3986
    allows, a relative path whose first segment has no colon (it would read as a scheme),
    a ``file:`` URI for an absolute path, and no query or fragment."""
    assert _URI_CHARACTERS.fullmatch(uri), uri
    parts = urllib.parse.urlsplit(uri)
    assert (parts.query, parts.fragment) == ("", ""), uri
    if os.path.isabs(path):
        assert (parts.scheme, parts.netloc) == ("file", ""), uri
    else:
        assert parts.scheme == "" and ":" not in uri.split("/")[0], uri
    assert urllib.parse.unquote(parts.path) == path


@pytest.mark.parametrize("name", ["a,b:c%d e#f?.nomad", "new\nline.nomad", "sub/x:y.nomad", "été.nomad"])
def test_sarif_uris_are_uri_references(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / name).write_text(BAD)
    monkeypatch.chdir(tmp_path)
    for given, expected in ((name, name), (str(tmp_path / name), str(tmp_path / name))):
        status, out, _ = run(capsys, "check", "--format", "sarif", given)
        assert status == 1
        (result,) = json.loads(out)["runs"][0]["results"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert_uri_reference(uri, expected)


def test_sarif_uri_of_a_relative_path_with_a_colon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "c:x.nomad").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    _, out, _ = run(capsys, "check", "--format", "sarif", "c:x.nomad")
    (result,) = json.loads(out)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "c%3Ax.nomad"


def _shown_paths(capsys: pytest.CaptureFixture[str], output: str, *paths: str) -> list[str]:
    """The file names a check of ``paths`` reports, in ``output`` format."""
    status, out, err = run(capsys, "check", "--format", output, "--color", "never", *paths)
    assert status == 1
    if output == "text":
        return [line.split(":")[0] for line in err.splitlines() if "error[" in line]
    if output == "json":
        return [d["path"] for d in json.loads(out)["diagnostics"]]
    if output == "github":
        return [re.search(r"file=([^,]*)", line)[1] for line in out.splitlines()]  # type: ignore[index]
    runs = json.loads(out)["runs"][0]["results"]
    return [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in runs]


@pytest.mark.parametrize("output", ["text", "json", "github", "sarif"])
def test_paths_are_shown_normalized_in_every_format(
    output: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`check .` names `x.nomad`, not `./x.nomad`, as GitHub's `file=` needs (and ruff prints)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.nomad").write_text(BAD)
    (tmp_path / "y.nomad").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    assert _shown_paths(capsys, output, ".") == ["sub/x.nomad", "y.nomad"]
    assert _shown_paths(capsys, output, "./sub/", "./y.nomad") == ["sub/x.nomad", "y.nomad"]
    assert _shown_paths(capsys, output, "sub//./x.nomad") == ["sub/x.nomad"]


def test_the_stdin_filename_is_shown_as_given(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD.encode())))
    status, out, _ = run(capsys, "check", "--format", "json", "--stdin-filename", "./jobs//a.hcl", "-")
    assert status == 1 and json.loads(out)["diagnostics"][0]["path"] == "./jobs//a.hcl"


@pytest.mark.parametrize("stdin", [False, True])
def test_a_file_named_several_ways_is_checked_once(
    stdin: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first spelling is kept, in the order given; with `-` the inputs are read as one stream."""
    import io

    (tmp_path / "bad.nomad").write_text(BAD)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "other.nomad").write_text(BAD)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(GOOD.encode())))
    first = str(tmp_path / "bad.nomad")
    paths = [first, "sub/other.nomad", "bad.nomad", "./bad.nomad", ".", "sub/../bad.nomad"]
    status, out, _ = run(capsys, "check", "--format", "json", *paths, *(["-"] if stdin else []))
    report = json.loads(out)
    assert status == 1 and report["summary"]["files"] == 2 + stdin
    assert [d["path"] for d in report["diagnostics"]] == [first, "sub/other.nomad"]
