"""Input variable values: the four sources, Nomad's precedence, and validation.

Declarations are read by :mod:`hclgpu.eval.declarations`. A variable's value is the
last of, in increasing precedence: the default, ``NOMAD_VAR_<name>`` from the
environment, each ``--var-file`` in order, and ``--var name=value``. Values given as
text (environment and ``--var``) are taken literally for string, number and untyped
variables and parsed as HCL expressions for every other type, as jobspec2 does. A
variable left without a value is an error even when nothing uses it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from hclgpu.codes import Severity
from hclgpu.codes.evaluation import HG110, HG111, HG112, HG113, HG121
from hclgpu.codes.syntax import HG001, HG007, HG010, HG014, HG020
from hclgpu.diagnostics import Related, Sink
from hclgpu.eval.declarations import Assignment, Declarations, Variable
from hclgpu.eval.dynamic import normalise
from hclgpu.eval.expr import Evaluator, Failure
from hclgpu.eval.types import NUMBER, STRING, convert
from hclgpu.eval.values import UNSET, EvalError, Value, without_surrogates
from hclgpu.io.files import NotUtf8, Unreadable, read_text
from hclgpu.numbers import NumberOutOfRange, parse_decimal
from hclgpu.source import SourceFile, Span, looks_like_json
from hclgpu.syntax import ast

ENV_PREFIX = "NOMAD_VAR_"


@dataclass(slots=True)
class VariableInputs:
    """Values from outside the job file, in the order they were given."""

    args: list[str] = field(default_factory=list)
    """``name=value`` strings from ``--var``."""
    files: list[Path] = field(default_factory=list)
    env: Mapping[str, str] = field(default_factory=dict)
    strict: bool = True


class Values:
    """Collects values from the environment, var files and ``--var``, then resolves each variable."""

    def __init__(self, declarations: Declarations, inputs: VariableInputs) -> None:
        self.decl = declarations
        self.inputs = inputs
        self.sink = declarations.sink
        self.source = declarations.source

    def collect(self) -> None:
        self._from_env()
        for path in self.inputs.files:
            self._from_file(path)
        self._from_args()

    def _undefined(self, message: str, source: SourceFile, span: Span | None) -> None:
        """A value for an undeclared variable: an error, or a warning when not strict (as Nomad)."""
        self.sink.emit(
            HG111,
            message,
            source,
            span,
            help="declare it with a `variable` block in the job file",
            severity=None if self.inputs.strict else Severity.WARNING,
        )

    def _from_env(self) -> None:
        for key, text in self.inputs.env.items():
            if not key.startswith(ENV_PREFIX):
                continue
            name = key[len(ENV_PREFIX) :]
            variable = self.decl.variables.get(name)
            if variable is not None:
                self._assign_text(variable, text, "env", f"<value for var.{name} from env>")

    def _from_args(self) -> None:
        latest: dict[str, str] = {}
        for arg in self.inputs.args:
            name, sep, text = arg.partition("=")
            if sep:
                latest[name] = text
        for name, text in latest.items():
            variable = self.decl.variables.get(name)
            if variable is None:
                self._undefined(
                    f"`--var {name}=...` sets a variable that the job does not declare", self.source, None
                )
                continue
            self._assign_text(variable, text, "cmd", f"<value for var.{name} from arguments>")

    def _assign_text(self, variable: Variable, text: str, origin: str, label: str) -> None:
        text = without_surrogates(text)  # bytes that were not UTF-8, as Go's encoders print them
        source = SourceFile(label, text)
        if variable.type in (None, STRING, NUMBER):
            value: Value = text
        else:
            parsed = parse_expression(source, self.sink)
            if parsed is None:  # reported; the variable is broken rather than unset
                variable.assignments.append(Assignment(UNSET, origin, source))
                return
            wrapper, expr = parsed
            try:
                value = Evaluator(wrapper, {}, constants_only=True).eval(expr, {})
            except Failure as failure:  # its span is in the `v = ...` wrapper the text was parsed in
                failure.emit(self.sink, wrapper)
                variable.assignments.append(Assignment(UNSET, origin, source))
                return
        self._assign(variable, value, Assignment(value, origin, source, Span(0, len(text))))

    def _assign(self, variable: Variable, value: Value, assignment: Assignment) -> None:
        if variable.type is not None:
            try:
                value = convert(value, variable.type)
            except EvalError as error:
                self.sink.emit(
                    HG112,
                    f"the value for `{variable.name}` does not match its type: {error.message}",
                    assignment.source or self.source,
                    assignment.span,
                )
                value = UNSET
        assignment.value = value
        variable.assignments.append(assignment)

    def _from_file(self, path: Path) -> None:
        """A var file: HCL attributes, or JSON when it starts with `{` (Nomad looks at the content)."""
        try:
            text = read_text(path)  # a regular file of at most 16 MiB: never /dev/zero or a FIFO
        except NotUtf8 as error:
            source, at = SourceFile(str(path), error.text), Span(error.position, error.position + 1)
            self.sink.emit(HG010, str(error), source, at, help="save the file as UTF-8")
            return
        except OSError as error:
            code = error.code if isinstance(error, Unreadable) else HG020
            reason = error.strerror or str(error)
            self.sink.emit(code, f"cannot read the variable file {path}: {reason}", self.source, None)
            return
        source = SourceFile(str(path), text)
        if looks_like_json(text):
            self._from_json_file(source)
            return
        for item, value in var_file_values(source, self.sink):
            variable = self.decl.variables.get(item.name)
            if variable is None:
                self._undefined(
                    f"`{item.name}` is set but the job declares no such variable", source, item.name_span
                )
                continue
            self._assign(variable, value, Assignment(value, "varfile", source, item.value.span))

    def _from_json_file(self, source: SourceFile) -> None:
        try:
            data = json.loads(
                source.text,
                object_pairs_hook=_unique_keys,
                parse_constant=_no_constant,
                parse_int=parse_decimal,
                parse_float=parse_decimal,
            )
        except NumberOutOfRange as error:
            self.sink.emit(HG014, str(error), source, _number_span(source.text, error.text))
            return
        except ValueError as error:
            self.sink.emit(HG001, f"the variable file is not valid JSON: {error}", source, None)
            return
        data = without_surrogates(data)  # `"\ud800"` is U+FFFD in Go's decoder
        if not isinstance(data, dict):
            self.sink.emit(HG121, "a JSON variable file must hold one object", source, None)
            return
        for name, value in data.items():
            variable = self.decl.variables.get(name)
            if variable is None:
                self._undefined(f"`{name}` is set but the job declares no such variable", source, None)
                continue
            try:
                value = normalise(value)
            except EvalError as error:  # a number past float64, which Nomad reads as one
                where = _key_span(source.text, name)
                self.sink.emit(HG112, f"the value for `{name}` is invalid: {error.message}", source, where)
                continue
            self._assign(variable, value, Assignment(value, "varfile", source, None))


def var_file_values(source: SourceFile, sink: Sink) -> list[tuple[ast.Attribute, Value]]:
    """The values an HCL variable file assigns, each a constant (Nomad evaluates a var file
    with no variables or functions); its syntax errors, an attribute set twice, a block (HG121)
    or a value that is not a constant go to ``sink``. What `check` finds in a var file, and
    what an editor shows on one opened by itself."""
    from hclgpu.syntax.parser import parse
    from hclgpu.syntax.redefined import check_redefined

    tree = parse(source, sink)
    if tree is None:
        return []
    check_redefined(tree, source, sink)
    evaluator = Evaluator(source, {}, constants_only=True)
    out: list[tuple[ast.Attribute, Value]] = []
    for item in tree.body.items:
        if isinstance(item, ast.Block):
            sink.emit(
                HG121,
                f"a variable file assigns values; it cannot hold a `{item.type}` block",
                source,
                item.type_span,
                help="declare variables in the job file, and write `name = value` here",
            )
            continue
        try:
            value = evaluator.eval(item.value, {})
        except Failure as failure:
            failure.emit(sink, source)
            value = UNSET
        out.append((item, value))
    return out


def _unique_keys(pairs: list[tuple[str, Value]]) -> dict[str, Value]:
    """JSON objects in a var file may not repeat a key (HCL's JSON parser refuses it)."""
    result: dict[str, Value] = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"the key {key!r} appears more than once in an object")
        result[key] = value
    return result


def _number_span(text: str, number: str) -> Span | None:
    """Where a number the JSON parser refused is: its first occurrence as a whole number."""
    found = re.search(r"(?<![\w.+-])" + re.escape(number) + r"(?![\w.])", text)
    return Span(found.start(), found.end()) if found else None


def _key_span(text: str, name: str) -> Span | None:
    """Where a property of a JSON var file is named (its first occurrence)."""
    found = re.search(re.escape(json.dumps(name)) + r"\s*:", text)
    return Span(found.start(), found.start() + len(json.dumps(name))) if found else None


def _no_constant(name: str) -> Value:
    """NaN and Infinity are not JSON, though Python's parser takes them."""
    raise ValueError(f"{name} is not a JSON value")


_PRECISE_ERRORS = frozenset((HG007, HG014))
"""Syntax errors in a value given as text that are reported as they are: an escape no
string can hold, a number too large."""


def parse_expression(source: SourceFile, sink: Sink) -> tuple[SourceFile, ast.Expr] | None:
    """Parse text given on the command line or in the environment as one HCL expression.

    The text is parsed as the value of an attribute; the returned source is that wrapper,
    whose spans the expression's nodes refer to.
    """
    from hclgpu.syntax.parser import parse

    wrapper = SourceFile(source.path, "v = " + source.text + "\n")
    local = Sink()
    tree = parse(wrapper, local)
    items = tree.body.items if tree is not None else []
    if local.has_errors or len(items) != 1 or not isinstance(items[0], ast.Attribute):
        precise = [d for d in local if d.code in _PRECISE_ERRORS]
        if precise:  # located in the value, which says more than "not a valid expression"
            sink.extend(precise)
            return None
        shown = source.text if len(source.text) <= 80 else source.text[:77] + "..."
        sink.emit(HG112, f"`{shown}` is not a valid HCL expression", source, None)
        return None
    return wrapper, items[0].value


def resolve(
    declarations: Declarations, inputs: VariableInputs, evaluator_for_validation: Evaluator
) -> dict[str, Value]:
    """Every declared variable's final value; unset variables and failing validations are errors."""
    Values(declarations, inputs).collect()
    result: dict[str, Value] = {}
    sink, source = declarations.sink, declarations.source
    for variable in declarations.variables.values():
        result[variable.name] = UNSET
        if not variable.assignments:
            sink.emit(
                HG110,
                f"variable `{variable.name}` has no value",
                source,
                variable.span,
                help=f"give it a `default`, or set it with `--var {variable.name}=...`, a var file "
                f"or NOMAD_VAR_{variable.name}",
            )
            continue
        final = variable.assignments[-1]
        result[variable.name] = final.value
        if final.value is not UNSET:
            _validate(variable, final, evaluator_for_validation, sink, source)
    return result


def _validate(
    variable: Variable, final: Assignment, evaluator: Evaluator, sink: Sink, source: SourceFile
) -> None:
    scope = {"var": {variable.name: final.value}}
    for rule in variable.validations:
        if rule.condition is None:
            continue
        try:
            ok = evaluator.eval(rule.condition, scope)
        except Failure as failure:
            failure.emit(sink, source)
            continue
        if ok is None or not isinstance(ok, bool):
            sink.emit(HG113, "a validation condition must be true or false", source, rule.condition.span)
            continue
        if not ok:
            where = final.span if final.source is source and final.span else variable.span
            origin = {"cmd": "--var", "env": "the environment", "varfile": "a var file"}.get(final.origin)
            message = f"invalid value for variable `{variable.name}`: {rule.error_message}"
            if origin:
                message += f" (the value came from {origin})"
            sink.emit(
                HG113,
                message,
                source,
                where,
                related=[Related(rule.span, "checked by this validation rule")],
            )
