"""Parse HCL2 text into a :class:`~hclgpu.syntax.ast.File`.

The lexer's tokens drive the LALR tables built from ``grammar/hcl.lark``; each
reduction calls a function of :mod:`hclgpu.syntax.build`. On a syntax error the
problem is reported, the offending statement is blanked out (newlines kept, so
every position stays valid) and the text is parsed again, so that independent
errors in one file are all reported in a single run.
"""

from __future__ import annotations

import re
from itertools import chain
from typing import Any

from hclgpu.codes.syntax import HG001, HG004
from hclgpu.diagnostics import Related, Sink
from hclgpu.gc_pause import paused_gc
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast
from hclgpu.syntax.build import CALLBACKS, PASS_THROUGH
from hclgpu.syntax.comments import attach_comments
from hclgpu.syntax.layout import check_layout
from hclgpu.syntax.lexer import Lexer, LexError, Token
from hclgpu.syntax.tables import Tables, load_tables

MAX_ERRORS = 20
"""At most this many syntax errors are reported for one file."""
_RECOVERY_BUDGET = 4_000_000
"""Characters re-parsed while recovering from errors, summed over attempts."""


class _ParseFailure(Exception):
    def __init__(self, token: Token, expected: set[str], previous: Token | None) -> None:
        super().__init__(token.type)
        self.token = token
        self.expected = expected
        self.previous = previous


_WHOLE_LINES = ("LINES", "HEADER", "NL_RBRACE")
"""Tokens that stand for a newline and the whole line after it. Where one is acceptable,
NL is too; where one is not, the NL it holds is not either: the error is reported at that
NL, as the general path would (and an error message names NL, IDENT or RBRACE instead)."""


def _newline_of(token: Token) -> Token:
    """The NL a whole-line token holds (its own offset, or for NL_RBRACE its value)."""
    at: int = token.value if token.type == "NL_RBRACE" else token.start  # type: ignore[assignment]
    return Token("NL", "\n", at, at + 1)


def _accepts(stack: list[int], kind: str, tables: Tables) -> bool:
    """Would the parser shift ``kind`` from ``stack``, after any reductions?"""
    stack = list(stack)
    while True:
        move = tables.moves[stack[-1]].get(kind)
        if move is None:
            return False
        if move >= 0:
            return True
        size = tables.rules[~move][1]
        if size:
            del stack[-size:]
        goto = tables.moves[stack[-1]].get(tables.origins[~move])
        if goto is None:
            return False
        stack.append(goto)
        if kind == "$END" and stack[-1] == tables.end_state:
            return True


def _acceptable(stack: list[int], tables: Tables) -> set[str]:
    """The terminals acceptable at the point of an error (LALR rows over-approximate them)."""
    row = tables.moves[stack[-1]]
    candidates = [name for name in row if (name.isupper() and name not in _WHOLE_LINES) or name == "$END"]
    return {kind for kind in candidates if _accepts(stack, kind, tables)}


def _drive(lexer: Lexer, tables: Tables) -> ast.Body:
    moves = tables.moves
    # One tuple per rule: (children, goto symbol, callback); children is -1 for a
    # pass-through reduction, whose value stays as it is while only the state changes.
    rules = [
        (-1 if size == 1 and name in PASS_THROUGH else size, origin, CALLBACKS[name])
        for (name, size), origin in zip(tables.rules, tables.origins, strict=True)
    ]
    stack = [tables.start_state]
    values: list[Any] = []
    push_state = stack.append
    push_value = values.append
    state = tables.start_state
    end_state = tables.end_state
    previous: Token | None = None
    for token in chain.from_iterable(lexer.batches()):
        kind = token.type
        while True:
            move = moves[state].get(kind)
            if move is None:
                if kind == "$ERROR" and lexer.error is not None:
                    raise lexer.error
                if kind in _WHOLE_LINES:
                    token = _newline_of(token)
                raise _ParseFailure(token, _acceptable(stack, tables), previous)
            if move >= 0:  # shift
                push_state(move)
                push_value(token)
                state = move
                break
            size, origin, callback = rules[~move]
            if size < 0:
                state = stack[-1] = moves[stack[-2]][origin]
                continue
            if size:
                children = values[-size:]
                del values[-size:]
                del stack[-size:]
            else:
                children = []
            push_value(callback(children))
            state = moves[stack[-1]][origin]
            push_state(state)
            if state == end_state and kind == "$END":
                return values[-1]  # type: ignore[no-any-return]
        previous = token
    raise AssertionError("the lexer ends every text with $END")


_CRUDE = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|//[^\n]*|/\*[\s\S]*?(?:\*/|\Z)|[{}\[\]()]')


def _statement_region(text: str, offset: int, code: str) -> tuple[int, int]:
    """The part of ``text`` to blank out so that parsing can resume after an error."""
    if code == HG004:
        return offset, offset + 1
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    end = len(text) if end < 0 else end
    depth = 0
    for match in _CRUDE.finditer(text, start):
        char = match.group()
        if match.start() >= end and depth <= 0:
            break
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth == 0 and match.start() >= end:
                return start, match.end()
    else:
        if depth > 0:
            return start, len(text)
    return start, end


def _notes(lexer: Lexer, source: SourceFile, sink: Sink, noted: set[tuple[str, int]]) -> None:
    """The lexer's findings that do not stop it (HG009), each once over the recovery passes:
    also those before a syntax error, which hclsyntax reports as well."""
    for note in lexer.notes:
        if (note.code, note.span.start) not in noted:
            noted.add((note.code, note.span.start))
            sink.emit(note.code, note.message, source, note.span, help=note.help)


def _label_region(text: str, offset: int) -> tuple[int, int] | None:
    """The quoted label that starts at ``offset``: up to the last quote before the `{` that
    opens the block on the same line (None when there is no such brace)."""
    line_end = text.find("\n", offset)
    line_end = len(text) if line_end < 0 else line_end
    brace = text.rfind("{", offset, line_end)
    close = text.rfind('"', offset + 1, brace) if brace > offset else -1
    return (offset, close + 1) if close > offset else None


def _rest_of_body(text: str, offset: int) -> tuple[int, int]:
    """From the line holding ``offset`` to the brace that closes the enclosing block (or
    the end of the file)."""
    start = text.rfind("\n", 0, offset) + 1
    depth = 0
    for match in _CRUDE.finditer(text, start):
        char = match.group()
        if char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
            if depth < 0:
                return start, match.start()
    return start, len(text)


def _blank(text: str, start: int, end: int) -> str:
    hole = "".join("\n" if char == "\n" else " " for char in text[start:end])
    return text[:start] + hole + text[end:]


def parse(source: SourceFile, sink: Sink) -> ast.File | None:
    """Parse ``source``; report syntax errors to ``sink``; None when there were any."""
    tables = load_tables()
    text = source.text
    failed = False
    budget = _RECOVERY_BUDGET
    last_offset = -1
    noted: set[tuple[str, int]] = set()
    for _ in range(MAX_ERRORS):
        lexer = Lexer(text, lines=True)
        rest_of_body = False
        try:
            with paused_gc():
                body = _drive(lexer, tables)
        except LexError as error:
            failed = True
            _notes(lexer, source, sink, noted)
            sink.emit(
                error.code,
                error.message,
                source,
                error.span,
                help=error.help,
                related=[Related(span, message) for span, message in error.related],
            )
            if error.resume is None:
                break
            offset, code = error.span.start, error.code
            if error.region is not None:
                last_offset = offset
                text = _blank(text, *error.region)
                continue
        except _ParseFailure as failure:
            failed = True
            _notes(lexer, source, sink, noted)
            from hclgpu.syntax.errors import explain, unquoted_names  # only files with errors

            problem = explain(failure.token, failure.expected, failure.previous, text)
            fix = problem.fix
            if problem.rest_of_body and failure.token.type == "STRING":
                fix = unquoted_names(source.text, *_rest_of_body(text, failure.token.start))
            sink.emit(HG001, problem.message, source, problem.span, help=problem.help, fix=fix, fix_safe=True)
            if failure.token.type == "$END":
                break
            offset, code = failure.token.start, HG001
            rest_of_body = problem.rest_of_body
            label = _label_region(text, offset) if problem.label else None
            if label is not None:
                last_offset = offset
                text = _blank(text, *label)
                continue
        else:
            _notes(lexer, source, sink, noted)
            if failed:
                return None
            body.span = Span(0, len(text))
            file = ast.File(body, [], Span(0, len(text)), lexer.whole_blocks)
            with paused_gc():
                attach_comments(file, lexer.comments, text)
            return None if check_layout(body, source, sink, file.whole_blocks) else file
        budget -= len(text)
        if offset <= last_offset or budget <= 0:
            break
        last_offset = offset
        start, end = _rest_of_body(text, offset) if rest_of_body else _statement_region(text, offset, code)
        text = _blank(text, start, end)
    return None
