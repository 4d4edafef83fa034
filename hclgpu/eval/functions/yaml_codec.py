"""``yamlencode`` and ``yamldecode`` as zclconf/go-cty-yaml implements them.

Encoding reproduces go-cty-yaml's output byte for byte: block style, every string
double-quoted (strings with a newline as ``|`` literal blocks when YAML allows one), keys
in lexical order, sequences inside mappings not indented, long quoted strings folded at
80 columns, ``...`` after a bare top-level scalar. It is a port of the parts of libyaml's
emitter (``emitterc.go``) that cty values reach, since PyYAML's emitter folds and quotes
differently.

Decoding uses PyYAML's parser for events and go-cty-yaml's resolver for scalars: YAML 1.1
booleans (``yes``/``on``/``y``), ``0x``/``0o`` integers, underscores in numbers,
timestamps turned into RFC 3339 strings, quoted scalars always strings, ``<<`` merge keys,
anchors and aliases; a single document only. PyYAML is imported on first use.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from hclgpu.eval.functions.base import (
    MAX_RESULT_VALUES,
    CallError,
    ConversionError,
    Function,
    Param,
    define,
    go_quote,
    to_num,
)
from hclgpu.eval.functions.bigfloat import number_text
from hclgpu.eval.values import SURROGATE, Value
from hclgpu.numbers import NumberOutOfRange

__all__ = ["TABLE", "yaml_marshal"]

# --- encoding ----------------------------------------------------------------------------

_BREAKS = "\r\n\x85\u2028\u2029"
_ESCAPES = {
    "\x00": "0",
    "\x07": "a",
    "\x08": "b",
    "\t": "t",
    "\n": "n",
    "\x0b": "v",
    "\x0c": "f",
    "\r": "r",
    "\x1b": "e",
    '"': '"',
    "\\": "\\",
    "\x85": "N",
    "\u2028": "L",
    "\u2029": "P",
}


def _printable(char: str) -> bool:
    """libyaml's ``is_printable`` (note: characters beyond the BMP are not)."""
    code = ord(char)
    return (
        code == 0x0A
        or 0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
    )


class _Analysis:
    """libyaml's ``yaml_emitter_analyze_scalar``: which styles can write a scalar."""

    def __init__(self, value: str) -> None:
        self.multiline = False
        self.block_plain = self.flow_plain = self.single_quoted = True
        self.block = bool(value)
        if not value:
            self.flow_plain = False
            return
        flags = self._scan(value)
        if (
            flags["leading_space"]
            or flags["leading_break"]
            or flags["trailing_space"]
            or flags["trailing_break"]
        ):
            self.flow_plain = self.block_plain = False
        if flags["trailing_space"]:
            self.block = False
        if flags["break_space"]:
            self.flow_plain = self.block_plain = self.single_quoted = False
        if flags["space_break"] or flags["special"]:
            self.flow_plain = self.block_plain = self.single_quoted = self.block = False
        if flags["line_breaks"]:
            self.multiline = True
            self.flow_plain = self.block_plain = False
        if flags["flow_indicators"]:
            self.flow_plain = False
        if flags["block_indicators"]:
            self.block_plain = False

    @staticmethod
    def _scan(value: str) -> dict[str, bool]:
        """Walk the characters once, collecting the facts the style choice needs."""
        flags = dict.fromkeys(
            [
                "block_indicators",
                "flow_indicators",
                "line_breaks",
                "special",
                "leading_space",
                "leading_break",
                "trailing_space",
                "trailing_break",
                "break_space",
                "space_break",
            ],
            False,
        )
        if value.startswith(("---", "...")):
            flags["block_indicators"] = flags["flow_indicators"] = True
        preceded_by_whitespace, previous_space, previous_break = True, False, False
        last = len(value) - 1
        for i, char in enumerate(value):
            followed_by_whitespace = i == last or value[i + 1] in " \t"
            _indicators(flags, char, i == 0, preceded_by_whitespace, followed_by_whitespace)
            if not _printable(char):
                flags["special"] = True
            if char == " ":
                flags["leading_space"] |= i == 0
                flags["trailing_space"] |= i == last
                flags["break_space"] |= previous_break
                previous_space, previous_break = True, False
            elif char in _BREAKS:
                flags["line_breaks"] = True
                flags["leading_break"] |= i == 0
                flags["trailing_break"] |= i == last
                flags["space_break"] |= previous_space
                previous_space, previous_break = False, True
            else:
                previous_space = previous_break = False
            preceded_by_whitespace = char in " \t" or char in _BREAKS
        return flags


def _indicators(flags: dict[str, bool], char: str, first: bool, preceded: bool, followed: bool) -> None:
    """The indicator part of the scalar analysis."""
    if first:
        if char in "#,[]{}&*!|>'\"%@`":
            flags["flow_indicators"] = flags["block_indicators"] = True
        elif char in "?:":
            flags["flow_indicators"] = True
            flags["block_indicators"] |= followed
        elif char == "-" and followed:
            flags["flow_indicators"] = flags["block_indicators"] = True
    elif char in ",?[]{}":
        flags["flow_indicators"] = True
    elif char == ":":
        flags["flow_indicators"] = True
        flags["block_indicators"] |= followed
    elif char == "#" and preceded:
        flags["flow_indicators"] = flags["block_indicators"] = True


class _Emitter:
    """The subset of libyaml's emitter that go-cty-yaml's events exercise."""

    best_indent = 2
    best_width = 80

    def __init__(self) -> None:
        self.out: list[str] = []
        self.column = 0
        self.whitespace = self.indention = True
        self.open_ended = False
        self.indent = -1
        self.indents: list[int] = []
        self.flow_level = 0
        self.root = self.mapping_context = self.simple_key = False

    # low-level writing

    def put(self, text: str) -> None:
        """Write characters that contain no line break."""
        self.out.append(text)
        self.column += len(text)

    def put_break(self) -> None:
        """Start a new line."""
        self.out.append("\n")
        self.column = 0

    def write_break(self, char: str) -> None:
        """Copy a line-break character from a scalar."""
        if char == "\n":
            self.put_break()
        else:
            self.out.append(char)
            self.column = 0

    def write_indent(self) -> None:
        """Move to a fresh line at the current indentation, unless already there."""
        indent = max(self.indent, 0)
        if not self.indention or self.column > indent or (self.column == indent and not self.whitespace):
            self.put_break()
        if self.column < indent:
            self.put(" " * (indent - self.column))
        self.whitespace = self.indention = True

    def write_indicator(self, text: str, need_space: bool, is_whitespace: bool, is_indention: bool) -> None:
        """Write a YAML indicator such as ``-``, ``:``, ``"`` or ``|``."""
        if need_space and not self.whitespace:
            self.put(" ")
        self.put(text)
        self.whitespace = is_whitespace
        self.indention = self.indention and is_indention
        self.open_ended = False

    def increase_indent(self, flow: bool, indentless: bool) -> None:
        """Push the indentation, as ``yaml_emitter_increase_indent``."""
        self.indents.append(self.indent)
        if self.indent < 0:
            self.indent = self.best_indent if flow else 0
        elif not indentless:
            self.indent += self.best_indent

    # nodes

    def node(self, value: Value, root: bool, mapping: bool, simple_key: bool) -> None:
        """Emit one value in the given context."""
        self.root, self.mapping_context, self.simple_key = root, mapping, simple_key
        if isinstance(value, list):
            self.sequence(value)
        elif isinstance(value, dict):
            self.mapping(value)
        else:
            self.scalar(value)

    def empty_flow(self, opening: str, closing: str) -> None:
        """An empty collection, which libyaml always writes in flow style."""
        self.write_indicator(opening, True, True, False)
        self.write_indicator(closing, False, False, False)

    def sequence(self, items: list[Value]) -> None:
        """A block sequence; inside a mapping it is not indented."""
        if not items:
            self.empty_flow("[", "]")
            return
        self.increase_indent(False, self.mapping_context and not self.indention)
        for item in items:
            self.write_indent()
            self.write_indicator("-", True, False, True)
            self.node(item, False, False, False)
        self.indent = self.indents.pop()

    def mapping(self, mapping: dict[str, Value]) -> None:
        """A block mapping with keys in lexical order; long or multi-line keys use ``?``."""
        if not mapping:
            self.empty_flow("{", "}")
            return
        self.increase_indent(False, False)
        for key in sorted(mapping):
            self.write_indent()
            if not _Analysis(key).multiline and len(key.encode("utf-8", "surrogatepass")) <= 128:
                self.node(key, False, True, True)
                self.write_indicator(":", False, False, False)
            else:
                self.write_indicator("?", True, False, True)
                self.node(key, False, True, False)
                self.write_indent()
                self.write_indicator(":", True, False, True)
            self.node(mapping[key], False, True, False)
        self.indent = self.indents.pop()

    def scalar(self, value: Value) -> None:
        """A scalar: strings quoted (or literal), everything else plain."""
        if isinstance(value, str):
            text, style = value, "|" if "\n" in value else '"'
        elif value is None:
            text, style = "null", ""
        elif isinstance(value, bool):
            text, style = ("true" if value else "false"), ""
        elif isinstance(value, float) and value in (float("inf"), float("-inf")):
            text, style = ("+.Inf" if value > 0 else "-.Inf"), ""
        else:
            text, style = number_text(value), ""
        analysis = _Analysis(text)
        style = self._select_style(style, text, analysis)
        self.increase_indent(True, False)
        if style == "|":
            self.write_literal(text)
        elif style == "":
            self.write_plain(text)
        else:
            self.write_double_quoted(text, allow_breaks=not self.simple_key)
        self.indent = self.indents.pop()

    def _select_style(self, style: str, text: str, analysis: _Analysis) -> str:
        """``yaml_emitter_select_scalar_style`` (single quotes never survive for cty values)."""
        if self.simple_key and analysis.multiline:
            style = '"'
        if style == "" and (not analysis.block_plain or (not text and self.simple_key)):
            style = '"'
        if style == "|" and (not analysis.block or self.simple_key):
            style = '"'
        return style

    def write_plain(self, text: str) -> None:
        """A plain scalar (numbers, bools, null)."""
        if not self.whitespace:
            self.put(" ")
        self.put(text)
        self.whitespace = self.indention = False
        if self.root:
            self.open_ended = True

    def write_double_quoted(self, text: str, allow_breaks: bool) -> None:
        """A double-quoted scalar with libyaml's escapes, folded at spaces past 80 columns."""
        self.write_indicator('"', True, False, False)
        spaces = False
        i = 0
        while i < len(text):
            char = text[i]
            if not _printable(char) or char == "\ufeff" or char in _BREAKS or char in '"\\':
                self.put("\\" + _escape(char))
                spaces = False
            elif char == " ":
                if allow_breaks and not spaces and self.column > self.best_width and 0 < i < len(text) - 1:
                    self.write_indent()
                    if text[i + 1] == " ":
                        self.put("\\")
                else:
                    self.put(" ")
                spaces = True
            else:
                self.put(char)
                spaces = False
            i += 1
        self.write_indicator('"', False, False, False)
        self.whitespace = self.indention = False

    def write_literal(self, text: str) -> None:
        """A ``|`` block scalar with libyaml's indentation and chomping indicators."""
        self.write_indicator("|", True, False, False)
        if text[0] == " " or text[0] in _BREAKS:
            self.write_indicator(str(self.best_indent), False, False, False)
        self.open_ended = False
        chomp = ""
        if text[-1] not in _BREAKS:
            chomp = "-"
        elif len(text) == 1 or text[-2] in _BREAKS:
            chomp = "+"
        if chomp:
            self.write_indicator(chomp, False, False, False)
        self.put_break()
        self.indention = self.whitespace = True
        breaks = True
        for char in text:
            if char in _BREAKS:
                self.write_break(char)
                self.indention = breaks = True
            else:
                if breaks:
                    self.write_indent()
                self.put(char)
                self.indention = breaks = False


def _escape(char: str) -> str:
    """The letter after ``\\`` for a character libyaml escapes."""
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    if code <= 0xFF:
        return f"x{code:02X}"
    if code <= 0xFFFF:
        return f"u{code:04X}"
    return f"U{code:08X}"


def yaml_marshal(value: Value) -> str:
    """go-cty-yaml's ``Standard.Marshal``: one implicit document, block style."""
    emitter = _Emitter()
    emitter.node(value, True, False, False)
    emitter.indent = -1
    emitter.write_indent()
    if emitter.open_ended:
        emitter.write_indicator("...", True, False, False)
        emitter.write_indent()
    return "".join(emitter.out)


def _yamlencode(value: Value) -> str:
    """The YAML document for a value."""
    try:
        return yaml_marshal(value)
    except RecursionError:
        raise CallError("the value is nested too deeply to encode") from None


# --- decoding ----------------------------------------------------------------------------

_STR_TAG = "tag:yaml.org,2002:str"
_BINARY_TAG = "tag:yaml.org,2002:binary"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_NULL_TAG = "tag:yaml.org,2002:null"
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_RESOLVABLE = {"", _STR_TAG, _BINARY_TAG, _BOOL_TAG, _INT_TAG, _FLOAT_TAG, _NULL_TAG, _TIMESTAMP_TAG}

_WORDS: dict[str, Value] = {
    **dict.fromkeys(["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"], True),
    **dict.fromkeys(["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"], False),
    **dict.fromkeys(["", "~", "null", "Null", "NULL"], None),
    **dict.fromkeys([".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"], float("inf")),
    **dict.fromkeys(["-.inf", "-.Inf", "-.INF"], float("-inf")),
}
_INTEGER = re.compile(r"[-+]?(0o[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_TIMESTAMPS = (
    re.compile(r"(\d{4})-(\d\d?)-(\d\d?)[Tt](\d\d?):(\d\d?):(\d\d?)(?:\.(\d+))?(Z|[-+]\d\d:\d\d)"),
    re.compile(r"(\d{4})-(\d\d?)-(\d\d?) (\d\d?):(\d\d?):(\d\d?)(?:\.(\d+))?()"),
    re.compile(r"(\d{4})-(\d\d?)-(\d\d?)()()()()()"),
)
_MERGE = object()


class _YamlError(Exception):
    """A decoding error, already in go-cty-yaml's words."""


def _at(event: Any, message: str) -> _YamlError:
    """go-cty-yaml's ``parseEventErrorf``: the event's (zero-based) line and column."""
    mark = event.start_mark
    return _YamlError(f"on line {mark.line}, column {mark.column}: {message}")


def _timestamp(text: str) -> str | None:
    """A YAML timestamp as an RFC 3339 string, or None if ``text`` is not one."""
    from hclgpu.eval.functions.dates import format_rfc3339, parse_timestamp

    for pattern in _TIMESTAMPS:
        match = pattern.fullmatch(text)
        if match is None:
            continue
        year, month, day, hour, minute, second, _fraction, zone = match.groups()
        zone = zone or "Z"
        canonical = (
            f"{year}-{int(month):02d}-{int(day):02d}T{int(hour or 0):02d}:"
            f"{int(minute or 0):02d}:{int(second or 0):02d}{zone}"
        )
        try:
            return format_rfc3339(parse_timestamp(canonical))
        except ValueError:
            return None
    return None


def _parse_number(text: str) -> int | float | None:
    """``cty.ParseNumberVal`` (decimal only), or None; a ``ValueError`` for a number cty
    reads but hclgpu cannot hold, so the message says so rather than "cannot parse"."""
    try:
        return to_num(text)
    except ConversionError as exc:
        if isinstance(exc.__cause__, NumberOutOfRange):
            raise ValueError(str(exc)) from None
        return None
    except Exception:
        return None


def _go_parse_int(text: str) -> int | None:
    """Go's ``strconv.ParseInt(text, 0, 64)``, then ``ParseUint``: 0x, 0o, 0b and 0 prefixes."""
    signed = text[:1] in ("+", "-")
    sign, body = (-1 if text[:1] == "-" else 1), (text[1:] if signed else text)
    prefixes = {"0x": 16, "0X": 16, "0o": 8, "0O": 8, "0b": 2, "0B": 2}
    if body[:2] in prefixes:
        base, digits = prefixes[body[:2]], body[2:]
    else:
        base, digits = (8 if body.startswith("0") and len(body) > 1 else 10), body
    if not digits or not digits.isascii() or not digits.isalnum():
        return None
    try:
        value = sign * int(digits, base)
    except ValueError:
        return None
    if -(2**63) <= value <= 2**63 - 1 or (not signed and 0 <= value <= 2**64 - 1):
        return value
    return None


def _resolve(tag: str, text: str, quoted: bool) -> Value:
    """go-cty-yaml's ``resolveScalar``."""
    if tag not in _RESOLVABLE:
        raise ValueError(f"unsupported tag {go_quote(tag)}")
    hint = text[:1] if text else "~"
    hinted = hint in "+-0123456789yYnNtTfFoO~."
    if hinted and tag not in (_STR_TAG, _BINARY_TAG):
        if quoted:
            return text
        if text in _WORDS:
            return _WORDS[text]
        if tag == "" and text in (".nan", ".NaN", ".NAN"):
            raise ValueError("floating point NaN is not supported")
        if hint == ".":
            parsed = _parse_number(text)
            if parsed is not None:
                return parsed
        elif hint in "+-0123456789":
            if tag in ("", _TIMESTAMP_TAG) and (stamp := _timestamp(text)) is not None:
                return stamp
            if _INTEGER.fullmatch(text):
                tag = _INT_TAG
            elif _FLOAT.fullmatch(text):
                tag = _FLOAT_TAG
    if tag == "" and text == "<<":
        return _MERGE
    return _resolve_tagged(tag, text)


def _resolve_tagged(tag: str, text: str) -> Value:
    """The explicit-tag half of ``resolveScalar``."""
    if tag in (_STR_TAG, _BINARY_TAG):
        if tag == _BINARY_TAG:
            import base64
            import binascii

            try:
                base64.b64decode(text, validate=True)
            except (binascii.Error, ValueError):
                raise ValueError(f"cannot parse {go_quote(text)} as {tag}: not valid base64") from None
        return text
    if tag == _BOOL_TAG:
        if isinstance(_WORDS.get(text), bool):
            return _WORDS[text]
        raise ValueError(f"cannot parse {go_quote(text)} as {tag}")
    if tag in (_INT_TAG, _FLOAT_TAG):
        plain = text.replace("_", "")
        parsed = _parse_number(plain)
        if parsed is None:
            parsed = _go_parse_int(plain)
        if parsed is None:
            raise ValueError(f"cannot parse {go_quote(text)} as {tag}")
        return parsed
    if tag == _TIMESTAMP_TAG:
        stamp = _timestamp(text)
        if stamp is None:
            raise ValueError(f"cannot parse {go_quote(text)} as {tag}")
        return stamp
    if tag == _NULL_TAG:
        return None
    return text


class _Decoder:
    """Builds values from PyYAML parser events, keeping anchors as go-cty-yaml does."""

    def __init__(self, events: Iterator[Any]) -> None:
        self.events = events
        self.anchors: dict[str, Value] = {}
        self.pending: set[str] = set()
        self.expanded = 0
        """Values decoded so far, an alias counting all the values of its anchor: the size
        of the result once written out, which aliases of aliases make exponential."""
        self.sizes: dict[str, int] = {}
        """The expanded size of each anchor's value."""

    def next(self) -> Any:
        """The next parser event."""
        return next(self.events)

    def value(self, event: Any) -> Value:
        """The value that starts with ``event``."""
        import yaml

        if isinstance(event, yaml.AliasEvent):
            return self.alias(event)
        start = self.expanded
        self.count(event, 1)
        if isinstance(event, yaml.ScalarEvent):
            result = self.scalar(event)
        elif isinstance(event, yaml.SequenceStartEvent):
            result = self.sequence(event)
        elif isinstance(event, yaml.MappingStartEvent):
            result = self.mapping(event)
        elif isinstance(event, yaml.DocumentStartEvent):
            raise _at(event, "only a single document is allowed")
        else:
            raise _at(event, "expecting value but found end of stream")
        if event.anchor:
            self.pending.discard(event.anchor)
            self.anchors[event.anchor] = result
            self.sizes[event.anchor] = self.expanded - start
        return result

    def count(self, event: Any, values: int) -> None:
        """Add to the expanded size; past hclgpu's budget for a result, stop (go-yaml stops
        such "excessive aliasing" too; go-cty-yaml shares the values and leaves the
        expansion to whatever uses them)."""
        self.expanded += values
        if self.expanded > MAX_RESULT_VALUES:
            raise _at(
                event,
                f"the document expands to more than {MAX_RESULT_VALUES:,} values through its "
                "aliases, past hclgpu's limit for a function result",
            )

    def alias(self, event: Any) -> Value:
        """The value of an earlier anchor."""
        if event.anchor in self.pending:
            raise _at(
                event, f"cannot refer to anchor {go_quote(event.anchor)} from inside its own definition"
            )
        if event.anchor not in self.anchors:
            raise _at(event, f"reference to undefined anchor {go_quote(event.anchor)}")
        self.count(event, self.sizes[event.anchor])
        return self.anchors[event.anchor]

    def scalar(self, event: Any) -> Value:
        """A scalar resolved with go-cty-yaml's rules."""
        if SURROGATE.search(event.value):  # PyYAML decodes a `\ud800` escape that libyaml refuses
            raise _at(event, "found invalid Unicode character escape code")
        try:
            return _resolve(event.tag or "", event.value, event.style in ("'", '"'))
        except ValueError as exc:
            raise _at(event, str(exc)) from None

    def sequence(self, event: Any) -> list[Value]:
        """A sequence (a cty tuple)."""
        import yaml

        if event.tag and event.tag not in ("!", "tag:yaml.org,2002:seq"):
            raise _at(event, f"can't interpret sequence as {event.tag}")
        if event.anchor:
            self.pending.add(event.anchor)
        items: list[Value] = []
        while not isinstance(item := self.next(), yaml.SequenceEndEvent):
            items.append(self.value(item))
        return items

    def mapping(self, event: Any) -> dict[str, Value]:
        """A mapping (a cty object): keys must be scalars; ``<<`` merges other mappings."""
        import yaml

        if event.tag and event.tag not in ("!", "tag:yaml.org,2002:map"):
            raise _at(event, f"can't interpret mapping as {event.tag}")
        if event.anchor:
            self.pending.add(event.anchor)
        result: dict[str, Value] = {}
        while not isinstance(key_event := self.next(), yaml.MappingEndEvent):
            if not isinstance(key_event, yaml.ScalarEvent):
                raise _at(key_event, "only strings are allowed as mapping keys")
            merge_tag = key_event.tag == "tag:yaml.org,2002:merge"
            key = _MERGE if merge_tag else self.scalar(key_event)
            value = self.value(self.next())
            if key is _MERGE:
                self.merge(key_event, result, value)
                continue
            if key is None:
                raise _at(key_event, "mapping key cannot be null")
            result[_key_text(key)] = value
        return result

    def merge(self, event: Any, target: dict[str, Value], value: Value) -> None:
        """Apply a ``<<`` merge key: a mapping or a sequence of mappings."""
        sources = value if isinstance(value, list) else [value]
        for source in sources:
            if not isinstance(source, dict):
                raise _at(event, "only mappings or sequences of mappings may be merged")
            target.update(source)


def _key_text(key: Value) -> str:
    """A resolved key converted to string as cty does (``yes`` becomes ``"true"``)."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    return number_text(key)


def _yaml_syntax_error(exc: Any) -> str:
    """A PyYAML syntax error in go-cty-yaml's ``on line N, column M: problem`` form."""
    import yaml

    problem = getattr(exc, "problem", None) or "invalid YAML syntax"
    mark = getattr(exc, "problem_mark", None)
    if mark is None:
        return str(problem)
    line, column = mark.line, mark.column
    if isinstance(exc, yaml.scanner.ScannerError):
        line, column = line + 1, 0
    if line == 0:
        context = getattr(exc, "context_mark", None)
        if context is None or context.line == 0:
            return str(problem)
        line, column = context.line, context.column
    return f"on line {line}, column {column}: {problem}"


def _yamldecode(source: str) -> Value:
    """The value of a single YAML document (null for an empty one)."""
    import yaml

    events = yaml.parse(source, Loader=yaml.SafeLoader)
    decoder = _Decoder(iter(events))
    try:
        decoder.next()
        start = decoder.next()
        if isinstance(start, yaml.StreamEndEvent):
            return None
        result = decoder.value(decoder.next())
        decoder.next()
        trailing = decoder.next()
        if isinstance(trailing, yaml.DocumentStartEvent):
            raise _at(trailing, "only a single document is allowed")
    except _YamlError as exc:
        raise CallError(str(exc), arg=0) from None
    except yaml.YAMLError as exc:
        raise CallError(_yaml_syntax_error(exc), arg=0) from None
    return result


TABLE: tuple[Function, ...] = (
    define("yamlencode", _yamlencode, Param("value", allow_null=True)),
    define("yamldecode", _yamldecode, Param("src", "string")),
)
