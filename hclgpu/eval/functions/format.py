"""``format`` and ``formatlist``: go-cty's printf (``format.go``, ``format_fsm.rl``).

The format string is scanned the way cty's Ragel machine scans it: ``%%``, then
``%`` flags (``0#-+`` and space), an optional ``[n]`` argument index, a width, a
``.precision`` and a letter. Strings are measured and padded in grapheme clusters; numbers
go through Go's ``big.Float`` / ``big.Int`` formatting (:mod:`~hclgpu.eval.functions.bigfloat`); ``%v``
of anything else and ``%#v`` are cty's JSON. Errors carry cty's messages, including the
byte offset of the offending verb.
"""

from __future__ import annotations

from dataclasses import dataclass

from hclgpu.eval.functions.base import (
    ArgError,
    CallError,
    ConversionError,
    go_quote,
    go_quote_rune,
    require_text,
    to_num,
    to_str,
)
from hclgpu.eval.functions.bigfloat import format_float, format_int, text
from hclgpu.eval.functions.encoding import json_marshal, json_string
from hclgpu.eval.functions.unicode import graphemes
from hclgpu.eval.values import Value

__all__ = ["format_list", "format_values"]


class FormatError(Exception):
    """A problem with the format string or an argument, in cty's words."""


@dataclass(slots=True)
class _Verb:
    """One ``%`` sequence as cty's ``formatVerb``."""

    raw: str
    offset: int
    arg_num: int
    mode: str
    flags: str
    width: int | None
    prec: int | None
    go_refuses: bool = False
    """The width or precision is past what Go's fmt parses (see :func:`_go_too_large`)."""

    def where(self) -> str:
        """The ``"%5d" at 3`` part of cty's messages."""
        return f"{go_quote(self.raw)} at {self.offset}"


def format_values(fmt: str, *args: Value) -> str:
    """``format(fmt, args...)``."""
    try:
        return _format(fmt, list(args))
    except FormatError as exc:
        raise CallError(str(exc)) from None


def format_list(fmt: str, *args: Value) -> list[str]:
    """``formatlist``: lists are iterated together, other arguments repeat on each line."""
    length, chooser = -1, -1
    for index, arg in enumerate(args):
        if isinstance(arg, list):
            if length < 0:
                length, chooser = len(arg), index
            elif len(arg) != length:
                raise ArgError(
                    index + 1,
                    f"argument {index + 1} has length {len(arg)}, which is inconsistent with "
                    f"argument {chooser + 1} of length {length}",
                )
    if length == 0:
        return []
    results = []
    size = 0
    for iteration in range(max(length, 1)):
        row = [arg[iteration] if isinstance(arg, list) else arg for arg in args]
        try:
            results.append(_format(fmt, row))
            size += len(results[-1])
            require_text(size)
        except FormatError as exc:
            if not args:
                raise CallError(str(exc)) from None
            raise CallError(f"error on format iteration {iteration}: {exc}") from None
    return results


def _byte_offset(fmt: str, index: int) -> int:
    """Ragel counts bytes, not characters."""
    return len(fmt[:index].encode("utf-8", "surrogatepass"))


def _format(fmt: str, args: list[Value]) -> str:
    """Scan ``fmt`` and format each verb in turn."""
    out: list[str] = []
    i, n, next_arg, size = 0, len(fmt), 1, 0
    while i < n:
        char = fmt[i]
        if char != "%":
            out.append(char)
            i += 1
            size += 1
        elif fmt.startswith("%%", i):
            out.append("%")
            i += 2
            size += 1
        else:
            verb, i = _scan_verb(fmt, i, next_arg)
            out.append(_append(verb, args))
            size += len(out[-1])
            require_text(size)  # many wide verbs: stop at the budget, not after all of them
            next_arg = verb.arg_num + 1
    return "".join(out)


def _digits(fmt: str, i: int) -> int:
    """Index after the run of ASCII digits starting at ``i``."""
    while i < len(fmt) and "0" <= fmt[i] <= "9":
        i += 1
    return i


def _scan_verb(fmt: str, start: int, next_arg: int) -> tuple[_Verb, int]:
    """Read one verb starting at the ``%`` at ``start``; returns it and the index after it."""
    i = start + 1
    flags_end = i
    while flags_end < len(fmt) and fmt[flags_end] in "0#-+ ":
        flags_end += 1
    flags, i = fmt[i:flags_end], flags_end
    arg_num = next_arg
    if fmt.startswith("[", i):
        if not fmt[i + 1 : i + 2] or fmt[i + 1] not in "123456789":
            _unexpected(fmt, i + 1)
        end = _digits(fmt, i + 1)
        if fmt[end : end + 1] != "]":
            _unexpected(fmt, end)
        arg_num, i = _size(fmt[i + 1 : end]), end + 1
    width = prec = None
    refused = False
    if fmt[i : i + 1] and fmt[i] in "123456789":
        end = _digits(fmt, i)
        width, refused, i = _size(fmt[i:end]), _go_too_large(fmt[i:end]), end
    if fmt.startswith(".", i):
        end = _digits(fmt, i + 1)
        digits = fmt[i + 1 : end]
        prec, i = _size(digits or "0"), end
        refused = refused or _go_too_large(digits)
    _unexpected_unless_letter(fmt, i)
    raw = fmt[start : i + 1]
    verb = _Verb(raw, _byte_offset(fmt, start), arg_num, fmt[i], flags, width, prec, refused)
    return verb, i + 1


_HUGE = 10**12
"""Stands for any number of more than twelve digits: past every limit that applies."""


def _size(digits: str) -> int:
    """A run of digits as a number, without converting thousands of them."""
    return int(digits) if len(digits) <= 12 else _HUGE


def _go_too_large(digits: str) -> bool:
    """Go's ``fmt`` stops reading a width or precision once it passes 10**6 with another
    digit to come (``parsenum``); it then prints ``%!(NOVERB)`` instead of the number."""
    value = 0
    for digit in digits:
        if value > 1_000_000:
            return True
        value = value * 10 + ord(digit) - 48
    return False


def _unexpected_unless_letter(fmt: str, i: int) -> None:
    """The verb must end in an ASCII letter."""
    if i >= len(fmt) or not ("a" <= fmt[i] <= "z" or "A" <= fmt[i] <= "Z"):
        _unexpected(fmt, i)


def _unexpected(fmt: str, i: int) -> None:
    """cty's two scanner errors: a bad character, or the string ending mid-verb."""
    if i >= len(fmt):
        raise FormatError(f"invalid format string starting at offset {_byte_offset(fmt, len(fmt))}")
    raise FormatError(
        f"unrecognized format character {go_quote_rune(fmt[i])} at offset {_byte_offset(fmt, i)}"
    )


def _append(verb: _Verb, args: list[Value]) -> str:
    """Format one verb (cty's ``formatAppend``)."""
    if verb.arg_num > len(args):
        raise FormatError(
            f"not enough arguments for {go_quote(verb.raw)} at {verb.offset}: "
            f"need index {verb.arg_num} but have {len(args)} total"
        )
    value = args[verb.arg_num - 1]
    if verb.mode != "v" and value is None:
        raise FormatError(f"unsupported value for {verb.where()}: null value cannot be formatted")
    if verb.mode == "v":
        return _as_is(verb, value)
    if verb.mode == "t":
        return "true" if _to_bool(verb, value) else "false"
    if verb.mode in "bdoxXeEfgG":
        return _number(verb, value)
    if verb.mode in "sq":
        return _string(verb, value)
    raise FormatError(
        f"unsupported format verb {go_quote_rune(verb.mode)} in {go_quote(verb.raw)} at offset {verb.offset}"
    )


def _pad(verb: _Verb, formatted: str) -> str:
    """cty's ``formatPadWidth``: pad to the width in grapheme clusters."""
    if verb.width is None:
        return formatted
    require_text(verb.width)
    missing = verb.width - len(graphemes(formatted))
    if missing <= 0:
        return formatted
    pads = ("0" if "0" in verb.flags else " ") * missing
    return formatted + pads if "-" in verb.flags else pads + formatted


def _as_is(verb: _Verb, value: Value) -> str:
    """``%v``: strings as they are, numbers as ``%g``, anything else (and ``%#v``) as JSON."""
    if "#" not in verb.flags:
        if isinstance(value, str):
            return _pad(verb, value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return _pad(verb, text(value, "g"))
    return _pad(verb, json_marshal(value))


def _to_bool(verb: _Verb, value: Value) -> bool:
    """cty's conversion to bool (``"true"``/``"1"``, ``"false"``/``"0"``)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        if value in ("true", "1"):
            return True
        if value in ("false", "0"):
            return False
        lowered = value.lower()
        hint = f'; to convert from string, use lowercase "{lowered}"' if lowered in ("true", "false") else ""
        raise FormatError(f"unsupported value for {verb.where()}: a bool is required{hint}")
    raise FormatError(f"unsupported value for {verb.where()}: bool required")


def _number(verb: _Verb, value: Value) -> str:
    """Integer verbs need a whole number; the others format a ``big.Float``."""
    try:
        number = to_num(value)
    except ConversionError as exc:
        raise FormatError(f"unsupported value for {verb.where()}: {exc}") from None
    if verb.go_refuses:  # cty hands numbers to Go's fmt, which prints garbage for this verb
        raise FormatError(
            f"unsupported width or precision in {verb.where()}: Go's fmt reads neither past "
            "about ten million and prints %!(NOVERB) instead"
        )
    if verb.mode in "eEfgG":
        return format_float(number, verb.mode, verb.flags, verb.width, verb.prec)
    if isinstance(number, float) and not number.is_integer():
        raise FormatError(f"unsupported value for {verb.where()}: an integer is required")
    return format_int(int(number), verb.mode, verb.flags, verb.width, verb.prec)


def _string(verb: _Verb, value: Value) -> str:
    """``%s`` and ``%q``: precision truncates the input in grapheme clusters."""
    try:
        string = to_str(value)
    except ConversionError as exc:
        raise FormatError(f"unsupported value for {verb.where()}: {exc}") from None
    if verb.prec is not None and verb.prec > 0:
        string = "".join(graphemes(string)[: verb.prec])
    return _pad(verb, string if verb.mode == "s" else json_string(string))
