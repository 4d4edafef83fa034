"""The documented limits: inputs that end in one located diagnostic, never in a recursion
error, a hang or a memory blow-up (nesting, size, long lines, bytes that are not UTF-8 text,
regular expressions built to be slow)."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.diagnostics import Diagnostic
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.inputs import MAX_BYTES
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from hclgpu.units.patterns import re2_search


def _codes(text: str) -> list[str]:
    return [d.code for d in compile_source(SourceFile("limits.nomad.hcl", text)).diagnostics]


@pytest.mark.parametrize(
    "text",
    [
        'job "x" {\n  meta = ' + "[" * 100_000 + "]" * 100_000 + "\n}\n",
        'job "x" {\n  meta = ' + "(" * 100_000 + "1" + ")" * 100_000 + "\n}\n",
        'job "x" {\n' + "a {\n" * 100_000 + "}\n" * 100_000 + "}\n",
        'job "x" {\n  meta = ' + "{a = " * 100_000 + "1" + "}" * 100_000 + "\n}\n",
    ],
    ids=["brackets", "parentheses", "blocks", "objects"],
)
def test_100000_levels_of_nesting_are_one_located_error(text: str) -> None:
    diagnostics = compile_source(SourceFile("deep.nomad.hcl", text)).diagnostics
    assert [d.code for d in diagnostics] == ["HG012"]
    assert diagnostics[0].span is not None and "256 levels" in diagnostics[0].message


def test_a_50_mb_file_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.nomad.hcl"
    with big.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: the size is what is checked
    assert main(["check", str(big)]) == 1
    assert "error[HG013]: the file is 50 MiB; hclgpu reads at most 16 MiB" in capsys.readouterr().err
    assert MAX_BYTES == 16 * 1024 * 1024  # the README's documented limit


def test_a_1_mb_single_line_is_read_in_bounded_memory() -> None:
    """One string of a million characters: linear lexing, no per-character backtracking frames."""
    text = 'job "x" {\n  meta { k = "' + "x" * 1_000_000 + '" }\n}\n'
    tracemalloc.start()
    try:
        assert _codes(text) == []
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 60 * 1024 * 1024, f"{peak / 2**20:.0f} MiB for a 1 MB line"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b'job "x" {\n  type = "ba\xff\xfetch"\n}\n', "HG010"),
        (b'job "x" {\n  type = "ba\x00tch"\n}\n', "HG011"),
        (b"\xff\xfej\x00o\x00b\x00", "HG011"),  # UTF-16 with a byte-order mark
    ],
    ids=["invalid-utf8", "nul-byte", "utf16"],
)
def test_bytes_that_are_not_utf8_text_are_one_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, code: str
) -> None:
    path = tmp_path / "bytes.nomad.hcl"
    path.write_bytes(data)
    assert main(["check", str(path), "--format", "json"]) == 1
    out = capsys.readouterr().out
    assert f'"code": "{code}"' in out and "Traceback" not in out


def test_an_unterminated_string_is_reported_in_linear_time() -> None:
    """A nested quantifier in the lexer would backtrack exponentially here."""
    assert _codes('job "x" {\n  type = "' + "a" * 50_000 + "\n}\n")[:1] == ["HG002"]


PATHOLOGICAL = [
    ("(a+)+$", '"a" * 100_000 + "b"'),
    ("(a|aa)*c", '"a" * 100_000'),
    ("^(\\w+\\s?)*$", '"word " * 20_000 + "!"'),
    ("(x+x+)+y", '"x" * 50_000'),
]
"""(pattern, Python expression of the text): the texts are built in the child process."""


def test_slow_regexps_match_in_linear_time() -> None:
    """RE2 semantics: in a child process with a deadline, so a backtracking engine would fail
    the test instead of hanging it."""
    program = (
        "from hclgpu.units.patterns import re2_search\n"
        f"cases = {PATHOLOGICAL!r}\n"
        "print([re2_search(p, eval(t)) for p, t in cases])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[False, False, False, False]"


@pytest.mark.parametrize(
    ("pattern", "text", "found"),
    [("(a+)+$", "aaaa", True), ("(a|aa)*c", "aac", True), ("^(\\w+\\s?)*$", "two words", True),
     ("Tesla.*", "NVIDIA Tesla V100", True), ("^Tesla", "NVIDIA Tesla V100", False)],
)  # fmt: skip
def test_the_linear_matcher_still_finds_matches(pattern: str, text: str, found: bool) -> None:
    assert re2_search(pattern, text) is found


def test_a_slow_regexp_in_a_constraint_checks_quickly() -> None:
    """The same patterns in a job's device constraint: checked (and planned) without a hang."""
    text = """job "x" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "x"
      }
      resources {
        device "nvidia/gpu" {
          constraint {
            attribute = "${device.model}"
            operator  = "regexp"
            value     = "(a+)+$"
          }
        }
      }
    }
  }
}
"""
    assert _codes(text) == []


# --- numbers ------------------------------------------------------------------------------

BIG = "9" * 5000
"""More digits than hclgpu holds (and than Python converts to and from text by default)."""


def _located(diagnostics: list[Diagnostic]) -> list[tuple[str, int, int]]:
    found = []
    for d in diagnostics:
        assert d.span is not None, f"{d.code} {d.message} has no location"
        position = d.source.position(d.span.start)
        found.append((d.code, position.line, position.column))
    return found


def _meta(value: str) -> str:
    return 'job "j" {\n  meta = { a = ' + value + " }\n}\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (_meta(BIG), ("HG014", 2, 16)),
        (_meta("1e999999"), ("HG014", 2, 16)),
        (_meta("1" + "0" * 4400 + ".5"), ("HG014", 2, 16)),
        (_meta("local.a." + BIG), ("HG014", 2, 24)),  # a legacy index `a.0`
        ('{"job": {"j": {"meta": {"a": ' + BIG + "}}}}", ("HG014", 1, 30)),
        ('{"job": {"j": {"meta": {"a": 1e999999}}}}', ("HG014", 1, 30)),
        (_meta("9" * 4000 + " * " + "9" * 4000), ("HG117", 2, 16)),
        (_meta('parseint("' + "f" * 5000 + '", 16)'), ("HG116", 2, 16)),
        (_meta('jsondecode("' + BIG + '")'), ("HG116", 2, 27)),
        (_meta('yamldecode("1e999999")'), ("HG116", 2, 27)),
        (_meta('timeadd("2020-01-01T00:00:00Z", "' + BIG + 'h")'), ("HG116", 2, 48)),
        ('job "j" {\n  group "g" {\n    count = "' + BIG + '"\n  }\n}\n', ("HG106", 3, 13)),
    ],
    ids=["integer", "exponent", "fraction", "index", "json", "json-exponent", "product", "parseint",
         "jsondecode", "yamldecode", "duration", "numeric-string"],
)  # fmt: skip
def test_a_number_too_large_to_hold_is_one_located_error(text: str, expected: tuple[str, int, int]) -> None:
    assert _located(compile_source(SourceFile("n.nomad.hcl", text)).diagnostics) == [expected]


def test_a_whole_number_beyond_float64_is_exact_as_cty_prints_it() -> None:
    """cty keeps `1e400` as a big number (Go prints 1 and 400 zeros), never an infinity."""
    text = 'job "j" {\n  meta = { a = jsonencode(1e400), b = 2e400 / 2e399, c = "${1e400 + 0}" }\n}\n'
    result = compile_source(SourceFile("n.nomad.hcl", text))
    assert result.job is not None and result.job.meta is not None
    assert result.job.meta == {"a": "1" + "0" * 400, "b": "10", "c": "1" + "0" * 400}
    assert _located(compile_source(SourceFile("n.nomad.hcl", _meta("1" + "0" * 4299))).diagnostics) == []


VARIABLES = 'variable "n" {\n  type    = number\n  default = 1\n}\nvariable "l" {\n  type = list(number)\n}\n'


@pytest.mark.parametrize(
    ("args", "env", "file", "expected"),
    [
        (["n=" + BIG, "l=[]"], {}, None, ("HG112", 1, 1)),
        (["l=[]"], {"NOMAD_VAR_n": BIG}, None, ("HG112", 1, 1)),
        (["n=1", "l=[" + BIG + "]"], {}, None, ("HG014", 1, 6)),
        (["l=[]"], {}, ("vars.hcl", "n = " + BIG + "\n"), ("HG014", 1, 5)),
        (["l=[]"], {}, ("vars.json", '{"n": ' + BIG + "}"), ("HG014", 1, 7)),
        (["l=[]"], {}, ("vars.json", '{"n": 1e999999}'), ("HG014", 1, 7)),
        (["l=[]"], {}, ("vars.json", '{"n": 1e999}'), ("HG112", 1, 2)),  # past float64
    ],
    ids=[
        "--var",
        "NOMAD_VAR_",
        "--var-expression",
        "var-file",
        "json-var-file",
        "json-exponent",
        "json-float64",
    ],
)
def test_a_number_too_large_from_outside_the_job_is_located_in_its_own_text(
    tmp_path: Path,
    args: list[str],
    env: dict[str, str],
    file: tuple[str, str] | None,
    expected: tuple[str, int, int],
) -> None:
    files = []
    if file is not None:
        (tmp_path / file[0]).write_text(file[1])
        files.append(tmp_path / file[0])
    options = EvalOptions(VariableInputs(args=args, env=env, files=files))
    result = compile_source(SourceFile("n.nomad.hcl", VARIABLES + _meta("var.n")), options)
    assert _located(result.diagnostics) == [expected]


@pytest.mark.parametrize("operator", ["<", "version", "semver"])
def test_a_huge_number_in_a_constraint_is_checked_like_nomad_reads_it(operator: str) -> None:
    """Nomad's strconv refuses 5000 digits: a string to `<`, a constraint that does not parse
    to `version` and `semver`."""
    text = (
        'job "j" {\n  group "g" {\n    task "t" {\n      driver = "docker"\n'
        '      config {\n        image = "x"\n      }\n      resources {\n'
        '        device "nvidia/gpu" {\n          constraint {\n'
        '            attribute = "${device.attr.memory}"\n'
        f'            operator  = "{operator}"\n            value     = ">= 1.{BIG}"\n'
        "          }\n        }\n      }\n    }\n  }\n}\n"
    )
    codes = _codes(text)
    assert not [c for c in codes if c.startswith("HG9")]
    assert codes == ([] if operator == "<" else ["HG223"])


@pytest.mark.parametrize(
    "command", [["fmt", "--check"], ["dump", "ast"], ["check"], ["render", "--target", "nomad"]]
)
def test_every_command_reports_a_huge_number_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    path = tmp_path / "n.nomad.hcl"
    path.write_text(_meta(BIG))
    assert main([*command, str(path)]) == 1
    captured = capsys.readouterr()
    assert "n.nomad.hcl:2:16: error[HG014]" in captured.err
    assert "Traceback" not in captured.out + captured.err


# --- escapes that name no character -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (_meta('"\\U00110000"'), ("HG007", 2, 17)),
        (_meta('"\\uD800"'), ("HG007", 2, 17)),
        (_meta('"\\uD83D\\uDE00"'), ("HG007", 2, 17)),  # HCL decodes each escape alone
        (_meta('"${1}\\uDFFF"'), ("HG007", 2, 21)),
        (_meta('"${"a" == \\"\\uD800\\"}"'), ("HG007", 2, 28)),  # a string with escaped quotes
        (_meta('"${"a" == \\"\\q\\"}"'), ("HG007", 2, 28)),
        ('job "\\uD800" {\n}\n', ("HG007", 1, 6)),
    ],
    ids=["above-10ffff", "surrogate", "surrogate-pair", "template", "escaped-quotes", "bad-escape", "label"],
)
def test_an_escape_utf8_cannot_encode_is_one_located_error(text: str, expected: tuple[str, int, int]) -> None:
    """hclsyntax: "Invalid escape sequence: Cannot encode character U+D800 in UTF-8"."""
    assert _located(compile_source(SourceFile("u.nomad.hcl", text)).diagnostics) == [expected]


@pytest.mark.parametrize(
    ("args", "env", "file", "expected"),
    [
        (['l=["\\U00110000"]'], {}, None, ("HG007", 1, 7)),
        ([], {"NOMAD_VAR_l": '["\\uD800"]'}, None, ("HG007", 1, 7)),
        ([], {}, ("vars.hcl", 'l = ["\\uD800"]\n'), ("HG007", 1, 7)),
    ],
    ids=["--var", "NOMAD_VAR_", "var-file"],
)
def test_an_escape_utf8_cannot_encode_from_outside_the_job_is_located(
    tmp_path: Path,
    args: list[str],
    env: dict[str, str],
    file: tuple[str, str] | None,
    expected: tuple[str, int, int],
) -> None:
    files = []
    if file is not None:
        (tmp_path / file[0]).write_text(file[1])
        files.append(tmp_path / file[0])
    declaration = 'variable "l" {\n  type    = list(string)\n  default = []\n}\n'
    options = EvalOptions(VariableInputs(args=args, env=env, files=files))
    result = compile_source(SourceFile("u.nomad.hcl", declaration + _meta("jsonencode(var.l)")), options)
    assert _located(result.diagnostics) == [expected]


@pytest.mark.parametrize(
    ("job", "var_file", "expected"),
    [
        ('{"job": {"\\ud800": {"meta": {"a": "\\udfff"}}}}', None, {"a": "\ufffd"}),
        (_meta('jsondecode("\\"\\\\ud800\\"")'), None, {"a": "\ufffd"}),
        (_meta("var.s"), '{"s": "\\ud800"}', {"a": "\ufffd"}),
    ],
    ids=["json-syntax", "jsondecode", "json-var-file"],
)
def test_a_lone_surrogate_in_json_becomes_u_fffd_as_in_go(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    job: str,
    var_file: str | None,
    expected: dict[str, str],
) -> None:
    """Go's JSON decoder replaces a lone surrogate; every output can then be written."""
    path = tmp_path / "u.nomad.hcl"
    path.write_text('variable "s" {\n  default = ""\n}\n' + job if var_file else job)
    args = []
    if var_file is not None:
        (tmp_path / "vars.json").write_text(var_file)
        args = ["--var-file", str(tmp_path / "vars.json")]
    options = EvalOptions(VariableInputs(files=[tmp_path / "vars.json"] if var_file else []))
    result = compile_source(SourceFile(str(path), path.read_text()), options)
    assert result.job is not None and result.job.meta == expected
    for command in (["render", "--target", "nomad"], ["dump", "ir"], ["check", "--format", "sarif"]):
        assert main([*command, *args, str(path)]) == 0
        assert "Traceback" not in capsys.readouterr().err


def test_yamldecode_refuses_a_surrogate_escape_as_libyaml_does() -> None:
    codes = _codes(_meta('yamldecode("\\"\\\\ud800\\"")'))
    assert codes == ["HG116"]


@pytest.mark.parametrize("where", ["args", "env"])
def test_command_line_bytes_that_are_not_utf8_become_u_fffd(where: str) -> None:
    """Python keeps such bytes of argv and the environment as surrogates; Go prints U+FFFD."""
    declaration = 'variable "s" {\n  type = string\n}\n'
    inputs = (
        VariableInputs(args=["s=a\udcffb"])
        if where == "args"
        else VariableInputs(env={"NOMAD_VAR_s": "a\udcffb"})
    )
    result = compile_source(SourceFile("u.nomad.hcl", declaration + _meta("var.s")), EvalOptions(inputs))
    assert result.job is not None and result.job.meta == {"a": "a\ufffdb"}


# --- function results ---------------------------------------------------------------------

_BOMB = "".join(
    f"{name}: &{name} [{', '.join(['*' + previous] * 9 if previous else ['1'] * 9)}]\\n"
    for previous, name in zip(["", *"abcdefgh"], "abcdefghi", strict=True)
)
UNBOUNDED = {
    "format-width": 'format("%999999999d", 1)',
    "format-huge-width": 'format("%' + "9" * 5000 + 'd", 1)',
    "format-precision": 'format("%.1000000000e", 1)',
    "format-string-width": 'format("%999999999s", "x")',
    "format-many-verbs": 'format("' + "%9999999d" * 100 + '", ' + ", ".join(["1"] * 100) + ")",
    "formatlist": 'formatlist("%9000000s", range(10))',
    "indent": 'indent(1e9, "a\\nb")',
    "setproduct": "setproduct(range(50), range(50), range(50), range(50))",
    "join": 'join(format("%9000000s", ""), ["a", "b", "c"])',
    "replace": 'replace(format("%9000000s", ""), " ", "ab")',
    "regex_replace": 'regex_replace(format("%1000s", ""), " ", format("%20000s", ""))',
    "flatten-shared": "flatten(local.shared)",
    "jsonencode-shared": "jsonencode(local.shared)",
    "yamlencode-shared": "yamlencode(local.shared)",
    "format-v-shared": 'format("%v", local.shared)',
    "yamldecode-aliases": 'yamldecode("' + _BOMB + '")',
    "bcrypt-cost": 'bcrypt("x", 31)',
}
"""Calls whose result (or work) is the product of their arguments or a number given."""


def test_every_unbounded_function_fails_quickly_naming_itself() -> None:
    """In a child process with a deadline, so an unbounded function fails the test instead
    of hanging it. Each call is one HG116 at the call, naming the function, within seconds."""
    shared = "  e = [for i in range(100): []]\n  f = [for i in range(1000): local.e]\n"
    shared += "  shared = [for i in range(1000): local.f]\n"  # 10^8 values written out, 10^6 built
    program = (
        "import json, time\n"
        "from hclgpu.pipeline import compile_source\n"
        "from hclgpu.source import SourceFile\n"
        f"cases = {UNBOUNDED!r}\n"
        "found = {}\n"
        "for name, call in cases.items():\n"
        "    text = 'locals {\\n' + "
        + repr(shared)
        + " + '}\\njob \"j\" {\\n  meta = { a = ' + call + ' }\\n}\\n'\n"
        "    started = time.monotonic()\n"
        "    result = compile_source(SourceFile('f.nomad.hcl', text))\n"
        "    found[name] = [[d.code, d.message, d.span is not None] for d in result.diagnostics]\n"
        "    found[name].append(time.monotonic() - started)\n"
        "print(json.dumps(found))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=True
    )
    found = json.loads(done.stdout)
    for name, call in UNBOUNDED.items():
        *diagnostics, seconds = found[name]
        function = call.split("(", 1)[0]
        assert [code for code, _, _ in diagnostics] == ["HG116"], (name, diagnostics)
        _, message, located = diagnostics[0]
        assert located and f'function "{function}"' in message, (name, message)
        assert seconds < 5, (name, seconds)


def test_a_result_at_the_budget_is_still_computed() -> None:
    from hclgpu.eval.functions_base import MAX_RESULT_TEXT

    text = 'job "j" {\n  meta = { a = format("%' + str(MAX_RESULT_TEXT) + 's", "x") }\n}\n'
    result = compile_source(SourceFile("f.nomad.hcl", text))
    assert result.job is not None and result.job.meta is not None
    assert len(result.job.meta["a"]) == MAX_RESULT_TEXT
    text = 'job "j" {\n  meta = { a = format("%' + str(MAX_RESULT_TEXT + 1) + 's", "x") }\n}\n'
    assert _codes(text) == ["HG116"]


@pytest.mark.parametrize("call", ["jsondecode", "yamldecode"])
@pytest.mark.parametrize("depth", [200, 5000])
def test_decoding_deeply_nested_text_is_a_value_or_one_located_error(call: str, depth: int) -> None:
    text = 'job "j" {\n  meta = { a = jsonencode(' + call + '("' + "[" * depth + "]" * depth + '")) }\n}\n'
    found = [
        (code, line)
        for code, line, _ in _located(compile_source(SourceFile("f.nomad.hcl", text)).diagnostics)
    ]
    assert found == ([] if depth == 200 else [("HG116", 2)])


def test_yamldecode_says_a_number_is_too_large_rather_than_unparsable() -> None:
    """go-cty-yaml reads `1e999999` as a number; the failure is hclgpu's bound, and says so."""
    (diagnostic,) = compile_source(SourceFile("n.nomad.hcl", _meta('yamldecode("a: 1e999999")'))).diagnostics
    assert "`1e999999` is too large" in diagnostic.message
