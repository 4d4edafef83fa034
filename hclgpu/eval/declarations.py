"""Variable declarations: `variable "name" { type, default, description, validation }` and `variables { }`.

Declarations are read before any value: a default is evaluated with no variables and no
functions in scope (as jobspec2 does), converted to the declared type, and fixes the
variable's type when there is no `type`. Broken declarations are reported once here; the
variable then holds UNSET so that its uses stay quiet.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from hclgpu.codes.base import Code
from hclgpu.codes.evaluation import HG101, HG102, HG103, HG105, HG112, HG120, HG121
from hclgpu.diagnostics import Related, Sink
from hclgpu.eval.expr import Evaluator, Failure, did_you_mean
from hclgpu.eval.references import references
from hclgpu.eval.types import ANY, BOOL, NUMBER, STRING, Type, TypeExprError, convert, parse_type
from hclgpu.eval.values import UNSET, EvalError, Value
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast

_DECLARATION_ATTRIBUTES = ("description", "default", "type")


@dataclass(slots=True)
class Validation:
    condition: ast.Expr | None
    error_message: str
    span: Span


@dataclass(slots=True)
class Assignment:
    """One way a variable got a value; ``span`` is None for values from outside the file."""

    value: Value
    origin: str
    source: SourceFile | None = None
    span: Span | None = None


@dataclass(slots=True)
class Variable:
    name: str
    span: Span
    type: Type | None = None
    description: str = ""
    assignments: list[Assignment] = field(default_factory=list)
    validations: list[Validation] = field(default_factory=list)


class Declarations:
    """Reads variable declarations from the top level of a job file."""

    def __init__(self, source: SourceFile, sink: Sink) -> None:
        self.source = source
        self.sink = sink
        self.variables: dict[str, Variable] = {}
        self.literal = Evaluator(source, {}, constants_only=True)

    def error(self, code: Code, message: str, span: Span | None, help: str | None = None) -> None:
        self.sink.emit(code, message, self.source, span, help=help)

    def read(self, blocks: Iterable[ast.Block]) -> None:
        for block in blocks:
            if block.type == "variable":
                self._variable_block(block)
            elif block.type == "variables":
                self._variables_block(block)

    def _duplicate(self, name: str, span: Span) -> bool:
        first = self.variables.get(name)
        if first is None:
            return False
        self.sink.emit(
            HG120,
            f"variable `{name}` is declared more than once",
            self.source,
            span,
            related=[Related(first.span, "first declared here")],
        )
        return True

    def _variables_block(self, block: ast.Block) -> None:
        for item in block.body.items:
            if isinstance(item, ast.Block):
                self.error(
                    HG102, f"blocks of type `{item.type}` are not expected in `variables`", item.type_span
                )
                continue
            if self._duplicate(item.name, item.name_span):
                continue
            value = self._literal_value(item.value)
            variable = Variable(item.name, item.name_span, type=implied_type(value))
            variable.assignments.append(Assignment(value, "default", self.source, item.value.span))
            self.variables[item.name] = variable

    def _literal_value(self, expr: ast.Expr) -> Value:
        try:
            return self.literal.eval(expr, {})
        except Failure as failure:
            failure.emit(self.sink, self.source)
            return None

    def _variable_block(self, block: ast.Block) -> None:
        if len(block.labels) != 1:
            self.error(HG105, "a `variable` block needs exactly one label: its name", block.type_span)
            return
        label = block.labels[0]
        if not is_identifier(label.value):
            self.error(
                HG121,
                f"`{label.value}` is not a valid variable name",
                label.span,
                help="a name starts with a letter or underscore and has only letters, digits, `_` and `-`",
            )
        if self._duplicate(label.value, label.span):
            return
        variable = Variable(label.value, label.span)
        attributes = self._declaration_items(block)
        if "description" in attributes:
            variable.description = str(self._literal_value(attributes["description"].value) or "")
        if "type" in attributes:
            variable.type = self._type(attributes["type"].value)
            if variable.type is None:  # reported; uses of the variable stay quiet
                variable.assignments.append(Assignment(UNSET, "default"))
        if "default" in attributes:
            self._default(variable, attributes["default"].value)
        for inner in block.body.blocks("validation"):
            validation = self._validation(variable.name, inner)
            if validation is not None:
                variable.validations.append(validation)
        self.variables[variable.name] = variable

    def _declaration_items(self, block: ast.Block) -> dict[str, ast.Attribute]:
        attributes: dict[str, ast.Attribute] = {}
        for item in block.body.items:
            if isinstance(item, ast.Block):
                if item.type != "validation":
                    self.error(
                        HG102,
                        f"blocks of type `{item.type}` are not expected in `variable`",
                        item.type_span,
                    )
            elif item.name in _DECLARATION_ATTRIBUTES:
                attributes[item.name] = item
            else:
                self.error(
                    HG101,
                    f"an argument named `{item.name}` is not expected in `variable`",
                    item.name_span,
                    help=did_you_mean(item.name, list(_DECLARATION_ATTRIBUTES))
                    or "a variable takes `type`, `default`, `description` and `validation` blocks",
                )
        return attributes

    def _type(self, expr: ast.Expr) -> Type | None:
        try:
            return parse_type(expr, constraint=False)
        except TypeExprError as error:
            self.error(HG121, error.message, error.node.span)
            return None

    def _default(self, variable: Variable, expr: ast.Expr) -> None:
        value = self._literal_value(expr)
        if variable.type is not None:
            try:
                value = convert(value, variable.type)
            except EvalError as error:
                self.error(HG112, f"the default value does not match the type: {error.message}", expr.span)
                value = UNSET
        else:
            variable.type = implied_type(value)
        variable.assignments.append(Assignment(value, "default", self.source, expr.span))

    def _validation(self, name: str, block: ast.Block) -> Validation | None:
        attributes = {a.name: a for a in block.body.attributes()}
        for key in ("condition", "error_message"):
            if key not in attributes:
                self.error(HG103, f"the argument `{key}` is required in `validation`", block.type_span)
        unknown = [a for a in attributes.values() if a.name not in ("condition", "error_message")]
        for attribute in unknown:
            self.error(
                HG101, f"an argument named `{attribute.name}` is not expected here", attribute.name_span
            )
        condition = attributes.get("condition")
        if condition is not None:
            self._check_condition_refs(name, condition.value)
        message_attr = attributes.get("error_message")
        message = ""
        if message_attr is not None:
            message = str(self._literal_value(message_attr.value) or "")
            if not looks_like_sentences(message):
                self.error(
                    HG121,
                    "the validation error message must be at least one full sentence",
                    message_attr.value.span,
                    help="start with an uppercase letter and end with a period or question mark",
                )
        if condition is None or message_attr is None:
            return None
        return Validation(condition.value, message, block.span)

    def _check_condition_refs(self, name: str, expr: ast.Expr) -> None:
        refs = list(references(expr))
        good = 0
        for root, attr, span in refs:
            if root == "var" and attr == name:
                good += 1
            else:
                self.error(HG121, f"the condition for `{name}` can only refer to `var.{name}`", span)
        if not good:
            self.error(HG121, f"the condition for `{name}` must refer to `var.{name}`", expr.span)


def is_identifier(name: str) -> bool:
    return (
        bool(name) and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c in "_-" for c in name)
    )


def looks_like_sentences(text: str) -> bool:
    """jobspec2's rule for validation messages: a capital first letter, final punctuation."""
    if not text:
        return False
    first, last = text[0], text[-1]
    if first.isalpha() and not first.isupper():
        return False
    return last in ".?!"


def implied_type(value: Value) -> Type | None:
    """The type cty infers for a value (a default with no `type` fixes the variable's type)."""
    if value is None:
        return ANY
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, (int, float)):
        return NUMBER
    if isinstance(value, str):
        return STRING
    if isinstance(value, list):
        return ("tuple", tuple(implied_type(v) or ANY for v in value))
    if isinstance(value, dict):
        return ("object", {k: implied_type(v) or ANY for k, v in value.items()}, frozenset())
    return ANY
