"""HCL JSON syntax: read a `{ ... }` job file into the same syntax tree as native syntax.

jobspec2 parses a job file with hashicorp/hcl's ``json`` package when its first byte
that is not a space is ``{``. In that syntax a property is an attribute or a block
only because the schema says so, and its string values are templates, so the file
cannot be turned into a tree on its own: this module walks the JSON document with
the decoder's schemas (:func:`~hclgpu.ir.schema.schema_of` plus the cases
:mod:`hclgpu.ir.custom` decodes by hand) and builds the :class:`~hclgpu.syntax.ast.File`
the native parser would have built for the equivalent native file. Everything after
that — variables, evaluation, decoding, diagnostics — is shared.

The rules follow hcl's ``json/structure.go``:

* a body is an object, or an array of objects whose properties are concatenated;
  ``"//"`` properties in a body are comments and are dropped;
* a block with N labels is nested N objects deep, keyed by label; at every level an
  array of objects stands for several blocks; ``null`` stands for none;
* strings are templates (``"${var.x}-y"``), except where jobspec2 evaluates without a
  context (a variable's ``description``, a validation's ``error_message``: verbatim)
  or reads an expression statically (a variable's ``type``, a dynamic block's
  ``iterator``: the string holds native expression syntax).

JSON is read by a small scanner that keeps code-point offsets, so every node, and every
node inside a parsed template, points back at the characters of the file it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

from hclgpu.codes import declared
from hclgpu.codes.base import Code
from hclgpu.codes.evaluation import HG105, HG106
from hclgpu.codes.syntax import HG001, HG012, HG014
from hclgpu.diagnostics import Related, Sink
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.ir.schema import schema_of
from hclgpu.numbers import NumberOutOfRange, parse_decimal
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast
from hclgpu.syntax.lexer import MAX_DEPTH


def parse_json_job(source: SourceFile, sink: Sink) -> ast.File | None:
    """Parse a job file written in HCL JSON syntax; None when it is not valid JSON.

    Problems with the JSON itself are HG001 syntax errors; problems with the way the
    document maps onto blocks are reported here too, everything else by the decoder.
    """
    try:
        root = _Scanner(source.text).document()
    except JsonError as error:
        sink.emit(error.code, error.message, source, error.span, help=error.help)
        return None
    except RecursionError:
        sink.emit(HG012, "the file is nested too deeply to process", source, None)
        return None
    if not isinstance(root, JObject):
        sink.emit(HG001, "a job file in JSON syntax must be one JSON object", source, root.span)
        return None
    try:
        return _Builder(source, sink).file(root)
    except RecursionError:
        sink.emit(HG012, "the file is nested too deeply to process", source, None)
        return None


# ---- JSON values with spans -----------------------------------------------------------


@dataclass(slots=True, eq=False)
class JString:
    value: str
    span: Span
    """The string token, quotes included."""
    escaped: bool
    """The token holds a backslash escape, so offsets in ``value`` and in the file differ."""


@dataclass(slots=True, eq=False)
class JNumber:
    value: int | float
    span: Span


@dataclass(slots=True, eq=False)
class JConst:
    """`true`, `false` or `null`."""

    value: bool | None
    span: Span


@dataclass(slots=True, eq=False)
class JArray:
    items: list[JValue]
    span: Span


@dataclass(slots=True, eq=False)
class JMember:
    key: JString
    value: JValue


@dataclass(slots=True, eq=False)
class JObject:
    members: list[JMember]
    """In document order; duplicate keys are kept (HCL JSON repeats block types)."""
    span: Span


JValue: TypeAlias = JString | JNumber | JConst | JArray | JObject


class JsonError(Exception):
    """Invalid JSON, located; a syntax error (HG001) unless ``code`` says otherwise."""

    def __init__(self, message: str, span: Span, help: str | None = None, code: Code = HG001) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.help = help
        self.code = code


# ---- the scanner -------------------------------------------------------------------------

_SPACE = re.compile(r"[ \t\r\n]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_PLAIN = re.compile(r'[^"\\\x00-\x1f]*')
_WORD = re.compile(r"[A-Za-z_][\w.-]*")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_CONSTANTS: dict[str, bool | None] = {"true": True, "false": False, "null": None}


class _Scanner:
    """A recursive-descent JSON reader (RFC 8259) that records offsets and keeps duplicate keys."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.depth = 0

    def document(self) -> JValue:
        self._space()
        value = self._value()
        self._space()
        if self.pos < len(self.text):
            raise self._error(
                "unexpected text after the end of the JSON document", help="a job file holds one JSON object"
            )
        return value

    # ---- helpers ----------------------------------------------------------------------

    def _space(self) -> None:
        match = _SPACE.match(self.text, self.pos)
        assert match is not None
        self.pos = match.end()

    def _found(self) -> str:
        if self.pos >= len(self.text):
            return "the end of the file"
        word = _WORD.match(self.text, self.pos)
        return f"`{word.group() if word else self.text[self.pos]}`"

    def _error(self, message: str, help: str | None = None) -> JsonError:
        """An error at the current character (or at the end of the file)."""
        end = min(self.pos + 1, len(self.text))
        if self.text.startswith(("//", "/*"), self.pos) or self.text.startswith("#", self.pos):
            return JsonError(
                "invalid JSON: comments are not allowed",
                Span(self.pos, end),
                help='a body may hold a "//" property as a comment',
            )
        return JsonError(f"invalid JSON: {message}", Span(self.pos, end), help)

    def _expect_value(self) -> JsonError:
        return self._error(f"expected a value, found {self._found()}")

    # ---- values -----------------------------------------------------------------------

    def _value(self) -> JValue:
        if self.pos >= len(self.text):
            raise self._expect_value()
        char = self.text[self.pos]
        if char in "{[":
            return self._nested(char)
        if char == '"':
            return self._string()
        number = _NUMBER.match(self.text, self.pos)
        if number is not None:
            return self._number(number)
        word = _WORD.match(self.text, self.pos)
        if word is not None and word.group() in _CONSTANTS:
            self.pos = word.end()
            return JConst(_CONSTANTS[word.group()], Span(word.start(), word.end()))
        if word is not None:
            raise self._error(
                f"expected a value, found {self._found()}",
                help="strings are quoted in JSON; an expression goes in a string as `${...}`",
            )
        raise self._expect_value()

    def _nested(self, char: str) -> JValue:
        """An object or an array, at most :data:`MAX_DEPTH` levels in (HG012 at the first
        bracket past it), as native syntax is."""
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise JsonError(
                    f"nesting is deeper than {MAX_DEPTH} levels",
                    Span(self.pos, self.pos + 1),
                    help="flatten the structure; real job files nest a few levels deep",
                    code=HG012,
                )
            return self._object() if char == "{" else self._array()
        finally:
            self.depth -= 1

    def _number(self, match: re.Match[str]) -> JNumber:
        text = match.group()
        self.pos = match.end()
        try:
            value = parse_decimal(text)
        except NumberOutOfRange as error:
            raise JsonError(str(error), Span(match.start(), match.end()), code=HG014) from None
        return JNumber(value, Span(match.start(), match.end()))

    def _object(self) -> JObject:
        start = self.pos
        self.pos += 1
        members: list[JMember] = []
        self._space()
        if self.text.startswith("}", self.pos):
            self.pos += 1
            return JObject(members, Span(start, self.pos))
        while True:
            self._space()
            if not self.text.startswith('"', self.pos):
                if self.text.startswith("}", self.pos) and members:
                    raise self._error("a trailing comma is not allowed after the last property")
                raise self._error(f"expected a property name in quotes, found {self._found()}")
            key = self._string()
            self._space()
            if not self.text.startswith(":", self.pos):
                raise self._error(f"expected `:` after the property name, found {self._found()}")
            self.pos += 1
            self._space()
            members.append(JMember(key, self._value()))
            self._space()
            if self.text.startswith(",", self.pos):
                self.pos += 1
                continue
            if self.text.startswith("}", self.pos):
                self.pos += 1
                return JObject(members, Span(start, self.pos))
            raise self._error(f"expected `,` or `}}` after a property, found {self._found()}")

    def _array(self) -> JArray:
        start = self.pos
        self.pos += 1
        items: list[JValue] = []
        self._space()
        if self.text.startswith("]", self.pos):
            self.pos += 1
            return JArray(items, Span(start, self.pos))
        while True:
            self._space()
            if self.text.startswith("]", self.pos) and items:
                raise self._error("a trailing comma is not allowed after the last element")
            items.append(self._value())
            self._space()
            if self.text.startswith(",", self.pos):
                self.pos += 1
                continue
            if self.text.startswith("]", self.pos):
                self.pos += 1
                return JArray(items, Span(start, self.pos))
            raise self._error(f"expected `,` or `]` after an element, found {self._found()}")

    def _string(self) -> JString:
        start = self.pos
        value, end, escaped = decode_string(self.text, start, None)
        self.pos = end
        return JString(value, Span(start, end), escaped)


def decode_string(text: str, start: int, offsets: list[int] | None) -> tuple[str, int, bool]:
    """Decode the JSON string token at ``start`` (its opening quote).

    Returns the value, the offset after the closing quote and whether the token holds
    an escape. With ``offsets``, the file offset of each decoded code point is
    appended, then the offset of the closing quote.
    """
    pos = start + 1
    out: list[str] = []
    escaped = False
    while True:
        plain = _PLAIN.match(text, pos)
        assert plain is not None
        if plain.end() > pos:
            out.append(plain.group())
            if offsets is not None:
                offsets.extend(range(pos, plain.end()))
            pos = plain.end()
        if pos >= len(text):
            raise JsonError(
                "invalid JSON: the string is never closed", Span(start, start + 1), help='close it with `"`'
            )
        char = text[pos]
        if char == '"':
            if offsets is not None:
                offsets.append(pos)
            return "".join(out), pos + 1, escaped
        if char != "\\":
            raise _control_character(char, start, pos)
        escaped = True
        decoded, after = _escape(text, pos)
        out.append(decoded)
        if offsets is not None:
            offsets.extend([pos] * len(decoded))
        pos = after


def _control_character(char: str, start: int, pos: int) -> JsonError:
    if char in "\r\n":
        return JsonError(
            "invalid JSON: the string is not closed before the end of its line",
            Span(start, pos),
            help='close the string with `"` on its line; write a line break inside a string as `\\n`',
        )
    return JsonError(
        f"invalid JSON: the control character U+{ord(char):04X} must be escaped in a string",
        Span(pos, pos + 1),
        help=f"write it as `\\u{ord(char):04x}`",
    )


def _escape(text: str, pos: int) -> tuple[str, int]:
    """One backslash escape at ``pos``: its text (surrogate pairs joined) and where it ends."""
    kind = text[pos + 1 : pos + 2]
    if kind in _ESCAPES:
        return _ESCAPES[kind], pos + 2
    if kind == "u":
        unit = _unit(text, pos)
        if 0xD800 <= unit < 0xDC00 and text.startswith("\\u", pos + 6):
            low = _unit(text, pos + 6)
            if 0xDC00 <= low < 0xE000:
                return chr(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)), pos + 12
        if 0xD800 <= unit < 0xE000:
            return "\ufffd", pos + 6  # Go's decoder replaces a lone surrogate
        return chr(unit), pos + 6
    raise JsonError(
        f"invalid JSON: `\\{kind}` is not a valid escape",
        Span(pos, pos + 1 + len(kind)),
        help='JSON escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX',
    )


def _unit(text: str, pos: int) -> int:
    digits = text[pos + 2 : pos + 6]
    if len(digits) != 4 or any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise JsonError(
            "invalid JSON: `\\u` must be followed by four hex digits",
            Span(pos, pos + 2 + len(digits)),
        )
    return int(digits, 16)


# ---- shapes: how the schema reads a JSON object as a body --------------------------------

Mode = Literal["template", "expression", "literal"]
"""How a string value is read: an HCL template, native expression syntax, or verbatim."""


@dataclass(frozen=True, slots=True)
class Rule:
    """A property that holds blocks: how many labels they take and the shape of their bodies."""

    labels: int
    shape: Shape


class Shape:
    """The shape of a body: which properties are blocks and how strings are read.

    The default shape holds only attributes whose strings are templates: the bodies
    jobspec2 reads with ``JustAttributes`` (``locals``, ``variables``, ``meta``, ``env``,
    task ``config``).
    """

    modes: ClassVar[dict[str, Mode]] = {}

    def rule(self, name: str) -> Rule | None:
        """The rule for a property that holds blocks; None for an attribute."""
        return None

    def mode(self, name: str) -> Mode:
        """How the string values of attribute ``name`` are read."""
        return self.modes.get(name, "template")

    def labelled(self, labels: list[str]) -> Shape:
        """The shape of a block's body once its labels are known (only `dynamic` needs them)."""
        return self


ATTRIBUTES = Shape()


class ValidationShape(Shape):
    """``validation { condition, error_message }``.

    jobspec2 decodes the message without a context (verbatim) but evaluates the
    condition with one, so in JSON the condition is a template: ``"${var.x > 1}"``.
    """

    modes: ClassVar[dict[str, Mode]] = {"error_message": "literal"}


class VariableShape(Shape):
    """A ``variable`` block: ``type`` is read statically (``typeexpr``), ``description`` verbatim."""

    modes: ClassVar[dict[str, Mode]] = {"type": "expression", "description": "literal"}

    def rule(self, name: str) -> Rule | None:
        return Rule(0, ValidationShape()) if name == "validation" else None


@dataclass(frozen=True, slots=True)
class ModelShape(Shape):
    """The body of a block decoded into ``model``: its schema names the block properties."""

    model: type[Node]

    EXTRA: ClassVar[dict[tuple[str, str], tuple[int, type[Node]]]] = {
        ("Job", "vault"): (0, m.Vault),
        ("Job", "task"): (1, m.Task),
        ("TaskGroup", "vault"): (0, m.Vault),
        ("Task", "scaling"): (1, m.ScalingPolicy),
    }
    """Blocks :mod:`hclgpu.ir.custom` decodes that the models' schemas do not declare."""

    def rule(self, name: str) -> Rule | None:
        if name == "dynamic":
            return Rule(1, DynamicShape(self))
        extra = self.EXTRA.get((self.model.__name__, name))
        if extra is not None:
            return Rule(extra[0], ModelShape(extra[1]))
        spec = schema_of(self.model).blocks.get(name)
        if spec is None:
            return None
        if spec.model is None:  # a map (`meta`, `env`) or schemaless data (`config`)
            return Rule(0, ATTRIBUTES)
        labels = len(schema_of(spec.model).labels)
        if spec.container == "dict" and not labels:
            labels = 1  # the decoder keys such blocks by a label the model does not hold
        return Rule(labels, ModelShape(spec.model))


@dataclass(frozen=True, slots=True)
class DynamicShape(Shape):
    """``dynamic "TYPE" { ... }`` before its label is known."""

    parent: Shape

    def labelled(self, labels: list[str]) -> Shape:
        return DynamicBodyShape(self.parent, labels[0] if labels else "")


@dataclass(frozen=True, slots=True)
class DynamicBodyShape(Shape):
    """A dynamic block's body: ``content`` has the shape of the generated block type."""

    parent: Shape
    type: str

    modes: ClassVar[dict[str, Mode]] = {"iterator": "expression"}

    def rule(self, name: str) -> Rule | None:
        if name != "content":
            return None
        generated = self.parent.rule(self.type)
        return Rule(0, generated.shape if generated is not None else ATTRIBUTES)


class TopShape(Shape):
    """The file: `variable`, `variables`, `locals` and `job` are blocks, the rest attributes."""

    RULES: ClassVar[dict[str, Rule]] = {
        "variable": Rule(1, VariableShape()),
        "variables": Rule(0, ATTRIBUTES),
        "locals": Rule(0, ATTRIBUTES),
        "job": Rule(1, ModelShape(m.Job)),
    }

    def rule(self, name: str) -> Rule | None:
        return self.RULES.get(name)


# ---- from JSON to the syntax tree -----------------------------------------------------------

_HOLE = re.compile(r"[$%]\{")
"""A string without ``${`` or ``%{`` is a plain literal: no template, no escape to undo."""
_UNCLOSED = "the string ends before a `${ }`, `%{ if }` or `%{ for }` in it is closed"
_BAD_DIRECTIVE = re.compile(r"(?<!%)%\{(?!~?[ \t]*(?:endif|endfor|if|else|for)(?![\w-]))")
"""``%{`` that is neither ``%%{`` (an escape) nor a directive keyword: hcl rejects it."""


class _Builder:
    """Builds the syntax tree, reporting mapping problems (not schema problems) to the sink."""

    def __init__(self, source: SourceFile, sink: Sink) -> None:
        self.source = source
        self.sink = sink

    def error(self, code: Code, message: str, span: Span, help: str | None = None) -> None:
        self.sink.emit(code, message, self.source, span, help=help)

    def file(self, root: JObject) -> ast.File:
        everything = Span(0, len(self.source.text))
        body = self.body(root, TopShape())
        body.span = everything
        return ast.File(body, [], everything)

    # ---- bodies and blocks -----------------------------------------------------------

    def body(self, value: JObject | JArray, shape: Shape) -> ast.Body:
        """A body; its span is the inside of the braces, as the native parser gives it."""
        items: list[ast.Attribute | ast.Block] = []
        for member in self.members(value, None):
            if member.key.value == "//":
                continue  # hcl's comment convention for JSON bodies
            rule = shape.rule(member.key.value)
            if rule is not None and _holds_blocks(member.value):
                self.blocks(member, member.value, rule, [], items)
            else:
                items.append(self.attribute(member, shape.mode(member.key.value)))
        return ast.Body(items, Span(value.span.start + 1, value.span.end - 1))

    def members(self, value: JValue, block: str | None) -> list[JMember]:
        """hcl's ``collectDeepAttrs``: an object's properties, or those of an array of objects."""
        if isinstance(value, JObject):
            return value.members
        if isinstance(value, JConst) and value.value is None:
            return []
        if isinstance(value, JArray):
            found: list[JMember] = []
            for item in value.items:
                if isinstance(item, JObject):
                    found.extend(item.members)
                else:
                    self._not_object(item, block)
            return found
        self._not_object(value, block)
        return []

    def _not_object(self, value: JValue, block: str | None) -> None:
        what = f"the labels of `{block}` blocks as property names" if block else "arguments and blocks"
        self.error(HG106, f"a JSON object is required here, to hold {what}", value.span)

    def blocks(
        self,
        member: JMember,
        value: JValue,
        rule: Rule,
        labels: list[ast.Label],
        out: list[ast.Attribute | ast.Block],
    ) -> None:
        """hcl's ``unpackBlock``: peel one object level per label, then one block per object."""
        name = member.key.value
        if len(labels) < rule.labels:
            nested = self.members(value, name)
            if not nested and not (isinstance(value, JConst) and value.value is None):
                self.error(
                    HG105,
                    f"a `{name}` block needs {rule.labels} label(s), written as nested property names",
                    value.span,
                    help=f'write `"{name}": {{"LABEL": {{ ... }}}}`',
                )
            for inner in nested:
                label = ast.Label(inner.key.value, inner.key.span)
                self.blocks(member, inner.value, rule, [*labels, label], out)
            return
        bodies = value.items if isinstance(value, JArray) else [value]
        for body in bodies:
            if isinstance(body, JObject):
                out.append(self.block(member, body, rule, labels))
            elif not (isinstance(body, JConst) and body.value is None):
                self.error(
                    HG106,
                    f"a JSON object or an array of objects is required here, "
                    f"to hold the contents of `{name}` blocks",
                    body.span,
                )

    def block(self, member: JMember, body: JObject, rule: Rule, labels: list[ast.Label]) -> ast.Block:
        shape = rule.shape.labelled([label.value for label in labels])
        return ast.Block(
            type=member.key.value,
            type_span=member.key.span,
            labels=labels,
            body=self.body(body, shape),
            span=Span(member.key.span.start, body.span.end),
        )

    def attribute(self, member: JMember, mode: Mode) -> ast.Attribute:
        value = self.expr(member.value, mode)
        key = member.key
        return ast.Attribute(key.value, key.span, value, Span(key.span.start, member.value.span.end))

    # ---- expressions -----------------------------------------------------------------

    def expr(self, value: JValue, mode: Mode) -> ast.Expr:
        """A JSON value as an expression; nested strings are templates unless read verbatim."""
        inner: Mode = "literal" if mode == "literal" else "template"
        if isinstance(value, JString):
            return self.string(value, mode)
        if isinstance(value, (JNumber, JConst)):
            return ast.Literal(value.value, value.span)
        if isinstance(value, JArray):
            return ast.Tuple([self.expr(item, inner) for item in value.items], value.span)
        items = [
            ast.ObjectItem(
                self.string(member.key, inner),
                self.expr(member.value, inner),
                Span(member.key.span.start, member.value.span.end),
            )
            for member in value.members
        ]
        return ast.Object(items, value.span)

    def string(self, value: JString, mode: Mode) -> ast.Expr:
        if mode == "literal" or (mode == "template" and not _HOLE.search(value.value)):
            return ast.Literal(value.value, value.span)
        if mode == "expression":
            return self.expression(value)
        return self.template(value)

    def template(self, value: JString) -> ast.Expr:
        """Parse a string as a bare template, the way hcl's ``ParseTemplate`` reads it.

        A heredoc body is the native construct with the same rules (no backslash escapes,
        quotes are plain text), so the string is parsed as one; the heredoc's final line
        break is dropped and the result is re-made as a plain template.
        """
        bad = _BAD_DIRECTIVE.search(value.value)
        if bad is not None:
            move = _Mover(self.source.text, value, 0)
            self.error(
                HG001,
                "`%{` starts a template directive (`if`, `else`, `endif`, `for`, `endfor`)",
                move(Span(bad.start(), bad.end())),
                help="write `%%{` for a literal `%{`",
            )
            return ast.Literal(value.value, value.span)
        marker = _marker(value.value)
        prefix = f"v = <<{marker}\n"
        parsed = self._parse(value, prefix, f"\n{marker}\n")
        if not isinstance(parsed, ast.Template):
            return ast.Literal(value.value, value.span)
        parts = parsed.parts
        last = parts[-1] if parts else None
        if isinstance(last, ast.TemplateText) and last.text.endswith("\n"):
            last.text = last.text[:-1]
            if not last.text:
                parts.pop()
        if all(isinstance(part, ast.TemplateText) for part in parts):
            return ast.Literal("".join(p.text for p in parts if isinstance(p, ast.TemplateText)), value.span)
        return ast.Template(parts, value.span)

    def expression(self, value: JString) -> ast.Expr:
        """Parse a string as native expression syntax (``"list(string)"``, ``"gpu"``).

        When it is not one, the string is kept as a template, so the reader of the
        attribute reports the value in its own words (for example "not a valid type").
        """
        parsed = self._parse(value, "v = ", "\n", quiet=True)
        return parsed if parsed is not None else self.template(value)

    def _parse(self, value: JString, prefix: str, suffix: str, quiet: bool = False) -> ast.Expr | None:
        """Parse ``prefix + value + suffix`` as one attribute and move its spans into the file."""
        from hclgpu.syntax.parser import parse

        wrapper = SourceFile(self.source.path, prefix + value.value + suffix)
        local = Sink()
        tree = parse(wrapper, local)
        move = _Mover(self.source.text, value, len(prefix))
        items = tree.body.items if tree is not None else []
        if local.has_errors or len(items) != 1 or not isinstance(items[0], ast.Attribute):
            if not quiet:
                self._report(local, move)
            return None
        expr = items[0].value
        _relocate(expr, move, set())
        return expr

    def _report(self, local: Sink, move: _Mover) -> None:
        """Re-emit the wrapper's errors at the string's characters in the file.

        An error past the end of the string is about the wrapper's closing line: it is
        reported as the string ending too early, once, at the closing quote.
        """
        seen: set[tuple[str, int, str]] = set()
        for diagnostic in local:
            code, message = declared(diagnostic.code), diagnostic.message
            span = move(diagnostic.span) if diagnostic.span else move.whole
            if diagnostic.span is not None and diagnostic.span.start > move.content_end:
                code, message = HG001, _UNCLOSED
                span = Span(move.whole.end - 1, move.whole.end)
            if (code, span.start, message) in seen:
                continue
            seen.add((code, span.start, message))
            self.sink.emit(
                code,
                message,
                self.source,
                span,
                help=diagnostic.help,
                related=[Related(move(r.span), r.message) for r in diagnostic.related],
                severity=diagnostic.severity,
            )


def _holds_blocks(value: JValue) -> bool:
    """Objects, arrays and null stand for blocks; a scalar stays an attribute for the decoder to judge.

    (``meta``/``env`` may be attributes in jobspec2, and any other block name given a
    scalar is then reported by the decoder as "is a block".)
    """
    return isinstance(value, (JObject, JArray)) or (isinstance(value, JConst) and value.value is None)


def _marker(text: str) -> str:
    """A heredoc marker that occurs nowhere in ``text``."""
    marker, n = "EOT", 0
    while marker in text:
        n += 1
        marker = f"EOT{n}"
    return marker


class _Mover:
    """Maps offsets in a wrapper around a string's value onto the string token in the file."""

    def __init__(self, text: str, value: JString, base: int) -> None:
        self.whole = value.span
        self.base = base
        self.content_end = base + len(value.value)
        self.offsets: list[int] | None = None
        if value.escaped:
            self.offsets = []
            decode_string(text, value.span.start, self.offsets)

    def offset(self, at: int) -> int:
        index = at - self.base
        if index < 0:
            return self.whole.start
        if at > self.content_end:
            return self.whole.end
        if self.offsets is not None:
            return self.offsets[index]
        return self.whole.start + 1 + index

    def __call__(self, span: Span) -> Span:
        return Span(self.offset(span.start), max(self.offset(span.start), self.offset(span.end)))


def _relocate(node: Any, move: _Mover, seen: set[int]) -> None:
    """Give every node under ``node`` spans in the file (new Span objects: spans may be shared)."""
    if id(node) in seen:
        return
    seen.add(id(node))
    for name in ast.fields_of(node):
        value = getattr(node, name)
        if isinstance(value, Span):
            setattr(node, name, move(value))
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, ast.Syntax):
                    _relocate(item, move, seen)
        elif isinstance(value, ast.Syntax):
            _relocate(value, move, seen)
