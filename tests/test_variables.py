"""Input variables: the four sources, their precedence and parsing, types and validation."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import Result, compile_source
from hclgpu.source import SourceFile
from tests.conftest import GROUP

JOB = '\njob "j" {\n  meta {\n    v = jsonencode(var.x)\n  }\n' + GROUP + "}\n"


def compile_job(declaration: str, **inputs: Any) -> Result:
    options = EvalOptions(VariableInputs(env=inputs.pop("env", {}), **inputs))
    return compile_source(SourceFile("job.nomad.hcl", declaration + JOB), options)


def value_of(declaration: str, **inputs: Any) -> str:
    """`var.x` as jsonencode prints it, so the type is visible (`"7"` vs `7`)."""
    result = compile_job(declaration, **inputs)
    assert result.job is not None, [f"{d.code} {d.message}" for d in result.diagnostics]
    assert result.job.meta is not None
    return result.job.meta["v"]


def error_codes(declaration: str, **inputs: Any) -> list[str]:
    return [d.code for d in compile_job(declaration, **inputs).diagnostics]


def test_default_is_used_when_nothing_else_is_given() -> None:
    assert value_of('variable "x" { default = "a" }') == '"a"'


def test_precedence_default_env_file_argument(tmp_path: Path) -> None:
    declaration = 'variable "x" { default = "default" }'
    first = tmp_path / "first.hcl"
    first.write_text('x = "file1"\n')
    second = tmp_path / "second.hcl"
    second.write_text('x = "file2"\n')
    env = {"NOMAD_VAR_x": "env"}
    assert value_of(declaration, env=env) == '"env"'
    assert value_of(declaration, env=env, files=[first]) == '"file1"'
    assert value_of(declaration, env=env, files=[first, second]) == '"file2"'
    assert value_of(declaration, env=env, files=[first], args=["x=arg"]) == '"arg"'
    assert value_of(declaration, args=["x=one", "x=two"]) == '"two"'


def test_text_values_are_literal_for_string_number_and_untyped_variables() -> None:
    assert value_of('variable "x" {}', args=["x=[1, 2]"]) == '"[1, 2]"'
    assert value_of('variable "x" { type = string }', args=['x="quoted"']) == '"\\"quoted\\""'
    assert value_of('variable "x" { type = number }', args=["x=7"]) == "7"
    assert value_of('variable "x" { default = 3 }', env={"NOMAD_VAR_x": "12"}) == "12"
    assert value_of('variable "x" {}', args=["x=a=b"]) == '"a=b"'


def test_text_values_are_hcl_expressions_for_other_types() -> None:
    assert value_of('variable "x" { type = list(string) }', args=['x=["a", "b"]']) == '["a","b"]'
    assert value_of('variable "x" { type = bool }', env={"NOMAD_VAR_x": "true"}) == "true"
    assert value_of('variable "x" { default = ["a"] }', args=['x=["b"]']) == '["b"]'
    assert value_of('variable "x" { type = map(number) }', args=["x={a = 1}"]) == '{"a":1}'


def test_typed_values_are_converted() -> None:
    assert value_of('variable "x" {\n  type = list(number)\n  default = ["1", 2]\n}') == "[1,2]"
    assert value_of('variable "x" {\n  type = set(string)\n  default = ["b", "a", "b"]\n}') == '["a","b"]'
    obj = (
        'variable "x" {\n  type = object({ a = string, b = number })\n'
        '  default = { a = 1, b = "2", c = 3 }\n}'
    )
    assert value_of(obj) == '{"a":"1","b":2}'


def test_variable_types_must_be_exact_as_in_nomad() -> None:
    """typeexpr.Type (not TypeConstraint): `any` and `optional()` are refused in a `type`."""
    assert error_codes('variable "x" { type = any }') == ["HG121"]
    assert error_codes('variable "x" { type = list(any) }') == ["HG121"]
    assert error_codes('variable "x" {\n  type = object({ a = optional(string) })\n}') == ["HG121"]


def test_variables_block_declares_with_defaults() -> None:
    assert value_of("variables {\n  x = 5\n}", args=["x=6"]) == "6"


def test_json_and_hcl_var_files(tmp_path: Path) -> None:
    json_file = tmp_path / "vars.json"
    json_file.write_text('{"x": {"gpus": 2}}')
    assert value_of('variable "x" {}', files=[json_file]) == '{"gpus":2}'
    hcl_file = tmp_path / "vars.hcl"
    hcl_file.write_text('x = ["a", 1 + 1]\n')
    assert value_of('variable "x" {}', files=[hcl_file]) == '["a",2]'


def test_values_for_undeclared_variables_are_errors() -> None:
    assert error_codes('variable "x" { default = 1 }', args=["y=2"]) == ["HG111"]


def test_undeclared_value_in_var_file_is_located(tmp_path: Path) -> None:
    path = tmp_path / "vars.hcl"
    path.write_text('x = 1\nimage = "a"\n')
    result = compile_job('variable "x" {}', files=[path])
    [diagnostic] = result.diagnostics
    assert diagnostic.code == "HG111" and diagnostic.source.path == str(path)
    assert diagnostic.span is not None and diagnostic.source.position(diagnostic.span.start).line == 2


def test_var_file_cannot_declare_variables(tmp_path: Path) -> None:
    path = tmp_path / "vars.hcl"
    path.write_text('variable "x" {}\n')
    assert error_codes('variable "x" { default = 1 }', files=[path]) == ["HG121"]


def test_unset_variable_is_an_error_even_when_unused() -> None:
    result = compile_source(SourceFile("j.hcl", 'variable "x" {}\njob "j" {}\n'))
    assert [d.code for d in result.diagnostics] == ["HG110"]


def test_an_untyped_list_default_fixes_the_length_as_cty_tuples_do() -> None:
    """`default = ["a"]` gives the type tuple([string]): a two-element value does not convert."""
    assert error_codes('variable "x" { default = ["a"] }', args=['x=["b", "c"]']) == ["HG112"]


def test_wrongly_typed_value_is_an_error() -> None:
    assert error_codes('variable "x" { type = number }', args=["x=two"]) == ["HG112"]
    assert error_codes('variable "x" { type = list(string) }', args=["x=[1"]) == ["HG112"]


@pytest.mark.parametrize(
    ("value", "codes"),
    [("3", []), ("0", ["HG113"])],
)
def test_validation_rules(value: str, codes: list[str]) -> None:
    declaration = (
        'variable "x" {\n  type = number\n  default = 1\n  validation {\n'
        '    condition = var.x > 0\n    error_message = "Need at least one GPU."\n  }\n}'
    )
    result = compile_job(declaration, args=[f"x={value}"])
    assert [d.code for d in result.diagnostics] == codes
    if codes:
        assert "Need at least one GPU." in result.diagnostics[0].message
        assert "--var" in result.diagnostics[0].message


@pytest.mark.parametrize(
    ("validation", "code"),
    [
        ('condition = var.y > 0\n    error_message = "Bad value."', "HG121"),
        ('condition = var.x > 0\n    error_message = "lower case and no period"', "HG121"),
        ("condition = var.x > 0", "HG103"),
    ],
)
def test_malformed_validation_rules(validation: str, code: str) -> None:
    declaration = f'variable "x" {{\n  default = 1\n  validation {{\n    {validation}\n  }}\n}}'
    assert code in error_codes(declaration)


def test_declaration_errors() -> None:
    assert error_codes('variable "x" { typo = 1 }') == ["HG110", "HG101"]
    assert error_codes('variable "x" { type = list }') == ["HG121"]
    assert error_codes('variable "x" { default = 1 }\nvariable "x" { default = 2 }') == ["HG120"]


def test_var_files_hold_constants_only(tmp_path: Path) -> None:
    path = tmp_path / "vars.hcl"
    path.write_text('x = upper("a")\n')
    result = compile_job('variable "x" {}', files=[path])
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("HG115", "function calls are not allowed here")
    ]
    path.write_text("x = node.class\n")
    result = compile_job('variable "x" {}', files=[path])
    assert [(d.code, d.message) for d in result.diagnostics] == [("HG117", "variables are not allowed here")]


def test_json_var_files_are_recognised_by_content(tmp_path: Path) -> None:
    path = tmp_path / "prod.vars"
    path.write_text('{"x": [1, 2]}')
    assert value_of('variable "x" {}', files=[path]) == "[1,2]"
    path.write_text('{"x": NaN}')
    assert error_codes('variable "x" { default = 0 }', files=[path]) == ["HG001"]
    path.write_text('{"x": 1, "x": 2}')
    assert error_codes('variable "x" { default = 0 }', files=[path]) == ["HG001"]


@pytest.mark.parametrize("where", ["args", "env"])
def test_a_failing_expression_on_the_command_line_points_into_its_own_text(where: str) -> None:
    """The span of an error in `--var l=var.l` refers to that value's text, and the
    report can quote it."""
    inputs: dict[str, Any] = {"args": ["x=var.l"]} if where == "args" else {"env": {"NOMAD_VAR_x": "var.l"}}
    result = compile_job('variable "x" { type = list(string) }', **inputs)
    (diagnostic,) = result.diagnostics
    assert diagnostic.code == "HG117" and diagnostic.span is not None
    assert diagnostic.source.text[diagnostic.span.start : diagnostic.span.end] == "var.l"
    from hclgpu.report import write_report

    out = io.StringIO()
    write_report("text", result.diagnostics, 1, out, color=False)
    assert "var.l" in out.getvalue()
