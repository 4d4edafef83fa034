"""String functions from go-cty's stdlib (``string.go``, ``string_replace.go``).

Lengths and positions count grapheme clusters, as cty does with ``textseg``: ``strlen``
of ``"e\\u0301"`` is 1. Case mapping is Go's per-character simple mapping (``upper("ß")``
stays ``"ß"``), and ``title`` follows Go's ``strings.Title`` word boundaries.

``replace`` is a plain substring replacement in Nomad (go-cty's ``ReplaceFunc``); the
``/regex/`` form belongs to Terraform's own ``replace`` and is not honoured by Nomad.
``regex_replace`` takes an RE2 pattern, translated to Python's ``re`` (see
:func:`compile_re2`), with Go's ``$1`` / ``${name}`` replacement syntax.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from hclgpu.eval.functions.base import (
    ArgError,
    CallError,
    Function,
    Param,
    define,
    require_text,
    whole,
)
from hclgpu.eval.functions.format import format_list, format_values
from hclgpu.eval.functions.unicode import GO_SPACE, graphemes
from hclgpu.eval.values import Value

__all__ = ["TABLE", "compile_re2"]

_STR = Param("str", "string")

# --- case and trimming ---------------------------------------------------------------


def _simple_case(value: str, convert: Callable[[str], str], keep_first: bool) -> str:
    """Per-character case mapping that never changes the length, as Go's ``unicode.To*``."""
    if value.isascii():
        return convert(value)
    out = []
    for char in value:
        mapped = convert(char)
        out.append(mapped if len(mapped) == 1 else (mapped[0] if keep_first else char))
    return "".join(out)


def _upper(value: str) -> str:
    """Go's ``strings.ToUpper`` (simple mapping: ``ß`` has no single upper-case letter)."""
    return _simple_case(value, str.upper, keep_first=False)


def _lower(value: str) -> str:
    """Go's ``strings.ToLower`` (``İ`` lowers to a plain ``i``)."""
    return _simple_case(value, str.lower, keep_first=True)


def _is_separator(char: str) -> bool:
    """Go's ``strings.Title`` word separator test."""
    if char.isascii():
        return not (char.isalnum() or char == "_")
    category = unicodedata.category(char)
    if category.startswith("L") or category == "Nd":
        return False
    return char in GO_SPACE


def _title(value: str) -> str:
    """Go's ``strings.Title``: the first letter of each word in title case."""
    out, previous = [], " "
    for char in value:
        if _is_separator(previous):
            mapped = char.title()
            out.append(mapped if len(mapped) == 1 else char)
        else:
            out.append(char)
        previous = char
    return "".join(out)


_GO_SPACE_CHARS = "".join(sorted(GO_SPACE))


def _trimspace(value: str) -> str:
    """Go's ``strings.TrimSpace``: Unicode White_Space only (not ASCII separators)."""
    return value.strip(_GO_SPACE_CHARS)


def _trim(value: str, cutset: str) -> str:
    """Go's ``strings.Trim``: strip any of the cutset's characters from both ends."""
    return value.strip(cutset) if cutset else value


def _chomp(value: str) -> str:
    """Remove every trailing ``\\n``, ``\\r\\n`` or ``\\r``."""
    return re.sub(r"(?:\r\n?|\n)*\Z", "", value, count=1)


def _indent(spaces: int | float, value: str) -> str:
    """Indent every line but the first by ``spaces`` spaces."""
    count = whole(spaces)
    if count < 0:
        raise CallError("panic in function implementation: strings: negative Repeat count")
    require_text(len(value) + count * value.count("\n"))
    return value.replace("\n", "\n" + " " * count)


# --- length, reversal, substrings ---------------------------------------------------


def _strlen(value: str) -> int:
    """The number of grapheme clusters."""
    return len(graphemes(value))


def _reverse(value: str) -> str:
    """Reverse by grapheme cluster, so combining marks stay on their letters."""
    return "".join(reversed(graphemes(value)))


def _substr(value: str, offset: int | float, length: int | float) -> str:
    """cty's ``substr`` by grapheme clusters (negative offset counts from the end)."""
    start, count = whole(offset), whole(length)
    clusters = graphemes(value)
    if start < 0:
        start += len(clusters)
    elif count == 0:
        return ""
    rest = clusters[max(start, 0) :] if start < len(clusters) else []
    if count <= 0:
        return "".join(rest)
    return "".join(rest[:count])


# --- lists of strings ---------------------------------------------------------------


def _join(separator: str, *lists: list[Value]) -> str:
    """Concatenate the elements of one or more lists with a separator."""
    if not lists:
        raise CallError("at least one list is required")
    items: list[str] = []
    for list_index, items_in in enumerate(lists):
        for element_index, item in enumerate(items_in):
            if item is None:
                if len(lists) > 1:
                    message = f"element {element_index} of list {list_index + 1} is null"
                else:
                    message = f"element {element_index} is null"
                raise ArgError(list_index + 1, message + "; cannot concatenate null values")
            items.append(item)
    require_text(sum(map(len, items)) + len(separator) * max(len(items) - 1, 0))
    return separator.join(items)


def _sort(items: list[Value]) -> list[str]:
    """Lexical sort (by UTF-8 bytes, which is code-point order)."""
    for index, item in enumerate(items):
        if item is None:
            raise CallError(f"given list element {index} is null; a null string cannot be sorted")
    return sorted(items)


def _split(separator: str, value: str) -> list[str]:
    """Go's ``strings.Split``; an empty separator splits into characters."""
    if separator == "":
        return list(value)
    return value.split(separator)


# --- replacement -------------------------------------------------------------------


def _replace(value: str, substring: str, replacement: str) -> str:
    """Plain substring replacement (Nomad's ``replace`` has no regex form)."""
    if len(replacement) > len(substring):
        require_text(len(value) + value.count(substring) * (len(replacement) - len(substring)))
    return value.replace(substring, replacement)


_POSIX_CLASSES = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "ascii": "\\x00-\\x7f",
    "blank": "\\t ",
    "cntrl": "\\x00-\\x1f\\x7f",
    "digit": "0-9",
    "graph": "!-~",
    "lower": "a-z",
    "print": " -~",
    "punct": "!-/:-@\\[-`{-~",
    "space": "\\t\\n\\v\\f\\r ",
    "upper": "A-Z",
    "word": "0-9A-Za-z_",
    "xdigit": "0-9A-Fa-f",
}


class _Re2Error(Exception):
    """A pattern RE2 would reject, or one Python's ``re`` cannot express."""


def compile_re2(pattern: str) -> re.Pattern[str]:
    """Compile an RE2 pattern with Python's ``re``, keeping RE2's meaning.

    ``\\d \\w \\s \\b`` are ASCII-only (``re.ASCII``), ``$`` and ``\\z`` mean end of text
    unless multi-line mode is on, ``(?<name>`` is a named group, ``\\Q...\\E`` quotes, and
    POSIX classes expand. Perl features RE2 lacks (lookaround, backreferences) are errors,
    as in Go; Unicode classes ``\\p{...}`` are reported as unsupported.
    """
    try:
        return re.compile(_translate_re2(pattern), re.ASCII)
    except re.error as exc:
        raise _Re2Error(f"error parsing regexp: {exc.msg}: `{pattern}`") from None


def _translate_re2(pattern: str) -> str:
    """The Python spelling of an RE2 pattern (see :func:`compile_re2`)."""
    multiline = re.search(r"\(\?[a-zA-Z]*m", pattern) is not None
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "\\":
            i = _translate_escape(pattern, i, out, multiline)
            continue
        if char == "[":
            i = _translate_class(pattern, i, out)
            continue
        if char == "(" and pattern.startswith("(?", i):
            i = _translate_group(pattern, i, out)
            continue
        out.append("\\Z" if char == "$" and not multiline else char)
        i += 1
    return "".join(out)


def _translate_escape(pattern: str, i: int, out: list[str], multiline: bool) -> int:
    """Translate the escape at ``pattern[i]``; returns the index after it."""
    nxt = pattern[i + 1 : i + 2]
    if nxt == "Q":
        end = pattern.find("\\E", i + 2)
        literal = pattern[i + 2 :] if end < 0 else pattern[i + 2 : end]
        out.append(re.escape(literal))
        return len(pattern) if end < 0 else end + 2
    if nxt == "z":
        out.append("\\Z")
        return i + 2
    if nxt in ("p", "P"):
        raise _Re2Error(f"Unicode character classes (`\\{nxt}`) are not supported by hclgpu: `{pattern}`")
    if nxt.isdigit() and nxt != "0":
        raise _Re2Error(f"error parsing regexp: invalid escape sequence: `\\{nxt}`")
    if nxt in ("Z", "G"):
        raise _Re2Error(f"error parsing regexp: invalid escape sequence: `\\{nxt}`")
    out.append(pattern[i : i + 2])
    return i + 2


def _translate_class(pattern: str, i: int, out: list[str]) -> int:
    """Copy a character class, expanding POSIX classes and escaping Python's set operators."""
    out.append("[")
    i += 1
    if pattern[i : i + 1] == "^":
        out.append("^")
        i += 1
    if pattern[i : i + 1] == "]":
        out.append("\\]")
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        if pattern.startswith("[:", i):
            end = pattern.find(":]", i + 2)
            name = pattern[i + 2 : end] if end > 0 else ""
            if name not in _POSIX_CLASSES:
                raise _Re2Error(
                    f"error parsing regexp: invalid character class range: `{pattern[i : end + 2]}`"
                )
            out.append(_POSIX_CLASSES[name])
            i = end + 2
        elif pattern[i] == "\\":
            if pattern[i + 1 : i + 2] in ("p", "P"):
                raise _Re2Error(f"Unicode character classes are not supported by hclgpu: `{pattern}`")
            out.append(pattern[i : i + 2])
            i += 2
        else:
            out.append("\\" + pattern[i] if pattern[i] in "[&~|" else pattern[i])
            i += 1
    out.append("]")
    return i + 1


def _translate_group(pattern: str, i: int, out: list[str]) -> int:
    """Translate ``(?`` constructs: named groups and flags; refuse Perl-only ones."""
    rest = pattern[i + 2 :]
    if rest.startswith("<") and not rest.startswith(("<=", "<!")):
        out.append("(?P<")
        return i + 3
    if rest.startswith(("=", "!", "<=", "<!", "#", ">")) or re.match(r"[a-zA-Z-]*U", rest):
        construct = pattern[i : i + 3]
        raise _Re2Error(f"error parsing regexp: invalid or unsupported Perl syntax: `{construct}`")
    out.append("(?")
    return i + 2


def _expand(template: str, match: re.Match[str]) -> str:
    """Go's ``Regexp.Expand``: ``$1``, ``${1}``, ``$name``, ``${name}``, ``$$``."""
    out: list[str] = []
    rest = template
    while True:
        before, dollar, after = rest.partition("$")
        out.append(before)
        if not dollar:
            return "".join(out)
        if after.startswith("$"):
            out.append("$")
            rest = after[1:]
            continue
        parsed = _extract(after)
        if parsed is None:
            out.append("$")
            rest = after
            continue
        name, rest = parsed
        out.append(_group_text(match, name))


def _extract(text: str) -> tuple[str, str] | None:
    """Go's ``extract``: a group name after ``$``, braced or bare, and the remaining text."""
    brace = text.startswith("{")
    body = text[1:] if brace else text
    length = 0
    while length < len(body) and (body[length].isalpha() or body[length].isdecimal() or body[length] == "_"):
        length += 1
    if length == 0:
        return None
    name = body[:length]
    if brace:
        if body[length : length + 1] != "}":
            return None
        length += 1
    return name, body[length:]


def _group_text(match: re.Match[str], name: str) -> str:
    """The text of group ``name`` (a number or a name); empty if absent or unmatched."""
    if name.isdigit() and not (name.startswith("0") and len(name) > 1):
        index = int(name)
        if index <= (match.re.groups or 0):
            return match.group(index) or ""
        return ""
    if name in match.re.groupindex:
        return match.group(name) or ""
    return ""


def _regex_replace(value: str, pattern: str, replacement: str) -> str:
    """Go's ``ReplaceAllString``: empty matches next to a previous match are skipped."""
    try:
        compiled = compile_re2(pattern)
    except _Re2Error as exc:
        raise CallError(str(exc), arg=1) from None
    out: list[str] = []
    position, previous_end, size = 0, -1, len(value)
    for match in compiled.finditer(value):
        if match.start() == match.end() == previous_end:
            continue
        out.append(value[position : match.start()])
        expanded = _expand(replacement, match)
        size += len(expanded) - (match.end() - match.start())
        require_text(size)  # as it grows: the number of matches is not known in advance
        out.append(expanded)
        position = previous_end = match.end()
    out.append(value[position:])
    return "".join(out)


TABLE: tuple[Function, ...] = (
    define("upper", _upper, _STR),
    define("lower", _lower, _STR),
    define("title", _title, _STR),
    define("strlen", _strlen, _STR),
    define("strrev", _reverse, _STR),
    define("reverse", _reverse, _STR),
    define("substr", _substr, _STR, Param("offset", "number"), Param("length", "number")),
    define("chomp", _chomp, _STR),
    define("indent", _indent, Param("spaces", "number"), _STR),
    define("trimspace", _trimspace, _STR),
    define("trim", _trim, _STR, Param("cutset", "string")),
    define("trimprefix", str.removeprefix, _STR, Param("prefix", "string")),
    define("trimsuffix", str.removesuffix, _STR, Param("suffix", "string")),
    define("join", _join, Param("separator", "string"), var=Param("lists", "list_string")),
    define("sort", _sort, Param("list", "list_string")),
    define("split", _split, Param("separator", "string"), _STR),
    define("replace", _replace, _STR, Param("substr", "string"), Param("replace", "string")),
    define("regex_replace", _regex_replace, _STR, Param("substr", "string"), Param("replace", "string")),
    define("format", format_values, Param("format", "string"), var=Param("args", allow_null=True)),
    define("formatlist", format_list, Param("format", "string"), var=Param("args", allow_null=True)),
)
