"""Encoding functions: base64, URL, JSON (cty's encoder) and CSV (Go's reader).

Sources: go-cty-funcs ``encoding`` (base64decode, base64encode, urlencode) and go-cty's
stdlib ``json.go`` / ``csv.go``. JSON text is produced exactly as cty's ``json.Marshal``
does (Go's string escaping with HTML-safe ``\\u003c``, numbers never in exponent form,
object keys sorted); CSV is read with Go's ``encoding/csv`` rules, which are stricter than
Python's ``csv`` module about stray quotes.
"""

from __future__ import annotations

import re
from typing import Any

from hclgpu.eval.functions.base import (
    ArgError,
    CallError,
    Function,
    Param,
    define,
    go_quote,
    go_quote_rune,
)
from hclgpu.eval.functions.bigfloat import number_text
from hclgpu.eval.values import Value, number, without_surrogates
from hclgpu.numbers import parse_decimal

__all__ = ["TABLE", "json_marshal", "json_string"]

_STR = Param("str", "string")


# --- base64 and URL ------------------------------------------------------------------


def _base64encode(value: str) -> str:
    """Standard alphabet with padding, of the UTF-8 bytes."""
    import base64

    return base64.b64encode(value.encode("utf-8", "surrogatepass")).decode("ascii")


def _base64decode(value: str) -> str:
    """Go's ``StdEncoding.DecodeString``: padding required, CR and LF ignored; UTF-8 result."""
    import base64
    import binascii

    try:
        raw = base64.b64decode(value.replace("\r", "").replace("\n", ""), validate=True)
    except (binascii.Error, ValueError):
        raise CallError(f"failed to decode base64 data '{value}'", arg=0) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CallError("the result of decoding the the provided string is not valid UTF-8", arg=0) from None


def _urlencode(value: str) -> str:
    """Go's ``url.QueryEscape``: spaces become ``+``, only ``A-Za-z0-9-_.~`` stay bare."""
    from urllib.parse import quote_plus

    return quote_plus(value.encode("utf-8", "surrogatepass"), safe="")


# --- JSON ----------------------------------------------------------------------------

_JSON_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def json_string(value: str) -> str:
    """A string as Go's ``encoding/json`` writes it (HTML-safe, lower-case hex escapes)."""
    out = ['"']
    for char in value:
        escaped = _JSON_ESCAPES.get(char)
        if escaped is not None:
            out.append(escaped)
        elif char < " ":
            out.append(f"\\u{ord(char):04x}")
        elif "\ud800" <= char <= "\udfff":
            out.append("\\ufffd")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def json_marshal(value: Value) -> str:
    """cty's ``json.Marshal``: compact, keys sorted, numbers as ``Text('f', -1)``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number_text(value)
    if isinstance(value, str):
        return json_string(value)
    if isinstance(value, list):
        return "[" + ",".join(json_marshal(v) for v in value) + "]"
    return "{" + ",".join(json_string(k) + ":" + json_marshal(value[k]) for k in sorted(value)) + "}"


class _DuplicateKey(Exception):
    """Raised from the object hook: cty refuses a JSON object that repeats a key."""


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """Build an object, refusing duplicate keys as cty's ``ImpliedType`` does."""
    result: dict[str, Any] = {}
    for key, item in pairs:
        if key in result:
            raise _DuplicateKey(f"duplicate {go_quote(key)} property in JSON object")
        result[key] = item
    return result


def _json_constant(name: str) -> Any:
    """``NaN`` and ``Infinity`` are not JSON; Go stops at their first letter."""
    if name.startswith("-"):
        raise ValueError(f"invalid character {go_quote_rune(name[1])} in numeric literal")
    raise ValueError(f"invalid character {go_quote_rune(name[0])} looking for beginning of value")


def json_number(text: str) -> int | float:
    """A JSON number as cty reads it (exact, ``1e400`` whole); past hclgpu's bound a
    :class:`~hclgpu.numbers.NumberOutOfRange` (a ``ValueError``) instead of Python's
    own limit on converting digits."""
    return number(parse_decimal(text))


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""How JSON text spells a surrogate: a pair is one character, a lone one U+FFFD in Go."""


def _jsondecode(text: str) -> Value:
    """Parse JSON into values: objects become dicts, arrays lists, numbers normalised."""
    import json

    try:
        value = json.loads(
            text,
            object_pairs_hook=_object_pairs,
            parse_float=json_number,
            parse_int=json_number,
            parse_constant=_json_constant,
        )
    except _DuplicateKey as exc:
        raise CallError(str(exc), arg=0) from None
    except json.JSONDecodeError as exc:
        raise CallError(_go_json_error(exc), arg=0) from None
    except (ValueError, RecursionError) as exc:
        raise CallError(str(exc), arg=0) from None
    return without_surrogates(value) if _SURROGATE_ESCAPE.search(text) else value


def _go_json_error(exc: Any) -> str:
    """Translate Python's JSON error into the message Go's decoder would give."""
    doc: str = exc.doc
    pos: int = exc.pos
    if exc.msg == "Extra data":
        return "extraneous data after JSON object"
    if not doc.strip():
        return "EOF"
    if pos >= len(doc) or exc.msg.startswith("Unterminated string"):
        return "unexpected EOF"
    literal = _literal_error(doc, pos) if exc.msg == "Expecting value" else None
    if literal is not None:
        return literal
    char = go_quote_rune(doc[pos])
    messages = {
        "Expecting value": f"invalid character {char} looking for beginning of value",
        "Expecting property name enclosed in double quotes": (
            f"invalid character {char} looking for beginning of object key string"
        ),
        "Expecting ':' delimiter": f"invalid character {char} after object key",
        "Invalid control character at": f"invalid character {char} in string literal",
        "Invalid \\escape": (
            f"invalid character {go_quote_rune(doc[pos + 1 : pos + 2] or ' ')} in string escape code"
        ),
    }
    if exc.msg == "Expecting ',' delimiter":
        where = "object key:value pair" if _enclosing(doc, pos) == "{" else "array element"
        return f"invalid character {char} after {where}"
    return messages.get(exc.msg, f"invalid character {char} looking for beginning of value")


def _literal_error(doc: str, pos: int) -> str | None:
    """Go's message for a misspelt ``null``, ``true`` or ``false`` starting at ``pos``."""
    word = {"n": "null", "t": "true", "f": "false"}.get(doc[pos])
    if word is None:
        return None
    for offset, expected in enumerate(word[1:], start=1):
        if pos + offset >= len(doc):
            return "unexpected EOF"
        if doc[pos + offset] != expected:
            found = go_quote_rune(doc[pos + offset])
            return f"invalid character {found} in literal {word} (expecting {go_quote_rune(expected)})"
    return None


def _enclosing(doc: str, pos: int) -> str:
    """The innermost open bracket before ``pos``, skipping string contents."""
    stack: list[str] = []
    in_string = escaped = False
    for char in doc[:pos]:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            stack.append(char)
        elif char in "]}" and stack:
            stack.pop()
    return stack[-1] if stack else ""


# --- CSV -----------------------------------------------------------------------------


class _CsvError(Exception):
    """A Go ``csv.ParseError``: the line it names and the underlying error text."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"CSV parse error on line {line}: {message}")


class _GoCsvReader:
    """Go's ``encoding/csv.Reader`` with its defaults (comma, strict quotes, no comments)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 0
        self.fields_per_record = 0

    def _read_line(self) -> str | None:
        """One line with its newline (``\\r\\n`` folded to ``\\n``), or None at the end."""
        if self.pos >= len(self.text):
            return None
        end = self.text.find("\n", self.pos)
        if end < 0:
            line, self.pos = self.text[self.pos :], len(self.text)
            line = line[:-1] if line.endswith("\r") else line
        else:
            line, self.pos = self.text[self.pos : end + 1], end + 1
            if line.endswith("\r\n"):
                line = line[:-2] + "\n"
        self.line += 1
        return line

    def read(self) -> list[str] | None:
        """The next record, skipping empty lines; None at the end of the input."""
        line = self._read_line()
        while line == "\n":
            line = self._read_line()
        if line is None:
            return None
        start_line = self.line
        fields = self._parse(line, start_line)
        if self.fields_per_record == 0:
            self.fields_per_record = len(fields)
        elif len(fields) != self.fields_per_record:
            raise _CsvError(start_line, "wrong number of fields")
        return fields

    def _parse(self, line: str, start_line: int) -> list[str]:
        """Split one record, reading further lines while a quoted field is open."""
        fields: list[str] = []
        while True:
            if not line.startswith('"'):
                comma = line.find(",")
                field = line[:comma] if comma >= 0 else line.rstrip("\n")
                if '"' in field:
                    raise _CsvError(self.line, 'bare " in non-quoted-field')
                fields.append(field)
                if comma < 0:
                    return fields
                line = line[comma + 1 :]
                continue
            line, field, more = self._quoted(line[1:])
            fields.append(field)
            if not more:
                return fields

    def _quoted(self, line: str) -> tuple[str, str, bool]:
        """Read a quoted field; returns the rest of the line, the field, and whether more follow."""
        parts: list[str] = []
        while True:
            quote = line.find('"')
            if quote >= 0:
                parts.append(line[:quote])
                line = line[quote + 1 :]
                if line.startswith('"'):
                    parts.append('"')
                    line = line[1:]
                elif line.startswith(","):
                    return line[1:], "".join(parts), True
                elif line in ("", "\n"):
                    return line, "".join(parts), False
                else:
                    raise _CsvError(self.line, 'extraneous or missing " in quoted-field')
            elif line:
                parts.append(line)
                following = self._read_line()
                if following is None:
                    raise _CsvError(self.line, 'extraneous or missing " in quoted-field')
                line = following
            else:
                raise _CsvError(self.line, 'extraneous or missing " in quoted-field')


def _csvdecode(text: str) -> list[dict[str, str]]:
    """A list of objects keyed by the header row, as cty's ``csvdecode``."""
    reader = _GoCsvReader(text)
    try:
        headers = reader.read()
        if headers is None:
            raise CallError("missing header line", arg=0)
        seen: set[str] = set()
        for name in headers:
            if name in seen:
                raise CallError(f"duplicate column name {go_quote(name)}", arg=0)
            seen.add(name)
        rows: list[dict[str, str]] = []
        while (record := reader.read()) is not None:
            rows.append(dict(zip(headers, record, strict=True)))
    except _CsvError as exc:
        raise CallError(str(exc), arg=0) from None
    return rows


def _jsonencode(value: Value) -> str:
    """cty's ``jsonencode`` (a null argument encodes as ``null``)."""
    try:
        return json_marshal(value)
    except RecursionError:
        raise ArgError(0, "the value is nested too deeply to encode") from None


TABLE: tuple[Function, ...] = (
    define("base64encode", _base64encode, _STR),
    define("base64decode", _base64decode, _STR),
    define("urlencode", _urlencode, _STR),
    define("jsonencode", _jsonencode, Param("val", allow_null=True)),
    define("jsondecode", _jsondecode, _STR),
    define("csvdecode", _csvdecode, _STR),
)
