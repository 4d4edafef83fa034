"""Go's ``regexp/syntax`` parser, ported for acceptance and Go's own error messages.

:func:`parse` rejects what Go's ``regexp.Compile`` rejects even where Python accepts it
(lookaround, backreferences, ``\\Z``, possessive and nested quantifiers, counts above
1000) and accepts RE2-only syntax (``\\pL``, ``[[:alpha:]]``, ``\\Q..\\E``, ``(?U)``). The
tree it builds (:class:`Node`) has the shape Go's ``syntax.Regexp`` would have; the
translator (:mod:`hclgpu.re2.translator`) and the VM (:mod:`hclgpu.re2.vm`) read it.

Messages use Go's words: ``invalid or unsupported Perl syntax: `(?=```` (Go prefixes
``error parsing regexp: ``).
"""

from __future__ import annotations

from functools import cache

_MAX_REPEAT = 1000
"""``maxRepeat``: the largest count, and the largest product of nested counts."""
_MAX_HEIGHT = 1000
"""``maxHeight``: the deepest parse tree Go builds."""
_MAX_SIZE = (128 << 20) // 40
"""``maxSize``: the most instructions a compiled program may need (128 MiB / 40 bytes)."""
MAX_RUNE = 0x10FFFF

FOLD_CASE = 1
_ONE_LINE = 2
DOT_NL = 4
_NON_GREEDY = 8
_PERL_DEFAULT = _ONE_LINE
"""``syntax.Perl`` as far as it varies: ``^``/``$`` match at text edges only."""

PERL_GROUPS = {
    "d": ((0x30, 0x39),),
    "s": ((0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20)),
    "w": ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)),
}
"""``\\d``, ``\\s``, ``\\w``: ASCII only in Go (``\\s`` has no ``\\v``)."""

POSIX_GROUPS = {
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

CATEGORIES = frozenset((
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
    if canonical == "Lc" or canonical in CATEGORIES:
        return ("category", canonical)
    if canonical in _script_names():
        return ("script", _script_names()[canonical])
    if canonical in _CATEGORY_ALIASES:
        return ("category", _CATEGORY_ALIASES[canonical])
    return None


# --- the parse tree ----------------------------------------------------------------------


Item = tuple[str, str | int, int]
r"""A class item: ``("range", lo, hi)``, ``("perl", "d", 0)``, ``("posix", "alpha", negated)``,
or ``(kind, key, negated)`` for ``\p`` tables."""


class Node:
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
        items: list[Item] | None = None,
        negated: bool = False,
        subs: list[Node] | None = None,
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
        self.items: list[Node] = []
        self.alternatives: list[Node] = []


def _concat(items: list[Node]) -> Node:
    """The concatenation of a group's items (an empty match when there are none)."""
    if not items:
        return Node("empty")
    return items[0] if len(items) == 1 else Node("concat", subs=items)


class _Parser:
    """A port of ``regexp/syntax.parse`` with Perl flags, for acceptance and errors."""

    def __init__(self, pattern: str) -> None:
        self.whole = pattern
        self.flags = _PERL_DEFAULT
        self.frames = [_Frame(_PERL_DEFAULT, False)]
        self.repeat_product = 1
        self.node_count = 0

    # -- driver --

    def parse(self) -> Node:
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

    def _push(self, node: Node) -> None:
        """Append to the open group, counting nodes as Go's limit checks do."""
        self.node_count += 1
        self.frames[-1].items.append(node)

    def _literal(self, char: str) -> None:
        """One literal character, remembering whether ``(?i)`` was on."""
        self._push(Node("lit", self.flags, char=char))

    def _simple_op(self, char: str) -> Node:
        """``^``, ``$`` and ``.`` under the current flags."""
        one_line = bool(self.flags & _ONE_LINE)
        if char == "^":
            return Node("bot" if one_line else "bol", self.flags)
        if char == "$":
            return Node("eot" if one_line else "eol", self.flags)
        return Node("any", self.flags)

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
            bit = {"i": FOLD_CASE, "m": _ONE_LINE, "s": DOT_NL, "U": _NON_GREEDY}.get(char)
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
        self._push(Node("capture" if frame.capture else "group", self.flags, subs=[body]))

    @staticmethod
    def _finish_frame(frame: _Frame) -> Node:
        """A group's body: its one alternative, or the alternation of all of them."""
        alternatives = [*frame.alternatives, _concat(frame.items)]
        return alternatives[0] if len(alternatives) == 1 else Node("alternate", subs=alternatives)

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
        node = Node("repeat", self.flags, subs=[items.pop()])
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
                self._push(Node(op, self.flags))
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
                self._push(Node("class", self.flags, items=[item]))
                return rest
            if letter in "dDsSwW":
                self._push(Node("class", self.flags, items=[("perl", letter, 0)]))
                return t[2:]
        char, rest = _parse_escape(t)
        self._literal(char)
        return rest

    @staticmethod
    def _unicode_class(s: str) -> tuple[Item, str]:
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
        items: list[Item] = []
        first = True
        while not t or t[0] != "]" or first:
            first = False
            if len(t) > 2 and t[0] == "[" and t[1] == ":":
                end = t.find(":]", 2)
                if end >= 0:
                    name = t[: end + 2]
                    negated_group = name.startswith("[:^")
                    group = name[3:-2] if negated_group else name[2:-2]
                    if group not in POSIX_GROUPS:
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
        self._push(Node("class", self.flags, items=items, negated=negated))
        return t[1:]

    @staticmethod
    def _class_range(whole: str, t: str, items: list[Item]) -> str:
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

    def _check_limits(self, root: Node) -> None:
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
            if value > MAX_RUNE:
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


def _repeat_is_valid(node: Node, limit: int) -> bool:
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


def _transparent(node: Node) -> Node:
    """Skip non-capturing groups, which Go never materialises."""
    while node.op == "group":
        node = node.subs[0]
    return node


def _flattened(node: Node) -> list[Node]:
    """Sub-expressions after Go's collapse: a concat directly in a concat (likewise an
    alternate in an alternate) is spliced in."""
    out: list[Node] = []
    pending = [_transparent(sub) for sub in reversed(node.subs)]
    while pending:
        sub = pending.pop()
        if sub.op == node.op and node.op in ("concat", "alternate"):
            pending.extend(_transparent(inner) for inner in reversed(sub.subs))
        else:
            out.append(sub)
    return out


def _post_order(root: Node) -> list[Node]:
    """Every (non-group) node, children before parents, without recursion."""
    order: list[Node] = []
    pending = [_transparent(root)]
    while pending:
        node = pending.pop()
        order.append(node)
        pending.extend(_flattened(node))
    order.reverse()
    return order


def _height(root: Node) -> int:
    """The height of the tree Go would build (groups vanish, nested concats flatten)."""
    heights: dict[int, int] = {}
    for node in _post_order(root):
        heights[id(node)] = 1 + max((heights[id(sub)] for sub in _flattened(node)), default=0)
    return heights[id(_transparent(root))]


def _size(root: Node) -> int:
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


def _repeat_size(node: Node, sub: int) -> int:
    """Star is 2 + x, plus and quest 1 + x; ``x{n,}`` 1 + n·x; ``x{n,m}`` m·x + (m - n)."""
    if not node.counted:
        return (2 if node.max == -1 and node.min == 0 else 1) + sub
    if node.max == -1:
        return 2 + sub if node.min == 0 else 1 + node.min * sub
    return node.max * sub + node.max - node.min


def parse(pattern: str) -> Node:
    """Parse with Go's rules (Perl flags, as ``regexp.Compile``), raising :class:`Re2Error`."""
    return _Parser(pattern).parse()
