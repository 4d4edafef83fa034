"""Time functions from go-cty's stdlib (``datetime.go``): ``formatdate`` and ``timeadd``.

Timestamps are parsed as Go's ``time.Parse(time.RFC3339, ...)`` does, with cty's
friendlier error texts ("not a valid RFC3339 timestamp: ..."); durations as Go's
``time.ParseDuration`` (``1h30m``, ``-1.5h``, ``300ms``, ``2us``/``2µs``, ``10ns``).
Arithmetic is in integer nanoseconds, so sub-second parts are exact; the result is
formatted as ``time.RFC3339``, which drops fractional seconds and keeps the input's
UTC offset (``Z`` whenever the offset is zero).
"""

from __future__ import annotations

from dataclasses import dataclass

from hclgpu.eval.functions.base import ArgError, CallError, Function, Param, define, go_quote

__all__ = ["TABLE"]

_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_NS = 1_000_000_000
_EPOCH_ORDINAL = 719163  # date(1970, 1, 1).toordinal()


@dataclass(slots=True)
class _Time:
    """A wall-clock time with its UTC offset, to nanosecond precision."""

    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int
    nanos: int
    offset: int
    """Seconds east of UTC."""


class _TimestampError(ValueError):
    """A timestamp that ``time.Parse`` rejects, with cty's message."""


def _bad(what: str, rest: str) -> _TimestampError:
    """cty's rewording of a Go ``time.ParseError`` for one timestamp part."""
    size = len(rest.encode("utf-8", "surrogatepass"))
    if rest == "":
        problem = f"end of string before {what}"
    elif what == "hour" and ":" in rest:
        problem = "hour must be between 0 and 23 inclusive"
    elif what in ("hour", "minute") and size != 2:
        problem = f"{what} must have exactly two digits"
    else:
        problem = f"cannot use {go_quote(rest)} as {what}"
    return _TimestampError(f"not a valid RFC3339 timestamp: {problem}")


def _literal(rest: str, text: str) -> str:
    """Consume a literal separator of the layout."""
    if rest.startswith(text):
        return rest[len(text) :]
    if text == "T":
        raise _TimestampError("not a valid RFC3339 timestamp: missing required time introducer 'T'")
    if rest == "":
        raise _TimestampError(f'not a valid RFC3339 timestamp: end of string where "{text}" is expected')
    raise _TimestampError(f'not a valid RFC3339 timestamp: found {go_quote(rest)} where "{text}" is expected')


def _number(rest: str, what: str, fixed: bool, low: int, high: int) -> tuple[int, str]:
    """Go's ``getnum``: one or two digits (exactly two when ``fixed``), then a range check."""
    if not rest[:1].isdigit() or not rest[:1].isascii():
        raise _bad(what, rest)
    size = 2 if rest[1:2].isdigit() and rest[1:2].isascii() else 1
    if fixed and size == 1:
        raise _bad(what, rest)
    value, remaining = int(rest[:size]), rest[size:]
    if not low <= value <= high:
        raise _bad(what, remaining)
    return value, remaining


def _fraction(rest: str) -> tuple[int, str]:
    """Fractional seconds after ``.`` or ``,`` (Go accepts them although the layout has none)."""
    if len(rest) >= 2 and rest[0] in ".," and rest[1].isdigit() and rest[1].isascii():
        end = 1
        while end < len(rest) and rest[end].isdigit() and rest[end].isascii():
            end += 1
        digits = rest[1:end][:9].ljust(9, "0")
        return int(digits), rest[end:]
    return 0, rest


def _zone(rest: str) -> tuple[int, str]:
    """``Z`` or ``±hh:mm``."""
    if rest.startswith("Z"):
        return 0, rest[1:]
    sign, hours, colon, minutes = rest[:1], rest[1:3], rest[3:4], rest[4:6]
    if len(rest) < 6 or colon != ":" or sign not in "+-" or not (hours + minutes).isdigit():
        raise _bad("UTC offset", rest)
    if int(hours) > 24 or int(minutes) > 60:
        raise _bad("UTC offset", rest[6:])
    offset = int(hours) * 3600 + int(minutes) * 60
    return (-offset if sign == "-" else offset), rest[6:]


def parse_timestamp(text: str) -> _Time:
    """cty's ``parseTimestamp``: strict RFC 3339, explained through Go's ``time.Parse`` errors.

    cty first tries a strict parser; when that fails it asks Go's (laxer) ``time.Parse``
    for an error, and for the three things Go accepts but RFC 3339 does not (a one-digit
    hour, a comma before the fraction, a zone offset of 24 hours or 60 minutes) makes
    one up. :func:`_go_parse` plays ``time.Parse``; :func:`_strict_rejects` the rest.
    """
    moment = _go_parse(text)
    _strict_rejects(text)
    return moment


def _strict_rejects(text: str) -> None:
    """The cases Go's ``time.Parse`` accepts that cty's strict RFC 3339 parser refuses."""
    if text[12:13] == ":":
        raise _TimestampError("not a valid RFC3339 timestamp: hour must have exactly two digits")
    if text[19:20] == ",":
        raise _TimestampError('not a valid RFC3339 timestamp: cannot use "," as timestamp segment')
    if not text.endswith("Z") and (int(text[-5:-3]) >= 24 or int(text[-2:]) >= 60):
        raise _TimestampError(
            f"not a valid RFC3339 timestamp: cannot use {go_quote(text[-6:])} as UTC offset"
        )


def _go_parse(text: str) -> _Time:
    """Go's ``time.Parse(time.RFC3339, text)``, with cty's rewording of its errors."""
    if len(text) < 4 or not text[:4].isdigit() or not text[:4].isascii():
        raise _bad("year", text)
    year, rest = int(text[:4]), _literal(text[4:], "-")
    month, rest = _number(rest, "month", True, 1, 12)
    day, rest = _number(_literal(rest, "-"), "day of month", True, 1, 31)
    hour, rest = _number(_literal(rest, "T"), "hour", False, 0, 23)
    minute, rest = _number(_literal(rest, ":"), "minute", True, 0, 59)
    second, rest = _number(_literal(rest, ":"), "second", True, 0, 59)
    nanos, rest = _fraction(rest)
    offset, rest = _zone(rest)
    if rest:
        raise _bad("timestamp segment", rest)
    if day > _days_in_month(year, month):
        raise _TimestampError("not a valid RFC3339 timestamp: day out of range")
    return _Time(year, month, day, hour, minute, second, nanos, offset)


def _days_in_month(year: int, month: int) -> int:
    """Days in a month of the proleptic Gregorian calendar."""
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _zone_text(offset: int, colon: bool) -> str:
    """``+hh:mm`` or ``+hhmm``."""
    sign = "-" if offset < 0 else "+"
    hours, minutes = divmod(abs(offset) // 60, 60)
    return f"{sign}{hours:02d}{':' if colon else ''}{minutes:02d}"


def format_rfc3339(moment: _Time) -> str:
    """Go's ``Format(time.RFC3339)``: no fractional seconds, ``Z`` for a zero offset."""
    zone = "Z" if moment.offset == 0 else _zone_text(moment.offset, True)
    return (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T"
        f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}{zone}"
    )


# --- durations -------------------------------------------------------------------------

_UNITS = {
    "ns": 1,
    "us": 1_000,
    "\u00b5s": 1_000,
    "\u03bcs": 1_000,
    "ms": 1_000_000,
    "s": _NS,
    "m": 60 * _NS,
    "h": 3600 * _NS,
}


def _time_quote(text: str) -> str:
    """The ``quote`` of Go's time package: bytes outside printable ASCII as ``\\xNN``."""
    out = ['"']
    for char in text:
        if char < " " or char > "~":
            out.extend(f"\\x{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))
        else:
            out.append("\\" + char if char in '"\\' else char)
    out.append('"')
    return "".join(out)


def parse_duration(text: str) -> int:
    """Go's ``time.ParseDuration``, in nanoseconds."""
    invalid = ValueError(f"time: invalid duration {_time_quote(text)}")
    rest, negative = text, False
    if rest[:1] in ("-", "+"):
        negative, rest = rest[0] == "-", rest[1:]
    if rest == "0":
        return 0
    if rest == "":
        raise invalid
    total = 0
    while rest:
        value, rest = _duration_part(rest, text, invalid)
        total += value
        if total > 2**63:
            raise invalid
    if not negative and total > 2**63 - 1:
        raise invalid
    return -total if negative else total


def _leading_digits(text: str) -> int:
    """The number of ASCII digits at the start of ``text``."""
    end = 0
    while end < len(text) and "0" <= text[end] <= "9":
        end += 1
    return end


def _duration_part(rest: str, text: str, invalid: ValueError) -> tuple[int, str]:
    """One ``<number><unit>`` piece; returns its nanoseconds and the remaining text."""
    if not (rest[0] == "." or "0" <= rest[0] <= "9"):
        raise invalid
    end = _leading_digits(rest)
    if end > 19 and len(rest[:end].lstrip("0")) > 19:  # past int64 at any value; never int() it
        raise invalid
    whole_part, rest, before_point = int(rest[:end] or 0), rest[end:], end > 0
    if whole_part > 2**63 - 1:
        raise invalid
    fraction, scale, after_point = 0, 1.0, False
    if rest.startswith("."):
        end = _leading_digits(rest[1:])
        for digit in rest[1 : 1 + end]:
            if fraction > (2**63 - 1) // 10 or fraction * 10 + int(digit) > 2**63:
                break
            fraction, scale = fraction * 10 + int(digit), scale * 10
        rest, after_point = rest[1 + end :], end > 0
    if not before_point and not after_point:
        raise invalid
    unit_end = 0
    while unit_end < len(rest) and not (rest[unit_end] == "." or "0" <= rest[unit_end] <= "9"):
        unit_end += 1
    if unit_end == 0:
        raise ValueError(f"time: missing unit in duration {_time_quote(text)}")
    unit, rest = rest[:unit_end], rest[unit_end:]
    if unit not in _UNITS:
        raise ValueError(f"time: unknown unit {_time_quote(unit)} in duration {_time_quote(text)}")
    scale_ns = _UNITS[unit]
    if whole_part > 2**63 // scale_ns:
        raise invalid
    value = whole_part * scale_ns
    if fraction > 0:
        value += int(float(fraction) * (float(scale_ns) / scale))
        if value > 2**63:
            raise invalid
    return value, rest


# --- functions --------------------------------------------------------------------------


def _to_epoch_ns(moment: _Time) -> int:
    """Nanoseconds since 1970-01-01T00:00:00Z."""
    from datetime import date

    days = date(moment.year, moment.month, moment.day).toordinal() - _EPOCH_ORDINAL
    seconds = days * 86400 + moment.hour * 3600 + moment.minute * 60 + moment.second - moment.offset
    return seconds * _NS + moment.nanos


def _from_epoch_ns(total: int, offset: int) -> _Time:
    """The wall-clock time at ``total`` nanoseconds in the zone ``offset``."""
    from datetime import date

    seconds, nanos = divmod(total + offset * _NS, _NS)
    days, seconds = divmod(seconds, 86400)
    day = date.fromordinal(days + _EPOCH_ORDINAL)
    hour, seconds = divmod(seconds, 3600)
    minute, second = divmod(seconds, 60)
    return _Time(day.year, day.month, day.day, hour, minute, second, nanos, offset)


def _timeadd(timestamp: str, duration: str) -> str:
    """``timestamp`` plus a Go duration, as an RFC 3339 timestamp in the same offset."""
    try:
        moment = parse_timestamp(timestamp)
    except _TimestampError as exc:
        raise CallError(str(exc), arg=0) from None
    try:
        delta = parse_duration(duration)
    except ValueError as exc:
        raise CallError(str(exc), arg=1) from None
    try:
        return format_rfc3339(_from_epoch_ns(_to_epoch_ns(moment) + delta, moment.offset))
    except (ValueError, OverflowError):
        raise CallError("the resulting time is outside the years 1 to 9999") from None


def _date_tokens(fmt: str) -> list[str]:
    """cty's ``splitDateFormat``: quoted literals, runs of one letter, other literal text."""
    tokens: list[str] = []
    i = 0
    while i < len(fmt):
        char = fmt[i]
        if char == "'":
            end = i + 1
            if fmt[end : end + 1] == "'":
                end += 1
            else:
                while end < len(fmt):
                    if fmt[end] == "'":
                        if fmt[end + 1 : end + 2] == "'":
                            end += 2
                            continue
                        end += 1
                        break
                    end += 1
            tokens.append(fmt[i:end])
            i = end
        elif char.isascii() and char.isalpha():
            end = i
            while end < len(fmt) and fmt[end] == char:
                end += 1
            tokens.append(fmt[i:end])
            i = end
        else:
            end = i + 1
            while end < len(fmt) and fmt[end] != "'" and not (fmt[end].isascii() and fmt[end].isalpha()):
                end += 1
            tokens.append(fmt[i:end])
            i = end
    return tokens


def _quoted_literal(token: str) -> str:
    """A ``'...'`` token: ``''`` is a quote; inside, doubled quotes are one quote."""
    if len(token) == 1 or not token.endswith("'"):
        raise ArgError(0, "unterminated literal '")
    if token == "''":
        return "'"
    return token[1:-1].replace("''", "'")


def _date_verb(token: str, moment: _Time) -> str:
    """One formatting verb such as ``YYYY`` or ``hh``."""
    from datetime import date

    letter, size = token[0], len(token)
    simple = {
        "D": (moment.day, 'day of month must either be "D" or "DD"'),
        "h": (moment.hour, '24-hour must either be "h" or "hh"'),
        "H": ((moment.hour % 12) or 12, '12-hour must either be "H" or "HH"'),
        "m": (moment.minute, 'minute must either be "m" or "mm"'),
        "s": (moment.second, 'second must either be "s" or "ss"'),
    }
    if letter in simple:
        value, problem = simple[letter]
        if size not in (1, 2):
            raise _verb_error(token, problem)
        return str(value) if size == 1 else f"{value:02d}"
    if letter == "Y":
        if size == 2:
            return f"{moment.year % 100:02d}"
        if size == 4:
            return f"{moment.year:04d}"
        raise _verb_error(token, 'year must either be "YY" or "YYYY"')
    if letter == "M":
        name = _MONTHS[moment.month - 1]
        choices = {1: str(moment.month), 2: f"{moment.month:02d}", 3: name[:3], 4: name}
        if size not in choices:
            raise _verb_error(token, 'month must be "M", "MM", "MMM", or "MMMM"')
        return choices[size]
    if letter == "E":
        name = _WEEKDAYS[date(moment.year, moment.month, moment.day).weekday()]
        if size not in (3, 4):
            raise _verb_error(token, 'day of week must either be "EEE" or "EEEE"')
        return name[:3] if size == 3 else name
    if letter in "Aa":
        if size != 2:
            raise _verb_error(token, f'must be "{letter}{letter}"')
        marker = "AM" if moment.hour < 12 else "PM"
        return marker if letter == "A" else marker.lower()
    if letter == "Z":
        return _zone_verb(token, moment.offset)
    raise ArgError(0, f"invalid date format verb {go_quote(token)}")


def _zone_verb(token: str, offset: int) -> str:
    """``Z`` (``Z`` for UTC), ``ZZZ`` (``UTC``), ``ZZZZ`` (``-0700``), ``ZZZZZ`` (``-07:00``)."""
    size = len(token)
    if size == 1:
        return "Z" if offset == 0 else _zone_text(offset, True)
    if size == 3:
        return "UTC" if offset == 0 else _zone_text(offset, False)
    if size == 4:
        return _zone_text(offset, False)
    if size == 5:
        return _zone_text(offset, True)
    raise _verb_error(token, "timezone must be Z, ZZZZ, or ZZZZZ")


def _verb_error(token: str, problem: str) -> ArgError:
    """cty's "invalid date format verb" argument error."""
    return ArgError(0, f"invalid date format verb {go_quote(token)}: {problem}")


def _formatdate(fmt: str, timestamp: str) -> str:
    """Format an RFC 3339 timestamp with cty's date format letters."""
    try:
        moment = parse_timestamp(timestamp)
    except _TimestampError as exc:
        raise ArgError(1, str(exc)) from None
    out: list[str] = []
    for token in _date_tokens(fmt):
        if token[0] == "'":
            out.append(_quoted_literal(token))
        elif token[0].isascii() and token[0].isalpha():
            out.append(_date_verb(token, moment))
        else:
            out.append(token)
    return "".join(out)


TABLE: tuple[Function, ...] = (
    define("formatdate", _formatdate, Param("format", "string"), Param("time", "string")),
    define("timeadd", _timeadd, Param("timestamp", "string"), Param("duration", "string")),
)
