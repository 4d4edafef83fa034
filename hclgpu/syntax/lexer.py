"""The HCL2 lexer: a mode-switching scanner feeding the LALR parser.

HCL2's lexical structure depends on context in ways a grammar handles poorly:

* newlines end attributes in bodies and separate object items, but are ignored
  inside ``( )``, ``[ ]``, ``${ }``, ``%{ }`` and ``for`` expressions;
* a newline next to a binary operator, ``?`` or ``:`` continues the expression,
  so multi-line conditions parse as users expect;
* quoted strings and heredocs are templates whose ``${ }`` holds expressions, which
  may hold strings again;
* ``for``, ``in`` and ``if`` are keywords only in for-expressions and directives.

The scanner keeps a stack of open contexts and emits :class:`Token` objects whose
type names are the terminals declared in ``grammar/hcl.lark``. It raises
:class:`LexError` at the first malformed token; the parser turns that into a
diagnostic and resynchronises.

Most lines of a job file are plain: `name = "value"`, `name "label" {`, `}`. For the
parser (``Lexer(text, lines=True)``) the scanner takes such a line whole, builds its node
itself, and hands over runs of them, and blocks made only of them, as one token (see
:data:`_LINES`): on a 1 MB job a seventh of the tokens reach the parser, and trees,
spans and diagnostics are exactly those of the token-by-token path, which semantic
highlighting still reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from hclgpu.codes.base import Code
from hclgpu.codes.syntax import (
    HG001,
    HG002,
    HG003,
    HG004,
    HG005,
    HG006,
    HG007,
    HG008,
    HG009,
    HG011,
    HG012,
    HG014,
)
from hclgpu.numbers import NumberOutOfRange, parse_decimal
from hclgpu.source import Span
from hclgpu.syntax import ast

MAX_DEPTH = 256
_PLAIN_NUMBER = 300
"""A number token at most this long and without an exponent is always in range."""


class Token:
    __slots__ = ("end", "start", "type", "value")

    def __init__(self, type: str, value: str, start: int, end: int) -> None:
        self.type = type
        self.value = value
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"Token({self.type}, {self.value!r}, {self.start}, {self.end})"


class LexError(Exception):
    """A malformed token; carries everything a diagnostic needs."""

    def __init__(
        self,
        code: Code,
        message: str,
        span: Span,
        *,
        help: str | None = None,
        related: tuple[tuple[Span, str], ...] = (),
        resume: int | None = None,
        region: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.span = span
        self.help = help
        self.related = related
        self.resume = resume
        """Where an error-tolerant caller may continue; None means the rest is lost."""
        self.region = region
        """The text to blank out before parsing again, when the caller should not guess it."""


_EXPR = re.compile(
    r"""
     (?P<ws>[ \t\r\f\ufeff]+)
    |(?P<nl>\n[ \t\r\f]*)
    |(?P<comment>\#[^\n]*|//[^\n]*|/\*[\s\S]*?\*/)
    |(?P<bad_comment>/\*)
    |(?P<ident>[^\W\d][\w-]*(?:::[^\W\d][\w-]*)*)
    |(?P<number>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
    |(?P<string>"(?:[^"\\$%\n]++|\\[^\n]|\$\$\{|%%\{|\$(?!\{)|%(?!\{))*")
    |(?P<quote>")
    |(?P<heredoc><<(?P<flush>-?)(?P<marker>[^\W\d][\w-]*))
    |(?P<op>\|\||&&|==|!=|<=|>=|=>|\.\.\.|~\}|[-+*/%!<>=?:,.{}\[\]()])
    |(?P<escstring>\\"(?:[^"\\\n]|\\[^"\n])*\\")
    |(?P<bad>.)
    """,
    re.VERBOSE,
)
_STRING_PART = re.compile(
    r"""
     (?P<lit>(?:[^"\\$%\n]++|\\[^\n]|\$\$\{|%%\{|\$(?!\{)|%(?!\{))+)
    |(?P<interp>\$\{~?)
    |(?P<directive>%\{~?[ \t]*(?:endif|endfor|if|else|for)(?![\w-]))
    |(?P<close>")
    """,
    re.VERBOSE,
)
_HEREDOC_LINE = re.compile(r"(?:[^$%\n]++|\$\$\{|%%\{|\$(?!\{)|%(?!\{))+\n?|\n")
_HEREDOC_PART = re.compile(
    r"(?P<interp>\$\{~?)|(?P<directive>%\{~?[ \t]*(?:endif|endfor|if|else|for)(?![\w-]))"
)
_HEREDOC_REST = re.compile(r"[ \t]*\r?\n")
_ESCAPE = re.compile(r"\\(?:[nrt\"\\]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})|\$\$\{|%%\{|\\")
_FOR_VAR_AHEAD = re.compile(r"[ \t\r\n]*[^\W\d]")
_DIGITS = re.compile(r"\d+")
# Whole lines of a body, each taken by one match from the newline before it (the newline,
# the indentation and the item), instead of three to five tokens and as many reductions:
# most lines of a job file are one of these.
# * `name = value`, whose value is a plain string, a number, `true`, `false`, `null`, a
#   string whose only templates are `${a.b.c}`, or a one-line list of plain strings, with
#   nothing after it but a comment, and whose next token does not continue the expression
#   (`||`, `?`, ...): the lexer builds its Attribute node;
# * `name "label" ... {`, labels plain quoted strings: a HEADER token holding the name and
#   the labels (the `{` opens the body, whatever follows it is lexed as usual);
# * `}`: in a body, an NL_RBRACE token (where the NL is due); in an object, NL and RBRACE.
# The attributes are not handed over one by one: the lexer holds them, and builds a block
# whose body is only whole lines itself, until a token of another kind comes; then it hands
# the parser what it holds as one LINES token (see Lexer._release). LINES, HEADER and
# NL_RBRACE each stand for the NL before their line too, which the grammar knows. Anything
# else on the line (escapes, other templates, a second item, a keyword as the name) takes
# the general path.
_LINES = r"""
     (?P<nl>\n[ \t\r\f]*+)
     (?:(?P<attribute_line>(?P<a_name>(?!(?:for|in|if)(?![\w-]))[^\W\d][\w-]*)[ \t]*=[ \t]*
        (?:"(?P<a_string>[^"\\$%\n]*)"|(?P<a_number>\d{1,20}(?:\.\d{1,20})?)|(?P<a_keyword>true|false|null)
          |(?P<a_template>"(?:[^"\\$%\n]++|\$\{(?!(?:true|false|null)(?![\w-]))[^\W\d][\w-]*(?:\.[^\W\d][\w-]*)*+\})++")
          |(?P<a_list>\[[ \t]*+(?:"[^"\\$%\n]*"(?:[ \t]*+,[ \t]*+"[^"\\$%\n]*")*+[ \t]*+,?[ \t]*+)?\]))
        (?=[ \t\r]*+(?:(?:\#|//)[^\n]*+)?(?:\n|\Z))
        (?=(?:[ \t\r\n]++|\#[^\n]*+|//[^\n]*+)*+(?:[^|&=!<>+*/%?:\s]|\Z)))
       |(?P<header_line>(?P<h_name>(?!(?:for|in|if)(?![\w-]))[^\W\d][\w-]*)
        (?P<h_labels>(?:[ \t]*"[^"\\$%\n]*")*+)[ \t]*\{)
       |(?P<close_line>\}))?
"""
_EXPR_LINES = re.compile(_EXPR.pattern.replace(r"(?P<nl>\n[ \t\r\f]*)", _LINES), re.VERBOSE)
"""The token rules with a newline's rule also taking the whole line after it, when that line
is one of :data:`_LINES` (the parser's lexer)."""
_LABEL = re.compile(r'"([^"]*)"')
_TEMPLATE_PART = re.compile(r'[^"\\$%\n]+|\$\{([^}]*)\}')
_KEYWORD_VALUES: dict[str, bool | None] = {"true": True, "false": False, "null": None}
# A line that starts a body item: `name =`, `name {` or `name "label"`.
_ITEM_LINE = re.compile(r"([ \t]*)[^\W\d][\w-]*[ \t]*(?:=[^=>]|\{|\")")

_OPERATORS = {
    "||": "OROR", "&&": "ANDAND", "==": "EQEQ", "!=": "NOTEQ", "<=": "LE", ">=": "GE",
    "=>": "FATARROW", "...": "ELLIPSIS", "-": "MINUS", "+": "PLUS", "*": "STAR",
    "/": "SLASH", "%": "PERCENT", "!": "BANG", "<": "LT", ">": "GT", "=": "EQUAL",
    "?": "QMARK", ":": "COLON", ",": "COMMA", ".": "DOT", "{": "LBRACE", "}": "RBRACE",
    "[": "LSQB", "]": "RSQB", "(": "LPAR", ")": "RPAR", "~}": "RBRACE",
}  # fmt: skip
_DIRECTIVES = {
    "if": "DIR_IF",
    "else": "DIR_ELSE",
    "endif": "DIR_ENDIF",
    "for": "DIR_FOR",
    "endfor": "DIR_ENDFOR",
}
_CLOSING = {"{": "}", "[": "]", "(": ")", "$": "}", "%": "}"}
"""The closing bracket of each context kind (`$` is `${ }`, `%` is `%{ }`)."""
_OPENING = {"}": "{", "]": "[", ")": "("}
_BINARY = frozenset(
    ("OROR", "ANDAND", "EQEQ", "NOTEQ", "LT", "GT", "LE", "GE", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT")
)
# A newline after one of these, or before one of the second set, continues the expression.
_CONTINUES_AFTER = _BINARY | {"QMARK", "COLON", "COMMA", "FATARROW", "BANG"}
_CONTINUES_BEFORE = (_BINARY - {"MINUS"}) | {"QMARK", "COLON", "FATARROW"}
# Contexts in which newlines are significant: the file body and braces.
_NEWLINE_CONTEXTS = frozenset(("file", "{"))
# Identifiers that are keywords in some contexts.
_KEYWORDS = frozenset(("for", "in", "if"))
# Contexts scanned by the template rules: quoted strings and heredocs.
_TEMPLATE_CONTEXTS = frozenset(('"', "H"))
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


_BODY = "body"
"""The extra of a context frame that is a body (the file, a block's braces), not an object."""


_A_NAME, _A_STRING, _A_NUMBER, _A_KEYWORD, _A_TEMPLATE, _A_LIST, _H_NAME, _H_LABELS = (
    _EXPR_LINES.groupindex[name]
    for name in ("a_name", "a_string", "a_number", "a_keyword", "a_template", "a_list", "h_name", "h_labels")
)


_Frame = tuple[Token, list[ast.Attribute | ast.Block], list[int], set[str]]
"""A block being built: its HEADER token, its items, [the offset of the NL before its first
item, 1 while no attribute is set twice in it or in a block inside], the names it sets."""


def _attribute_node(line: re.Match[str], text: str) -> tuple[ast.Attribute, str]:
    """The node the parser would have built from an ``attribute_line``'s IDENT, EQUAL and
    value tokens, and the type of the value's last token."""
    span = line.span
    name_start, name_end = span(_A_NAME)
    value, last = _line_value(span, text)
    name = text[name_start:name_end]
    return ast.Attribute(name, Span(name_start, name_end), value, Span(name_start, value.span.end)), last


def header_block(header: Token, body: ast.Body, brace_end: int) -> ast.Block:
    """The block a HEADER token opens, with ``body``, closed by the `}` that ends at
    ``brace_end``: the lexer builds a block of whole lines with it, the parser's ``line``
    rule every other block that starts with a HEADER."""
    held: tuple[str, Span, list[ast.Label], int] = header.value  # type: ignore[assignment]
    name, name_span, labels, body_start = held
    body.span = Span(body_start, brace_end - 1)
    return ast.Block(name, name_span, labels, body, Span(name_span.start, brace_end))


def _line_value(span: Callable[[int], tuple[int, int]], text: str) -> tuple[ast.Expr, str]:
    start, end = span(_A_STRING)
    if start >= 0:
        return ast.Literal(text[start:end], Span(start - 1, end + 1)), "STRING"
    start, end = span(_A_NUMBER)
    if start >= 0:
        return ast.Literal(parse_decimal(text[start:end]), Span(start, end)), "NUMBER"
    start, end = span(_A_KEYWORD)
    if start >= 0:
        return ast.Literal(_KEYWORD_VALUES[text[start:end]], Span(start, end)), "IDENT"
    start, end = span(_A_TEMPLATE)
    if start >= 0:
        return ast.Template(_template_parts(text, start + 1, end - 1), Span(start, end)), "QUOTE_CLOSE"
    start, end = span(_A_LIST)
    items: list[ast.Expr] = [
        ast.Literal(text[at + 1 : to - 1], Span(at, to))
        for at, to in (m.span() for m in _LABEL.finditer(text, start, end))
    ]
    return ast.Tuple(items, Span(start, end)), "RSQB"


def _template_parts(text: str, start: int, end: int) -> list[ast.TemplatePart]:
    """The parts of a quoted template whose interpolations are all `${a.b.c}`."""
    parts: list[ast.TemplatePart] = []
    for part in _TEMPLATE_PART.finditer(text, start, end):
        at, to = part.span()
        path = part.group(1)
        if path is None:
            parts.append(ast.TemplateText(text[at:to], Span(at, to)))
            continue
        names = path.split(".")
        pos = at + 2 + len(names[0])
        expr: ast.Expr = ast.Variable(names[0], Span(at + 2, pos))
        if len(names) > 1:
            steps: list[ast.Step] = []
            for name in names[1:]:
                steps.append(ast.GetAttr(name, Span(pos, pos + 1 + len(name))))
                pos += 1 + len(name)
            expr = ast.Traversal(expr, steps, Span(at + 2, pos))
        parts.append(ast.Interpolation(expr, Span(at, to)))
    return parts


def _header_token(line: re.Match[str], text: str, newline: int) -> Token:
    """The HEADER token of a ``header_line`` match: the block's name with its span, its
    labels and the end of its `{`, as :func:`header_block` wants them; placed where the NL
    before the line is, which it stands for too."""
    name_start, name_end = line.span(_H_NAME)
    labels_start, labels_end = line.span(_H_LABELS)
    labels = []
    if labels_start < labels_end:
        for label in _LABEL.finditer(text, labels_start, labels_end):
            start, end = label.span()
            labels.append(ast.Label(text[start + 1 : end - 1], Span(start, end)))
    end = line.end()
    header = (text[name_start:name_end], Span(name_start, name_end), labels, end)
    return Token("HEADER", header, newline, newline + 1)  # type: ignore[arg-type]


def _decode_escape(match: re.Match[str]) -> str:
    text = match.group()
    if text in ("$${", "%%{"):
        return text[1:]
    if text[1] in "uU":
        return chr(int(text[2:], 16))
    return _ESCAPES[text[1]]


def decode_string(raw: str) -> str:
    """Decode the escapes of a quoted-string fragment already checked by the lexer."""
    if "\\" not in raw and "$${" not in raw and "%%{" not in raw:
        return raw
    return _ESCAPE.sub(_decode_escape, raw)


def _matcher(text: str, pos: int, rules: re.Pattern[str] = _EXPR) -> Callable[[], re.Match[str] | None]:
    """Successive matches of the token rules from ``pos``, each where the last one ended.

    A scanner keeps the position itself, which saves the lexer an argument-passing call
    per token against ``_EXPR.match(text, pos)``.
    """
    return rules.scanner(text, pos).match  # type: ignore[attr-defined,no-any-return]


def _unknown_directive(text: str, pos: int) -> LexError:
    """`%{` must open `if`, `else`, `endif`, `for` or `endfor`; anything else is HCL's error too."""
    word = re.match(r"%\{~?[ \t]*([\w-]*)", text[pos : pos + 40])
    end = pos + (word.end() if word else 2)
    return LexError(
        HG001,
        f"`{text[pos:end].rstrip()}` is not a template directive",
        Span(pos, end),
        help="directives are `%{if}`, `%{else}`, `%{endif}`, `%{for}` and `%{endfor}`; "
        "write `%%{` for a literal `%{`",
        resume=end,
    )


def _check_escapes(raw: str, offset: int) -> None:
    """Every backslash in ``raw`` (found at ``offset``) starts an escape HCL decodes."""
    for match in _ESCAPE.finditer(raw):
        text = match.group()
        if text == "\\":
            at = offset + match.start()
            shown = raw[match.start() : match.start() + 2]
            raise LexError(
                HG007,
                f"`{shown}` is not a valid escape sequence",
                Span(at, at + len(shown)),
                help='write `\\\\` for a backslash; HCL knows \\n \\r \\t \\" \\\\ \\uNNNN \\UNNNNNNNN',
                resume=at + len(shown),
            )
        if text[1] in "uU":
            _check_code_point(text, offset + match.start())


def _check_code_point(escape: str, at: int) -> None:
    """``\\uD800`` or ``\\U00110000`` names no character UTF-8 can hold; HCL refuses it
    ("Cannot encode character U+D800 in UTF-8"), and no output could be written with it."""
    code = int(escape[2:], 16)
    if not (0xD800 <= code <= 0xDFFF or code > 0x10FFFF):
        return
    why = (
        "a surrogate is half of a UTF-16 pair, not a character; write the character's own code "
        "point as `\\UNNNNNNNN`"
        if code <= 0xDFFF
        else "Unicode ends at U+10FFFF"
    )
    raise LexError(
        HG007,
        f"`{escape}` is not a valid escape sequence: U+{code:04X} cannot be encoded in UTF-8",
        Span(at, at + len(escape)),
        help=why,
        resume=at + len(escape),
    )


def _check_number(text: str, pos: int) -> None:
    """A number literal hclgpu cannot hold is one located error, not a crash or an infinity."""
    try:
        parse_decimal(text)
    except NumberOutOfRange as error:
        end = pos + len(text)
        raise LexError(
            HG014,
            str(error),
            Span(pos, end),
            help='quote it if it is text rather than a number: `"..."`',
            resume=end,
        ) from None


class Lexer:
    """Turns one text into tokens; comments are collected on the side."""

    def __init__(self, text: str, lines: bool = False) -> None:
        self.text = text
        self.lines = lines
        """Take the plain lines of :data:`_LINES` whole (LINES, HEADER, NL_RBRACE tokens);
        without it, every token is its own (what semantic highlighting reads)."""
        self.comments: list[tuple[int, int]] = []
        self.expect_in = False
        """True after `for` until its `in`: only there is `in` a keyword."""
        self.notes: list[LexError] = []
        """Findings that do not stop parsing (reported as warnings)."""
        self.error: LexError | None = None
        """The malformed token that ended the text early, if any."""
        self._batch: list[Token] = []
        """The list of tokens being filled; an error token ends it when lexing stops early."""
        self._lines: list[ast.Attribute | ast.Block] = []
        """Whole-line items of the body the parser is in, held back to go as one LINES token."""
        self._lines_at = -1
        """The offset of the NL before the first of them."""
        self.whole_blocks: set[int] = set()
        """The ids of the blocks the lexer built from whole lines that set no attribute twice
        in any body inside them: their layout is HCL's (each item on a line of its own, the
        `}` on the next) and nothing in them is redefined, so neither check need look in."""
        self._frames: list[_Frame] = []
        """Blocks opened by a HEADER whose bodies, so far, hold only whole lines: the lexer
        builds them itself until a token of another kind arrives, when they are handed to
        the parser as they stand."""
        # Each frame: (kind, opener start, opener end, extra)
        self.stack: list[tuple[str, int, int, object]] = [("file", 0, 0, _BODY)]

    # -- helpers ------------------------------------------------------------------
    def _push(self, kind: str, start: int, end: int, extra: object = None) -> None:
        if len(self.stack) > MAX_DEPTH:
            raise LexError(
                HG012,
                f"nesting is deeper than {MAX_DEPTH} levels",
                Span(start, end),
                help="flatten the structure; real job files nest a few levels deep",
            )
        self.stack.append((kind, start, end, extra))

    def _close(self, char: str, start: int, end: int) -> str:
        """Pop the context a closing bracket ends; returns the token type to emit."""
        kind, open_start, open_end, _ = self.stack[-1]
        if char == "}" and kind in ("$", "%"):
            self.stack.pop()
            return "INTERP_CLOSE" if kind == "$" else "DIR_CLOSE"
        wanted = _OPENING[char]
        if kind.endswith(wanted) and kind != "file":
            self.stack.pop()
            return _OPERATORS[char]
        if kind == "file":
            raise LexError(
                HG004,
                f"unbalanced `{char}`: nothing is open here",
                Span(start, end),
                help="delete it, or add the opening bracket it was meant to close",
                resume=end,
            )
        opener = "${" if kind == "$" else "%{" if kind == "%" else kind[-1]
        expected = _CLOSING[kind[-1]]
        raise LexError(
            HG004,
            f"`{char}` does not close the `{opener}` opened before it; expected `{expected}`",
            Span(start, end),
            related=((Span(open_start, open_end), f"`{opener}` opened here"),),
            resume=end,
        )

    # -- main loop ------------------------------------------------------------------
    def batches(self, size: int = 256) -> Iterator[list[Token]]:
        """Every token of the text, in lists of ``size`` or more (cut at newlines), ending with ``$END``.

        Lists rather than single tokens: resuming a generator once per token costs the
        parser more than its own work on many of them. A malformed token ends the last
        list with an ``$ERROR`` token and leaves the :class:`LexError` in ``self.error``,
        so the parser still reports any syntax error that comes before it first.
        """
        try:
            yield from self._scan(size)
        except LexError as error:
            self.error = error
            self._release(self._batch.append)
            self._batch.append(Token("$ERROR", "", error.span.start, error.span.end))
            yield self._batch

    def _release(self, emit: Callable[[Token], None]) -> None:
        """Hand the parser what is held back: the current body's whole lines as one LINES
        token, then each block being built, outermost first, as its HEADER and its lines."""
        if self._lines:
            emit(Token("LINES", self._lines, self._lines_at, self._lines_at + 1))  # type: ignore[arg-type]
            self._lines = []
        for header, items, state, _ in self._frames:
            emit(header)
            if items:
                emit(Token("LINES", items, state[0], state[0] + 1))  # type: ignore[arg-type]
        self._frames.clear()

    def _hold(self, item: ast.Attribute | ast.Block, newline: int) -> None:
        """Keep a whole-line item (and the offset of the NL before it) for the block being
        built, or else for the current body's next LINES token."""
        if self._frames:
            _, items, state, names = self._frames[-1]
            if not items:
                state[0] = newline
            items.append(item)
            if isinstance(item, ast.Attribute):
                if item.name in names:
                    state[1] = 0  # redefined: HG109 will look in
                names.add(item.name)
            elif id(item) not in self.whole_blocks:
                state[1] = 0
        else:
            if not self._lines:
                self._lines_at = newline
            self._lines.append(item)

    def _scan(self, size: int) -> Iterator[list[Token]]:
        text = self.text
        stack = self.stack
        comments = self.comments
        pending_nl = -1
        last = ""  # the type of the last significant token
        tokens = self._batch = []
        emit = tokens.append
        rules = _EXPR_LINES if self.lines else _EXPR
        frames = self._frames
        scan = _matcher(text, 0, rules)
        while (m := scan()) is not None:
            group = m.lastgroup
            if group == "ws":
                continue
            pos, end = m.span()
            if group == "attribute_line" or group == "header_line":
                top = stack[-1]
                if top[3] is _BODY and top[0] in _NEWLINE_CONTEXTS and last not in _CONTINUES_AFTER:
                    if len(tokens) >= size:
                        yield tokens
                        tokens = self._batch = []
                        emit = tokens.append
                    at = pos if pending_nl < 0 else pending_nl  # where the line's NL would be
                    pending_nl = -1
                    if group == "attribute_line":
                        node, last = _attribute_node(m, text)  # `last` as if the value had been lexed
                        self._hold(node, at)
                    else:
                        self._push("{", end - 1, end, _BODY)
                        frames.append((_header_token(m, text, at), [], [-1, 1], set()))
                        last = "LBRACE"
                    continue
                # not in a body (an object's items): here only its newline and indentation count
                end = m.end("nl")
                scan = _matcher(text, end, rules)
                group = "nl"
            elif group == "close_line":  # `}` first on its line
                if stack[-1][0] == "{":
                    if len(tokens) >= size:
                        yield tokens
                        tokens = self._batch = []
                        emit = tokens.append
                    at = pos if pending_nl < 0 else pending_nl
                    pending_nl = -1
                    body = stack[-1][3] is _BODY
                    kind = self._close("}", end - 1, end)
                    last_kind, last = last, "RBRACE"
                    if frames and last_kind not in _CONTINUES_AFTER:  # a block of whole lines ends
                        header, items, state, _ = frames.pop()
                        block = header_block(header, ast.Body(items, Span(-1, -1)), end)
                        if state[1]:
                            self.whole_blocks.add(id(block))
                        self._hold(block, header.start)
                        continue
                    if self._lines or frames:
                        self._release(emit)
                    if last_kind in _CONTINUES_AFTER:
                        emit(Token(kind, "}", end - 1, end))
                    elif body:  # the NL's offset rides along, for an error there
                        emit(Token("NL_RBRACE", at, end - 1, end))  # type: ignore[arg-type]
                    else:
                        emit(Token("NL", "\n", at, at + 1))
                        emit(Token(kind, "}", end - 1, end))
                    continue
                end = m.end("nl")
                scan = _matcher(text, end, rules)
                group = "nl"
            if group == "nl":  # the newline and the next line's indentation
                kind = stack[-1][0]
                if pending_nl < 0 and kind in _NEWLINE_CONTEXTS:
                    pending_nl = pos
                elif kind in ("[", "("):
                    self._check_runaway(pos + 1)
                if len(tokens) >= size:
                    yield tokens
                    tokens = self._batch = []
                    emit = tokens.append
                continue
            if group == "comment":
                comments.append((pos, end))
                continue
            # A significant token: decide its type, then flush a pending newline.
            if self._lines or frames:
                self._release(emit)
            value = m.group()
            kind = stack[-1][0]
            moved = False  # the token ends elsewhere than the match, or a template starts
            if group == "ident":
                type = self._keyword(value, last, end) if value in _KEYWORDS else "IDENT"
                if type == "FOR":
                    pending_nl = -1
            elif group == "op":
                type = _OPERATORS[value]
                if value in "{[(":
                    # a `{` after a block's name or label opens a body; any other, an object
                    body = value == "{" and last in ("IDENT", "STRING") and stack[-1][3] is _BODY
                    self._push(value, pos, end, _BODY if body else None)
                elif value in ("}", "]", ")", "~}"):
                    type = self._close("}" if value == "~}" else value, pos, end)
                    moved = type in ("INTERP_CLOSE", "DIR_CLOSE")  # back in a string or heredoc?
                    if value == "~}" and type == "RBRACE":
                        raise LexError(HG006, "`~` is only allowed before the `}` of `${ }` or `%{ }`",
                                       Span(pos, pos + 1), resume=pos + 1)  # fmt: skip
            elif group == "string":
                type = "STRING"
                if "\\" in value:
                    _check_escapes(value, pos)
                value = decode_string(value[1:-1])
            elif group == "number":
                type = "NUMBER"
                if last == "DOT":  # `a.0.1` is two indexes, not the number 0.1
                    digits = _DIGITS.match(text, pos)
                    assert digits is not None
                    end = digits.end()
                    value = digits.group()
                    moved = True
                if len(value) > _PLAIN_NUMBER or "e" in value or "E" in value:
                    _check_number(value, pos)
            elif group == "escstring" and any(frame[0] == '"' for frame in stack):
                # `"${x == \"a\"}"`: a string written with escaped quotes inside a template.
                type = "STRING"
                if "\\" in value[2:-2]:
                    _check_escapes(value[2:-2], pos + 2)
                value = decode_string(value[2:-2])
            elif group == "quote":
                type = "QUOTE_OPEN"
                self._push('"', pos, end)
                moved = True
            elif group == "heredoc":
                type = "HEREDOC_OPEN"
                end = self._open_heredoc(m, pos)
                moved = True
            else:  # "bad" and "bad_comment"
                self._bad(value, pos)
            if pending_nl >= 0:
                if type == "LBRACE" and last in ("STRING", "IDENT") and kind == "file":
                    self._brace_on_next_line(pos)
                elif last not in _CONTINUES_AFTER and type not in _CONTINUES_BEFORE:
                    emit(Token("NL", "\n", pending_nl, pending_nl + 1))
                pending_nl = -1
            emit(Token(type, value, pos, end))
            last = type
            if moved:
                if stack[-1][0] in _TEMPLATE_CONTEXTS:
                    end = self._template(end, tokens)
                    last = tokens[-1].type
                scan = _matcher(text, end, rules)
        self._check_closed()
        self._release(emit)
        n = len(text)
        if pending_nl >= 0:
            emit(Token("NL", "\n", pending_nl, pending_nl + 1))
        emit(Token("$END", "", n, n))
        yield tokens

    def _keyword(self, word: str, last: str, end: int) -> str:
        """`for`, `in` and `if` are keywords only inside for-expressions; elsewhere names."""
        stack = self.stack
        if word == "for" and last in ("LBRACE", "LSQB") and _FOR_VAR_AHEAD.match(self.text, end):
            self.expect_in = True
            top = stack[-1]
            stack[-1] = ("F" + top[0], top[1], top[2], top[3])
            return "FOR"
        if word == "in" and self.expect_in:
            self.expect_in = False
            return "IN"
        if word == "if" and stack[-1][0][0] == "F" and last != "DOT":
            return "IF"
        return "IDENT"

    def _template(self, pos: int, tokens: list[Token]) -> int:
        """The literal parts of a string or heredoc up to its end or its next `${` or `%{`."""
        stack = self.stack
        while (kind := stack[-1][0]) in _TEMPLATE_CONTEXTS:
            pos, token = self._string_part(pos) if kind == '"' else self._heredoc_part(pos)
            tokens.append(token)
        return pos

    def _check_runaway(self, line_start: int) -> None:
        """A `[` or `(` still open when a new attribute or block starts was never closed.

        Reporting it at the opener beats the cascade of errors the parser would
        otherwise find further down.
        """
        item = _ITEM_LINE.match(self.text, line_start)
        if item is None:
            return
        _, start, end, _ = self.stack[-1]
        opener_line = self.text.rfind("\n", 0, start) + 1
        opener_indent = len(self.text[opener_line:start]) - len(self.text[opener_line:start].lstrip(" \t"))
        if len(item.group(1)) > opener_indent:
            return
        closer = "]" if self.stack[-1][0] == "[" else ")"
        raise LexError(
            HG005,
            f"`{self.text[start:end]}` is never closed",
            Span(start, end),
            help=f"add the missing `{closer}` before the next attribute or block",
            resume=line_start,
            region=(opener_line, line_start),
        )

    def _brace_on_next_line(self, pos: int) -> None:
        # from the end of the header to the `{`, where hclsyntax reports "Invalid block
        # definition" (its range is the newline that ends the header)
        header_end = pos
        while header_end > 0 and self.text[header_end - 1].isspace():
            header_end -= 1
        self.notes.append(
            LexError(
                HG009,
                "the `{` of a block must be on the same line as the block's name and labels",
                Span(header_end, pos + 1),
                help="Nomad rejects a block whose `{` starts a new line; join the two lines",
            )
        )

    def _bad(self, value: str, pos: int) -> None:
        if value == "/*":
            raise LexError(
                HG008,
                "this `/*` comment is never closed",
                Span(pos, pos + 2),
                help="add `*/` where the comment should end",
            )
        if value == "\x00":
            raise LexError(HG011, "NUL byte in the file", Span(pos, pos + 1), resume=pos + 1)
        shown = value if value.isprintable() else repr(value)[1:-1]
        raise LexError(
            HG006,
            f"unexpected character `{shown}`",
            Span(pos, pos + 1),
            help="put text in double quotes; HCL2 has no token that starts with this character",
            resume=pos + 1,
        )

    def _check_closed(self) -> None:
        if len(self.stack) == 1:
            return
        kind, start, end, _ = self.stack[-1]
        opener = self.text[start:end].strip()
        closer = _CLOSING.get(kind[-1], "")
        n = len(self.text)
        raise LexError(
            HG005,
            f"`{opener}` is never closed",
            Span(start, end),
            help=f"add the missing `{closer}`",
            related=((Span(n, n), "the file ends here"),),
        )

    # -- templates ------------------------------------------------------------------
    def _string_part(self, pos: int) -> tuple[int, Token]:
        text = self.text
        m = _STRING_PART.match(text, pos)
        group = m.lastgroup if m else None
        if m is None and text.startswith("%{", pos):
            raise _unknown_directive(text, pos)
        if m is None or group is None:
            _, start, _, _ = self.stack[-1]
            raise LexError(
                HG002,
                "unterminated string",
                Span(start, pos),
                help='close the string with `"` on the same line, or use a heredoc for several lines',
                resume=pos,
            )
        end = m.end()
        value = m.group()
        if group == "lit":
            if "\\" in value:
                _check_escapes(value, pos)
            return end, Token("TEMPLATE_LIT", decode_string(value), pos, end)
        if group == "close":
            self.stack.pop()
            return end, Token("QUOTE_CLOSE", value, pos, end)
        return end, self._template_open(group, value, pos, end)

    def _template_open(self, group: str, value: str, pos: int, end: int) -> Token:
        if group == "interp":
            self._push("$", pos, end)
            return Token("INTERP_OPEN", value, pos, end)
        self._push("%", pos, end)
        keyword = value[2:].lstrip("~ \t")
        self.expect_in = keyword == "for"
        return Token(_DIRECTIVES[keyword], value, pos, end)

    def _open_heredoc(self, m: re.Match[str], pos: int) -> int:
        flush = m.group("flush") == "-"
        marker = m.group("marker")
        end = m.end()
        rest = _HEREDOC_REST.match(self.text, end)
        if rest is None:
            raise LexError(
                HG001,
                f"the heredoc marker `<<{'-' if flush else ''}{marker}` must end its line",
                Span(pos, end),
                help="start the heredoc text on the next line",
                resume=end,
            )
        self._push("H", pos, end, (marker, flush))
        return rest.end()

    def _heredoc_text(self, start: int, end: int) -> Token:
        text = self.text[start:end].replace("$${", "${").replace("%%{", "%{")
        return Token("TEMPLATE_LIT", text, start, end)

    def _heredoc_part(self, pos: int) -> tuple[int, Token]:
        text = self.text
        _, open_start, open_end, extra = self.stack[-1]
        assert isinstance(extra, tuple)
        marker: str = extra[0]
        closing = re.compile(r"[ \t]*" + re.escape(marker) + r"[ \t]*\r?(?=\n|\Z)")
        start = pos
        while True:
            at_line_start = pos == 0 or text[pos - 1] == "\n"
            if at_line_start:
                close = closing.match(text, pos)
                if close is not None:
                    if pos > start:
                        return pos, self._heredoc_text(start, pos)
                    self.stack.pop()
                    return close.end(), Token("HEREDOC_CLOSE", marker, pos, close.end())
            if pos >= len(text):
                n = len(text)
                raise LexError(
                    HG003,
                    f"heredoc `{marker}` is never closed",
                    Span(n, n),
                    help=f"end the heredoc with a line that holds only `{marker}`",
                    related=((Span(open_start, open_end), "heredoc opened here"),),
                )
            part = _HEREDOC_PART.match(text, pos)
            if part is not None and part.lastgroup is not None:
                if pos > start:
                    return pos, self._heredoc_text(start, pos)
                return part.end(), self._template_open(part.lastgroup, part.group(), pos, part.end())
            line = _HEREDOC_LINE.match(text, pos)
            if line is None:  # `%{` that opens no known directive
                raise _unknown_directive(text, pos)
            pos = line.end()
