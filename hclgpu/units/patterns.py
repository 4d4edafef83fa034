"""The pattern languages of Nomad's constraint operands, with Nomad's exact acceptance.

* ``regexp``: Go's ``regexp.Compile`` (RE2 syntax, Perl flags). :func:`re2_problem` is a
  port of Go's ``regexp/syntax`` parser, so it rejects what Go rejects even where Python
  accepts it (lookaround, backreferences, ``\\Z``, possessive and nested quantifiers,
  counts above 1000) and accepts RE2-only syntax (``\\pL``, ``[[:alpha:]]``, ``\\Q..\\E``,
  ``(?U)``). :func:`re2_search` matches by translating the parsed expression to Python.
* ``version``: hashicorp/go-version ``NewConstraint`` and ``Check``.
* ``semver``: Nomad's ``helper/constraints/semver`` (go-version's strict SemVer regexp,
  no ``~>``, no pre-release filtering).

Messages use Go's words: ``invalid or unsupported Perl syntax: `(?=```` (Go prefixes
``error parsing regexp: ``), ``Malformed constraint: ~> x``.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import re

    from hclgpu.units.re2vm import Program

__all__ = [
    "Re2Error",
    "VersionError",
    "re2_problem",
    "re2_search",
    "semver_constraint_problem",
    "semver_matches",
    "version_constraint_problem",
    "version_matches",
]

# =========================================================================================
# RE2 (Go regexp/syntax)
# =========================================================================================

_MAX_REPEAT = 1000
"""``maxRepeat``: the largest count, and the largest product of nested counts."""
_MAX_HEIGHT = 1000
"""``maxHeight``: the deepest parse tree Go builds."""
_MAX_SIZE = (128 << 20) // 40
"""``maxSize``: the most instructions a compiled program may need (128 MiB / 40 bytes)."""
_MAX_RUNE = 0x10FFFF

_FOLD_CASE = 1
_ONE_LINE = 2
_DOT_NL = 4
_NON_GREEDY = 8
_PERL_DEFAULT = _ONE_LINE
"""``syntax.Perl`` as far as it varies: ``^``/``$`` match at text edges only."""

_PERL_GROUPS = {
    "d": ((0x30, 0x39),),
    "s": ((0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)),
    "w": ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)),
}
"""``\\d``, ``\\s``, ``\\w``: ASCII only in Go (``\\s`` has no ``\\v``)."""

_POSIX_GROUPS = {
    "alnum": ((0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)),
    "alpha": ((0x41, 0x5A), (0x61, 0x7A)),
    "ascii": ((0x00, 0x7F),),
    "blank": ((0x09, 0x09), (0x20, 0x20)),
    "cntrl": ((0x00, 0x1F), (0x7F, 0x7F)),
    "digit": ((0x30, 0x39),),
    "graph": ((0x21, 0x7E),),
    "lower": ((0x61, 0x7A),),
    "print": ((0x20, 0x7E),),
    "punct": ((0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)),
    "space": ((0x09, 0x0D), (0x20, 0x20)),
    "upper": ((0x41, 0x5A),),
    "word": ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)),
    "xdigit": ((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)),
}
"""``[[:name:]]`` classes (``[[:^name:]]`` negates)."""

_CATEGORIES = frozenset((
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N",
    "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z",
    "Zl", "Zp", "Zs",
))  # fmt: skip
"""Go's ``unicode.Categories`` keys (``LC`` is looked up as ``Lc``)."""

_CATEGORY_ALIASES = {
    "Other": "C", "Control": "Cc", "Cntrl": "Cc", "Format": "Cf", "Unassigned": "Cn",
    "Privateuse": "Co", "Surrogate": "Cs", "Letter": "L", "Casedletter": "Lc",
    "Lowercaseletter": "Ll", "Modifierletter": "Lm", "Otherletter": "Lo", "Titlecaseletter": "Lt",
    "Uppercaseletter": "Lu", "Mark": "M", "Combiningmark": "M", "Spacingmark": "Mc",
    "Enclosingmark": "Me", "Nonspacingmark": "Mn", "Number": "N", "Decimalnumber": "Nd",
    "Digit": "Nd", "Letternumber": "Nl", "Othernumber": "No", "Punctuation": "P", "Punct": "P",
    "Connectorpunctuation": "Pc", "Dashpunctuation": "Pd", "Closepunctuation": "Pe",
    "Finalpunctuation": "Pf", "Initialpunctuation": "Pi", "Otherpunctuation": "Po",
    "Openpunctuation": "Ps", "Symbol": "S", "Currencysymbol": "Sc", "Modifiersymbol": "Sk",
    "Mathsymbol": "Sm", "Othersymbol": "So", "Separator": "Z", "Lineseparator": "Zl",
    "Paragraphseparator": "Zp", "Spaceseparator": "Zs",
}  # fmt: skip
"""``unicode.CategoryAliases`` (Unicode's long names), keyed by Go's ``canonicalName``."""

_SCRIPTS = (
    "Adlam", "Ahom", "Anatolian_Hieroglyphs", "Arabic", "Armenian", "Avestan", "Balinese", "Bamum",
    "Bassa_Vah", "Batak", "Bengali", "Bhaiksuki", "Bopomofo", "Brahmi", "Braille", "Buginese", "Buhid",
    "Canadian_Aboriginal", "Carian", "Caucasian_Albanian", "Chakma", "Cham", "Cherokee", "Chorasmian",
    "Common", "Coptic", "Cuneiform", "Cypriot", "Cypro_Minoan", "Cyrillic", "Deseret", "Devanagari",
    "Dives_Akuru", "Dogra", "Duployan", "Egyptian_Hieroglyphs", "Elbasan", "Elymaic", "Ethiopic",
    "Georgian", "Glagolitic", "Gothic", "Grantha", "Greek", "Gujarati", "Gunjala_Gondi", "Gurmukhi",
    "Han", "Hangul", "Hanifi_Rohingya", "Hanunoo", "Hatran", "Hebrew", "Hiragana", "Imperial_Aramaic",
    "Inherited", "Inscriptional_Pahlavi", "Inscriptional_Parthian", "Javanese", "Kaithi", "Kannada",
    "Katakana", "Kawi", "Kayah_Li", "Kharoshthi", "Khitan_Small_Script", "Khmer", "Khojki",
    "Khudawadi", "Lao", "Latin", "Lepcha", "Limbu", "Linear_A", "Linear_B", "Lisu", "Lycian", "Lydian",
    "Mahajani", "Makasar", "Malayalam", "Mandaic", "Manichaean", "Marchen", "Masaram_Gondi",
    "Medefaidrin", "Meetei_Mayek", "Mende_Kikakui", "Meroitic_Cursive", "Meroitic_Hieroglyphs", "Miao",
    "Modi", "Mongolian", "Mro", "Multani", "Myanmar", "Nabataean", "Nag_Mundari", "Nandinagari",
    "New_Tai_Lue", "Newa", "Nko", "Nushu", "Nyiakeng_Puachue_Hmong", "Ogham", "Ol_Chiki",
    "Old_Hungarian", "Old_Italic", "Old_North_Arabian", "Old_Permic", "Old_Persian", "Old_Sogdian",
    "Old_South_Arabian", "Old_Turkic", "Old_Uyghur", "Oriya", "Osage", "Osmanya", "Pahawh_Hmong",
    "Palmyrene", "Pau_Cin_Hau", "Phags_Pa", "Phoenician", "Psalter_Pahlavi", "Rejang", "Runic",
    "Samaritan", "Saurashtra", "Sharada", "Shavian", "Siddham", "SignWriting", "Sinhala", "Sogdian",
    "Sora_Sompeng", "Soyombo", "Sundanese", "Syloti_Nagri", "Syriac", "Tagalog", "Tagbanwa", "Tai_Le",
    "Tai_Tham", "Tai_Viet", "Takri", "Tamil", "Tangsa", "Tangut", "Telugu", "Thaana", "Thai",
    "Tibetan", "Tifinagh", "Tirhuta", "Toto", "Ugaritic", "Vai", "Vithkuqi", "Wancho", "Warang_Citi",
    "Yezidi", "Yi", "Zanabazar_Square",
)  # fmt: skip
"""Go's ``unicode.Scripts`` (Unicode 15.0, Go 1.21 and later)."""

_ERR_BAD_CLASS_RANGE = "invalid character class range"
_ERR_BAD_ESCAPE = "invalid escape sequence"
_ERR_BAD_NAMED_CAPTURE = "invalid named capture"
_ERR_BAD_PERL_OP = "invalid or unsupported Perl syntax"
_ERR_BAD_REPEAT_OP = "invalid nested repetition operator"
_ERR_BAD_REPEAT_SIZE = "invalid repeat count"
_ERR_BAD_UTF8 = "invalid UTF-8"
_ERR_MISSING_BRACKET = "missing closing ]"
_ERR_MISSING_PAREN = "missing closing )"
_ERR_MISSING_REPEAT_ARG = "missing argument to repetition operator"
_ERR_TRAILING_BACKSLASH = "trailing backslash at end of expression"
_ERR_UNEXPECTED_PAREN = "unexpected )"
_ERR_NESTING_DEPTH = "expression nests too deeply"
_ERR_LARGE = "expression too large"


class Re2Error(ValueError):
    """A pattern Go's ``regexp.Compile`` rejects: Go's error code and the offending text."""

    def __init__(self, code: str, expr: str) -> None:
        super().__init__(f"{code}: `{expr}`")
        self.code = code
        self.expr = expr


def _canonical_name(name: str) -> str:
    """Go's ``canonicalName``: drop ``_``, ``-`` and spaces; first letter upper, rest lower."""
    out = []
    first = True
    for char in name:
        if char in "_- ":
            continue
        if first:
            out.append(char.upper() if "a" <= char <= "z" else char)
            first = False
        else:
            out.append(char.lower() if "A" <= char <= "Z" else char)
    return "".join(out)


@cache
def _script_names() -> dict[str, str]:
    """Script names by their canonical form (``Olditalic`` -> ``Old_Italic``)."""
    return {_canonical_name(name): name for name in _SCRIPTS}


def _unicode_table(name: str) -> tuple[str, str] | None:
    """Resolve a ``\\p{name}`` like Go's ``unicodeTable``: ``(kind, key)`` or ``None``.

    Kinds: ``special`` (Any, Assigned, ASCII), ``category`` and ``script``. Names match
    ignoring case after the first letter and ignoring ``_``, ``-`` and spaces.
    """
    canonical = _canonical_name(name)
    if canonical in ("Any", "Assigned", "Ascii"):
        return ("special", canonical)
    if canonical == "Lc" or canonical in _CATEGORIES:
        return ("category", canonical)
    if canonical in _script_names():
        return ("script", _script_names()[canonical])
    if canonical in _CATEGORY_ALIASES:
        return ("category", _CATEGORY_ALIASES[canonical])
    return None


# --- the parse tree ----------------------------------------------------------------------


_Item = tuple[str, str | int, int]
r"""A class item: ``("range", lo, hi)``, ``("perl", "d", 0)``, ``("posix", "alpha", negated)``,
or ``(kind, key, negated)`` for ``\p`` tables."""


class _Node:
    """One node of the parse tree, in the shape Go's ``syntax.Regexp`` would have.

    ``op`` is one of: ``lit`` (``char``), ``class`` (``items``, ``negated``), ``any``,
    ``bot``/``eot``/``bol``/``eol``/``wb``/``nwb`` (assertions), ``empty``, ``capture``
    and ``group`` (non-capturing, transparent to Go), ``repeat`` (``min``/``max``,
    ``counted`` for ``{n,m}``), ``concat``, ``alternate``. A plain class, not a
    dataclass: this module is imported on every check run.
    """

    __slots__ = ("char", "counted", "flags", "greedy", "items", "max", "min", "negated", "op", "subs")

    def __init__(
        self,
        op: str,
        flags: int = 0,
        *,
        char: str = "",
        items: list[_Item] | None = None,
        negated: bool = False,
        subs: list[_Node] | None = None,
    ) -> None:
        self.op = op
        self.flags = flags
        self.char = char
        self.items = items or []
        self.negated = negated
        self.subs = subs or []
        self.min, self.max, self.greedy, self.counted = 0, -1, True, False


class _Frame:
    """An open group: the flags to restore at ``)`` and the alternatives parsed so far."""

    __slots__ = ("alternatives", "capture", "items", "saved_flags")

    def __init__(self, saved_flags: int, capture: bool) -> None:
        self.saved_flags = saved_flags
        self.capture = capture
        self.items: list[_Node] = []
        self.alternatives: list[_Node] = []


def _concat(items: list[_Node]) -> _Node:
    """The concatenation of a group's items (an empty match when there are none)."""
    if not items:
        return _Node("empty")
    return items[0] if len(items) == 1 else _Node("concat", subs=items)


class _Parser:
    """A port of ``regexp/syntax.parse`` with Perl flags, for acceptance and errors."""

    def __init__(self, pattern: str) -> None:
        self.whole = pattern
        self.flags = _PERL_DEFAULT
        self.frames = [_Frame(_PERL_DEFAULT, False)]
        self.repeat_product = 1
        self.node_count = 0

    # -- driver --

    def parse(self) -> _Node:
        """Parse the whole pattern or raise :class:`Re2Error`."""
        self._check_utf8(self.whole)
        t = self.whole
        last_repeat = ""
        while t:
            repeat = ""
            char = t[0]
            if char == "(":
                t = self._open(t)
            elif char == "|":
                frame = self.frames[-1]
                frame.alternatives.append(_concat(frame.items))
                frame.items = []
                t = t[1:]
            elif char == ")":
                self._close()
                t = t[1:]
            elif char in "^$.":
                self._push(self._simple_op(char))
                t = t[1:]
            elif char == "[":
                t = self._parse_class(t)
            elif char in "*+?":
                low, high = {"*": (0, -1), "+": (1, -1), "?": (0, 1)}[char]
                after = self._repeat(low, high, False, t, t[1:], last_repeat)
                repeat, t = t, after
            elif char == "{":
                t, repeat = self._brace(t, last_repeat)
            elif char == "\\":
                t = self._backslash(t)
            else:
                self._literal(char)
                t = t[1:]
            last_repeat = repeat
        if len(self.frames) != 1:
            raise Re2Error(_ERR_MISSING_PAREN, self.whole)
        root = self._finish_frame(self.frames[0])
        self._check_limits(root)
        return root

    @staticmethod
    def _check_utf8(text: str) -> None:
        """Go strings are UTF-8: a lone surrogate cannot be encoded and is invalid."""
        for index, char in enumerate(text):
            if 0xD800 <= ord(char) <= 0xDFFF:
                raise Re2Error(_ERR_BAD_UTF8, text[index:])

    def _push(self, node: _Node) -> None:
        """Append to the open group, counting nodes as Go's limit checks do."""
        self.node_count += 1
        self.frames[-1].items.append(node)

    def _literal(self, char: str) -> None:
        """One literal character, remembering whether ``(?i)`` was on."""
        self._push(_Node("lit", self.flags, char=char))

    def _simple_op(self, char: str) -> _Node:
        """``^``, ``$`` and ``.`` under the current flags."""
        one_line = bool(self.flags & _ONE_LINE)
        if char == "^":
            return _Node("bot" if one_line else "bol", self.flags)
        if char == "$":
            return _Node("eot" if one_line else "eol", self.flags)
        return _Node("any", self.flags)

    # -- groups and flags --

    def _open(self, t: str) -> str:
        """``(``, ``(?:``, ``(?P<name>``, ``(?<name>`` or a flag group ``(?i)``."""
        if len(t) >= 2 and t[1] == "?":
            return self._perl_flags(t)
        self.frames.append(_Frame(self.flags, True))
        return t[1:]

    def _perl_flags(self, s: str) -> str:
        """``parsePerlFlags``: named captures, non-capturing groups and flag changes."""
        starts_with_p = len(s) > 4 and s[2] == "P" and s[3] == "<"
        starts_with_name = len(s) > 3 and s[2] == "<"
        if starts_with_p or starts_with_name:
            end = s.find(">")
            if end < 0:
                raise Re2Error(_ERR_BAD_NAMED_CAPTURE, s)
            name = s[4 if starts_with_p else 3 : end]
            if not name or not all(c == "_" or (c.isascii() and c.isalnum()) for c in name):
                raise Re2Error(_ERR_BAD_NAMED_CAPTURE, s[: end + 1])
            self.frames.append(_Frame(self.flags, True))
            return s[end + 1 :]
        return self._flag_group(s)

    def _flag_group(self, s: str) -> str:
        """``(?flags)`` and ``(?flags:``; anything else there is unsupported Perl syntax."""
        t = s[2:]
        flags = self.flags
        negate = saw_flag = False
        while t:
            char, t = t[0], t[1:]
            bit = {"i": _FOLD_CASE, "m": _ONE_LINE, "s": _DOT_NL, "U": _NON_GREEDY}.get(char)
            if bit is not None:
                turn_on = negate if char == "m" else not negate  # (?m) clears OneLine
                flags = flags | bit if turn_on else flags & ~bit
                saw_flag = True
            elif char == "-" and not negate:
                negate, saw_flag = True, False
            elif char in ":)" and (saw_flag or not negate):
                if char == ":":
                    self.frames.append(_Frame(self.flags, False))
                self.flags = flags
                return t
            else:
                break
        raise Re2Error(_ERR_BAD_PERL_OP, s[: len(s) - len(t)])

    def _close(self) -> None:
        """``)``: close the innermost group or report an unexpected one."""
        if len(self.frames) == 1:
            raise Re2Error(_ERR_UNEXPECTED_PAREN, self.whole)
        frame = self.frames.pop()
        body = self._finish_frame(frame)
        self.flags = frame.saved_flags
        self._push(_Node("capture" if frame.capture else "group", self.flags, subs=[body]))

    @staticmethod
    def _finish_frame(frame: _Frame) -> _Node:
        """A group's body: its one alternative, or the alternation of all of them."""
        alternatives = [*frame.alternatives, _concat(frame.items)]
        return alternatives[0] if len(alternatives) == 1 else _Node("alternate", subs=alternatives)

    # -- repetition --

    def _brace(self, t: str, last_repeat: str) -> tuple[str, str]:
        """``{n}``, ``{n,}``, ``{n,m}``; anything else makes ``{`` a literal."""
        parsed = self._parse_repeat(t)
        if parsed is None:
            self._literal("{")
            return t[1:], ""
        low, high, after = parsed
        if low < 0 or low > _MAX_REPEAT or high > _MAX_REPEAT or 0 <= high < low:
            raise Re2Error(_ERR_BAD_REPEAT_SIZE, t[: len(t) - len(after)])
        return self._repeat(low, high, True, t, after, last_repeat), t

    @staticmethod
    def _parse_repeat(s: str) -> tuple[int, int, str] | None:
        """``parseRepeat``: ``(min, max, rest)``, max -1 for ``{n,}``; min -1 when too big."""
        low, s = _parse_int(s[1:])
        if low is None or not s:
            return None
        high = low
        if s[0] == ",":
            s = s[1:]
            if not s:
                return None
            if s[0] == "}":
                high = -1
            else:
                parsed, s = _parse_int(s)
                if parsed is None:
                    return None
                high = parsed
                if high < 0:
                    low = -1
        if not s or s[0] != "}":
            return None
        return low, high, s[1:]

    def _repeat(self, low: int, high: int, counted: bool, before: str, after: str, last: str) -> str:
        """Apply a repetition to the last item; Perl forbids stacking them (``a**``)."""
        greedy = not self.flags & _NON_GREEDY
        if after[:1] == "?":
            after = after[1:]
            greedy = not greedy
        if last:
            raise Re2Error(_ERR_BAD_REPEAT_OP, last[: len(last) - len(after)])
        items = self.frames[-1].items
        if not items:
            raise Re2Error(_ERR_MISSING_REPEAT_ARG, before[: len(before) - len(after)])
        node = _Node("repeat", self.flags, subs=[items.pop()])
        node.min, node.max, node.greedy, node.counted = low, high, greedy, counted
        items.append(node)
        self.node_count += 1
        if counted:
            count = high if high != -1 else low
            self.repeat_product = min(_MAX_SIZE, self.repeat_product * max(count, 1))
            if (low >= 2 or high >= 2) and not _repeat_is_valid(node, _MAX_REPEAT):
                raise Re2Error(_ERR_BAD_REPEAT_SIZE, before[: len(before) - len(after)])
        return after

    # -- escapes --

    def _backslash(self, t: str) -> str:
        """Everything that starts with ``\\`` outside a class."""
        if len(t) >= 2:
            letter = t[1]
            if letter in "AbBz":
                op = {"A": "bot", "b": "wb", "B": "nwb", "z": "eot"}[letter]
                self._push(_Node(op, self.flags))
                return t[2:]
            if letter == "C":
                raise Re2Error(_ERR_BAD_ESCAPE, t[:2])
            if letter == "Q":
                literal, _, rest = t[2:].partition("\\E")
                for char in literal:
                    self._literal(char)
                return rest
            if letter in "pP":
                item, rest = self._unicode_class(t)
                self._push(_Node("class", self.flags, items=[item]))
                return rest
            if letter in "dDsSwW":
                self._push(_Node("class", self.flags, items=[("perl", letter, 0)]))
                return t[2:]
        char, rest = _parse_escape(t)
        self._literal(char)
        return rest

    @staticmethod
    def _unicode_class(s: str) -> tuple[_Item, str]:
        """``parseUnicodeClass``: ``\\pL``, ``\\p{Greek}``, ``\\P{^Lu}`` as a class item."""
        negated = s[1] == "P"
        if len(s) < 3 or s[2] != "{":
            sequence = s[:3] if len(s) >= 3 else s
            name, rest = sequence[2:], s[len(sequence) :]
        else:
            end = s.find("}")
            if end < 0:
                raise Re2Error(_ERR_BAD_CLASS_RANGE, s)
            sequence, rest, name = s[: end + 1], s[end + 1 :], s[3:end]
        if name.startswith("^"):
            negated, name = not negated, name[1:]
        table = _unicode_table(name)
        if table is None:
            raise Re2Error(_ERR_BAD_CLASS_RANGE, sequence)
        kind, key = table
        return (kind, key, 1 if negated else 0), rest

    # -- classes --

    def _parse_class(self, s: str) -> str:
        """``parseClass``: ``[...]`` with ranges, escapes, ``[:name:]`` and ``\\p`` items."""
        t = s[1:]
        negated = t[:1] == "^"
        if negated:
            t = t[1:]
        items: list[_Item] = []
        first = True
        while not t or t[0] != "]" or first:
            first = False
            if len(t) > 2 and t[0] == "[" and t[1] == ":":
                end = t.find(":]", 2)
                if end >= 0:
                    name = t[: end + 2]
                    negated_group = name.startswith("[:^")
                    group = name[3:-2] if negated_group else name[2:-2]
                    if group not in _POSIX_GROUPS:
                        raise Re2Error(_ERR_BAD_CLASS_RANGE, name)
                    items.append(("posix", group, 1 if negated_group else 0))
                    t = t[end + 2 :]
                    continue
            if len(t) >= 2 and t[0] == "\\" and t[1] in "pP":
                item, t = self._unicode_class(t)
                items.append(item)
                continue
            if len(t) >= 2 and t[0] == "\\" and t[1] in "dDsSwW":
                items.append(("perl", t[1], 0))
                t = t[2:]
                continue
            t = self._class_range(s, t, items)
        self._push(_Node("class", self.flags, items=items, negated=negated))
        return t[1:]

    @staticmethod
    def _class_range(whole: str, t: str, items: list[_Item]) -> str:
        """One character or ``lo-hi`` range inside a class (``[a-]`` is ``a`` and ``-``)."""
        start = t
        low, t = _class_char(t, whole)
        high = low
        if len(t) >= 2 and t[0] == "-" and t[1] != "]":
            high, t = _class_char(t[1:], whole)
            if ord(high) < ord(low):
                raise Re2Error(_ERR_BAD_CLASS_RANGE, start[: len(start) - len(t)])
        items.append(("range", ord(low), ord(high)))
        return t

    # -- limits --

    def _check_limits(self, root: _Node) -> None:
        """Go's nesting-depth and program-size limits (counted on the final tree)."""
        if self.node_count >= _MAX_HEIGHT and _height(root) > _MAX_HEIGHT:
            raise Re2Error(_ERR_NESTING_DEPTH, self.whole)
        if self.node_count >= _MAX_SIZE // self.repeat_product and _size(root) > _MAX_SIZE:
            raise Re2Error(_ERR_LARGE, self.whole)


def _parse_int(s: str) -> tuple[int | None, str]:
    """``parseInt``: decimal digits without a leading zero; -1 (still well-formed) when
    longer than nine digits, which the caller reports as too big."""
    if not s or not "0" <= s[0] <= "9" or (len(s) >= 2 and s[0] == "0" and "0" <= s[1] <= "9"):
        return None, s
    end = 0
    while end < len(s) and "0" <= s[end] <= "9":
        end += 1
    return (int(s[:end]) if end <= 9 else -1), s[end:]


def _class_char(t: str, whole: str) -> tuple[str, str]:
    """``parseClassChar``: one (possibly escaped) character of a class."""
    if not t:
        raise Re2Error(_ERR_MISSING_BRACKET, whole)
    if t[0] == "\\":
        return _parse_escape(t)
    return t[0], t[1:]


def _parse_escape(s: str) -> tuple[str, str]:
    """``parseEscape``: the character an escape stands for, or Go's error.

    Punctuation escapes itself; ``\\0``-``\\7`` start octal (a lone ``\\1``-``\\7`` would be
    a backreference and is rejected); ``\\x41``, ``\\x{10FFFF}``; ``\\a\\f\\n\\r\\t\\v``.
    """
    t = s[1:]
    if not t:
        raise Re2Error(_ERR_TRAILING_BACKSLASH, "")
    char, t = t[0], t[1:]
    if ord(char) < 0x80 and not char.isalnum():
        return char, t
    if "1" <= char <= "7" and not (t and "0" <= t[0] <= "7"):
        raise Re2Error(_ERR_BAD_ESCAPE, s[: len(s) - len(t)])
    if "0" <= char <= "7":
        value = ord(char) - 0x30
        for _ in range(2):
            if not t or not "0" <= t[0] <= "7":
                break
            value, t = value * 8 + ord(t[0]) - 0x30, t[1:]
        return chr(value), t
    if char == "x":
        return _parse_hex_escape(s, t)
    controls = {"a": "\a", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
    if char in controls:
        return controls[char], t
    raise Re2Error(_ERR_BAD_ESCAPE, s[: len(s) - len(t)])


def _parse_hex_escape(s: str, t: str) -> tuple[str, str]:
    """``\\xHH`` or ``\\x{H...}`` (at most U+10FFFF); ``s`` starts at the backslash."""
    if not t:
        raise Re2Error(_ERR_BAD_ESCAPE, s[: len(s) - len(t)])
    char, t = t[0], t[1:]
    if char == "{":
        value = digits = 0
        while True:
            if not t:
                raise Re2Error(_ERR_BAD_ESCAPE, s[: len(s) - len(t)])
            char, t = t[0], t[1:]
            if char == "}":
                break
            if char not in "0123456789abcdefABCDEF":
                raise Re2Error(_ERR_BAD_ESCAPE, s[: len(s) - len(t)])
            value = value * 16 + int(char, 16)
            if value > _MAX_RUNE:
                raise Re2Error(_ERR_BAD_ESCAPE, s[: len(s) - len(t)])
            digits += 1
        if digits == 0:
            raise Re2Error(_ERR_BAD_ESCAPE, s[: len(s) - len(t)])
        return chr(value), t
    second, t = (t[0], t[1:]) if t else ("\ufffd", t)
    hex_digits = "0123456789abcdefABCDEF"
    if char not in hex_digits or second not in hex_digits:
        raise Re2Error(_ERR_BAD_ESCAPE, s[: len(s) - len(t)])
    return chr(int(char + second, 16)), t


def _repeat_is_valid(node: _Node, limit: int) -> bool:
    """``repeatIsValid``: nested counted repetitions multiply, and may not pass 1000."""
    pending = [(node, limit)]
    while pending:
        current, budget = pending.pop()
        if current.op == "repeat" and current.counted:
            count = current.max
            if count == 0:
                continue
            if count < 0:
                count = current.min
            if count > budget:
                return False
            if count > 0:
                budget //= count
        pending.extend((sub, budget) for sub in current.subs)
    return True


def _transparent(node: _Node) -> _Node:
    """Skip non-capturing groups, which Go never materialises."""
    while node.op == "group":
        node = node.subs[0]
    return node


def _flattened(node: _Node) -> list[_Node]:
    """Sub-expressions after Go's collapse: a concat directly in a concat (likewise an
    alternate in an alternate) is spliced in."""
    out: list[_Node] = []
    pending = [_transparent(sub) for sub in reversed(node.subs)]
    while pending:
        sub = pending.pop()
        if sub.op == node.op and node.op in ("concat", "alternate"):
            pending.extend(_transparent(inner) for inner in reversed(sub.subs))
        else:
            out.append(sub)
    return out


def _post_order(root: _Node) -> list[_Node]:
    """Every (non-group) node, children before parents, without recursion."""
    order: list[_Node] = []
    pending = [_transparent(root)]
    while pending:
        node = pending.pop()
        order.append(node)
        pending.extend(_flattened(node))
    order.reverse()
    return order


def _height(root: _Node) -> int:
    """The height of the tree Go would build (groups vanish, nested concats flatten)."""
    heights: dict[int, int] = {}
    for node in _post_order(root):
        heights[id(node)] = 1 + max((heights[id(sub)] for sub in _flattened(node)), default=0)
    return heights[id(_transparent(root))]


def _size(root: _Node) -> int:
    """``calcSize``: the compiled program size Go estimates for the tree."""
    sizes: dict[int, int] = {}
    for node in _post_order(root):
        subs = [sizes[id(sub)] for sub in _flattened(node)]
        size = 0
        if node.op == "lit":
            size = 1
        elif node.op == "capture":
            size = 2 + subs[0]
        elif node.op in ("concat", "alternate"):
            size = sum(subs) + (len(subs) - 1 if node.op == "alternate" else 0)
        elif node.op == "repeat":
            size = _repeat_size(node, subs[0])
        sizes[id(node)] = max(1, size)
    return sizes[id(_transparent(root))]


def _repeat_size(node: _Node, sub: int) -> int:
    """Star is 2 + x, plus and quest 1 + x; ``x{n,}`` 1 + n·x; ``x{n,m}`` m·x + (m - n)."""
    if not node.counted:
        return (2 if node.max == -1 and node.min == 0 else 1) + sub
    if node.max == -1:
        return 2 + sub if node.min == 0 else 1 + node.min * sub
    return node.max * sub + node.max - node.min


def _parse(pattern: str) -> _Node:
    """Parse with Go's rules (Perl flags, as ``regexp.Compile``), raising :class:`Re2Error`."""
    return _Parser(pattern).parse()


def re2_problem(pattern: str) -> str | None:
    """``None`` when Go's ``regexp.Compile`` accepts ``pattern``, else Go's message
    without its ``error parsing regexp: `` prefix, e.g. ``invalid escape sequence: `\\Z```."""
    try:
        _parse(pattern)
    except Re2Error as error:
        return str(error)
    return None


# --- matching: translation to Python's re ------------------------------------------------


def re2_search(pattern: str, text: str) -> bool:
    """``regexp.MustCompile(pattern).MatchString(text)``: an unanchored search.

    A pattern Go rejects matches nothing, as in Nomad's ``checkRegexpMatch``. Matching is
    linear in the text, as RE2's: a Pike VM over the parse tree, each character tested with
    Go's semantics translated to a one-character Python pattern (ASCII ``\\d\\s\\w``, flags
    scoped to their group).
    """
    compiled = _compiled(pattern)
    return compiled is not None and compiled.search(text)


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> Program | None:
    """The compiled pattern (cached: constraints repeat across nodes), run in linear time
    by :class:`~hclgpu.units.re2vm.Program`, never by a backtracking engine."""
    import re

    from hclgpu.units.re2vm import Program

    try:
        return Program(_parse(pattern))
    except (Re2Error, RecursionError, re.error):
        return None  # rejected by Go, or nested too deeply to compile


def _translate(node: _Node) -> str:
    """Python ``re`` syntax for a parse tree."""
    op = node.op
    if op == "lit":
        if node.flags & _FOLD_CASE and ord(node.char) in _fold_orbits():
            return _bracket(_folded([(ord(node.char), ord(node.char))]))
        return _escape_literal(node.char)
    if op == "class":
        return _translate_class(node)
    if op == "any":
        return "(?s:.)" if node.flags & _DOT_NL else "."
    if op in _ASSERTIONS:
        return _ASSERTIONS[op]
    if op == "empty":
        return ""
    if op == "capture":
        return f"({_translate(node.subs[0])})"
    if op == "group":
        return f"(?:{_translate(node.subs[0])})"
    if op == "concat":
        return "".join(_translate(sub) for sub in node.subs)
    if op == "alternate":
        return "(?:" + "|".join(_translate(sub) for sub in node.subs) + ")"
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


def _translate_repeat(node: _Node) -> str:
    """``x*``, ``x+``, ``x?``, ``x{n}``, ``x{n,}``, ``x{n,m}``, lazy with ``?``."""
    body = f"(?:{_translate(node.subs[0])})"
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


def _translate_class(node: _Node) -> str:
    r"""A class as explicit code-point ranges.

    Under ``(?i)`` Go folds each item and only then negates it (``(?i)\P{Lu}`` excludes
    ``a``, whose fold ``A`` is upper case), and negates the whole class last.
    """
    if not node.flags & _FOLD_CASE:
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


def _is_negated(item: _Item) -> bool:
    r"""``\D``, ``\P{..}``, ``\p{^..}``, ``[:^..:]``: items that stand for a complement."""
    kind, key, extra = item
    if kind == "perl":
        return str(key).isupper()
    return kind != "range" and bool(extra)


def _positive(item: _Item) -> _Item:
    """The set a negated item complements."""
    kind, key, _ = item
    return (kind, str(key).lower(), 0) if kind == "perl" else (kind, key, 0)


def _bracket(ranges: list[tuple[int, int]], negated: bool = False) -> str:
    """``[...]`` (or ``[^...]``) listing ``ranges``; an empty positive set never matches."""
    if not ranges:
        return r"(?s:.)" if negated else "(?!)"
    parts = [_code_point(lo) if lo == hi else f"{_code_point(lo)}-{_code_point(hi)}" for lo, hi in ranges]
    return ("[^" if negated else "[") + "".join(parts) + "]"


def _item_ranges(item: _Item) -> list[tuple[int, int]]:
    """The code-point ranges of one class item (negated items complemented)."""
    kind, key, extra = item
    if kind == "range":
        return [(int(key), extra)]
    if kind == "perl":
        name = str(key)
        ranges = list(_PERL_GROUPS[name.lower()])
        return _complement(ranges) if name.isupper() else ranges
    table = _POSIX_GROUPS[str(key)] if kind == "posix" else _unicode_ranges(kind, str(key))
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
    if next_low <= _MAX_RUNE:
        out.append((next_low, _MAX_RUNE))
    return out


@cache
def _unicode_ranges(kind: str, key: str) -> tuple[tuple[int, int], ...]:
    """Code-point ranges of a ``\\p`` table, from Python's Unicode database.

    Python's ``unicodedata`` may be a Unicode version behind Go's tables. Scripts come from
    the third-party ``regex`` module when it is installed, else from character names.
    """
    if kind == "special":
        if key == "Any":
            return ((0, _MAX_RUNE),)
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
    for code in range(_MAX_RUNE + 1):
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
    for name in _CATEGORIES:
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
    universe = "".join(chr(code) for code in range(_MAX_RUNE + 1) if not 0xD800 <= code <= 0xDFFF)
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
    for code in range(_MAX_RUNE + 1):
        if unicodedata.name(chr(code), "").startswith(prefixes):
            spans.append((code, code))
    return tuple(_merge(spans))


# =========================================================================================
# hashicorp/go-version and Nomad's semver constraints
# =========================================================================================

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
    from hclgpu.units.attribute import go_parse_int

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
            raise VersionError(f"Malformed constraint: {term}")
        out.append((match.group(1), _new_version(match.group(2), version_pattern)))
    return out


def version_constraint_problem(text: str) -> str | None:
    """``None`` if go-version's ``NewConstraint`` parses ``text`` (``">= 1.2, < 2"``,
    ``"~> 1.0"``, ``"1.2.3-beta"``), else its error (``Malformed constraint: ...``)."""
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
