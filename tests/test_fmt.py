"""`hclgpu fmt`: canonical layout, idempotent, and never a change of meaning."""

from __future__ import annotations

import errno
import io
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hclgpu.cli import main
from hclgpu.pipeline import check_source
from hclgpu.printer import format_tree, same_tree
from hclgpu.source import SourceFile
from tests.conftest import vendored
from tests.test_conformance import SYNTAX_ERRORS, _hcl2_inputs, _nomad_inputs

ROOT = Path(__file__).resolve().parent.parent


def fmt(text: str) -> str:
    result = check_source(SourceFile("t.hcl", text))
    assert result.tree is not None, result.diagnostics
    return format_tree(result.tree, text)


def assert_safe(text: str) -> str:
    """Formatting keeps the tree (spans and comment placement aside) and is idempotent."""
    before = check_source(SourceFile("t.hcl", text))
    assert before.tree is not None
    once = format_tree(before.tree, text)
    after = check_source(SourceFile("t.hcl", once))
    assert after.tree is not None, after.diagnostics
    assert [d for d in after.diagnostics if d.severity == "error"] == []
    assert same_tree(before.tree, after.tree)
    assert format_tree(after.tree, once) == once
    return once


def _corpus() -> list[Path]:
    """Every job file of the suite that HCL reads (not those refused on purpose by its syntax)."""
    paths = sorted((ROOT / "samples").glob("*.hcl"))
    paths += [p for p in _nomad_inputs() if not any(p.as_posix().endswith(name) for name in SYNTAX_ERRORS)]
    paths += [vendored("conformance", "hcl2") / relative for relative in _hcl2_inputs()]
    return paths


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.name)
def test_corpus_is_idempotent_and_keeps_the_tree(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if text.lstrip(" ").startswith("{"):
        pytest.skip("HCL JSON syntax is not formatted")
    assert_safe(text)


@pytest.mark.parametrize("path", sorted((ROOT / "samples").glob("*.hcl")), ids=lambda p: p.name)
def test_samples_are_already_formatted(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert fmt(text) == text


def test_alignment_indentation_and_blank_lines() -> None:
    text = (
        'job   "x" {\n   datacenters = ["dc1"]\n type="batch"\n\n\n\n  priority = 50\n'
        'group "g" {\ncount=1\n}\n  group "h" {}\n}\n'
    )
    assert fmt(text) == (
        'job "x" {\n  datacenters = ["dc1"]\n  type        = "batch"\n\n  priority = 50\n'
        '  group "g" {\n    count = 1\n  }\n\n  group "h" {}\n}\n'
    )


def test_comments_stay_where_they_were() -> None:
    text = (
        "# about the job\n"
        'job "x" { # opening\n'
        "  a = 1 # one\n"
        "  /* block\n     comment */\n"
        "  bbb = 2\n"
        "    // last\n"
        "} # end\n"
        "# tail\n"
    )
    assert fmt(text) == (
        "# about the job\n"
        'job "x" {\n'
        "  # opening\n"
        "  a = 1 # one\n"
        "  /* block\n     comment */\n"
        "  bbb = 2\n"
        "  // last\n"
        "} # end\n"
        "# tail\n"
    )
    assert_safe(text)


def test_labels_are_quoted_and_one_line_blocks_kept() -> None:
    text = (
        'job x {\n  group g {\n    network {\n      port "http" { to = 80 }\n'
        '      port "b" { to = 81 }\n    }\n  }\n}\n'
    )
    assert fmt(text) == text.replace("job x", 'job "x"').replace("group g", 'group "g"')


def test_heredocs_and_strings_are_byte_identical() -> None:
    heredoc = "<<EOF\n      keep   this\n  and this\nEOF"
    template = '"${\n      upper("x")}"'
    obj = "{\n            a = 1\n          }"
    text = f'job "x" {{\n        data = {heredoc}\n        t = {template}\n      obj = {obj}\n}}\n'
    out = fmt(text)
    assert heredoc in out and template in out
    # the object's lines keep their indentation relative to the attribute's line (+6)
    assert "  obj = {\n        a = 1\n      }\n" in out
    assert_safe(text)


# ---- generated files ------------------------------------------------------------------

_names = st.sampled_from(["a", "bb", "count", "image", "x_y"])
_values = st.sampled_from(
    [
        "1",
        '"s"',
        "true",
        "[1, 2]",
        '{\n  k = "v"\n    }',
        "<<EOF\n  raw\nEOF",
        '"${var.x}"',
        "a.b[0]",
        "x ? 1 : 2",
    ]
)
_comments = st.sampled_from(["# c", "// d", "/* e */", "/* f\n   g */"])
_spaces = st.sampled_from(["", " ", "   ", "\t"])


@st.composite
def _body(draw: st.DrawFn, depth: int = 0) -> str:
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 4))):
        indent = draw(_spaces)
        if draw(st.booleans()):
            lines.append(indent + draw(_comments))
        if draw(st.booleans()):
            lines.append("")
        if depth < 2 and draw(st.integers(0, 2)) == 0:
            inner = draw(_body(depth + 1))
            label = draw(st.sampled_from(["", ' "l"', " l", ' "a" "b"']))
            lines.append(f"{indent}blk{label} {{\n{inner}{draw(_spaces)}}}")
        else:
            # a /* */ comment may not end a line with more code after it, so only line comments trail
            trailing = " " + draw(st.sampled_from(["# t", "// u", "/* v */"])) if draw(st.booleans()) else ""
            assignment = f"{draw(_names)}{draw(_spaces)}={draw(_spaces)}{draw(_values)}"
            lines.append(f"{indent}{assignment}{trailing}")
    return "".join(line + "\n" for line in lines)


@settings(max_examples=200, deadline=None)
@given(_body())
def test_generated_files_are_formatted_safely(text: str) -> None:
    result = check_source(SourceFile("t.hcl", text))
    if result.tree is None or any(d.severity == "error" for d in result.diagnostics):
        return  # e.g. an attribute defined twice
    assert_safe(text)


# ---- the command ------------------------------------------------------------------------

UGLY = 'job "x" {\ntype="batch"\n}\n'
PRETTY = 'job "x" {\n  type = "batch"\n}\n'


def test_fmt_rewrites_in_place_keeping_permissions(tmp_path: Path) -> None:
    path = tmp_path / "a.nomad.hcl"
    path.write_text(UGLY)
    path.chmod(0o640)
    assert main(["fmt", str(path)]) == 0
    assert path.read_text() == PRETTY
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.nomad.hcl"]
    assert main(["fmt", "--check", str(path)]) == 0


def test_check_lists_files_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ugly.hcl").write_text(UGLY)
    (tmp_path / "pretty.hcl").write_text(PRETTY)
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "ugly.hcl" in out and "pretty.hcl" not in out
    assert (tmp_path / "ugly.hcl").read_text() == UGLY


def test_diff_prints_a_unified_diff(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ugly.hcl"
    path.write_text(UGLY)
    assert main(["fmt", "--diff", str(path)]) == 0
    out = capsys.readouterr().out
    assert '-type="batch"\n' in out and '+  type = "batch"\n' in out and out.startswith("--- a/")
    assert path.read_text() == UGLY


def test_stdin_to_stdout(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(UGLY.encode())))
    assert main(["fmt", "-"]) == 0
    assert capsys.readouterr().out == PRETTY


def test_a_file_with_a_syntax_error_is_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.hcl"
    data = b'job "x" {\ntype= "batch"\n  count = \n'
    path.write_bytes(data)
    assert main(["fmt", str(path)]) == 1
    assert path.read_bytes() == data
    assert "HG0" in capsys.readouterr().err


def test_windows_line_ends_are_kept(tmp_path: Path) -> None:
    """A CRLF file stays CRLF (heredoc lines too), and formatting it again changes nothing."""
    path = tmp_path / "win.hcl"
    path.write_bytes(
        b'job "w" {\r\ntype="batch"\r\n  meta {\r\n    note = <<EOT\r\nline\r\nEOT\r\n  }\r\n}\r\n'
    )
    assert main(["fmt", str(path)]) == 0
    data = path.read_bytes()
    assert (
        data
        == b'job "w" {\r\n  type = "batch"\r\n  meta {\r\n    note = <<EOT\r\nline\r\nEOT\r\n  }\r\n}\r\n'
    )
    assert main(["fmt", "--check", str(path)]) == 0
    assert path.read_bytes() == data


def test_diff_names_an_absolute_path_as_git_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ugly.hcl"
    path.write_text(UGLY)
    assert main(["fmt", "--diff", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"--- a{path}\n+++ b{path}\n")  # a/tmp/..., not a//tmp/...


def test_a_symlink_is_kept_and_the_file_it_points_to_formatted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The temporary file goes beside the target (so the rename stays on its file system),
    never beside the link. (The link leaves its folder, but not the working directory: see
    tests/test_writers_hostile.py for one that leaves both.)"""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "links").mkdir()
    target = tmp_path / "real" / "a.hcl"
    target.write_text(UGLY)
    link = tmp_path / "links" / "a.hcl"
    link.symlink_to(Path("..") / "real" / "a.hcl")
    assert main(["fmt", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == os.path.join("..", "real", "a.hcl")
    assert target.read_text() == PRETTY
    assert [p.name for p in (tmp_path / "real").iterdir()] == ["a.hcl"]
    assert [p.name for p in (tmp_path / "links").iterdir()] == ["a.hcl"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can give files away")
def test_the_owner_is_kept(tmp_path: Path) -> None:
    import pwd

    path = tmp_path / "a.hcl"
    path.write_text(UGLY)
    nobody = pwd.getpwnam("nobody")
    os.chown(path, nobody.pw_uid, nobody.pw_gid)
    path.chmod(0o640)
    assert main(["fmt", str(path)]) == 0
    status = path.stat()
    assert path.read_text() == PRETTY
    assert (status.st_uid, status.st_gid) == (nobody.pw_uid, nobody.pw_gid)
    assert stat.S_IMODE(status.st_mode) == 0o640


def test_an_owner_that_cannot_be_kept_does_not_stop_formatting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user who is not root cannot give a file away: the new file is then the user's own."""
    path = tmp_path / "a.hcl"
    path.write_text(UGLY)

    def refuse(*args: object) -> None:
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr("hclgpu.printer.fmt.os.chown", refuse)
    assert main(["fmt", str(path)]) == 0
    assert path.read_text() == PRETTY


def test_a_file_that_cannot_be_written_does_not_stop_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every other file is formatted and every syntax error reported; the failure is located
    and the run exits 2 at the end."""
    locked, first, broken, last = (tmp_path / n for n in ("locked.hcl", "a.hcl", "broken.hcl", "z.hcl"))
    for path in (locked, first, last):
        path.write_text(UGLY)
    broken.write_text('job "x" {\n  count = \n')
    real = os.replace

    def replace(source: str, destination: str | Path) -> None:
        if Path(destination).name == "locked.hcl":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        real(source, destination)

    monkeypatch.setattr("hclgpu.printer.fmt.os.replace", replace)
    assert main(["fmt", "--color", "never", str(locked), str(first), str(broken), str(last)]) == 2
    err = capsys.readouterr().err
    assert locked.read_text() == UGLY and first.read_text() == PRETTY and last.read_text() == PRETTY
    assert f"{locked}: error[HG022]: cannot write the formatted file: Permission denied" in err
    assert f"{broken}:1:9: error[HG005]" in err
    assert err.rstrip().endswith("Found 2 errors in 4 files.")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.hcl", "broken.hcl", "locked.hcl", "z.hcl"]


def test_the_summary_counts_every_file_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pretty.hcl").write_text(PRETTY)
    (tmp_path / "broken.hcl").write_text('job "x" {\n  count = \n')
    assert main(["fmt", "--color", "never", str(tmp_path)]) == 1
    assert capsys.readouterr().err.rstrip().endswith("Found 1 error in 2 files.")


def test_a_file_named_twice_is_formatted_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ugly.hcl"
    path.write_text(UGLY)
    assert main(["fmt", "--diff", str(path), str(tmp_path / "." / "ugly.hcl"), str(tmp_path)]) == 0
    assert capsys.readouterr().out.count("+++ b/") == 1


def test_the_file_read_is_the_file_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`link/../x.hcl` is shown as `x.hcl`, but through a linked directory it names another
    file: the one read is the one formatted."""
    (tmp_path / "real" / "inner").mkdir(parents=True)
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "link").symlink_to(tmp_path / "real" / "inner")
    (tmp_path / "real" / "x.hcl").write_text(UGLY)
    (tmp_path / "work" / "x.hcl").write_text("# not this one\n" + UGLY)
    monkeypatch.chdir(tmp_path / "work")
    assert main(["fmt", os.path.join("link", "..", "x.hcl")]) == 0
    assert (tmp_path / "real" / "x.hcl").read_text() == PRETTY
    assert (tmp_path / "work" / "x.hcl").read_text() == "# not this one\n" + UGLY


DEEP = {
    "blocks-150": "a {\n" * 150 + "}\n" * 150,
    "blocks-255": "a {\n" * 255 + "}\n" * 255,
    "brackets-255": "a = " + "[" * 255 + "]" * 255 + "\n",
    "template-ifs-255": 'a = "' + "%{if true}" * 255 + "x" + "%{endif}" * 255 + '"\n',
    "sum-5000": "a = " + "+".join(["1"] * 5000) + "\n",
    "sum-100000": "a = " + "+".join(["1"] * 100_000) + "\n",
    "nots-5000": "a = " + "!" * 5000 + "true\n",
    "negations-5000": "a = " + "-" * 5000 + "1\n",
    "conditionals-5000": "a = " + "true ? " * 5000 + "1" + " : 2" * 5000 + "\n",
}
"""Deep but accepted by the parser; each is indented one level in a `job` block, so the
formatter changes it and compares the trees."""


@pytest.mark.parametrize("text", DEEP.values(), ids=DEEP.keys())
def test_every_input_within_the_nesting_limits_is_formatted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    """`check` accepts these (256 levels; long operator chains), so `fmt` must too: the
    comparison of the formatted tree with the original may not recurse per level."""
    path = tmp_path / "deep.hcl"
    path.write_text('job "j" {\n' + text + "}\n")
    assert main(["check", "--no-cache", str(path)]) in (0, 1)
    capsys.readouterr()
    assert main(["fmt", str(path)]) == 0, capsys.readouterr().err
    assert main(["fmt", "--check", str(path)]) == 0
