"""Evaluate HCL expressions to values, as Nomad's fork of HCL does.

Only ``var``, ``local`` and names bound by ``for`` expressions and ``dynamic``
iterators are real roots. Any other root (``node``, ``attr``, ``meta``, ``device``,
``NOMAD_ALLOC_DIR``, ``env`` ...) is a reference Nomad resolves at run time: the
expression's source text is kept, wrapped as ``${...}``. Inside a template the whole
interpolation is kept as written, so ``"${ device.vendor }"`` keeps its spaces.

Errors raise :class:`Failure`, which carries a code, a message in Nomad's words and
the narrowest span that explains it; the caller turns it into a diagnostic.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import TYPE_CHECKING

from hclgpu.codes.base import Code
from hclgpu.codes.evaluation import HG110, HG111, HG115, HG116, HG117
from hclgpu.diagnostics import Edit, Sink
from hclgpu.eval.budget import SPENDING, Budget, TooMuchWork
from hclgpu.eval.functions.base import MAX_RESULT_TEXT, MAX_RESULT_VALUES, ResultTooLarge
from hclgpu.eval.values import (
    UNSET,
    EvalError,
    Value,
    equal,
    number,
    to_bool,
    to_number,
    to_string,
    type_name,
)
from hclgpu.numbers import BigFloat, arithmetic
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast

if TYPE_CHECKING:
    from hclgpu.eval.functions import Function

REAL_ROOTS = frozenset({"var", "local"})


class Failure(Exception):
    """An expression cannot be evaluated; located, with an optional help line."""

    def __init__(
        self, code: Code, message: str, span: Span | None, help: str | None = None, silent: bool = False
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span
        self.help = help
        self.silent = silent
        """Already reported elsewhere (a use of a broken variable): fail without a new diagnostic."""

    @property
    def fix(self) -> tuple[Edit, ...]:
        """A misspelt variable, local or function name (the span is exactly the name): the
        suggested one replaces it."""
        name = suggested(self.help) if self.code in (HG111, HG115) else None
        return (Edit(self.span, name),) if name is not None and self.span is not None else ()

    def emit(self, sink: Sink, source: SourceFile) -> None:
        """Report the failure as a diagnostic (with its help and fix)."""
        sink.emit(self.code, self.message, source, self.span, help=self.help, fix=self.fix)


def closest(name: str, candidates: list[str]) -> str | None:
    """The candidate close enough to ``name`` to be what was meant, if one is."""
    close = get_close_matches(name, candidates, n=1, cutoff=0.7)
    return close[0] if close else None


def did_you_mean(name: str, candidates: list[str]) -> str | None:
    """A "did you mean" help line when a candidate is close to ``name``."""
    close = closest(name, candidates)
    return f"did you mean `{close}`?" if close else None


def suggested(help: str | None) -> str | None:
    """The name a :func:`did_you_mean` line suggests (the fix), or None."""
    if help is None or not help.startswith("did you mean `") or not help.endswith("`?"):
        return None
    return help[len("did you mean `") : -2]


Scope = Mapping[str, Value]
"""Root names in scope: ``var``, ``local`` and iterator or ``for`` names."""


_SHORT = 64
"""A list literal of at most this many plain values is taken as written (a longer one is
measured, as every computed value is)."""


def _plain(expr: ast.Tuple) -> bool:
    """A short list of literals (`["http", "metrics"]`)."""
    return len(expr.items) <= _SHORT and all(type(item) is ast.Literal for item in expr.items)


@dataclass(slots=True)
class Evaluator:
    """Evaluates expressions of one source file with a fixed function table."""

    source: SourceFile
    functions: Mapping[str, Function]
    constants_only: bool = False
    """Evaluate as HCL does with no context (defaults, var files, --var): no references, no calls."""
    special: dict[str, Callable[[ast.FunctionCall, Scope], Value]] = field(default_factory=dict)
    budget: Budget = field(default_factory=Budget)

    def __post_init__(self) -> None:
        self.special = {"can": self._can, "try": self._try, "convert": self._convert}

    # ---- entry ------------------------------------------------------------------

    def eval(self, expr: ast.Expr, scope: Scope) -> Value:
        """The value of ``expr``; raises :class:`Failure` on any error."""
        method = _DISPATCH.get(type(expr))
        if method is None:
            raise Failure(HG117, f"cannot evaluate a {type(expr).__name__}", expr.span)
        return method(self, expr, scope)

    def value(self, expr: ast.Expr, scope: Scope) -> Value:
        """The value of an attribute, a function's argument or an operand of ``==``,
        measured against the budget of a function's result (see :mod:`hclgpu.eval.budget`)."""
        if isinstance(expr, ast.Literal):  # most values: nothing to evaluate, nothing to measure
            return expr.value
        if isinstance(expr, ast.Tuple) and _plain(expr):
            return [item.value for item in expr.items]  # type: ignore[union-attr]
        value = self.eval(expr, scope)
        try:
            self.budget.measure(value)
        except ResultTooLarge:
            raise Failure(
                HG117,
                f"the value would hold more than {MAX_RESULT_VALUES:,} values or "
                f"{MAX_RESULT_TEXT // 2**20} MiB of text, hclgpu's limit for a value",
                expr.span,
                help="a part used several times counts each time it appears",
            ) from None
        except TooMuchWork as error:
            raise Failure(HG117, str(error), expr.span) from None
        return value

    def text(self, span: Span) -> str:
        return self.source.text[span.start : span.end]

    def visit(self, count: int, span: Span, cost: int = 1) -> None:
        """Count ``count`` loop elements about to be visited by the loop over ``span``."""
        try:
            self.budget.visit(count, cost)
        except TooMuchWork as error:
            help = "nested `for` expressions and `dynamic` blocks multiply: iterate over less"
            raise Failure(HG117, str(error), span, help=help) from None

    # ---- leaves -----------------------------------------------------------------

    def _literal(self, expr: ast.Literal, scope: Scope) -> Value:
        return expr.value

    def _parens(self, expr: ast.Parens, scope: Scope) -> Value:
        return self.eval(expr.expr, scope)

    def _variable(self, expr: ast.Variable, scope: Scope) -> Value:
        if expr.name in scope:
            return scope[expr.name]
        return self._runtime(expr.name, expr.span)

    def _runtime(self, root: str, span: Span) -> Value:
        """A reference to something only known at run time: keep its text."""
        if self.constants_only:
            raise Failure(
                HG117,
                "variables are not allowed here",
                span,
                help="a default, a var file and a --var value must be constants",
            )
        if root in REAL_ROOTS:
            raise Failure(
                HG117,
                f"`{root}` cannot be used on its own",
                span,
                help=f"refer to one of its attributes, like `{root}.name`",
            )
        return "${" + self.text(span) + "}"

    # ---- traversals -------------------------------------------------------------

    def _traversal(self, expr: ast.Traversal, scope: Scope) -> Value:
        source = expr.source
        if isinstance(source, ast.Variable) and source.name not in scope:
            return self._runtime(source.name, expr.span)
        value = self.eval(source, scope)
        if isinstance(source, ast.Variable) and source.name in REAL_ROOTS and isinstance(value, dict):
            self._check_declared(source.name, value, expr.steps[0])
            step = expr.steps[0]
            if isinstance(step, ast.GetAttr) and value.get(step.name) is UNSET:
                raise Failure(HG110, f"`{source.name}.{step.name}` has no value", expr.span, silent=True)
        return self._steps(value, expr.steps, 0, scope, source)

    def _check_declared(self, root: str, declared: Value, step: ast.Step) -> None:
        """`var.x` / `local.x` must name something declared: a located HG111 otherwise."""
        if not isinstance(step, ast.GetAttr) or not isinstance(declared, dict) or step.name in declared:
            return
        what = "no variable named" if root == "var" else "no local value named"
        name_only = Span(step.span.end - len(step.name), step.span.end)
        raise Failure(
            HG111,
            f"{what} `{step.name}` is declared",
            name_only,
            help=did_you_mean(step.name, list(declared))
            or (f'declare it with `variable "{step.name}" {{}}`' if root == "var" else None),
        )

    def _steps(
        self, value: Value, steps: list[ast.Step], start: int, scope: Scope, source: ast.Expr
    ) -> Value:
        i = start
        while i < len(steps):
            step = steps[i]
            if isinstance(step, ast.Splat) and step.full:  # `[*]`: every later step, per element
                return self._splat(value, steps[i + 1 :], scope, source)
            if isinstance(step, ast.Splat):  # `.*`: only the `.name` and `.0` steps that follow
                end = i + 1
                while end < len(steps) and isinstance(steps[end], (ast.GetAttr, ast.LegacyIndex)):
                    end += 1
                value = self._splat(value, steps[i + 1 : end], scope, source)
                i = end
                continue
            value = self._step(value, step, scope, source)
            i += 1
        return value

    def _splat(self, value: Value, steps: list[ast.Step], scope: Scope, source: ast.Expr) -> Value:
        if value is None:
            return []
        items = value if isinstance(value, list) else [value]
        return [self._steps(item, steps, 0, scope, source) for item in items]

    def _step(self, value: Value, step: ast.Step, scope: Scope, source: ast.Expr) -> Value:
        if isinstance(step, ast.GetAttr):
            return self._get_attr(value, step, source)
        if isinstance(step, ast.LegacyIndex):
            return self._index(value, step.index, step.span)
        assert isinstance(step, ast.Index)
        return self._index(value, self.eval(step.key, scope), step.span)

    def _get_attr(self, value: Value, step: ast.GetAttr, source: ast.Expr) -> Value:
        if isinstance(value, dict):
            if step.name in value:
                return value[step.name]
            raise Failure(
                HG117,
                f"this object has no attribute named `{step.name}`",
                step.span,
                help=_iterator_help(value, source) or did_you_mean(step.name, list(value)),
            )
        if value is None:
            raise Failure(HG117, "attempt to get an attribute from a null value", step.span)
        raise Failure(HG117, f"cannot get attribute `{step.name}` of a {type_name(value)} value", step.span)

    def _index(self, value: Value, key: Value, span: Span) -> Value:
        if value is None:
            raise Failure(HG117, "cannot index a null value", span)
        if isinstance(value, list):
            try:
                position = to_number(key)
            except EvalError as error:
                raise Failure(HG117, f"invalid index: {error.message}", span) from None
            if isinstance(position, float):
                if not position.is_integer():
                    raise Failure(HG117, f"the index {position} is not a whole number", span)
                position = int(position)  # -0
            if not 0 <= position < len(value):
                raise Failure(
                    HG117, f"the index {position} is out of range for a list of {len(value)} elements", span
                )
            return value[position]
        if isinstance(value, dict):
            try:
                name = to_string(key)
            except EvalError as error:
                raise Failure(HG117, f"invalid index: {error.message}", span) from None
            if name not in value:
                raise Failure(
                    HG117,
                    f"the given key {name!r} does not identify an element of this map",
                    span,
                    help=did_you_mean(name, list(value)),
                )
            return value[name]
        raise Failure(HG117, f"a {type_name(value)} value cannot be indexed", span)

    # ---- constructors -----------------------------------------------------------

    def _tuple(self, expr: ast.Tuple, scope: Scope) -> Value:
        return [self.eval(item, scope) for item in expr.items]

    def _object(self, expr: ast.Object, scope: Scope) -> Value:
        result: dict[str, Value] = {}
        for item in expr.items:
            key = self.object_key(item.key, scope)
            result[key] = self.eval(item.value, scope)
        return result

    def object_key(self, key: ast.Expr, scope: Scope) -> str:
        """An object key: a bare name is the name itself, anything else is evaluated."""
        if isinstance(key, ast.Variable):
            return key.name
        if isinstance(key, ast.Traversal):
            raise Failure(
                HG117,
                "ambiguous attribute key",
                key.span,
                help="wrap a reference in parentheses, or a name containing periods in quotes",
            )
        value = self.eval(key, scope)
        try:
            return to_string(value)
        except EvalError as error:
            raise Failure(HG117, f"invalid object key: {error.message}", key.span) from None

    # ---- templates --------------------------------------------------------------

    def _template(self, expr: ast.Template, scope: Scope) -> Value:
        parts = expr.parts
        if expr.heredoc is None and len(parts) == 1 and isinstance(parts[0], ast.Interpolation):
            only = parts[0]
            runtime = self._runtime_interpolation(only, scope)
            return runtime if runtime is not None else self.eval(only.expr, scope)
        pieces = self._render(parts, scope)
        if sum(map(len, pieces)) > MAX_RESULT_TEXT:
            raise Failure(
                HG117,
                f"the template's text would exceed {MAX_RESULT_TEXT // 2**20} MiB, hclgpu's limit "
                "for a string",
                expr.span,
            )
        return "".join(pieces)

    def _runtime_interpolation(self, part: ast.Interpolation, scope: Scope) -> str | None:
        """The interpolation as written when it only names a run-time reference."""
        inner = part.expr
        root = inner.source if isinstance(inner, ast.Traversal) else inner
        if isinstance(root, ast.Variable) and root.name not in scope and root.name not in REAL_ROOTS:
            return self.text(part.span)
        return None

    def _render(self, parts: list[ast.TemplatePart], scope: Scope) -> list[str]:
        """The template's text; `~` strip markers were already applied when it was parsed."""
        out: list[str] = []
        for part in parts:
            if isinstance(part, ast.TemplateText):
                out.append(part.text)
            elif isinstance(part, ast.Interpolation):
                out.append(self._interpolate(part, scope))
            elif isinstance(part, ast.TemplateIf):
                out.extend(self._template_if(part, scope))
            else:
                out.extend(self._template_for(part, scope))
        return out

    def _interpolate(self, part: ast.Interpolation, scope: Scope) -> str:
        runtime = self._runtime_interpolation(part, scope)
        if runtime is not None:
            return runtime
        value = self.eval(part.expr, scope)
        if value is None:
            raise Failure(
                HG117, "the interpolated value is null", part.expr.span, help="a template needs a value"
            )
        try:
            return to_string(value)
        except EvalError as error:
            message = f"invalid template interpolation value: {error.message}"
            raise Failure(HG117, message, part.expr.span) from None

    def _template_if(self, part: ast.TemplateIf, scope: Scope) -> list[str]:
        if self._condition(part.condition, scope):
            return self._render(part.then, scope)
        return self._render(part.otherwise or [], scope)

    def _template_for(self, part: ast.TemplateFor, scope: Scope) -> list[str]:
        out: list[str] = []
        for key, value in self._iterate(part.collection, scope):
            inner = dict(scope)
            if part.key_var:
                inner[part.key_var] = key
            inner[part.value_var] = value
            out.extend(self._render(part.body, inner))
        return out

    # ---- operators --------------------------------------------------------------

    def _unary(self, expr: ast.UnaryOp, scope: Scope) -> Value:
        value = self.eval(expr.operand, scope)
        try:
            if expr.op == "!":
                return not to_bool(value)
            operand = to_number(value)
            if operand == 0:  # cty negates a big.Float, which has a signed zero: `-0` is "-0"
                return 0 if math.copysign(1.0, operand) < 0 else -0.0
            return -operand if isinstance(operand, BigFloat) else number(-operand)
        except (EvalError, OverflowError) as error:
            error = error if isinstance(error, EvalError) else EvalError(str(error))
            message = f"invalid operand for `{expr.op}`: {error.message}"
            raise Failure(HG117, message, expr.operand.span) from None

    def _binary(self, expr: ast.BinaryOp, scope: Scope) -> Value:
        op = expr.op
        if op in ("&&", "||"):
            return self._logical(expr, scope)
        left = self.value(expr.left, scope)  # measured: equality walks both values whole
        right = self.value(expr.right, scope)
        if op == "==":
            return equal(left, right)
        if op == "!=":
            return not equal(left, right)
        a = self._number_operand(left, expr.left, op)
        b = self._number_operand(right, expr.right, op)
        try:
            return _arithmetic(op, a, b, expr)
        except (EvalError, ValueError, OverflowError) as error:
            message = error.message if isinstance(error, EvalError) else str(error)
            raise Failure(HG117, f"`{op}` cannot be computed: {message}", expr.span) from None

    def _logical(self, expr: ast.BinaryOp, scope: Scope) -> bool:
        left = self._bool_operand(self.eval(expr.left, scope), expr.left, expr.op)
        right = self._bool_operand(self.eval(expr.right, scope), expr.right, expr.op)
        return (left and right) if expr.op == "&&" else (left or right)

    def _number_operand(self, value: Value, node: ast.Expr, op: str) -> int | float:
        try:
            return to_number(value)
        except EvalError as error:
            raise Failure(HG117, f"invalid operand for `{op}`: {error.message}", node.span) from None

    def _bool_operand(self, value: Value, node: ast.Expr, op: str) -> bool:
        try:
            return to_bool(value)
        except EvalError as error:
            raise Failure(HG117, f"invalid operand for `{op}`: {error.message}", node.span) from None

    def _condition(self, node: ast.Expr, scope: Scope) -> bool:
        value = self.eval(node, scope)
        if value is None:
            raise Failure(
                HG117, "the condition value is null", node.span, help="conditions must be true or false"
            )
        try:
            return to_bool(value)
        except EvalError as error:
            raise Failure(HG117, f"incorrect condition type: {error.message}", node.span) from None

    def _conditional(self, expr: ast.Conditional, scope: Scope) -> Value:
        """HCL evaluates both results and gives them one type (`true ? 1 : "a"` is `"1"`);
        only the chosen result's errors count."""
        if self._condition(expr.condition, scope):
            chosen, other = expr.true, expr.false
        else:
            chosen, other = expr.false, expr.true
        value = self.eval(chosen, scope)
        try:
            alternative = self.eval(other, scope)
        except Failure:
            return value
        return _unify(value, alternative, expr)

    # ---- for expressions --------------------------------------------------------

    def _iterate(self, node: ast.Expr, scope: Scope) -> list[tuple[Value, Value]]:
        collection = self.eval(node, scope)
        if isinstance(collection, list):
            self.visit(len(collection), node.span)
            return list(enumerate(collection))
        if isinstance(collection, dict):
            self.visit(len(collection), node.span)
            return [(key, collection[key]) for key in sorted(collection)]
        if collection is None:
            raise Failure(HG117, "cannot iterate over a null value", node.span)
        raise Failure(HG117, f"a {type_name(collection)} value cannot be iterated", node.span)

    def _for(self, expr: ast.ForExpr, scope: Scope) -> Value:
        tuple_result: list[Value] = []
        object_result: dict[str, Value] = {}
        for key, value in self._iterate(expr.collection, scope):
            inner = dict(scope)
            if expr.key_var:
                inner[expr.key_var] = key
            inner[expr.value_var] = value
            if expr.condition is not None and not self._condition(expr.condition, inner):
                continue
            if expr.key is None:
                tuple_result.append(self.eval(expr.value, inner))
                continue
            self._for_object_item(expr, inner, object_result)
        return tuple_result if expr.key is None else object_result

    def _for_object_item(self, expr: ast.ForExpr, scope: Scope, result: dict[str, Value]) -> None:
        assert expr.key is not None
        key_value = self.eval(expr.key, scope)
        try:
            key = to_string(key_value)
        except EvalError as error:
            raise Failure(HG117, f"invalid object key: {error.message}", expr.key.span) from None
        value = self.eval(expr.value, scope)
        if expr.grouping:
            result.setdefault(key, []).append(value)
        elif key in result:
            raise Failure(
                HG117,
                f"duplicate object key {key!r}",
                expr.key.span,
                help="add `...` after the value expression to group values by key",
            )
        else:
            result[key] = value

    # ---- function calls ---------------------------------------------------------

    def _call(self, expr: ast.FunctionCall, scope: Scope) -> Value:
        if self.constants_only:
            raise Failure(
                HG115,
                "function calls are not allowed here",
                expr.name_span,
                help="a default, a var file and a --var value must be constants",
            )
        special = self.special.get(expr.name)
        if special is not None:
            return special(expr, scope)
        function = self.functions.get(expr.name)
        if function is None:
            raise Failure(
                HG115,
                f"there is no function named `{expr.name}`",
                expr.name_span,
                help=did_you_mean(expr.name, list(self.functions) + list(self.special)),
            )
        args = [self.value(arg, scope) for arg in expr.args]
        if expr.expand_final and args:
            last = args.pop()
            if not isinstance(last, list):
                raise Failure(
                    HG116, "the final argument to expand with `...` must be a list", expr.args[-1].span
                )
            args.extend(last)
        problem = function.check_arity(len(args))
        if problem:
            raise Failure(HG116, problem, expr.span)
        spending = SPENDING.set(self.budget)
        try:
            return function.impl(*args)
        except TooMuchWork as error:
            raise Failure(HG117, str(error), expr.span) from None
        except EvalError as error:
            span = _argument_span(expr, error.arg)
            raise Failure(error.code or HG116, error.message, span) from None
        except RecursionError:
            raise
        except Exception as error:  # a function must never crash the whole run
            raise Failure(HG116, f"call to function `{expr.name}` failed: {error}", expr.span) from None
        finally:
            SPENDING.reset(spending)

    def _can(self, expr: ast.FunctionCall, scope: Scope) -> Value:
        if len(expr.args) != 1:
            raise Failure(HG116, "function `can` expects exactly one argument", expr.span)
        try:
            self.eval(expr.args[0], scope)
        except Failure:
            return False
        return True

    def _try(self, expr: ast.FunctionCall, scope: Scope) -> Value:
        if not expr.args:
            raise Failure(HG116, "function `try` needs at least one argument", expr.span)
        last: Failure | None = None
        for arg in expr.args:
            try:
                return self.eval(arg, scope)
            except Failure as failure:
                last = failure
        assert last is not None
        raise Failure(
            HG116,
            f"no expression given to `try` could be evaluated; the last failed: {last.message}",
            last.span,
        )

    def _convert(self, expr: ast.FunctionCall, scope: Scope) -> Value:
        from hclgpu.eval.types import TypeExprError, convert, parse_type

        if len(expr.args) != 2:
            raise Failure(HG116, "function `convert` expects a value and a type", expr.span)
        value = self.value(expr.args[0], scope)
        try:
            return convert(value, parse_type(expr.args[1]))
        except TypeExprError as error:
            raise Failure(HG116, error.message, error.node.span) from None
        except EvalError as error:
            raise Failure(HG116, f"invalid value for `convert`: {error.message}", expr.args[0].span) from None


def _kind(value: Value) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return type_name(value)


def _unify(value: Value, other: Value, expr: ast.Conditional) -> Value:
    """cty's unification of the two result types, applied to the chosen value."""
    if value is None or other is None:
        return value
    mine, theirs = _kind(value), _kind(other)
    if mine == theirs:
        return value
    if "string" in (mine, theirs) and {mine, theirs} <= {"string", "number", "bool"}:
        return to_string(value)
    raise Failure(
        HG117,
        f"inconsistent conditional result types: {mine} and {theirs}",
        expr.span,
        help="both results of `? :` must have the same type",
    )


def _iterator_help(value: Value, source: ast.Expr) -> str | None:
    """The classic trap: `dynamic "device"` names its iterator `device`, hiding `${device.*}`."""
    if isinstance(source, ast.Variable) and set(value) == {"key", "value"}:
        name = source.name
        return (
            f'`{name}` here is the iterator of a `dynamic "{name}"` block, which hides Nomad\'s '
            f"`${{{name}.…}}`; give the block `iterator = <other name>`, or write `$${{{name}.…}}`"
        )
    return None


def _argument_span(call: ast.FunctionCall, index: int | None) -> Span:
    if index is not None and 0 <= index < len(call.args):
        return call.args[index].span
    return call.span


def _arithmetic(op: str, a: int | float, b: int | float, expr: ast.BinaryOp) -> Value:
    if op in ("+", "-", "*", "/", "%"):
        if op in ("/", "%") and b == 0:
            raise Failure(HG117, "division by zero", expr.right.span)
        exact = arithmetic(op, a, b)  # cty's 512-bit big.Float, where float64 differs
        if exact is not None:
            return exact
    if op == "+":
        return number(a + b)
    if op == "-":
        return number(a - b)
    if op == "*":
        return number(a * b)
    if op in ("/", "%") and b == 0:
        raise Failure(HG117, "division by zero", expr.right.span)
    if op == "/":
        return number(a / b if isinstance(a, float) or isinstance(b, float) or a % b else a // b)
    if op == "%":
        return number(math.fmod(a, b) if isinstance(a, float) or isinstance(b, float) else _int_mod(a, b))
    comparisons = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}
    if op in comparisons:
        return comparisons[op]
    raise Failure(HG117, f"unknown operator `{op}`", expr.span)


def _int_mod(a: int, b: int) -> int:
    """Go's truncated remainder: the sign follows the dividend."""
    result = abs(a) % abs(b)
    return -result if a < 0 else result


_DISPATCH: dict[type, Callable[[Evaluator, ast.Expr, Scope], Value]] = {
    ast.Literal: Evaluator._literal,  # type: ignore[dict-item]
    ast.Parens: Evaluator._parens,  # type: ignore[dict-item]
    ast.Variable: Evaluator._variable,  # type: ignore[dict-item]
    ast.Traversal: Evaluator._traversal,  # type: ignore[dict-item]
    ast.Tuple: Evaluator._tuple,  # type: ignore[dict-item]
    ast.Object: Evaluator._object,  # type: ignore[dict-item]
    ast.Template: Evaluator._template,  # type: ignore[dict-item]
    ast.UnaryOp: Evaluator._unary,  # type: ignore[dict-item]
    ast.BinaryOp: Evaluator._binary,  # type: ignore[dict-item]
    ast.Conditional: Evaluator._conditional,  # type: ignore[dict-item]
    ast.ForExpr: Evaluator._for,  # type: ignore[dict-item]
    ast.FunctionCall: Evaluator._call,  # type: ignore[dict-item]
}
