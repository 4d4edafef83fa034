"""The documented limits: inputs that end in one located diagnostic, never in a recursion
error, a hang or a memory blow-up (nesting, size, long lines, bytes that are not UTF-8 text,
regular expressions built to be slow)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.diagnostics import Diagnostic
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.io.inputs import MAX_BYTES
from hclgpu.pipeline import compile_source
from hclgpu.re2 import re2_search
from hclgpu.source import SourceFile
from tests.conftest import GROUP, ROOT


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
    text = 'job "x" {\n  meta { k = "' + "x" * 1_000_000 + '" }\n' + GROUP + "}\n"
    tracemalloc.start()
    try:
        assert _codes(text) == ["HG264"]  # over the 1 MB a Nomad server keeps of a job's source
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
        "from hclgpu.re2 import re2_search\n"
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


JSON_GROUP = '{"g": {"task": {"t": {"driver": "docker"}}}}'
"""The smallest group in HCL's JSON syntax."""


def _meta(value: str) -> str:
    return 'job "j" {\n  meta = { a = ' + value + " }\n" + GROUP + "}\n"


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
    text = (
        'job "j" {\n  meta = { a = jsonencode(1e400), b = 2e400 / 2e399, c = "${1e400 + 0}" }\n'
        + GROUP
        + "}\n"
    )
    result = compile_source(SourceFile("n.nomad.hcl", text))
    assert result.job is not None and result.job.meta is not None
    assert result.job.meta == {"a": "1" + "0" * 400, "b": "10", "c": "1" + "0" * 400}
    assert _located(compile_source(SourceFile("n.nomad.hcl", _meta("1" + "0" * 4299))).diagnostics) == []


def test_a_json_var_file_number_past_float64_is_read_as_nomad_reads_it(tmp_path: Path) -> None:
    """Nomad reads `{"n": 1e999}` from a var-file as cty's big number: `nomad job run
    -output -var-file vars.json` prints `meta.a` as 1 and 999 zeros (jobspec2-oracle)."""
    (tmp_path / "vars.json").write_text('{"n": 1e999}')
    inputs = VariableInputs(args=["l=[]"], files=[tmp_path / "vars.json"], env={})
    result = compile_source(SourceFile("n.nomad.hcl", VARIABLES + _meta("var.n")), EvalOptions(inputs))
    assert result.diagnostics == [] and result.job is not None
    assert result.job.meta == {"a": "1" + "0" * 999}


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
    ],
    ids=[
        "--var",
        "NOMAD_VAR_",
        "--var-expression",
        "var-file",
        "json-var-file",
        "json-exponent",
    ],
)
def test_a_number_too_large_from_outside_the_job_is_located_in_its_own_text(
    tmp_path: Path,
    args: list[str],
    env: dict[str, str],
    file: tuple[str, str] | None,
    expected: tuple[str, int, int],
) -> None:
    found = _compiled_with(tmp_path, args, env, file, "n.nomad.hcl", VARIABLES + _meta("var.n"))
    assert _located(found) == [expected]


def _compiled_with(
    tmp_path: Path, args: list[str], env: dict[str, str], file: tuple[str, str] | None, name: str, text: str
) -> list[Diagnostic]:
    """The diagnostics of a job compiled with these --var values, environment and var-file."""
    files = []
    if file is not None:
        (tmp_path / file[0]).write_text(file[1])
        files.append(tmp_path / file[0])
    options = EvalOptions(VariableInputs(args=args, env=env, files=files))
    return compile_source(SourceFile(name, text), options).diagnostics


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
    declaration = 'variable "l" {\n  type    = list(string)\n  default = []\n}\n'
    text = declaration + _meta("jsonencode(var.l)")
    assert _located(_compiled_with(tmp_path, args, env, file, "u.nomad.hcl", text)) == [expected]


@pytest.mark.parametrize(
    ("job", "var_file", "expected"),
    [
        (
            '{"job": {"\\ud800": {"meta": {"a": "\\udfff"}, "group": ' + JSON_GROUP + "}}}",
            None,
            {"a": "\ufffd"},
        ),
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


PEAK_BYTES = 128 << 20
"""The most memory (as tracemalloc counts it) one bounded call may take: the largest value
a call may build is a 16 MiB string, and every case here would build gigabytes unbounded."""


def test_every_unbounded_function_fails_before_the_work_naming_itself() -> None:
    """In a child process, so an unbounded function fails the test (out of memory, or the
    child's deadline) instead of hanging it. Each call is one HG116 at the call, naming the
    function, having allocated at most :data:`PEAK_BYTES`; an argument of shared parts
    already past the budget is HG117 at the argument."""
    shared = "  e = [for i in range(100): []]\n  f = [for i in range(1000): local.e]\n"
    shared += "  shared = [for i in range(1000): local.f]\n"  # 10^8 values written out, 10^6 built
    program = (
        "import json, tracemalloc\n"
        "from hclgpu.pipeline import compile_source\n"
        "from hclgpu.source import SourceFile\n"
        f"cases = {UNBOUNDED!r}\n"
        "found = {}\n"
        "for name, call in cases.items():\n"
        "    text = 'locals {\\n' + "
        + repr(shared)
        + " + '}\\njob \"j\" {\\n  meta = { a = ' + call + ' }\\n}\\n'\n"
        "    tracemalloc.start()\n"
        "    result = compile_source(SourceFile('f.nomad.hcl', text))\n"
        "    peak = tracemalloc.get_traced_memory()[1]\n"
        "    tracemalloc.stop()\n"
        "    found[name] = [[d.code, d.message, d.span is not None] for d in result.diagnostics]\n"
        "    found[name].append(peak)\n"
        "print(json.dumps(found))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=600, check=True
    )
    found = json.loads(done.stdout)
    for name, call in UNBOUNDED.items():
        *diagnostics, peak = found[name]
        function = call.split("(", 1)[0]
        expected, words = ("HG116", f'function "{function}"')
        if name.endswith("-shared"):  # the argument is past the budget before the call
            expected, words = ("HG117", "hclgpu's limit for a value")
        assert [code for code, _, _ in diagnostics] == [expected], (name, diagnostics)
        _, message, located = diagnostics[0]
        assert located and words in message, (name, message)
        assert peak < PEAK_BYTES, (name, peak)


def test_a_result_at_the_budget_is_still_computed() -> None:
    from hclgpu.eval.functions.base import MAX_RESULT_TEXT

    text = _meta('trimspace(format("%' + str(MAX_RESULT_TEXT) + 's", "x"))')
    result = compile_source(SourceFile("f.nomad.hcl", text))
    assert result.job is not None and result.job.meta is not None
    assert result.job.meta["a"] == "x"  # the 16 MiB string was built and passed on
    text = 'job "j" {\n  meta = { a = trimspace(format("%' + str(MAX_RESULT_TEXT + 1) + 's", "x")) }\n}\n'
    assert _codes(text) == ["HG116"]


@pytest.mark.parametrize("call", ["jsondecode", "yamldecode"])
@pytest.mark.parametrize("depth", [200, 5000])
def test_decoding_deeply_nested_text_is_a_value_or_one_located_error(call: str, depth: int) -> None:
    text = _meta("jsonencode(" + call + '("' + "[" * depth + "]" * depth + '"))')
    found = [
        (code, line)
        for code, line, _ in _located(compile_source(SourceFile("f.nomad.hcl", text)).diagnostics)
    ]
    assert found == ([] if depth == 200 else [("HG116", 2)])


def test_yamldecode_says_a_number_is_too_large_rather_than_unparsable() -> None:
    """go-cty-yaml reads `1e999999` as a number; the failure is hclgpu's bound, and says so."""
    (diagnostic,) = compile_source(SourceFile("n.nomad.hcl", _meta('yamldecode("a: 1e999999")'))).diagnostics
    assert "`1e999999` is too large" in diagnostic.message


LOOPS = {
    "for": "jsonencode([for a in range(1000): [for b in range(1000): [for c in range(1000): 1]]])",
    "template-for": '"%{for a in range(1000)}%{for b in range(1000)}%{for c in range(1000)}x'
    '%{endfor}%{endfor}%{endfor}"',
}
"""Nested loops of 10^9 elements, which would run for an hour."""

DYNAMIC = """job "j" {
  group "g" {
    dynamic "network" {
      for_each = range(1000)
      content {
        dynamic "port" {
          for_each = range(1000)
          labels = ["p${network.key}x${port.key}"]
          content { static = 1 }
        }
      }
    }
  }
}
"""
"""10^6 generated blocks: decoding them would take a quarter of a minute."""

DOUBLING = (
    'locals {\n  l0 = "xxxxxxxxxxxxxxxx"\n'
    + "".join(f'  l{i} = "${{local.l{i - 1}}}${{local.l{i - 1}}}"\n' for i in range(1, 31))
    + '}\njob "j" {\n  meta = { a = local.l30 }\n}\n'
)
"""A template doubling its text 30 times: 16 GiB unless stopped."""


SHARED = (
    'locals {\n  l0 = ["x", "x"]\n  m0 = ["x", "x"]\n'
    + "".join(f"  l{i} = [local.l{i - 1}, local.l{i - 1}]\n" for i in range(1, 31))
    + "".join(f"  m{i} = [local.m{i - 1}, local.m{i - 1}]\n" for i in range(1, 31))
    + "}\n"
)
"""Two values of 2^31 strings each, built apart, from 31 lists that share their parts."""

USES_OF_SHARED = {
    "attribute": 'meta = { a = local.l30 }\n  group "g" {\n    task "t" {\n      driver = "docker"\n'
    "      config {\n        args = local.l30\n      }\n    }\n  }",
    "equality": 'meta = { a = local.l30 == local.m30 ? "same" : "not" }',
    "inequality": 'meta = { a = local.l30 != local.m30 ? "not" : "same" }',
    "argument": "meta = { a = length(distinct([local.l30, local.m30])) }",
    "convert": "meta = { a = length(convert(local.l30, list(list(list(any))))) }",
}
"""Each place a value is walked whole: written out, compared, or passed to a function."""


@pytest.mark.parametrize("use", list(USES_OF_SHARED))
def test_a_value_of_shared_parts_past_the_budget_is_located_where_it_is_used(use: str) -> None:
    text = SHARED + 'job "j" {\n  ' + USES_OF_SHARED[use] + "\n}\n"
    found, work = _compiled_in_a_child(text)
    lines = {line for _, line, _ in found}
    assert {code for code, _, _ in found} == {"HG117"} and _bounded(work)
    assert lines == ({66, 71} if use == "attribute" else {66})  # the job block is line 65


MAX_EVALUATED = 10_000_000
"""The most expressions one file of these tests may evaluate: ten per element of the loop
budget. Unbounded, the loops here evaluate 10^9 expressions and the walks 10^8 elements."""


def _compiled_in_a_child(text: str) -> tuple[list[tuple[str, int, int]], dict[str, int]]:
    """The located diagnostics of ``text`` compiled in a child process with 2 GiB of address
    space, and the work it did: the expressions evaluated and the elements of values walked
    whole. A child past :data:`MAX_EVALUATED` stops there, so an unbounded loop fails the
    test instead of hanging it."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    program = (
        "import json, os, sys\n"
        "from hclgpu.eval import budget, expr\n"
        "from hclgpu.pipeline import compile_source\n"
        "from hclgpu.source import SourceFile\n"
        "work = {'evaluated': 0, 'walked': 0}\n"
        "evaluate, walk = expr.Evaluator.eval, budget.measure\n"
        "def counted_eval(self, node, scope):\n"
        "    work['evaluated'] += 1\n"
        f"    if work['evaluated'] > {MAX_EVALUATED}:  # unbounded: stop at once, and say so\n"
        "        print(json.dumps([work, []]), flush=True)\n"
        "        os._exit(0)\n"
        "    return evaluate(self, node, scope)\n"
        "def counted_walk(value, remembered):\n"
        "    try:\n"
        "        values, text, walked = walk(value, remembered)\n"
        "    except Exception as error:\n"
        "        work['walked'] += getattr(error, 'walked', 0)\n"
        "        raise\n"
        "    work['walked'] += walked\n"
        "    return values, text, walked\n"
        "expr.Evaluator.eval, budget.measure = counted_eval, counted_walk\n"
        "found = compile_source(SourceFile('f.nomad.hcl', sys.stdin.read())).diagnostics\n"
        "print(json.dumps([work, "
        "[[d.code, d.source.position(d.span.start).line, d.source.position(d.span.start).column]"
        " for d in found if d.span]]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], input=text, capture_output=True, text=True,
        timeout=600, check=True, preexec_fn=limit, cwd=ROOT,
    )  # fmt: skip
    work, found = json.loads(done.stdout)
    return [tuple(item) for item in found], work


def _bounded(work: dict[str, int]) -> bool:
    """Whether the work of a file stayed within hclgpu's budget (see hclgpu.eval.budget)."""
    from hclgpu.eval.budget import MAX_MEASURED
    from hclgpu.eval.functions.base import MAX_RESULT_VALUES

    # the walk that crosses the file's budget stops at the budget of one value
    return work["evaluated"] <= MAX_EVALUATED and work["walked"] <= MAX_MEASURED + MAX_RESULT_VALUES


@pytest.mark.parametrize("loop", list(LOOPS))
def test_nested_loops_stop_at_the_budget_where_they_stand(loop: str) -> None:
    found, work = _compiled_in_a_child(_meta(LOOPS[loop]))
    assert found == [("HG117", 2, LOOPS[loop].index("range(1000)", 50) + 16)]  # the innermost loop
    assert _bounded(work)


def test_nested_dynamic_blocks_stop_at_the_budget() -> None:
    found, work = _compiled_in_a_child(DYNAMIC)
    assert found == [("HG117", 7, 22)]
    assert _bounded(work)


def test_a_template_past_16_mib_is_one_located_error() -> None:
    found, work = _compiled_in_a_child(DOUBLING)
    assert found[0] == ("HG117", 23, 9)  # l20 holds 16 MiB, l21 (line 23) would hold 32
    assert _bounded(work)


BIG_LOCAL = "locals {\n  big = flatten([for i in range(100) : range(1000)])\n}\n"
"""A local of 100,000 numbers, well within the budget of a value."""


def test_a_large_local_used_in_a_loop_is_measured_once() -> None:
    uses = "length(local.big), contains(local.big, i), local.big == local.big"
    text = BIG_LOCAL + _meta(f"jsonencode([for i in range(1000) : [{uses}]])")
    found, work = _compiled_in_a_child(text)
    assert found == [] and _bounded(work)  # walked 3,000 times, it would be 3 * 10^8 elements


def test_the_values_a_file_walks_whole_are_bounded_in_all() -> None:
    """A fresh large value in each iteration cannot be remembered: the walks add up."""
    from hclgpu.eval.budget import MAX_MEASURED

    call = "concat(local.big, [i])"
    meta = _meta(f"length([for i in range(1000) : length({call})])")
    found, work = _compiled_in_a_child(BIG_LOCAL + meta)
    assert found == [("HG117", 5, meta.splitlines()[1].index(call) + 1)] and _bounded(work)
    assert MAX_MEASURED < 1000 * 100_000


def test_loops_at_the_budget_are_still_evaluated() -> None:
    """A thousand elements outside, 999 inside each: 1,000,000 visited, the limit itself."""
    from hclgpu.eval.budget import MAX_ITERATIONS

    loops = "length([for a in range(1000): length([for b in range(999): b])])"
    result = compile_source(SourceFile("f.nomad.hcl", _meta(loops)))
    assert result.diagnostics == [] and result.job is not None and result.job.meta is not None
    assert result.job.meta["a"] == "1000" and MAX_ITERATIONS == 1000 + 999_000
    assert _codes(_meta(loops.replace("999", "1000"))) == ["HG117"]


# --------------------------------------------------------------------------- side files

SAMPLE = str(ROOT / "samples" / "tensorrt.nomad.hcl")
NODES = str(ROOT / "samples" / "nodes" / "v100.yaml")

SIDE_FILES = {
    "var-file": ["check", "--no-cache", SAMPLE, "--var-file", "FILE"],
    "plan-nodes": ["plan", SAMPLE, "--nodes", "FILE"],
    "render-nodes": ["render", SAMPLE, "--target", "oci", "--nodes", "FILE", "--node", "n"],
    "fingerprint": ["fingerprint", "--from", "FILE", "--name", "n"],
    "cdi-spec": ["render", SAMPLE, "--target", "oci", "--oci-devices", "cdi", "--cdi-spec", "FILE"],
    "import": ["import", "FILE", "--from", "compose"],
}
"""Every command that reads a file besides the job file, with FILE where it goes."""


def _hclgpu(argv: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``hclgpu argv`` in a child process with a deadline and 2 GiB of address space, so an
    unbounded read fails the test instead of hanging it or exhausting the machine."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run(
        [sys.executable, "-m", "hclgpu", *argv], input=stdin, capture_output=True, timeout=30,
        preexec_fn=limit, cwd=ROOT, stdin=None if stdin is not None else subprocess.DEVNULL,
    )  # fmt: skip


def _side_file(kind: str, tmp_path: Path) -> str:
    if kind == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)  # nobody writes to it: reading it would wait for ever
        return str(path)
    if kind == "17mib":
        path = tmp_path / "big.yaml"
        with path.open("wb") as handle:
            handle.truncate(17 * 1024 * 1024)
        return str(path)
    return "/dev/zero"


@pytest.mark.parametrize("kind", ["fifo", "17mib", "/dev/zero"])
@pytest.mark.parametrize("command", list(SIDE_FILES))
def test_side_files_that_never_end_or_are_too_large_are_refused_at_once(
    command: str, kind: str, tmp_path: Path
) -> None:
    file = _side_file(kind, tmp_path)
    done = _hclgpu([file if arg == "FILE" else arg for arg in SIDE_FILES[command]])
    err = done.stderr.decode()
    assert "Traceback" not in err and "HG901" not in err, err
    why = "16 MiB" if kind == "17mib" else "not a regular file"
    assert why in err, err
    # an unusable CDI spec is a warning at the device blocks; everything else stops the command
    assert done.returncode in ((0, 1) if command == "cdi-spec" else (1, 2)), err


def test_standard_input_to_import_is_read_up_to_16_mib() -> None:
    done = _hclgpu(["import", "-", "--from", "compose"], stdin=b"#" * (17 * 1024 * 1024))
    err = done.stderr.decode()
    assert done.returncode == 2 and "larger than 16 MiB" in err and "Traceback" not in err, err
    assert done.stdout == b""


def test_the_file_reader_refuses_devices_fifos_directories_and_large_files(tmp_path: Path) -> None:
    import io

    from hclgpu.io.files import MAX_BYTES, Unreadable, read_bytes, read_stream

    with pytest.raises(Unreadable, match="a FIFO") as fifo:
        read_bytes(_side_file("fifo", tmp_path))
    assert fifo.value.code == "HG020"
    with pytest.raises(Unreadable, match="a device"):
        read_bytes("/dev/zero")
    with pytest.raises(IsADirectoryError):
        read_bytes(tmp_path)
    with pytest.raises(Unreadable, match="the file is 17 MiB; hclgpu reads at most 16 MiB") as big:
        read_bytes(_side_file("17mib", tmp_path))
    assert big.value.code == "HG013"
    with pytest.raises(Unreadable, match="larger than 16 MiB"):
        read_stream(io.BytesIO(b"x" * (MAX_BYTES + 1)))
    assert read_stream(io.BytesIO(b"x" * MAX_BYTES)) == b"x" * MAX_BYTES


def test_text_that_is_not_utf8_is_located() -> None:
    from hclgpu.io.files import NotUtf8, decode_utf8

    with pytest.raises(NotUtf8, match="invalid UTF-8: byte 0xff at byte offset 5") as error:
        decode_utf8("é\nab".encode() + b"\xffc")
    assert (error.value.line, error.value.column, error.value.position) == (2, 3, 4)


@pytest.mark.parametrize("stdin", [False, True], ids=["file", "stdin"])
@pytest.mark.parametrize(
    ("source_format", "data", "where"),
    [
        ("compose", b"services:\n  web:\n    image: caf\xe9\n", "3:15"),
        ("kubernetes", b"kind: Pod\nmetadata: {name: caf\xe9}\n", "2:21"),
        ("nomad-json", b'{"ID": "caf\xe9"}', "1:12"),
    ],
    ids=["compose", "kubernetes", "nomad-json"],
)
def test_importing_bytes_that_are_not_utf8_is_a_located_error(
    source_format: str, data: bytes, where: str, stdin: bool, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    import io

    path = tmp_path / "in.yaml"
    path.write_bytes(data)
    if stdin:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    name = "-" if stdin else str(path)
    assert main(["import", name, "--from", source_format]) == 1
    out, err = capsys.readouterr()
    assert out == "" and f"{name}:{where}: error: HG010: invalid UTF-8: byte 0xe9 at byte offset" in err, err


def test_a_var_file_that_is_not_utf8_is_located_in_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    values = tmp_path / "values.hcl"
    values.write_bytes(b'image = "caf\xe9"\n')
    assert main(["check", "--format", "json", SAMPLE, "--var-file", str(values)]) == 1
    (found,) = json.loads(capsys.readouterr().out)["diagnostics"]
    assert (found["path"], found["code"], found["line"], found["column"]) == (str(values), "HG010", 1, 13)


# --------------------------------------------------------------------------- structured side files

BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{previous}'] * 9)}]\n"
    for previous, name in zip("abcdefg", "bcdefgh", strict=True)
)
BOMB = 'a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]\n' + BOMB
"""Eight levels of nine aliases: a few hundred bytes that expand to 43 million strings."""
DIGITS = "9" * 5000
"""More digits than Python converts to an int (4300) by default."""

INVENTORIES = {
    "json-brackets": ("[" * 100_000 + "]" * 100_000, "1:257", "nested more than 256 levels deep"),
    "json-300-levels": ('{"nodes": ' + "[" * 300 + "]" * 300 + "}", "1:266", "nested more than 256 levels"),
    "yaml-flow-300": ("nodes: " + "[" * 300 + "]" * 300, "1:263", "nested more than 256 levels deep"),
    "yaml-block-300": ("".join(" " * i + "-\n" for i in range(300)), "257:257", "nested more than 256"),
    "yaml-block-3000": ("".join(" " * i + "-\n" for i in range(3000)), "1000:", "nesting depth"),
    "json-integer": ('{"version": 1, "nodes": [{"name": "n", "cpu": ' + DIGITS + "}]}", "1:47", "4300"),
    "yaml-integer": ("version: 1\nnodes:\n- name: n\n  cpu: " + DIGITS + "\n", "4:8", "4300 digits"),
    "yaml-bomb": (BOMB + "version: 1\nnodes:\n- name: n\n  attributes: {x: *h}\n", "6:", "YAML aliases"),
}  # fmt: skip


@pytest.mark.parametrize(("text", "where", "words"), INVENTORIES.values(), ids=INVENTORIES)
def test_inventories_beyond_the_limits_are_located_errors(
    text: str, where: str, words: str, tmp_path: Path
) -> None:
    from hclgpu.plan.inventory import InventoryError, load_inventory

    path = tmp_path / "nodes.yaml"
    path.write_text(text)
    with pytest.raises(InventoryError, match=re.escape(words)) as error:
        load_inventory(path)
    message = str(error.value)
    line, column = where.split(":")
    located = rf"{re.escape(str(path))}(:{line}:{column or '[0-9]+'}:|: .* line {line}, column)"
    assert re.match(located, message), message


IMPORTS = {
    "compose-integer": ("compose", "services:\n  web:\n    image: x\n    cpus: " + DIGITS + "\n", "4:11"),
    "compose-deep": ("compose", "services: " + "[" * 300 + "]" * 300 + "\n", "1:266"),
    "kubernetes-integer": ("kubernetes", "kind: Pod\nspec:\n  replicas: " + DIGITS + "\n", "3:13"),
    "kubernetes-deep-json": ("kubernetes", "[" * 100_000 + "]" * 100_000, "1:"),
    "kubernetes-bomb": ("kubernetes", BOMB + "kind: Pod\nspec:\n  containers: [{name: c, args: *h}]\n", "6:"),
    "nomad-json-integer": ("nomad-json", '{"Job": {"ID": "j", "Priority": ' + DIGITS + "}}", "1:33"),
    "nomad-json-deep": ("nomad-json", '{"Job": {"ID": "j", "Meta": ' + "[" * 300 + "]" * 300 + "}}", "1:283"),
}  # fmt: skip


@pytest.mark.parametrize(("source_format", "text", "where"), IMPORTS.values(), ids=IMPORTS)
def test_imports_beyond_the_limits_are_located_errors(
    source_format: str, text: str, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "in.yaml"
    path.write_text(text)
    assert main(["import", str(path), "--from", source_format]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"{path}:{where}") and ": error: " in err, err
    assert "HG901" not in err and ("4300 digits" in err or "nest" in err or "YAML aliases" in err), err


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, '{"cdiVersion": "0.6.0", "devices": [], "x": ' + DIGITS + "}", BOMB],
    ids=["deep", "integer", "bomb"],
)  # fmt: skip
def test_a_cdi_spec_beyond_the_limits_is_not_applied(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "nvidia.yaml"
    spec.write_text(text)
    argv = ["render", SAMPLE, "--target", "oci", "--oci-devices", "cdi", "--cdi-spec", str(spec)]
    assert main([*argv, "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "HG301" in err and "its edits are not applied" in err and " at line " in err, err


@pytest.mark.parametrize("yaml_1_2", [False, True], ids=["yaml-1.1", "yaml-1.2"])
def test_yaml_documents_are_read_within_the_limits(yaml_1_2: bool) -> None:
    from hclgpu.io.documents import DocumentError, load_yaml

    assert load_yaml("a: &a [1, 2]\nb: [*a, *a]\n", yaml_1_2) == [{"a": [1, 2], "b": [[1, 2], [1, 2]]}]
    assert load_yaml("n: " + "9" * 4300, yaml_1_2) == [{"n": int("9" * 4300)}]
    for text, words, column in [
        ("a: &a [*a]", "a YAML alias refers to a value that contains it", 4),
        ("n: 0x" + "f" * 4000, "an integer of more than 4300 digits is out of range", 4),
        ("n: -" + "9" * 4301, "an integer of more than 4300 digits is out of range", 4),
        (BOMB + "x: *h\n", "YAML aliases expand this value", 4),
    ]:
        with pytest.raises(DocumentError, match=re.escape(words)) as error:
            load_yaml(text, yaml_1_2)
        assert error.value.column == column


def test_json_documents_are_read_within_the_limits() -> None:
    from hclgpu.io.documents import DocumentError, load_json

    assert load_json('{"n": -' + "9" * 4300 + "}") == {"n": -int("9" * 4300)}
    assert load_json('["[[[[", "' + "[" * 300 + '"]') == ["[[[[", "[" * 300]  # brackets in strings
    with pytest.raises(DocumentError, match="an integer of more than 4300") as error:
        load_json('{\n  "n": ' + DIGITS + "}")
    assert (error.value.line, error.value.column) == (2, 8)


def _affinity(key: str) -> str:
    expression = {"key": key, "operator": "Gt", "values": [DIGITS]}
    terms = {"nodeSelectorTerms": [{"matchExpressions": [expression]}]}
    return json.dumps({"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": terms}})


GPU_CONTAINER = "{name: c, image: x, resources: {limits: {nvidia.com/gpu: 1}}}"
DIGIT_STRINGS = {
    "compose-restart": ("compose", f"services:\n  web:\n    image: x\n    restart: on-failure:{DIGITS}\n"),
    "compose-neuron": ("compose", f"services:\n  web:\n    image: x\n    devices: [/dev/neuron{DIGITS}]\n"),
    "compose-healthcheck": ("compose", "services:\n  web:\n    image: x\n    healthcheck:\n      test: "
                            f"['CMD-SHELL', 'nc -z localhost {DIGITS} || bash -c \"exec 3<>"
                            f"/dev/tcp/localhost/{DIGITS}\" || exit 1']\n"),
    "kubernetes-cpu": ("kubernetes", "kind: Pod\nspec:\n  containers: [{name: c, image: x, resources: "
                       f"{{limits: {{cpu: '{DIGITS}', memory: '1e{DIGITS}'}}}}}}]\n"),
    "kubernetes-memory-label": ("kubernetes", f"kind: Pod\nspec:\n  containers: [{GPU_CONTAINER}]\n"
                                f"  affinity: {_affinity('nvidia.com/gpu.memory')}\n"),
    "kubernetes-driver-label": ("kubernetes", f"kind: Pod\nspec:\n  containers: [{GPU_CONTAINER}]\n"
                                f"  affinity: {_affinity('nvidia.com/cuda.driver-version.major')}\n"),
    "kubernetes-max-unavailable": ("kubernetes", "kind: Deployment\nspec:\n  strategy: {rollingUpdate: "
                                   f"{{maxUnavailable: '{DIGITS}%'}}}}\n  template: {{spec: {{containers: "
                                   "[{name: c, image: x}]}}\n"),
}  # fmt: skip


@pytest.mark.parametrize(("source_format", "text"), DIGIT_STRINGS.values(), ids=DIGIT_STRINGS)
def test_importing_a_string_of_5000_digits_is_no_internal_error(
    source_format: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Numbers read out of strings (a restart count, a device index, a label value) that
    Python cannot convert are no count, index or size: reported like any other such value."""
    path = tmp_path / "in.yaml"
    path.write_text(text)
    assert main(["import", str(path), "--from", source_format]) == 0
    err = capsys.readouterr().err
    assert "HG901" not in err and "warning: HG30" in err, err
