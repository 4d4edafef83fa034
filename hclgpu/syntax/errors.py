"""Syntax errors in human words.

The parser reports the token it could not accept and the set of terminals the LALR
state would have accepted. This module turns that into a sentence a job-file author
understands: "expected `=` or a block `{` after `port`", never a terminal name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hclgpu.diagnostics import Edit
from hclgpu.source import Span
from hclgpu.syntax.lexer import Token

_PUNCTUATION = {
    "LBRACE": "`{`", "RBRACE": "`}`", "LSQB": "`[`", "RSQB": "`]`", "LPAR": "`(`", "RPAR": "`)`",
    "EQUAL": "`=`", "COLON": "`:`", "COMMA": "`,`", "DOT": "`.`", "ELLIPSIS": "`...`",
    "QMARK": "`?`", "FATARROW": "`=>`", "OROR": "`||`", "ANDAND": "`&&`", "EQEQ": "`==`",
    "NOTEQ": "`!=`", "LT": "`<`", "GT": "`>`", "LE": "`<=`", "GE": "`>=`", "PLUS": "`+`",
    "MINUS": "`-`", "STAR": "`*`", "SLASH": "`/`", "PERCENT": "`%`", "BANG": "`!`",
    "FOR": "`for`", "IN": "`in`", "IF": "`if`", "INTERP_OPEN": "`${`", "INTERP_CLOSE": "`}`",
    "DIR_CLOSE": "`}`", "QUOTE_CLOSE": 'a closing `"`', "DIR_IF": "`%{ if }`",
    "DIR_ELSE": "`%{ else }`", "DIR_ENDIF": "`%{ endif }`", "DIR_FOR": "`%{ for }`",
    "DIR_ENDFOR": "`%{ endfor }`", "HEREDOC_CLOSE": "the heredoc's closing marker",
    "IDENT": "a name", "NUMBER": "a number", "STRING": "a string", "QUOTE_OPEN": "a string",
    "HEREDOC_OPEN": "a heredoc", "TEMPLATE_LIT": "text", "NL": "a new line",
    "$END": "the end of the file",
}  # fmt: skip
_EXPRESSION_START = frozenset(("IDENT", "NUMBER", "STRING", "QUOTE_OPEN", "LPAR", "LSQB", "LBRACE"))
_OPERATORS = frozenset(
    ("OROR", "ANDAND", "EQEQ", "NOTEQ", "LT", "GT", "LE", "GE", "PLUS", "MINUS", "STAR", "SLASH", "PERCENT")
)
_EXPRESSION_TAIL = _OPERATORS | {"QMARK", "DOT", "LSQB"}
_BODY_ITEM = frozenset(("EQUAL", "LBRACE", "STRING", "IDENT"))


@dataclass(frozen=True, slots=True)
class SyntaxProblem:
    message: str
    span: Span
    help: str | None = None
    rest_of_body: bool = False
    """Recover by skipping the rest of the enclosing block, as hclsyntax does after this
    error: one error for a block of HCL1-style quoted names, not one per line."""
    label: bool = False
    """Recover by skipping only the label: the block's body is read on, as hclsyntax reads
    it (its scanner reports every invalid character of the file, a `$` in a templated body
    included)."""
    fix: tuple[Edit, ...] = ()
    """The edit that writes what the line evidently means (always safe: Nomad reads the
    file only once it parses)."""


def describe_token(token: Token) -> str:
    """How a found token is named in a message."""
    if token.type == "NL":
        return "the end of the line"
    if token.type == "$END":
        return "the end of the file"
    text = token.value if len(token.value) <= 24 else token.value[:21] + "..."
    if token.type in ("STRING", "TEMPLATE_LIT"):
        return f'the string "{text}"' if token.type == "STRING" else f"the text `{text}`"
    if token.type == "QUOTE_OPEN":
        return "a string"
    if token.type == "HEREDOC_OPEN":
        return f"the heredoc `{text}`"
    return f"`{text}`"


def describe_expected(expected: set[str]) -> str:
    """A short, ordered list of what would have been accepted."""
    names: list[str] = []
    rest = set(expected)
    if rest >= _EXPRESSION_START:
        names.append("an expression")
        rest -= _EXPRESSION_START | {"HEREDOC_OPEN", "MINUS", "BANG"}
    if rest >= _OPERATORS:
        names.append("an operator")
        rest -= _EXPRESSION_TAIL
    rest.discard("NL") if names else None
    names.extend(sorted({_PUNCTUATION.get(name, name) for name in rest}))
    if not names:
        return "nothing more"
    if len(names) == 1:
        return names[0]
    if len(names) > 6:
        names = [*names[:5], "..."]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _block_header(text: str, offset: int) -> str:
    """The first word of the line holding ``offset``: the block type of a header."""
    start = text.rfind("\n", 0, offset) + 1
    words = text[start:offset].split()
    return words[0] if words else ""


def explain(token: Token, expected: set[str], previous: Token | None, text: str) -> SyntaxProblem:
    """Word a parse failure at ``token`` given the terminals the parser expected."""
    span = Span(token.start, token.start if token.type == "NL" else token.end)
    found = describe_token(token)
    after = (
        f" after `{previous.value}`" if previous is not None and previous.type in ("IDENT", "EQUAL") else ""
    )
    if expected >= _EXPRESSION_START and token.type in ("NL", "$END", "RBRACE"):
        return SyntaxProblem(f"expected an expression{after}, found {found}", span)
    after_name = previous is not None and previous.type == "IDENT"
    if token.type == "QUOTE_OPEN" and "STRING" in expected and after_name:  # `job "a-${b}"`
        return _template_label(span)
    if token.type in ("STRING", "QUOTE_OPEN") and "IDENT" in expected and "STRING" not in expected:
        name = token.value if token.type == "STRING" else "..."
        help = (
            f"write `{name} = ...` without quotes; a name that is not an identifier goes in a map, "
            if _IDENTIFIER.fullmatch(name)
            else f"`{name}` is not an identifier, so it can only be a key of a map, "
        )
        return SyntaxProblem(
            "argument names must not be quoted",  # hclsyntax: "Invalid argument name"
            span,
            help + f'as in `env = {{ "{name}" = ... }}`',
            rest_of_body=True,
        )
    if token.type == "COMMA" and "NL" in expected and "COMMA" not in expected:
        return SyntaxProblem(  # hclsyntax: "Missing newline after argument"
            "an argument must end with a new line, not `,`",
            span,
            "delete the `,`: HCL1 allowed commas between a block's arguments; HCL2, which Nomad reads, "
            "does not",
            fix=(Edit(span, ""),) if _ends_line(text, span.end) else (),
        )
    if expected >= _BODY_ITEM and previous is not None and after_name:
        return SyntaxProblem(
            f"expected `=` or a block `{{` after `{previous.value}`, found {found}",
            span,
            'write an attribute as `name = value`, a block as `name "label" { ... }`',
        )
    if {"LBRACE", "STRING"} <= expected and "EQUAL" not in expected and not expected >= _EXPRESSION_START:
        if token.type == "QUOTE_OPEN":
            return _template_label(span)
        block = _block_header(text, token.start)
        if token.type == "EQUAL" and previous is not None and previous.type == "IDENT":
            return SyntaxProblem(
                f"expected `{{` to open the `{block}` block, found `=`",
                span,
                f"`{previous.value}` was read as a block label; to set it, write it inside the braces: "
                f"`{block} ... {{ {previous.value} = ... }}`",
            )
        return SyntaxProblem(
            f"expected a block label or `{{` after `{block}`, found {found}",
            span,
            'a block is written `name "label" { ... }`',
        )
    if (
        "NL" in expected
        and previous is not None
        and token.type in ("IDENT", "STRING", "QUOTE_OPEN", "NUMBER")
    ):
        return SyntaxProblem(
            f"unexpected {found}; an attribute or block must end its line",
            span,
            "put each attribute and each block on a line of its own",
        )
    return SyntaxProblem(f"unexpected {found}; expected {describe_expected(expected)}", span)


_IDENTIFIER = re.compile(r"[^\W\d][\w-]*")
_QUOTED_NAME = re.compile(r'^([ \t]*)"([^\W\d][\w-]*)"(?=[ \t]*=[^=])', re.MULTILINE)
_LINE_END = re.compile(r"[ \t]*(?:(?:#|//).*)?(?:\n|$)")


def unquoted_names(text: str, start: int, end: int) -> tuple[Edit, ...]:
    """The edits that unquote each HCL1-style quoted argument name (`"PUID" = ...`) on the
    lines from ``start`` to ``end``: the names the error's recovery skips, fixed at once. A
    quoted name that is no identifier stays, for its author to move into a map."""
    edits = []
    for match in _QUOTED_NAME.finditer(text, start, end):
        edits.append(Edit(Span(match.start(2) - 1, match.end(2) + 1), match.group(2)))
    return tuple(edits)


def _ends_line(text: str, offset: int) -> bool:
    """Whether only blanks or a comment follow ``offset`` on its line."""
    return _LINE_END.match(text, offset) is not None


def _template_label(span: Span) -> SyntaxProblem:
    return SyntaxProblem(
        "block labels must be plain strings without `${ }` or `%{ }`",
        span,
        "templates are not evaluated in labels",
        label=True,
    )
