"""Hostile input ends in diagnostics, never an exception or a hang."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hclgpu.pipeline import check_source, compile_source
from hclgpu.source import SourceFile
from tests.conftest import GROUP, ROOT

ALPHABET = st.sampled_from(list('job"group{}[]()=\n #/*${}%~<<EOF-.,:?!&|+0123456789abc\\\t'))


def check(text: str) -> list[str]:
    return [d.code for d in check_source(SourceFile("fuzz.hcl", text)).diagnostics]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(ALPHABET, max_size=200))
def test_random_hcl_like_text_never_raises(text: str) -> None:
    codes = check(text)
    assert all(code.startswith("HG0") for code in codes)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_random_unicode_never_raises(text: str) -> None:
    check(text)


def test_every_truncation_of_a_sample_ends_in_a_diagnostic_or_a_tree() -> None:
    text = (ROOT / "samples" / "tensorrt.nomad.hcl").read_text()
    for end in range(0, len(text), 7):
        result = check_source(SourceFile("t.hcl", text[:end]))
        assert result.tree is not None or any(d.severity == "error" for d in result.diagnostics)


def test_deep_nesting_is_refused_cleanly() -> None:
    assert "HG012" in check("a = " + "[" * 100_000)
    assert "HG012" in check("a = " + "{" * 5_000)
    assert "HG012" in check("a = " + '"${' * 5_000)


def test_long_operator_chains_parse() -> None:
    assert check("a = " + " + ".join(["1"] * 20_000) + "\n") == []
    assert check("a = " + "!" * 20_000 + "true\n") == []


def test_many_errors_are_capped(tmp_path: Path) -> None:
    text = "".join(f"x{i} 1\n" for i in range(500))
    codes = check(text)
    assert 0 < len(codes) <= 20


def test_grammar_has_no_conflicts() -> None:
    from lark import Lark

    from hclgpu.assets import grammar_path

    Lark(grammar_path().read_text(), parser="lalr", lexer="basic", strict=True)


# ---- evaluation and decoding ------------------------------------------------------------

EXPRESSIONS = st.recursive(
    st.sampled_from(["1", '"a"', "true", "null", "var.x", "local.l", "node.x", '"${var.x}"', "[]", "{}"]),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "*", "/", "==", "&&", "<", "%"]), inner).map(" ".join),
        st.tuples(inner, inner).map(lambda p: f"[{p[0]}, {p[1]}]"),
        st.tuples(inner, inner).map(lambda p: f"{{ k = {p[0]}, j = {p[1]} }}"),
        st.tuples(inner, inner, inner).map(lambda p: f"{p[0]} ? {p[1]} : {p[2]}"),
        st.tuples(st.sampled_from(["upper", "length", "jsonencode", "keys", "concat", "format"]), inner).map(
            lambda p: f"{p[0]}({p[1]})"
        ),
        inner.map(lambda e: f"[for v in {e} : v]"),
        inner.map(lambda e: f"({e})[0]"),
        inner.map(lambda e: f"{e}.attr"),
    ),
    max_leaves=8,
)
FIELDS = st.sampled_from(["count", "meta { a", "env { A", "config { x", "kill_timeout", "datacenters"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS, FIELDS)
def test_random_expressions_in_a_job_never_raise(expr: str, field: str) -> None:
    close = " }" if "{" in field else ""
    text = (
        'variable "x" { default = "v" }\nlocals { l = [1, 2] }\n'
        f'job "j" {{\n  group "g" {{\n    task "t" {{\n      {field} = {expr}{close}\n    }}\n  }}\n}}\n'
    )
    result = compile_source(SourceFile("fuzz.hcl", text))
    assert all(not code.startswith("HG9") for code in (d.code for d in result.diagnostics))
    assert (result.job is None) == any(d.severity == "error" for d in result.diagnostics)


def test_every_truncation_of_every_sample_compiles_or_reports() -> None:
    for sample in sorted((ROOT / "samples").glob("*.hcl")):
        text = sample.read_text()
        for end in range(0, len(text), 23):
            result = compile_source(SourceFile(sample.name, text[:end]))
            assert result.job is not None or any(d.severity == "error" for d in result.diagnostics)
            assert not any(d.code.startswith("HG9") for d in result.diagnostics)


def test_deep_values_and_long_chains_evaluate_or_report() -> None:
    deep = 'job "j" {\n  meta { a = jsonencode(' + "[" * 200 + "]" * 200 + ") }\n" + GROUP + "}\n"
    assert compile_source(SourceFile("d.hcl", deep)).job is not None
    unary = 'job "j" {\n  meta { a = ' + "-" * 5000 + "1 }\n}\n"
    assert [d.code for d in compile_source(SourceFile("u.hcl", unary)).diagnostics] == ["HG012"]
