"""Unicode helpers shared by the string functions: grapheme clusters and Go's spaces.

cty measures strings in grapheme clusters (``textseg``, UAX #29). This is a compact
implementation of the extended grapheme cluster rules without the rare Prepend rule and
with an approximate Extended_Pictographic set: enough for combining marks, Hangul, flags,
emoji modifiers and ZWJ sequences, which is what job files contain.
"""

from __future__ import annotations

import unicodedata

__all__ = ["GO_SPACE", "graphemes"]

GO_SPACE = frozenset(
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
"""Go's ``unicode.IsSpace`` set (the White_Space property)."""


def _hangul(code: int) -> str:
    """Hangul syllable type for grapheme rules GB6-GB8: L, V, T, LV, LVT or ''."""
    if 0x1100 <= code <= 0x115F or 0xA960 <= code <= 0xA97C:
        return "L"
    if 0x1160 <= code <= 0x11A7 or 0xD7B0 <= code <= 0xD7C6:
        return "V"
    if 0x11A8 <= code <= 0x11FF or 0xD7CB <= code <= 0xD7FB:
        return "T"
    if 0xAC00 <= code <= 0xD7A3:
        return "LV" if (code - 0xAC00) % 28 == 0 else "LVT"
    return ""


_HANGUL_NEXT = {"L": {"L", "V", "LV", "LVT"}, "LV": {"V", "T"}, "V": {"V", "T"}, "LVT": {"T"}, "T": {"T"}}


def _is_extend(char: str) -> bool:
    """Grapheme_Extend, SpacingMark and ZWJ: characters that attach to the one before."""
    code = ord(char)
    if char in "\u200c\u200d" or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F:
        return True
    return unicodedata.category(char) in ("Mn", "Me", "Mc")


def _is_control(char: str) -> bool:
    """Characters that always stand alone (GB4/GB5)."""
    return unicodedata.category(char) in ("Cc", "Zl", "Zp", "Cf") and not _is_extend(char)


def _is_pictographic(char: str) -> bool:
    """An approximation of Extended_Pictographic, for emoji ZWJ sequences (GB11)."""
    code = ord(char)
    return 0x1F000 <= code <= 0x1FAFF or 0x2300 <= code <= 0x27BF or code in (0xA9, 0xAE, 0x203C, 0x2049)


def _is_regional(char: str) -> bool:
    """Regional indicator symbols, which pair up into flags (GB12/GB13)."""
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def graphemes(value: str) -> list[str]:
    """Split into extended grapheme clusters (UAX #29, without the rare Prepend rule)."""
    if value.isascii() and "\r\n" not in value:
        return list(value)
    clusters: list[str] = []
    i, n = 0, len(value)
    while i < n:
        start, char = i, value[i]
        i += 1
        if char == "\r" and i < n and value[i] == "\n":
            i += 1
        elif not _is_control(char):
            i = _extend_cluster(value, i, char)
        clusters.append(value[start:i])
    return clusters


def _extend_cluster(value: str, i: int, base: str) -> int:
    """Advance ``i`` past everything that joins the cluster started by ``base``."""
    n = len(value)
    if _is_regional(base) and i < n and _is_regional(value[i]):
        i += 1
    kind = _hangul(ord(base))
    while kind and i < n and _hangul(ord(value[i])) in _HANGUL_NEXT.get(kind, ()):
        kind = _hangul(ord(value[i]))
        i += 1
    while i < n and _is_extend(value[i]):
        if value[i] == "\u200d" and i + 1 < n and _is_pictographic(base) and _is_pictographic(value[i + 1]):
            i += 2
            continue
        i += 1
    return i
