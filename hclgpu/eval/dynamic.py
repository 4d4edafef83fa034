"""`dynamic` blocks, and schemaless bodies read as data (task `config`).

``dynamic "device" { for_each = ..., iterator = gpu, labels = [...], content { } }``
stands for one ``device`` block per element of ``for_each``; inside ``content`` (and
``labels``) the iterator is bound to ``{key, value}``. The iterator's default name is
the block type, which is why ``dynamic "device"`` without ``iterator`` hides
``${device.attr.*}`` from its content, exactly as in Nomad. Expansion happens one
body at a time as the decoder walks down, so nested ``dynamic`` blocks see the
iterators of the blocks around them.

Schemaless bodies follow jobspec2's ``BlocksAsAttrs``: attributes become map entries
(an object literal is wrapped in a one-element list, as HCL1 did), and blocks become
lists of maps grouped by type, each label adding a level of nesting. Numbers are
printed as Go prints the float64 they become.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from hclgpu.codes.base import Code
from hclgpu.codes.evaluation import HG119
from hclgpu.eval.budget import BLOCK_COST
from hclgpu.eval.expr import Evaluator, Failure, Scope
from hclgpu.eval.values import EvalError, Value, number, to_string, type_name
from hclgpu.source import Span, looks_like_json
from hclgpu.syntax import ast

DYNAMIC_ATTRIBUTES = ("for_each", "iterator", "labels")


@dataclass(slots=True)
class Problem:
    """A problem found while expanding; the decoder reports it."""

    code: Code
    message: str
    span: Span
    help: str | None = None


def items(
    body: ast.Body,
    scope: Scope,
    evaluator: Evaluator,
    problems: list[Problem],
    labelled: frozenset[str] = frozenset(),
) -> Iterator[tuple[ast.Attribute | ast.Block, Scope]]:
    """The body's attributes and blocks, with `dynamic` blocks expanded in place;
    ``labelled`` names the block types of the body that take labels."""
    for item in body.items:
        if isinstance(item, ast.Block) and item.type == "dynamic":
            yield from _expand(item, scope, evaluator, problems, labelled)
        else:
            yield item, scope


def _expand(
    block: ast.Block, scope: Scope, evaluator: Evaluator, problems: list[Problem], labelled: frozenset[str]
) -> Iterator[tuple[ast.Block, Scope]]:
    if len(block.labels) != 1:
        span = block.labels[1].span if len(block.labels) > 1 else block.type_span
        problems.append(
            Problem(HG119, "a `dynamic` block needs one label: the type of block to generate", span)
        )
        return
    spec = _read_spec(block, problems)
    if spec is None:
        return
    attributes, content = spec
    if block.labels[0].value in labelled and "labels" not in attributes:
        # hcl's dynblock decodes `labels` as required for such a type before `for_each` is
        # read: "Missing required argument" at the body's `{` (ext/dynblock/schema.go)
        opening = Span(block.body.span.start - 1, block.body.span.start)
        message = f"a `dynamic` block of `{block.labels[0].value}` blocks, which take labels, needs `labels`"
        problems.append(Problem(HG119, message, opening, "add `labels = [...]`, e.g. `labels = [gpu.value]`"))
        return
    iterator = _iterator_name(block, attributes.get("iterator"), problems)
    if iterator is None:
        return
    for_each = attributes.get("for_each")
    if for_each is None:
        problems.append(Problem(HG119, "a `dynamic` block needs a `for_each` argument", block.type_span))
        return
    for key, value in _elements(for_each.value, scope, evaluator):
        inner = dict(scope)
        inner[iterator] = {"key": key, "value": value}
        labels = _labels(attributes.get("labels"), inner, evaluator, block)
        generated = ast.Block(
            type=block.labels[0].value,
            type_span=block.labels[0].span,
            labels=labels,
            body=content.body,
            span=block.span,
        )
        yield generated, inner


def _read_spec(
    block: ast.Block, problems: list[Problem]
) -> tuple[dict[str, ast.Attribute], ast.Block] | None:
    attributes: dict[str, ast.Attribute] = {}
    contents: list[ast.Block] = []
    for item in block.body.items:
        if isinstance(item, ast.Attribute):
            if item.name in DYNAMIC_ATTRIBUTES:
                attributes[item.name] = item
            else:
                problems.append(
                    Problem(
                        HG119,
                        f"an argument named `{item.name}` is not expected in a `dynamic` block",
                        item.name_span,
                        "a `dynamic` block takes `for_each`, `iterator`, `labels` and one `content` block",
                    )
                )
        elif item.type == "content" and not item.labels:
            contents.append(item)
        else:
            problems.append(
                Problem(HG119, f"a `{item.type}` block is not expected in a `dynamic` block", item.type_span)
            )
    if len(contents) != 1:
        span = contents[1].type_span if contents else block.type_span
        problems.append(Problem(HG119, "a `dynamic` block needs exactly one `content` block", span))
        return None
    return attributes, contents[0]


def _iterator_name(block: ast.Block, attribute: ast.Attribute | None, problems: list[Problem]) -> str | None:
    if attribute is None:
        return block.labels[0].value
    if isinstance(attribute.value, ast.Variable):
        return attribute.value.name
    problems.append(Problem(HG119, "the `iterator` must be a bare name, like `gpu`", attribute.value.span))
    return None


def _elements(expr: ast.Expr, scope: Scope, evaluator: Evaluator) -> list[tuple[Value, Value]]:
    collection = evaluator.eval(expr, scope)
    if isinstance(collection, list):
        evaluator.visit(len(collection), expr.span, BLOCK_COST)
        return list(enumerate(collection))
    if isinstance(collection, dict):
        evaluator.visit(len(collection), expr.span, BLOCK_COST)
        return [(k, collection[k]) for k in sorted(collection)]
    if collection is None:
        raise Failure(HG119, "`for_each` cannot be null", expr.span, help="use an empty list for no blocks")
    raise Failure(HG119, f"`for_each` must be a list, set or map, not a {type_name(collection)}", expr.span)


def _labels(
    attribute: ast.Attribute | None, scope: Scope, evaluator: Evaluator, block: ast.Block
) -> list[ast.Label]:
    if attribute is None:
        return []
    values = evaluator.eval(attribute.value, scope)
    if not isinstance(values, list):
        raise Failure(HG119, "`labels` must be a list of strings", attribute.value.span)
    labels = []
    for value in values:
        try:
            labels.append(ast.Label(to_string(value), attribute.value.span))
        except EvalError as error:
            raise Failure(HG119, f"invalid label: {error.message}", attribute.value.span) from None
    return labels


# ---- schemaless bodies --------------------------------------------------------------


def body_as_data(body: ast.Body, scope: Scope, evaluator: Evaluator) -> dict[str, Value]:
    """A body with no schema (task `config`) as a map, the way jobspec2 reads it.

    A `dynamic` block here is not expanded: Nomad reads schemaless bodies as plain
    attributes, so it becomes a `dynamic` entry like any other block (nomad#15850).

    An object literal is wrapped in a list only in native syntax: ``BlocksAsAttrs`` takes
    only an ``hclsyntax`` body (jobspec2/hclutil/blockattrs.go:38-43 at aa026cc99c), and a
    JSON job's object stays a map.
    """
    native = not looks_like_json(evaluator.source.text)
    result: dict[str, Value] = {}
    grouped: dict[str, list[Value]] = {}
    for item in body.items:
        if isinstance(item, ast.Attribute):
            value = normalise(evaluator.value(item.value, scope))
            result[item.name] = [value] if native and isinstance(item.value, ast.Object) else value
        else:
            grouped.setdefault(item.type, []).append(_block_as_data(item, scope, evaluator))
    for name, blocks in grouped.items():
        result[name] = blocks
    return {key: result[key] for key in sorted(result)}


def _block_as_data(block: ast.Block, scope: Scope, evaluator: Evaluator) -> Value:
    value: Value = body_as_data(block.body, scope, evaluator)
    for label in reversed(block.labels):
        value = {label.value: [value]}
    return value


def normalise(value: Value) -> Value:
    """Schemaless data as Go's JSON encoder prints it: map keys sorted, numbers tidy.

    An integer beyond int64 reaches Go as a float64, and is printed as one; beyond
    float64's range it would be an infinity, which Go's encoder refuses, so it is an error.
    """
    if isinstance(value, dict):
        return {key: normalise(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [normalise(v) for v in value]
    if isinstance(value, bool):
        return value
    if isinstance(value, float):
        return number(value)
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        try:
            return float(value)
        except OverflowError:
            raise EvalError("the number is too large: Nomad passes it on as a 64-bit float") from None
    return value
