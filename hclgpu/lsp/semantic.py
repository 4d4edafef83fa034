"""Semantic tokens: colours for editors that have no HCL grammar (Neovim 0.7, Emacs 28).

The tokens come from hclgpu's own lexer, so they follow the parser exactly (a `${` inside a
heredoc, `$${` that is text), and a file with a syntax error is coloured up to the error.
Each identifier is classified by the tokens around it: the first word of a line followed by
`=` is an argument (``property``), followed by labels or `{` a block (``keyword``), the
labels after it ``string`` with the ``declaration`` modifier; a word before `(` is a
``function``, `var`/`local` and the names after them ``variable``/``property``. Standard
token types only, so every client's theme colours them. Positions and lengths count UTF-16
units, and a token spanning lines is cut per line (no client is assumed to take
multi-line tokens).
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from hclgpu.syntax.lexer import Lexer, Token

TYPES = ["keyword", "property", "string", "number", "comment", "operator", "variable", "function"]
MODIFIERS = ["declaration"]
LEGEND = types.SemanticTokensLegend(token_types=TYPES, token_modifiers=MODIFIERS)
_TYPE = {name: i for i, name in enumerate(TYPES)}
_DECLARATION = 1

_STRINGS = frozenset({"STRING", "QUOTE_OPEN", "QUOTE_CLOSE", "TEMPLATE_LIT", "HEREDOC_OPEN", "HEREDOC_CLOSE"})
_QUIET = frozenset(
    {"NL", "$END", "$ERROR", "LBRACE", "RBRACE", "LPAR", "RPAR", "LSQB", "RSQB", "COMMA", "DOT"}
)
_CONSTANTS = frozenset({"true", "false", "null"})


@dataclass(frozen=True, slots=True)
class Piece:
    """One coloured range of the text: offsets, a token type and modifiers (bits)."""

    start: int
    end: int
    type: int
    modifiers: int = 0


def pieces(text: str) -> list[Piece]:
    """The coloured ranges of ``text``, in order (comments among them); up to the first
    malformed token when there is one."""
    lexer = Lexer(text)
    tokens = [t for batch in lexer.batches() for t in batch if t.type not in ("$END", "$ERROR")]
    found = [Piece(start, end, _TYPE["comment"]) for start, end in lexer.comments]
    found += _classified(tokens)
    return sorted(found, key=lambda p: p.start)


def encode(text: str, found: list[Piece]) -> list[int]:
    """LSP's relative encoding (line delta, start delta, length, type, modifiers) of
    ``found`` (in order), each piece cut at line ends, in UTF-16 units. One pass over the
    lines: a line of ASCII (most of them) counts its columns by offset."""
    data: list[int] = []
    columns = _Columns(text)
    last_line = last_column = 0
    for piece in found:
        for start, end in _lines(text, piece.start, piece.end):
            line, column = columns.at(start)
            length = columns.width(start, end)
            if length <= 0:
                continue
            delta = line - last_line
            data += [delta, column - (last_column if delta == 0 else 0), length, piece.type, piece.modifiers]
            last_line, last_column = line, column
    return data


class _Columns:
    """Line and UTF-16 column of offsets that only grow."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line = 0
        self.start = 0
        self.end = self._end(0)
        self.ascii = text[: self.end].isascii()

    def _end(self, start: int) -> int:
        newline = self.text.find("\n", start)
        return len(self.text) if newline < 0 else newline

    def at(self, offset: int) -> tuple[int, int]:
        while offset > self.end:
            self.line += 1
            self.start = self.end + 1
            self.end = self._end(self.start)
            self.ascii = self.text[self.start : self.end].isascii()
        return self.line, self.width(self.start, offset)

    def width(self, start: int, end: int) -> int:
        """UTF-16 units of ``text[start:end]`` (on the current line)."""
        if self.ascii:
            return end - start
        return len(self.text[start:end].encode("utf-16-le")) // 2


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``[start, end)`` cut at each newline (the newlines left out)."""
    out = []
    while True:
        newline = text.find("\n", start, end)
        if newline < 0:
            out.append((start, end))
            return out
        out.append((start, newline))
        start = newline + 1


class Results:
    """The last tokens sent for each document, by result id, for the next delta."""

    def __init__(self) -> None:
        self._sent: dict[str, tuple[str, list[int]]] = {}
        self._count = 0

    def full(self, uri: str, text: str) -> types.SemanticTokens:
        data = encode(text, pieces(text))
        return types.SemanticTokens(data=data, result_id=self._keep(uri, data))

    def delta(self, uri: str, text: str, previous: str) -> types.SemanticTokens | types.SemanticTokensDelta:
        """The edits from the result ``previous``, or all the tokens when it is not the
        last one sent for ``uri`` (the client then replaces what it has)."""
        sent = self._sent.get(uri)
        if sent is None or sent[0] != previous:
            return self.full(uri, text)
        data = encode(text, pieces(text))
        return types.SemanticTokensDelta(edits=delta(sent[1], data), result_id=self._keep(uri, data))

    def forget(self, uri: str) -> None:
        self._sent.pop(uri, None)

    def _keep(self, uri: str, data: list[int]) -> str:
        self._count += 1
        result = str(self._count)
        self._sent[uri] = (result, data)
        return result


def delta(previous: list[int], current: list[int]) -> list[types.SemanticTokensEdit]:
    """One edit turning ``previous`` into ``current``: what lies between their common
    beginning and common end (none when they are equal)."""
    if previous == current:
        return []
    head = 0
    limit = min(len(previous), len(current))
    while head < limit and previous[head] == current[head]:
        head += 1
    tail = 0
    while tail < limit - head and previous[-1 - tail] == current[-1 - tail]:
        tail += 1
    return [
        types.SemanticTokensEdit(
            start=head, delete_count=len(previous) - head - tail, data=current[head : len(current) - tail]
        )
    ]


def _classified(tokens: list[Token]) -> list[Piece]:
    out: list[Piece] = []
    for i, token in enumerate(tokens):
        kind = _kind(tokens, i)
        if kind is not None:
            out.append(Piece(token.start, token.end, kind[0], kind[1]))
    return out


def _kind(tokens: list[Token], i: int) -> tuple[int, int] | None:
    token = tokens[i]
    if token.type in _STRINGS:
        label = token.type == "STRING" and _in_header(tokens, i)
        return _TYPE["string"], _DECLARATION if label else 0
    if token.type == "NUMBER":
        return _TYPE["number"], 0
    if token.type in ("FOR", "IN", "IF") or (token.type.startswith("DIR_") and token.type != "DIR_CLOSE"):
        return _TYPE["keyword"], 0  # `for ... in ... if`, `%{ for }`, `%{ endif }`
    if token.type == "IDENT":
        return _identifier(tokens, i)
    if token.type in _QUIET:
        return None
    return _TYPE["operator"], 0


def _identifier(tokens: list[Token], i: int) -> tuple[int, int]:
    token, before, after = tokens[i], _type(tokens, i - 1), _type(tokens, i + 1)
    if token.value in _CONSTANTS:
        return _TYPE["keyword"], 0
    if after == "LPAR":
        return _TYPE["function"], 0
    if before == "DOT":
        return _TYPE["property"], 0
    if before in ("NL", "LBRACE", "") and after == "EQUAL":
        return _TYPE["property"], 0
    if before in ("NL", "LBRACE", "") and after in ("STRING", "IDENT", "LBRACE"):
        return _TYPE["keyword"], 0
    if _in_header(tokens, i):
        return _TYPE["string"], _DECLARATION  # an unquoted label
    return _TYPE["variable"], 0


def _type(tokens: list[Token], i: int) -> str:
    return tokens[i].type if 0 <= i < len(tokens) else ""


def _in_header(tokens: list[Token], i: int) -> bool:
    """Whether the token is a label: after a block type at a line's start, before `{`."""
    j = i
    while j > 0 and tokens[j - 1].type in ("STRING", "IDENT"):
        j -= 1
    if j == i or _type(tokens, j - 1) not in ("NL", "LBRACE", ""):
        return False
    k = i
    while _type(tokens, k + 1) in ("STRING", "IDENT"):
        k += 1
    return _type(tokens, k + 1) == "LBRACE"
