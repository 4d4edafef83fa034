"""Version constraints as Nomad checks them, with Nomad's exact acceptance.

* ``version``: hashicorp/go-version ``NewConstraint`` and ``Check``.
* ``semver``: Nomad's ``helper/constraints/semver`` (go-version's strict SemVer regexp,
  no ``~>``, no pre-release filtering).

Messages use Go's words: ``malformed constraint: ~> x``.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from hclgpu.units.strconv import go_parse_int

if TYPE_CHECKING:
    import re

__all__ = [
    "VersionError",
    "semver_constraint_problem",
    "semver_matches",
    "version_constraint_problem",
    "version_matches",
]

_VERSION_PATTERN = (
    r"v?([0-9]+(\.[0-9]+)*?)"
    r"(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?"
    r"(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?"
    r"?"
)
"""go-version's ``VersionRegexpRaw``: loose (``1``, ``v1.2``, ``1.2.3beta``, ``1.2.3+meta``)."""

_SEMVER_PATTERN = (
    r"v?([0-9]+(\.[0-9]+)*?)"
    r"(-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)|(-([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)))?"
    r"(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?"
    r"?"
)
"""go-version's ``SemverRegexpRaw``: a pre-release needs its ``-``."""

_GO_SPACE_CLASS = r"[\t\n\f\r ]"
"""RE2's ``\\s`` (Python's ``\\s`` would also take ``\\v`` and Unicode spaces)."""

_INT64_MAX = (1 << 63) - 1
_RANGE = "value out of range"


class VersionError(ValueError):
    """What go-version's ``NewVersion``/``NewConstraint`` return as an error."""


class _Version:
    """A parsed go-version ``Version``: segments padded to three, and how many were given."""

    __slots__ = ("given", "metadata", "pre", "segments")

    def __init__(self, segments: tuple[int, ...], given: int, pre: str, metadata: str) -> None:
        self.segments = segments
        self.given = given
        self.pre = pre
        self.metadata = metadata

    def __str__(self) -> str:
        """go-version's ``String()``; ``Compare`` starts by comparing these, metadata included."""
        text = ".".join(str(segment) for segment in self.segments)
        if self.pre:
            text += "-" + self.pre
        if self.metadata:
            text += "+" + self.metadata
        return text


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    """Compile once: go-version's patterns are used for every version and constraint."""
    import re

    return re.compile(pattern)


def _new_version(text: str, pattern: str = _VERSION_PATTERN) -> _Version:
    """``NewVersion`` (loose) or ``NewSemver`` (``pattern=_SEMVER_PATTERN``)."""
    match = _regex(pattern).fullmatch(text)
    if match is None:
        raise VersionError(f"malformed version: {text}")
    raw_segments = match.group(1).split(".")
    segments = []
    for raw in raw_segments:
        value = int(raw) if len(raw.lstrip("0")) <= 19 else _INT64_MAX + 1  # no int() of 5000 digits
        if value > _INT64_MAX:
            raise VersionError(f'error parsing version: strconv.ParseInt: parsing "{raw}": {_RANGE}')
        segments.append(value)
    segments.extend([0] * (3 - len(segments)))
    pre = match.group(7) or match.group(4) or ""
    return _Version(tuple(segments), len(raw_segments), pre, match.group(10) or "")


def _compare_versions(v: _Version, other: _Version) -> int:
    """go-version's ``Compare``, including its quirks (``1.2.3-x`` == ``1.2.3.0``)."""
    if str(v) == str(other):
        return 0
    if v.segments == other.segments:
        if not v.pre and not other.pre:
            return 0
        if not v.pre:
            return 1
        if not other.pre:
            return -1
        return _compare_prereleases(v.pre, other.pre)
    mine, theirs = v.segments, other.segments
    for i in range(max(len(mine), len(theirs))):
        if i >= len(mine):
            return -1 if any(theirs[i:]) else 0
        if i >= len(theirs):
            return 1 if any(mine[i:]) else 0
        if mine[i] != theirs[i]:
            return -1 if mine[i] < theirs[i] else 1
    return 0


def _compare_prereleases(mine: str, other: str) -> int:
    """``comparePrereleases``: dot-separated parts compared left to right."""
    if mine == other:
        return 0
    my_parts, other_parts = mine.split("."), other.split(".")
    for i in range(max(len(my_parts), len(other_parts))):
        a = my_parts[i] if i < len(my_parts) else ""
        b = other_parts[i] if i < len(other_parts) else ""
        result = _compare_part(a, b)
        if result:
            return result
    return 0


def _parse_int64(text: str) -> tuple[int, bool]:
    """``strconv.ParseInt(text, 10, 64)`` as go-version uses it: the value *and* whether it
    parsed. On overflow Go still returns the clamped value (and go-version compares it)."""
    value = go_parse_int(text)
    if value is not None:
        return value, True
    digits = text[1:] if text[:1] in ("+", "-") else text
    if digits and digits.isascii() and digits.isdigit():
        return (-(1 << 63) if text.startswith("-") else _INT64_MAX), False
    return 0, False


def _compare_part(mine: str, other: str) -> int:
    """``comparePart``: numeric parts sort before others. Its quirks are kept: two
    spellings of one number (``01``, ``1``) compare as -1 both ways, and two non-numeric
    parts fall through to comparing ParseInt's values, which are clamped on overflow."""
    if mine == other:
        return 0
    my_int, my_numeric = _parse_int64(mine)
    other_int, other_numeric = _parse_int64(other)
    if mine == "":
        return -1 if other_numeric else 1
    if other == "":
        return 1 if my_numeric else -1
    if my_numeric != other_numeric:
        return -1 if my_numeric else 1
    if not my_numeric and mine > other:
        return 1
    return 1 if my_int > other_int else -1


def _prerelease_check(v: _Version, c: _Version) -> bool:
    """A pre-release version only satisfies a constraint on the same segments with a
    pre-release; a constraint without one never admits a pre-release version."""
    if c.pre and v.pre:
        return v.segments == c.segments
    return not (v.pre and not c.pre)


def _pessimistic(v: _Version, c: _Version) -> bool:
    """``~>``: at least ``c``, same leading segments except the last one given."""
    if not _prerelease_check(v, c) or (c.pre and not v.pre):
        return False
    if _compare_versions(v, c) < 0:
        return False
    if len(c.segments) > len(v.segments):
        return False
    if any(v.segments[i] != c.segments[i] for i in range(c.given - 1)):
        return False
    return c.segments[-1] <= v.segments[len(c.segments) - 1]


def _version_check(op: str, v: _Version, c: _Version) -> bool:
    """go-version's constraint functions (with its pre-release rule)."""
    if op in ("", "="):
        return _compare_versions(v, c) == 0
    if op == "!=":
        return _compare_versions(v, c) != 0
    if op == "~>":
        return _pessimistic(v, c)
    if not _prerelease_check(v, c):
        return False
    return _order(op, _compare_versions(v, c))


def _semver_check(op: str, v: _Version, c: _Version) -> bool:
    """Nomad's semver constraint functions: plain SemVer ordering, no pre-release rule."""
    if op in ("", "="):
        return _compare_versions(v, c) == 0
    if op == "!=":
        return _compare_versions(v, c) != 0
    return _order(op, _compare_versions(v, c))


def _order(op: str, result: int) -> bool:
    """``>``, ``<``, ``>=``, ``<=`` on a comparison result."""
    return {">": result == 1, "<": result == -1, ">=": result >= 0, "<=": result <= 0}[op]


_VERSION_OPERATORS = ("~>", ">=", "<=", "!=", ">", "<", "=", "")
_SEMVER_OPERATORS = (">=", "<=", "!=", ">", "<", "=", "")


def _parse_constraints(text: str, semver: bool) -> list[tuple[str, _Version]]:
    """``NewConstraint``: comma-separated ``[op] version`` terms, all of which must parse."""
    import re

    operators = _SEMVER_OPERATORS if semver else _VERSION_OPERATORS
    version_pattern = _SEMVER_PATTERN if semver else _VERSION_PATTERN
    alternatives = "|".join(re.escape(op) for op in operators)
    space = _GO_SPACE_CLASS
    single = _regex(f"{space}*({alternatives}){space}*({version_pattern}){space}*")
    out = []
    for term in text.split(","):
        match = single.fullmatch(term)
        if match is None:
            # go-version v1.9.0 (Nomad's) writes "malformed", Nomad's semver package "Malformed"
            raise VersionError(f"{'Malformed' if semver else 'malformed'} constraint: {term}")
        out.append((match.group(1), _new_version(match.group(2), version_pattern)))
    return out


def version_constraint_problem(text: str) -> str | None:
    """``None`` if go-version's ``NewConstraint`` parses ``text`` (``">= 1.2, < 2"``,
    ``"~> 1.0"``, ``"1.2.3-beta"``), else its error (``malformed constraint: ...``)."""
    try:
        _parse_constraints(text, semver=False)
    except VersionError as error:
        return str(error)
    return None


def semver_constraint_problem(text: str) -> str | None:
    """``None`` if Nomad's semver ``NewConstraint`` parses ``text``: strict SemVer versions
    (``1.2.3-beta.1``, not ``1.2.3beta``) and no ``~>``."""
    try:
        _parse_constraints(text, semver=True)
    except VersionError as error:
        return str(error)
    return None


def version_matches(constraint: str, version: str) -> bool | None:
    """Does ``version`` (go-version ``NewVersion``) satisfy the go-version ``constraint``?
    ``None`` when either does not parse (Nomad then treats the constraint as unmet)."""
    return _matches(constraint, version, semver=False)


def semver_matches(constraint: str, version: str) -> bool | None:
    """Like :func:`version_matches` for the ``semver`` operand. The version is still read
    with go-version's loose ``NewVersion``, as Nomad's scheduler does."""
    return _matches(constraint, version, semver=True)


def _matches(constraint: str, version: str, semver: bool) -> bool | None:
    """``checkAttributeVersionMatch`` after the types are settled: every term must hold."""
    try:
        parsed = _new_version(version)
        terms = _parse_constraints(constraint, semver)
    except VersionError:
        return None
    check = _semver_check if semver else _version_check
    return all(check(op, parsed, bound) for op, bound in terms)
