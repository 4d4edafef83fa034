"""AST to IR: decode a job block into models, as strictly as Nomad's gohcl decoder.

The walk is generic — each model's schema (from its ``Hcl`` markers) says which
attributes and blocks a body may hold — and every deviation is a located HG1xx
diagnostic: unknown arguments and blocks (with "did you mean"), missing or extra
labels, duplicate singleton blocks, missing required arguments, unsuitable values.
Models Nomad decodes with custom code (constraints, affinities, jobs, groups, tasks)
get the same treatment in :mod:`hclgpu.ir.custom`. Values Nomad leaves unset stay
``None``; defaults are applied only by :mod:`hclgpu.ir.normalize` (what jobspec2
itself does) and :mod:`hclgpu.ir.canonical` (what the HTTP agent adds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hclgpu.codes.base import Code
from hclgpu.codes.evaluation import HG101, HG102, HG103, HG104, HG105, HG106, HG117
from hclgpu.codes.syntax import HG012
from hclgpu.diagnostics import Edit, Related, Sink
from hclgpu.eval.dynamic import Problem, body_as_data, items
from hclgpu.eval.expr import Evaluator, Failure, Scope, did_you_mean, suggested
from hclgpu.eval.values import EvalError, Value
from hclgpu.ir.base import Node
from hclgpu.ir.schema import (
    REMOVED,
    FieldSpec,
    Schema,
    convert_value,
    labelled_blocks,
    map_value_type,
    schema_of,
)
from hclgpu.source import Span
from hclgpu.syntax import ast

Item = tuple[ast.Attribute | ast.Block, Scope]
CustomDecoder = Callable[["Decoder", ast.Body, Scope, Span], Node]


@dataclass(slots=True)
class Body:
    """A body split by kind after `dynamic` expansion, ready for schema checks."""

    span: Span
    attributes: list[tuple[ast.Attribute, Scope]] = field(default_factory=list)
    blocks: list[tuple[ast.Block, Scope]] = field(default_factory=list)

    def take_blocks(self, name: str) -> list[tuple[ast.Block, Scope]]:
        taken = [b for b in self.blocks if b[0].type == name]
        self.blocks = [b for b in self.blocks if b[0].type != name]
        return taken

    def take_attribute(self, name: str) -> tuple[ast.Attribute, Scope] | None:
        for entry in self.attributes:
            if entry[0].name == name:
                self.attributes.remove(entry)
                return entry
        return None


def opening_brace(body: Span) -> Span:
    """The `{` of a block, where gohcl reports what is missing from its body."""
    return Span(max(body.start - 1, 0), body.start)


class Decoder:
    """Decodes bodies into models, reporting problems to a sink."""

    def __init__(self, evaluator: Evaluator, sink: Sink, custom: Mapping[str, CustomDecoder]) -> None:
        self.evaluator = evaluator
        self.custom = custom
        """Decoders for the models jobspec2 decodes with its own code, by model name."""
        self.source = evaluator.source
        self.sink = sink

    # ---- reporting --------------------------------------------------------------

    def error(
        self,
        code: Code,
        message: str,
        span: Span | None,
        help: str | None = None,
        related: Iterable[Related] = (),
        fix: Iterable[Edit] = (),
        *,
        check: str | None = None,
        fix_safe: bool = False,
    ) -> None:
        """Report a finding; ``check`` names which of the code's named checks found it."""
        self.sink.emit(
            code, message, self.source, span,
            help=help, related=related, fix=fix, check=check, fix_safe=fix_safe,
        )  # fmt: skip

    def failure(self, failure: Failure) -> None:
        if failure.silent:
            return
        failure.emit(self.sink, self.source)

    # ---- values -----------------------------------------------------------------

    def eval(self, expr: ast.Expr, scope: Scope) -> tuple[bool, Value]:
        """Evaluate, reporting a failure; returns (ok, value)."""
        try:
            return True, self.evaluator.value(expr, scope)
        except Failure as failure:
            self.failure(failure)
        except RecursionError:
            self.error(HG012, "the expression is nested too deeply to evaluate", expr.span)
        return False, None

    def value(
        self, attribute: ast.Attribute, scope: Scope, annotation: Any, go: str = ""
    ) -> tuple[bool, Value]:
        """Evaluate an attribute and convert it to the field's type."""
        ok, value = self.eval(attribute.value, scope)
        if not ok:
            return False, None
        try:
            return True, convert_value(value, annotation, go)
        except EvalError as error:
            self.error(
                HG106, f"unsuitable value for `{attribute.name}`: {error.message}", attribute.value.span
            )
            return False, None

    def data(self, body: ast.Body, scope: Scope) -> dict[str, Value]:
        """A schemaless body (task `config`, scaling `policy`) as data. An argument whose value
        is null is left out, as Nomad leaves it out: its decoder stores each top-level value
        with ``reflect.Value.SetMapIndex``, and a null is the zero Value, which deletes the
        key (jobspec2/parse_map.go:52-58 at aa026cc99c); nulls inside values stay."""
        try:
            data = body_as_data(body, scope, self.evaluator)
            return {key: value for key, value in data.items() if value is not None}
        except Failure as failure:
            self.failure(failure)
        except EvalError as error:
            self.error(HG117, error.message, body.span)
        except RecursionError:
            self.error(HG012, "the value is nested too deeply to evaluate", body.span)
        return {}

    def _problems(self, problems: list[Problem]) -> None:
        for problem in problems:
            self.error(problem.code, problem.message, problem.span, problem.help)

    # ---- bodies -----------------------------------------------------------------

    def split(self, body: ast.Body, scope: Scope, model: type[Node] | None = None) -> Body:
        """Expand `dynamic` blocks and split the body (of a ``model``) into attributes and blocks."""
        split = Body(body.span)
        attributes, blocks = split.attributes, split.blocks
        for item in body.items:  # most bodies hold no `dynamic` block: nothing to expand
            if isinstance(item, ast.Attribute):
                attributes.append((item, scope))
            elif item.type != "dynamic":
                blocks.append((item, scope))
            else:
                return self._expanded(body, scope, model)
        return split

    def _expanded(self, body: ast.Body, scope: Scope, model: type[Node] | None) -> Body:
        split = Body(body.span)
        problems: list[Problem] = []
        labelled = labelled_blocks(model) if model is not None else frozenset()
        try:
            for item, inner in items(body, scope, self.evaluator, problems, labelled):
                if isinstance(item, ast.Attribute):
                    split.attributes.append((item, inner))
                else:
                    split.blocks.append((item, inner))
        except Failure as failure:
            self.failure(failure)
        self._problems(problems)
        return split

    def block(
        self, block: ast.Block, scope: Scope, model: type[Node], labels: list[FieldSpec]
    ) -> Node | None:
        """Decode one block into ``model`` after checking its labels."""
        if len(block.labels) != len(labels) and not self.labels_ok(block, [spec.hcl.name for spec in labels]):
            return None
        node = self.model(block.body, scope, model, block.span)
        for spec, label in zip(labels, block.labels, strict=False):
            setattr(node, spec.name, label.value)
        return node

    def labels_ok(self, block: ast.Block, names: list[str]) -> bool:
        """gohcl's label checks: exactly as many labels as the struct has label fields."""
        wanted = len(names)
        if len(block.labels) == wanted:
            return True
        if len(block.labels) < wanted:
            missing = names[len(block.labels)]
            self.error(
                HG105,
                f"a `{block.type}` block needs {wanted} label(s); the {missing or 'name'} is missing",
                block.labels[-1].span if block.labels else block.type_span,
                help=f'write `{block.type} "{missing or "name"}" {{ ... }}`',
            )
        else:
            extra = block.labels[wanted]
            expected = f"only {wanted} label(s) are" if wanted else "no labels are"
            self.error(HG105, f"{expected} expected for `{block.type}` blocks", extra.span)
        return False

    def model(self, body: ast.Body, scope: Scope, model: type[Node], span: Span) -> Node:
        """Decode a body into ``model``, with the model's custom decoder if it has one."""
        decoder = self.custom.get(model.__name__)
        return decoder(self, body, scope, span) if decoder else self.body(body, scope, model, span)

    def body(self, body: ast.Body, scope: Scope, model: type[Node], span: Span) -> Node:
        """Decode a body into ``model`` with the model's schema (the generic gohcl path)."""
        return self.fill(self.split(body, scope, model), model, span)

    def fill(self, body: Body, model: type[Node], span: Span) -> Node:
        """Check a split body against the model's schema and build the model (custom decoders
        take what they handle out of the body first)."""
        schema = schema_of(model)
        values: dict[str, Value] = {}
        self._attributes(body, schema, values)
        if body.blocks:
            self._blocks(body, schema, values)
        self._required(body, schema)
        return model.build(**values, span=span)

    def _attributes(self, body: Body, schema: Schema, values: dict[str, Value]) -> None:
        """Attributes set twice were rejected with the syntax (:mod:`hclgpu.syntax.redefined`)."""
        specs = schema.attributes
        for attribute, scope in body.attributes:
            spec = specs.get(attribute.name)
            if spec is None:
                self.unknown_attribute(attribute, schema)
                continue
            expr = attribute.value
            if spec.plain_text and type(expr) is ast.Literal and type(expr.value) is str:
                values[spec.name] = expr.value  # what convert_value returns for it, sooner
                continue
            ok, value = self.value(attribute, scope, spec.annotation, spec.hcl.go)
            if ok:
                values[spec.name] = value

    def unknown_attribute(self, attribute: ast.Attribute, schema: Schema) -> None:
        help: str | None
        removed = REMOVED.get((schema.owner, attribute.name))
        if removed is not None:  # one clear error, in place of "not expected here"
            release, help = removed
            message = f"`{attribute.name}` was removed in Nomad {release}"
            from hclgpu.ir.moves import replace_lines

            # deleting it is what the release needs, but what replaced it is the author's to add
            deleted = replace_lines(self.source.text, attribute.span, [])
            self.error(HG101, message, attribute.name_span, help, fix=deleted)
            return
        if attribute.name in schema.blocks:
            help = f"`{attribute.name}` is a block: write `{attribute.name} {{ ... }}`"
        else:
            help = did_you_mean(attribute.name, list(schema.attributes))
        self.error(
            HG101,
            f"an argument named `{attribute.name}` is not expected here",
            attribute.name_span,
            help,
            fix=_rename(attribute.name_span, suggested(help)),
        )

    def unknown_block(self, block: ast.Block, schema: Schema, siblings: list[ast.Block]) -> None:
        help: str | None
        message = f"blocks of type `{block.type}` are not expected here"
        home = _home(block.type, schema)
        if home is not None:  # a `device` written in the task, not in its `resources`
            from hclgpu.ir.moves import move_into

            help = f"`{block.type}` blocks go inside `{home} {{ ... }}`: move it there"
            moved = move_into(self.source.text, block, home, siblings)
            self.error(HG102, message, block.type_span, help, fix=moved, fix_safe=True)
            return
        if block.type in schema.attributes:
            help = f"`{block.type}` is an argument: write `{block.type} = ...`"
        else:
            help = did_you_mean(block.type, list(schema.blocks))
        self.error(HG102, message, block.type_span, help, fix=_rename(block.type_span, suggested(help)))

    def _blocks(self, body: Body, schema: Schema, values: dict[str, Value]) -> None:
        grouped: dict[str, list[tuple[ast.Block, Scope]]] = {}
        for block, scope in body.blocks:
            if block.type not in schema.blocks:
                self.unknown_block(block, schema, [b for b, _ in body.blocks])
                continue
            grouped.setdefault(block.type, []).append((block, scope))
        for name, blocks in grouped.items():
            spec = schema.blocks[name]
            decoded = self._block_field(spec, blocks)
            if decoded is not None:
                values[spec.name] = decoded

    def _block_field(self, spec: FieldSpec, blocks: list[tuple[ast.Block, Scope]]) -> Value:
        if spec.container is None:
            if len(blocks) > 1:
                blocks = self.singleton(blocks)
            return self._one_block(spec, *blocks[0])
        decoded = [(b, self._one_block(spec, b, s)) for b, s in blocks]
        if spec.container == "list":
            return [node for _, node in decoded if node is not None]
        by_label = {b.labels[0].value: node for b, node in decoded if node is not None and b.labels}
        return {key: by_label[key] for key in sorted(by_label)}

    def singleton(self, blocks: list[tuple[ast.Block, Scope]]) -> list[tuple[ast.Block, Scope]]:
        """Report every block after the first of a type that may appear once."""
        first = blocks[0][0]
        for extra, _ in blocks[1:]:
            self.error(
                HG104,
                f"only one `{extra.type}` block is allowed here",
                extra.type_span,
                related=[Related(first.type_span, "the first one is here")],
            )
        return blocks[:1]

    def _one_block(self, spec: FieldSpec, block: ast.Block, scope: Scope) -> Value:
        if spec.model is not None:
            labels = schema_of(spec.model).labels
            if spec.container == "dict" and not labels:  # keyed by a label the model does not keep
                if not self.labels_ok(block, ["name"]):
                    return None
                return self.model(block.body, scope, spec.model, block.span)
            return self.block(block, scope, spec.model, labels)
        if not self.labels_ok(block, []):
            return None
        if spec.hcl.go == "any":
            return self.data(block.body, scope)
        return self.map_block(block, scope, spec)

    def map_block(self, block: ast.Block, scope: Scope, spec: FieldSpec) -> Value:
        """A block decoded into a map (`meta { }`, `env { }`): every attribute is an entry."""
        body = self.split(block.body, scope)
        for inner, _ in body.blocks:
            self.error(HG102, f"blocks are not expected inside `{block.type}`", inner.type_span)
        entries: dict[str, Value] = {}
        value_type = map_value_type(spec.annotation)
        for attribute, inner_scope in body.attributes:
            ok, value = self.value(attribute, inner_scope, value_type, spec.hcl.go)
            if ok and value is None:
                self.error(HG106, f"`{attribute.name}` cannot be null here", attribute.value.span)
            elif ok:
                entries[attribute.name] = value
        return {key: entries[key] for key in sorted(entries)}

    def _required(self, body: Body, schema: Schema) -> None:
        """gohcl reports a missing argument at the body's opening brace."""
        if not schema.required:
            return
        present = {attribute.name for attribute, _ in body.attributes}
        for name in schema.required:
            if name not in present:
                self.error(
                    HG103,
                    f"the argument `{name}` is required, but no definition was found",
                    opening_brace(body.span),
                )


def _home(block_type: str, schema: Schema) -> str | None:
    """The block directly inside this one where a ``block_type`` block belongs, if one does."""
    for name, spec in schema.blocks.items():
        if spec.model is not None and block_type in schema_of(spec.model).blocks:
            return name
    return None


def _rename(span: Span, name: str | None) -> tuple[Edit, ...]:
    return (Edit(span, name),) if name is not None else ()
