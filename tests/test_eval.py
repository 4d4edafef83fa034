"""Expression evaluation: operators, collections, templates, runtime references, locals.

Each test compiles a small job and reads the value back from the IR, so what is tested
is what a back end would print.
"""

from __future__ import annotations

from typing import Any

import pytest

from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import Result, compile_source
from hclgpu.source import SourceFile


def compile_text(text: str, **inputs: Any) -> Result:
    options = EvalOptions(VariableInputs(env=inputs.pop("env", {}), **inputs))
    # evaluation only: the minimal jobs here have no driver, which Nomad's server refuses (HG278)
    return compile_source(SourceFile("job.nomad.hcl", text), options, checks=False)


def meta_value(expr: str, prelude: str = "") -> Any:
    """The value of ``expr`` as a job `config` entry (schemaless, so any type survives)."""
    job = 'job "j" {\n  group "g" {\n    task "t" {\n      config {\n'
    text = f"{prelude}\n{job}        v = {expr}\n      }}\n    }}\n  }}\n}}\n"
    result = compile_text(text)
    assert result.job is not None, [f"{d.code} {d.message}" for d in result.diagnostics]
    config = result.job.task_groups[0].tasks[0].config  # type: ignore[index]
    assert config is not None
    assert set(config) <= {"v"}
    return config.get("v")  # a null argument is left out of `config`, as Nomad leaves it out


def codes(text: str, **inputs: Any) -> list[tuple[str, int, int]]:
    result = compile_text(text, **inputs)
    out = []
    for d in result.diagnostics:
        position = result.source.position(d.span.start) if d.span else None
        out.append((d.code, position.line if position else 0, position.column if position else 0))
    return out


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("7 / 2", 3.5),
        ("8 / 2", 4),
        ("-7 % 3", -1),
        ("2.5 * 2", 5),
        ('"3" + 4', 7),
        ("1 < 2 && 2 <= 2", True),
        ("!(3 > 4) || false", True),
        ('1 == "1"', False),
        ("[1, 2] == [1, 2]", True),
        ("{a = 1} != {a = 2}", True),
        ('true ? "yes" : "no"', "yes"),
        ('"a" == "b" ? 1 : 2', 2),
        ("null", None),
    ],
)
def test_operators_and_conditionals(expr: str, value: Any) -> None:
    got = meta_value(expr)
    assert got == value and isinstance(got, type(value))  # a fraction is a BigFloat, a float


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("[for s in [1, 2, 3] : s * 10]", [10, 20, 30]),
        ('[for i, s in ["a", "b"] : "${i}${s}"]', ["0a", "1b"]),
        ("[for s in [1, 2, 3, 4] : s if s % 2 == 0]", [2, 4]),
        ("{for k, v in {b = 2, a = 1} : k => v * 2}", {"a": 2, "b": 4}),
        ("[for k, v in {b = 2, a = 1} : k]", ["a", "b"]),
        ('{for s in ["x", "y", "x"] : s => s...}', {"x": ["x", "x"], "y": ["y"]}),
        ("[{n = 1}, {n = 2}][*].n", [1, 2]),
        ("[{n = 1}, {n = 2}].*.n", [1, 2]),
        ("[[1, 2], [3]][0][1]", 2),
        ('{a = {b = "c"}}.a.b', "c"),
        ('{a = {b = "c"}}["a"]["b"]', "c"),
        ("[10, 20].1", 20),
        ("{x = 1}[*]", [{"x": 1}]),
    ],
)
def test_collections_for_expressions_and_splats(expr: str, value: Any) -> None:
    assert meta_value(expr) == value


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ('"a-${1 + 1}-b"', "a-2-b"),
        ('"${true}"', True),
        ('"x${true}"', "xtrue"),
        ('"${[1]}"', [1]),
        ('"$${literal}"', "${literal}"),
        ('"%{ if true }yes%{ else }no%{ endif }"', "yes"),
        ('"%{ for x in ["a", "b"] }<${x}>%{ endfor }"', "<a><b>"),
        ('"a ${~ "b" ~} c"', "abc"),
        ('"x %{~ if true ~}  yes  %{~ else ~} no %{~ endif ~} y"', "xyesy"),
        ('"[%{ for x in [1, 2] ~} ${x} %{~ endfor }]"', "[12]"),
        # In a heredoc a `~` strips only within its own line, as HCL's per-line tokens do.
        (
            '<<EOF\n%{ for x in ["a", "b"] ~}\n  item ${x}\n%{ endfor ~}\ndone\nEOF\n',
            "  item a\n  item b\ndone\n",
        ),
        # HCL's quirk (hashicorp/terraform#23710): `~}` ending a line stops the next from being dedented.
        ('<<-EOF\n    %{ for x in ["a"] ~}\n    ${x}\n    %{ endfor }\n    EOF\n', "    a\n\n"),
        ('<<-EOF\n    %{ for x in ["a"] }\n    ${x}\n    %{ endfor ~}\n    EOF\n', "\na\n"),
        ('<<-EOF\n    x\n    \n  ${"y"}\nEOF\n', "  x\n    \ny\n"),
        ('<<EOF\n  one\n  ${"two"}\nEOF\n', "  one\n  two\n"),
        ("<<-EOF\n    one\n      two\n    EOF\n", "one\n  two\n"),
    ],
)
def test_templates_directives_and_heredocs(expr: str, value: Any) -> None:
    assert meta_value(expr) == value


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ('"${NOMAD_ALLOC_DIR}/data"', "${NOMAD_ALLOC_DIR}/data"),
        ('"${node.unique.name}"', "${node.unique.name}"),
        ('"${attr.kernel.name}"', "${attr.kernel.name}"),
        ('"${meta.rack}-${node.class}"', "${meta.rack}-${node.class}"),
        ('"${device.attr.memory}"', "${device.attr.memory}"),
        ("device.model", "${device.model}"),
        ('"${ device.vendor }"', "${ device.vendor }"),
        ('"${env.HOME}"', "${env.HOME}"),
        ('"${env["HOME"]}"', '${env["HOME"]}'),
        ('"${NOMAD_META_x}"', "${NOMAD_META_x}"),
    ],
)
def test_runtime_references_stay_literal(expr: str, value: str) -> None:
    assert meta_value(expr) == value


def test_locals_in_any_order_and_across_blocks() -> None:
    prelude = 'locals { c = "${local.b}!" }\nlocals {\n  b = upper(local.a)\n  a = "x"\n}'
    assert meta_value("local.c", prelude) == "X!"


def test_local_cycle_is_reported_at_each_local_of_it() -> None:
    """Nomad reports the cycle at the reference of one local of it, which one Go's map order
    decides (jobspec2-oracle names line 4, then line 3, of tests/cases/HG114_local_cycle.hcl
    on two runs): hclgpu reports each, at its reference to the next."""
    text = 'locals {\n  a = local.b\n  b = local.c\n  c = local.a\n}\njob "j" {\n  meta { x = local.a }\n}\n'
    result = compile_text(text)
    cycle = [d for d in result.diagnostics if d.code == "HG114"]
    assert [d.message.split(": ")[1] for d in cycle] == [
        "local.a -> local.b -> local.c -> local.a",
        "local.b -> local.c -> local.a -> local.b",
        "local.c -> local.a -> local.b -> local.c",
    ]
    assert [result.source.text[d.span.start : d.span.end] for d in cycle if d.span] == [
        "local.b",
        "local.c",
        "local.a",
    ]
    assert [d.code for d in result.diagnostics] == ["HG114"] * 3  # the use in `meta` stays quiet


def test_undeclared_local_and_variable_suggest_the_close_name() -> None:
    text = (
        'variable "image" { default = "a" }\nlocals { gpus = 2 }\n'
        'job "j" {\n  meta {\n    a = var.imge\n    b = local.gpu\n  }\n}\n'
    )
    result = compile_text(text)
    found = [(d.code, d.help) for d in result.diagnostics]
    assert found == [("HG111", "did you mean `image`?"), ("HG111", "did you mean `gpus`?")]


@pytest.mark.parametrize(
    ("expr", "code"),
    [
        ('"a" * 2', "HG117"),
        ("1 / 0", "HG117"),
        ("[1][5]", "HG117"),
        ("{a = 1}.b", "HG117"),
        ('"x${null}"', "HG117"),
        ("null", "HG106"),
        ("var", "HG106"),
        ("null ? 1 : 2", "HG117"),
        ("nosuch(1)", "HG115"),
    ],
)
def test_expression_errors_are_located(expr: str, code: str) -> None:
    text = f'job "j" {{\n  meta {{ x = {expr} }}\n}}\n'
    assert [c for c, line, _ in codes(text)] == [code]
    assert {line for _, line, _ in codes(text)} == {2}


def test_can_try_and_convert() -> None:
    assert meta_value("can(var.missing)", 'variable "x" { default = 1 }') is False
    assert meta_value('try({a = 1}.b, "fallback")') == "fallback"
    assert meta_value('convert("5", number)') == 5
    assert meta_value('convert(["b", "a", "b"], set(string))') == ["a", "b"]


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("[{a = [1, 2]}, {a = [3, 4]}].*.a[0]", [1, 2]),  # `.*` takes only the attribute steps
        ("[{a = [1, 2]}, {a = [3, 4]}][*].a[0]", [1, 3]),  # `[*]` takes every later step
        ('jsonencode(true ? 1 : "a")', '"1"'),  # the results unify to string
        ('jsonencode(false ? 1 : "a")', '"a"'),
        ("jsonencode(true ? 1 : null)", "1"),
        ("jsonencode([for var in [1, 2] : var])", "[1,2]"),  # a for-variable may be called `var`
        ('"%{ for local in ["x"] }${local}%{ endfor }"', "x"),
        ("1e20", 1e20),
    ],
)
def test_hcl_details(expr: str, value: Any) -> None:
    got = meta_value(expr)
    assert got == value and isinstance(got, type(value))  # a fraction is a BigFloat, a float


@pytest.mark.parametrize(
    ("expr", "message"),
    [
        ("true ? 1 : false", "inconsistent conditional result types: number and bool"),
        ("true ? [1] : {a = 1}", "inconsistent conditional result types: list and object"),
        ("{a.b = 1}", "ambiguous attribute key"),
        ("[1, 2][0.5]", "is not a whole number"),
    ],
)
def test_more_expression_errors(expr: str, message: str) -> None:
    result = compile_text(
        f'job "j" {{\n  group "g" {{\n    task "t" {{\n      config {{ v = {expr} }}\n    }}\n  }}\n}}\n'
    )
    assert [d.code for d in result.diagnostics] == ["HG117"]
    assert message in result.diagnostics[0].message
