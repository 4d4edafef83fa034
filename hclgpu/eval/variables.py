"""Input variables: declarations, the four value sources and Nomad's precedence.

A variable is declared by a ``variable "name" { type, default, description,
validation { condition, error_message } }`` block or as an attribute of a
``variables { }`` block. Its value is the last of, in increasing precedence: the
default, ``NOMAD_VAR_<name>`` from the environment, each ``--var-file`` in order, and
``--var name=value``. Values given as text (environment and ``--var``) are taken
literally for string, number and untyped variables and parsed as HCL expressions for
every other type, as jobspec2 does. A variable left without a value is an error even
when nothing uses it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hclgpu.diagnostics import Related, Sink
from hclgpu.eval.expr import Evaluator, Failure
from hclgpu.eval.types import ANY, BOOL, NUMBER, STRING, Type, TypeExprError, convert, parse_type
from hclgpu.eval.values import UNSET, EvalError, Value
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast

ENV_PREFIX = "NOMAD_VAR_"
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


@dataclass(slots=True)
class VariableInputs:
    """Values from outside the job file, in the order they were given."""

    args: list[str] = field(default_factory=list)
    """``name=value`` strings from ``--var``."""
    files: list[Path] = field(default_factory=list)
    env: Mapping[str, str] = field(default_factory=dict)
    strict: bool = True


class Declarations:
    """Reads variable declarations from the top level of a job file."""

    def __init__(self, source: SourceFile, sink: Sink) -> None:
        self.source = source
        self.sink = sink
        self.variables: dict[str, Variable] = {}
        self.literal = Evaluator(source, {})

    def error(self, code: str, message: str, span: Span | None, help: str | None = None) -> None:
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
            "HG120",
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
                    "HG102", f"blocks of type `{item.type}` are not expected in `variables`", item.type_span
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
            self.error(failure.code, failure.message, failure.span, failure.help)
            return None

    def _variable_block(self, block: ast.Block) -> None:
        if len(block.labels) != 1:
            self.error("HG105", "a `variable` block needs exactly one label: its name", block.type_span)
            return
        label = block.labels[0]
        if not is_identifier(label.value):
            self.error(
                "HG121",
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
                        "HG102",
                        f"blocks of type `{item.type}` are not expected in `variable`",
                        item.type_span,
                    )
            elif item.name in _DECLARATION_ATTRIBUTES:
                attributes[item.name] = item
            else:
                from hclgpu.eval.expr import did_you_mean

                self.error(
                    "HG101",
                    f"an argument named `{item.name}` is not expected in `variable`",
                    item.name_span,
                    help=did_you_mean(item.name, list(_DECLARATION_ATTRIBUTES))
                    or "a variable takes `type`, `default`, `description` and `validation` blocks",
                )
        return attributes

    def _type(self, expr: ast.Expr) -> Type | None:
        try:
            return parse_type(expr)
        except TypeExprError as error:
            self.error("HG121", error.message, error.node.span)
            return None

    def _default(self, variable: Variable, expr: ast.Expr) -> None:
        value = self._literal_value(expr)
        if variable.type is not None:
            try:
                value = convert(value, variable.type)
            except EvalError as error:
                self.error("HG112", f"the default value does not match the type: {error.message}", expr.span)
                value = UNSET
        else:
            variable.type = implied_type(value)
        variable.assignments.append(Assignment(value, "default", self.source, expr.span))

    def _validation(self, name: str, block: ast.Block) -> Validation | None:
        attributes = {a.name: a for a in block.body.attributes()}
        for key in ("condition", "error_message"):
            if key not in attributes:
                self.error("HG103", f"the argument `{key}` is required in `validation`", block.type_span)
        unknown = [a for a in attributes.values() if a.name not in ("condition", "error_message")]
        for attribute in unknown:
            self.error(
                "HG101", f"an argument named `{attribute.name}` is not expected here", attribute.name_span
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
                    "HG121",
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
                self.error("HG121", f"the condition for `{name}` can only refer to `var.{name}`", span)
        if not good:
            self.error("HG121", f"the condition for `{name}` must refer to `var.{name}`", expr.span)


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


def references(expr: Any) -> Iterable[tuple[str, str | None, Span]]:
    """Every ``root.attr`` reference in an expression tree (roots other than for-variables included)."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Traversal) and isinstance(node.source, ast.Variable):
            first = node.steps[0] if node.steps else None
            attr = first.name if isinstance(first, ast.GetAttr) else None
            yield node.source.name, attr, node.span
            stack.extend(step.key for step in node.steps if isinstance(step, ast.Index))
            continue
        if isinstance(node, ast.Variable):
            yield node.name, None, node.span
            continue
        stack.extend(_children(node))


def _children(node: Any) -> list[Any]:
    if isinstance(node, ast.Template):
        out: list[Any] = []
        for part in node.parts:
            out.extend(_template_children(part))
        return out
    children: list[Any] = []
    for name in getattr(node, "__slots__", ()):
        if name == "span":
            continue
        child = getattr(node, name)
        if isinstance(child, list):
            children.extend(c for c in child if hasattr(c, "span"))
        elif hasattr(child, "span") and not isinstance(child, Span):
            children.append(child)
    return children


def _template_children(part: Any) -> list[Any]:
    if isinstance(part, ast.Interpolation):
        return [part.expr]
    if isinstance(part, ast.TemplateIf):
        inner = [part.condition]
        for p in [*part.then, *(part.otherwise or [])]:
            inner.extend(_template_children(p))
        return inner
    if isinstance(part, ast.TemplateFor):
        inner = [part.collection]
        for p in part.body:
            inner.extend(_template_children(p))
        return inner
    return []


# ---- values -------------------------------------------------------------------------


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
        severity = None if self.inputs.strict else "warning"
        from hclgpu.diagnostics import Severity

        self.sink.emit(
            "HG111",
            message,
            source,
            span,
            help="declare it with a `variable` block in the job file",
            severity=Severity(severity) if severity else None,
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
        source = SourceFile(label, text)
        if variable.type in (None, STRING, NUMBER):
            value: Value = text
        else:
            parsed = parse_expression(source, self.sink)
            if parsed is None:
                return
            wrapper, expr = parsed
            try:
                value = Evaluator(wrapper, {}).eval(expr, {})
            except Failure as failure:
                self.sink.emit(failure.code, failure.message, source, failure.span, help=failure.help)
                return
        self._assign(variable, value, Assignment(value, origin, source, None))

    def _assign(self, variable: Variable, value: Value, assignment: Assignment) -> None:
        if variable.type is not None:
            try:
                value = convert(value, variable.type)
            except EvalError as error:
                self.sink.emit(
                    "HG112",
                    f"the value for `{variable.name}` does not match its type: {error.message}",
                    assignment.source or self.source,
                    assignment.span,
                )
                value = UNSET
        assignment.value = value
        variable.assignments.append(assignment)

    def _from_file(self, path: Path) -> None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            self.sink.emit("HG020", f"cannot read the variable file {path}: {error}", self.source, None)
            return
        source = SourceFile(str(path), text)
        if path.suffix == ".json":
            self._from_json_file(source)
            return
        from hclgpu.syntax.parser import parse

        tree = parse(source, self.sink)
        if tree is None:
            return
        evaluator = Evaluator(source, {})
        for item in tree.body.items:
            if isinstance(item, ast.Block):
                self.sink.emit(
                    "HG121",
                    f"a variable file assigns values; it cannot hold a `{item.type}` block",
                    source,
                    item.type_span,
                    help="declare variables in the job file, and write `name = value` here",
                )
                continue
            variable = self.decl.variables.get(item.name)
            if variable is None:
                self._undefined(
                    f"`{item.name}` is set but the job declares no such variable", source, item.name_span
                )
                continue
            try:
                value = evaluator.eval(item.value, {})
            except Failure as failure:
                self.sink.emit(failure.code, failure.message, source, failure.span, help=failure.help)
                continue
            self._assign(variable, value, Assignment(value, "varfile", source, item.value.span))

    def _from_json_file(self, source: SourceFile) -> None:
        import json

        from hclgpu.eval.values import number

        try:
            data = json.loads(source.text, parse_float=lambda s: number(float(s)))
        except ValueError as error:
            self.sink.emit("HG001", f"the variable file is not valid JSON: {error}", source, None)
            return
        if not isinstance(data, dict):
            self.sink.emit("HG121", "a JSON variable file must hold one object", source, None)
            return
        for name, value in data.items():
            variable = self.decl.variables.get(name)
            if variable is None:
                self._undefined(f"`{name}` is set but the job declares no such variable", source, None)
                continue
            self._assign(variable, value, Assignment(value, "varfile", source, None))


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
        sink.emit("HG112", f"`{source.text}` is not a valid HCL expression", source, None)
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
                "HG110",
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
            sink.emit(failure.code, failure.message, source, failure.span, help=failure.help)
            continue
        if ok is None or not isinstance(ok, bool):
            sink.emit("HG113", "a validation condition must be true or false", source, rule.condition.span)
            continue
        if not ok:
            where = final.span if final.source is source and final.span else variable.span
            origin = {"cmd": "--var", "env": "the environment", "varfile": "a var file"}.get(final.origin)
            message = f"invalid value for variable `{variable.name}`: {rule.error_message}"
            if origin:
                message += f" (the value came from {origin})"
            sink.emit(
                "HG113",
                message,
                source,
                where,
                related=[Related(rule.span, "checked by this validation rule")],
            )
