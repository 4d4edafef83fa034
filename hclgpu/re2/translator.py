"""Python ``re`` syntax for one node of an RE2 parse tree, with Go's semantics.

Go and Python disagree on many details that a translation must spell out: ``\\d``, ``\\s``
and ``\\w`` are ASCII in Go, ``(?i)`` folds with Unicode's simple case folding (not
Python's), ``\\B`` matches an empty text, and ``\\p`` tables come from the Unicode
database. The VM (:mod:`hclgpu.re2.vm`) uses it one character test at a time.
"""

from __future__ import annotations

from functools import cache

from hclgpu.re2.parser import (
    CATEGORIES,
    DOT_NL,
    FOLD_CASE,
    MAX_RUNE,
    PERL_GROUPS,
    POSIX_GROUPS,
    Item,
    Node,
)


def translate(node: Node) -> str:
    """Python ``re`` syntax for a parse tree."""
    op = node.op
    if op == "lit":
        if node.flags & FOLD_CASE and ord(node.char) in _fold_orbits():
            return _bracket(_folded([(ord(node.char), ord(node.char))]))
        return _escape_literal(node.char)
    if op == "class":
        return _translate_class(node)
    if op == "any":
        return "(?s:.)" if node.flags & DOT_NL else "."
    if op in _ASSERTIONS:
        return _ASSERTIONS[op]
    if op == "empty":
        return ""
    if op == "capture":
        return f"({translate(node.subs[0])})"
    if op == "group":
        return f"(?:{translate(node.subs[0])})"
    if op == "concat":
        return "".join(translate(sub) for sub in node.subs)
    if op == "alternate":
        return "(?:" + "|".join(translate(sub) for sub in node.subs) + ")"
    return _translate_repeat(node)


_ASSERTIONS = {
    "bot": r"\A",
    "eot": r"\Z",
    "bol": "(?m:^)",
    "eol": "(?m:$)",
    "wb": r"(?a:\b)",
    "nwb": r"(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_]))",
}
r"""Go's assertions; ``\B`` is spelled out because Python's never matches an empty text."""


def _escape_literal(char: str) -> str:
    """One literal character, safe anywhere in a Python pattern."""
    if char.isascii() and (char.isalnum() or char in "_ "):
        return char
    return _code_point(ord(char))


def _code_point(code: int) -> str:
    """A code point as a Python escape (``\\x41``, ``\\u00e9``, ``\\U0001f600``)."""
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _translate_repeat(node: Node) -> str:
    """``x*``, ``x+``, ``x?``, ``x{n}``, ``x{n,}``, ``x{n,m}``, lazy with ``?``."""
    body = f"(?:{translate(node.subs[0])})"
    low, high = node.min, node.max
    if not node.counted:
        quantifier = {(0, -1): "*", (1, -1): "+", (0, 1): "?"}[(low, high)]
    elif high == -1:
        quantifier = f"{{{low},}}"
    elif high == low:
        quantifier = f"{{{low}}}"
    else:
        quantifier = f"{{{low},{high}}}"
    return body + quantifier + ("" if node.greedy else "?")


def _translate_class(node: Node) -> str:
    r"""A class as explicit code-point ranges.

    Under ``(?i)`` Go folds each item and only then negates it (``(?i)\P{Lu}`` excludes
    ``a``, whose fold ``A`` is upper case), and negates the whole class last.
    """
    if not node.flags & FOLD_CASE:
        ranges = _merge([span for item in node.items for span in _item_ranges(item)])
    else:
        ranges = []
        for item in node.items:
            if _is_negated(item):
                ranges += _complement(_folded(_item_ranges(_positive(item))))
            else:
                ranges += _folded(_item_ranges(item))
        ranges = _merge(ranges)
    return _bracket(_complement(ranges) if node.negated else ranges)


def _folded(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ranges`` closed under Go's simple case folding (``unicode.SimpleFold`` orbits)."""
    from bisect import bisect_right

    merged = _merge(ranges)
    lows = [low for low, _ in merged]
    extra: list[tuple[int, int]] = []
    for code, orbit in _fold_orbits().items():
        at = bisect_right(lows, code) - 1
        if at >= 0 and code <= merged[at][1]:
            extra += [(member, member) for member in orbit]
    return _merge(merged + extra)


@cache
def _fold_orbits() -> dict[int, tuple[int, ...]]:
    """Each cased code point's orbit: the code points it matches under ``(?i)``.

    Go's orbits are the classes of Unicode's simple case folding (CaseFolding.txt, status
    C and S): ``k``, ``K`` and the Kelvin sign ``K``; ``s``, ``S`` and ``ſ``; ``ß`` and
    ``ẞ``; but ``İ`` and ``ı`` fold only to themselves (their foldings are Turkic or full
    ones). Python's ``(?i)`` would match ``İ`` with ``i``, so it is not used. A code point's
    simple folding is its ``casefold()`` when that is one character, else its ``lower()``
    when that is (``ẞ`` → ``ß``), else itself. No cased character lies above U+1FFFF.
    """
    from array import array

    universe = array("I", range(0x20000)).tobytes().decode("utf-32-le", "surrogatepass")
    classes: dict[str, set[str]] = {}
    for start in range(0, len(universe), 128):
        block = universe[start : start + 128]
        if block.casefold() == block:
            continue  # nothing in it folds (most blocks): one test in C for 128 characters
        for char in block:
            folded, lowered = char.casefold(), char.lower()
            key = folded if len(folded) == 1 else lowered if len(lowered) == 1 else char
            if key != char:
                classes.setdefault(key, {key}).add(char)
    return {ord(c): tuple(sorted(map(ord, members))) for members in classes.values() for c in members}


def _is_negated(item: Item) -> bool:
    r"""``\D``, ``\P{..}``, ``\p{^..}``, ``[:^..:]``: items that stand for a complement."""
    kind, key, extra = item
    if kind == "perl":
        return str(key).isupper()
    return kind != "range" and bool(extra)


def _positive(item: Item) -> Item:
    """The set a negated item complements."""
    kind, key, _ = item
    return (kind, str(key).lower(), 0) if kind == "perl" else (kind, key, 0)


def _bracket(ranges: list[tuple[int, int]], negated: bool = False) -> str:
    """``[...]`` (or ``[^...]``) listing ``ranges``; an empty positive set never matches."""
    if not ranges:
        return r"(?s:.)" if negated else "(?!)"
    parts = [_code_point(lo) if lo == hi else f"{_code_point(lo)}-{_code_point(hi)}" for lo, hi in ranges]
    return ("[^" if negated else "[") + "".join(parts) + "]"


def _item_ranges(item: Item) -> list[tuple[int, int]]:
    """The code-point ranges of one class item (negated items complemented)."""
    kind, key, extra = item
    if kind == "range":
        return [(int(key), extra)]
    if kind == "perl":
        name = str(key)
        ranges = list(PERL_GROUPS[name.lower()])
        return _complement(ranges) if name.isupper() else ranges
    table = POSIX_GROUPS[str(key)] if kind == "posix" else _unicode_ranges(kind, str(key))
    ranges = list(table)
    return _complement(ranges) if extra else ranges


def _merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sort and coalesce overlapping or adjacent ranges."""
    out: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if out and low <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], high))
        else:
            out.append((low, high))
    return out


def _complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Everything up to U+10FFFF not in ``ranges``."""
    out: list[tuple[int, int]] = []
    next_low = 0
    for low, high in _merge(ranges):
        if low > next_low:
            out.append((next_low, low - 1))
        next_low = high + 1
    if next_low <= MAX_RUNE:
        out.append((next_low, MAX_RUNE))
    return out


@cache
def _unicode_ranges(kind: str, key: str) -> tuple[tuple[int, int], ...]:
    """Code-point ranges of a ``\\p`` table, from Python's Unicode database.

    Python's ``unicodedata`` may be a Unicode version behind Go's tables. Scripts come from
    the third-party ``regex`` module when it is installed, else from character names.
    """
    if kind == "special":
        if key == "Any":
            return ((0, MAX_RUNE),)
        if key == "Ascii":
            return ((0, 0x7F),)
        return tuple(_complement(list(_category_ranges()["Cn"])))
    if kind == "category":
        return _category_ranges()[key]
    return _script_ranges(key)


@cache
def _category_ranges() -> dict[str, tuple[tuple[int, int], ...]]:
    """Ranges of every general category, major class and ``Lc``, in one scan."""
    import unicodedata

    found: dict[str, list[tuple[int, int]]] = {}
    previous = ""
    for code in range(MAX_RUNE + 1):
        category = unicodedata.category(chr(code))
        spans = found.setdefault(category, [])
        if category == previous:
            spans[-1] = (spans[-1][0], code)
        else:
            spans.append((code, code))
        previous = category
    tables = {name: tuple(spans) for name, spans in found.items()}
    for major in "CLMNPSZ":
        members = [name for name in found if name[0] == major and name != "Cn"]
        tables[major] = tuple(_merge([span for name in members for span in found[name]]))
    tables["Lc"] = tuple(_merge([span for name in ("Lu", "Ll", "Lt") for span in found.get(name, [])]))
    for name in CATEGORIES:
        tables.setdefault(name, ())
    return tables


def _script_ranges(script: str) -> tuple[tuple[int, int], ...]:
    """A script's ranges via ``regex`` (``\\p{Script=X}``), or by Unicode name prefix."""
    import importlib

    try:
        regex = importlib.import_module("regex")
        matcher = regex.compile(r"\p{Script=" + script + "}+")
    except Exception:  # not installed, or a script it does not know
        return _script_ranges_by_name(script)
    universe = "".join(chr(code) for code in range(MAX_RUNE + 1) if not 0xD800 <= code <= 0xDFFF)
    spans = []
    for match in matcher.finditer(universe):
        low, high = ord(match.group()[0]), ord(match.group()[-1])
        spans.append((low, high))
    return tuple(_merge(spans))


def _script_ranges_by_name(script: str) -> tuple[tuple[int, int], ...]:
    """Approximate a script by character names (``GREEK ...``, ``CJK UNIFIED IDEOGRAPH``)."""
    import unicodedata

    prefixes = {"Han": ("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH")}.get(
        script, (script.upper().replace("_", " ") + " ",)
    )
    spans = []
    for code in range(MAX_RUNE + 1):
        if unicodedata.name(chr(code), "").startswith(prefixes):
            spans.append((code, code))
    return tuple(_merge(spans))
