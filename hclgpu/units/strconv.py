"""Go's ``strconv`` and ``strings.TrimSpace``, exactly: how Nomad reads the numbers and
booleans inside attribute values and version segments.

Python's ``int()``, ``float()`` and ``str.strip()`` accept more (underscores anywhere,
non-ASCII digits, other white space), so a value they read may be one Go refuses.
"""

from __future__ import annotations

__all__ = ["GO_SPACE", "go_parse_bool", "go_parse_float", "go_parse_int", "go_trim_space"]

GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
"""Go's ``unicode.IsSpace`` (what ``strings.TrimSpace`` strips); Python's ``str.strip()``
also strips U+001C..U+001F, which Go keeps."""

_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


def go_trim_space(text: str) -> str:
    """``strings.TrimSpace``: strip Go's Unicode white space from both ends."""
    return text.strip(GO_SPACE)


def go_parse_int(text: str) -> int | None:
    """``strconv.ParseInt(text, 10, 64)``: optional sign, ASCII digits, in int64 range.

    Python's ``int()`` would also take underscores, spaces and non-ASCII digits.
    """
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits or not (digits.isascii() and digits.isdigit()):
        return None
    if len(digits) > 19 and len(digits.lstrip("0")) > 19:  # past int64 at any value; never int() it
        return None
    value = int(text)
    return value if _INT64_MIN <= value <= _INT64_MAX else None


def go_parse_bool(text: str) -> bool | None:
    """``strconv.ParseBool``: exactly these twelve spellings."""
    if text in ("1", "t", "T", "TRUE", "true", "True"):
        return True
    if text in ("0", "f", "F", "FALSE", "false", "False"):
        return False
    return None


def go_parse_float(text: str) -> float | None:
    """``strconv.ParseFloat(text, 64)``, or ``None`` where Go returns an error.

    Go's syntax: an optional sign, then ``inf``/``infinity`` (any case), or ``nan`` (any
    case, unsigned), or a decimal (``1.5``, ``.5``, ``5.``, ``1e3``) or hexadecimal
    (``0x1.8p3``, exponent required) mantissa, with ``_`` allowed only between digits.
    Out-of-range values (``1e400``) are errors, not infinities; underflow rounds to zero.
    """
    special = _go_special_float(text)
    if special is not None:
        return special
    scanned = _scan_go_float(text)
    if scanned is None:
        return None
    cleaned, is_hex = scanned
    try:
        value = float.fromhex(cleaned) if is_hex else float(cleaned)
    except OverflowError:
        return None
    return None if value in (float("inf"), float("-inf")) else value


def _go_special_float(text: str) -> float | None:
    """The named values ``strconv`` accepts: ``[+-]inf``, ``[+-]infinity``, ``nan``."""
    if not text.isascii():
        return None
    lowered = text.lower()
    if lowered == "nan":
        return float("nan")
    sign = -1.0 if lowered[:1] == "-" else 1.0
    body = lowered[1:] if lowered[:1] in ("+", "-") else lowered
    if body in ("inf", "infinity"):
        return sign * float("inf")
    return None


def _scan_go_float(text: str) -> tuple[str, bool] | None:
    """Check ``text`` against Go's ``readFloat`` grammar; return it without underscores.

    Returns ``(cleaned, is_hex)`` or ``None`` on a syntax error.
    """
    i = 1 if text[:1] in ("+", "-") else 0
    is_hex = text[i : i + 2].lower() == "0x" and len(text) > i + 2
    digits = "0123456789abcdefABCDEF" if is_hex else "0123456789"
    if is_hex:
        i += 2
    saw_digit = saw_dot = False
    while i < len(text):
        char = text[i]
        if char == "_" or char in digits:
            saw_digit = saw_digit or char != "_"
        elif char == "." and not saw_dot:
            saw_dot = True
        else:
            break
        i += 1
    if not saw_digit:
        return None
    end = _scan_exponent(text, i, "p" if is_hex else "e")
    if end is None or (end == i and is_hex):  # a hexadecimal mantissa needs its p exponent
        return None
    if end != len(text) or ("_" in text and not _underscore_ok(text)):
        return None
    return text.replace("_", ""), is_hex


def _scan_exponent(text: str, i: int, marker: str) -> int | None:
    """Consume an optional exponent (``e``/``p``, sign, digits with ``_``) at ``i``.

    Returns the index after it (``i`` when there is none), or ``None`` when the marker
    is not followed by a digit.
    """
    if i >= len(text) or text[i].lower() != marker:
        return i
    i += 1
    if i < len(text) and text[i] in "+-":
        i += 1
    if i >= len(text) or not "0" <= text[i] <= "9":
        return None
    while i < len(text) and ("0" <= text[i] <= "9" or text[i] == "_"):
        i += 1
    return i


def _underscore_ok(text: str) -> bool:
    """Go's ``underscoreOK``: ``_`` only between digits, or after a base prefix."""
    if text[:1] in ("+", "-"):
        text = text[1:]
    saw = "^"
    i = 0
    hex_digits = False
    if len(text) >= 2 and text[0] == "0" and text[1].lower() in "box":
        i, saw, hex_digits = 2, "0", text[1].lower() == "x"
    for char in text[i:]:
        if char.isascii() and (char.isdigit() or (hex_digits and char.lower() in "abcdef")):
            saw = "0"
        elif char == "_":
            if saw != "0":
                return False
            saw = "_"
        elif saw == "_":
            return False
        else:
            saw = "!"
    return saw != "_"
