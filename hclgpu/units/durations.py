"""Go's ``time.Duration.String``: how Nomad prints a duration in its messages and hashes
(``1m30s``, ``500ms``, ``0s``)."""

from __future__ import annotations


def go_duration(nanoseconds: int) -> str:
    """A duration as Go's ``time.Duration.String`` prints it (``1m30s``, ``500ms``, ``0s``)."""
    if nanoseconds == 0:
        return "0s"
    sign, rest = ("-", -nanoseconds) if nanoseconds < 0 else ("", nanoseconds)
    if rest < 1_000_000_000:
        for unit, size in (("ms", 1_000_000), ("µs", 1_000), ("ns", 1)):
            if rest >= size:
                return sign + _fraction(rest, size) + unit
    hours, rest = divmod(rest, 3_600_000_000_000)
    minutes, rest = divmod(rest, 60_000_000_000)
    seconds = _fraction(rest, 1_000_000_000) + "s"
    if hours:
        return f"{sign}{hours}h{minutes}m{seconds}"
    return f"{sign}{minutes}m{seconds}" if minutes else sign + seconds


def _fraction(value: int, size: int) -> str:
    whole, part = divmod(value, size)
    if not part:
        return str(whole)
    digits = str(part).rjust(len(str(size)) - 1, "0").rstrip("0")
    return f"{whole}.{digits}"
