"""Each syntax error has a code, an exact location and a message in human words."""

from __future__ import annotations

import re

import pytest

from hclgpu.source import SourceFile
from tests.conftest import parse_text

CASES = [
    # (text, code, line, column, message)
    ('job "x" {\n  port 8080\n}\n', "HG001", 2, 8, "expected `=` or a block `{` after `port`, found `8080`"),
    ('port "http" static = 8080\n', "HG001", 1, 20, "expected `{` to open the `port` block, found `=`"),
    ("a =\nb = 1\n", "HG001", 1, 4, "expected an expression after `=`, found the end of the line"),
    ("a = 1 b = 2\n", "HG001", 1, 7, "unexpected `b`; an attribute or block must end its line"),
    ('a = "open\n', "HG002", 1, 5, "unterminated string"),
    ("a = <<EOH\ntext\n", "HG003", 3, 1, "heredoc `EOH` is never closed"),
    ('job "x" {\n}\n}\n', "HG004", 3, 1, "unbalanced `}`: nothing is open here"),
    ("a = [1, 2)\n", "HG004", 1, 10, "`)` does not close the `[` opened before it; expected `]`"),
    ('job "x" {\n  a = 1\n', "HG005", 1, 9, "`{` is never closed"),
    ("a = [1,\n  2\nb = 3\n", "HG005", 1, 5, "`[` is never closed"),
    ("a = 2;\n", "HG006", 1, 6, "unexpected character `;`"),
    (r'a = "C:\bin"' + "\n", "HG007", 1, 8, r"`\b` is not a valid escape sequence"),
    ("/* never closed\na = 1\n", "HG008", 1, 1, "this `/*` comment is never closed"),
    ('job "x" "${y}" {}\n', "HG001", 1, 9, "block labels must be plain strings"),
    ('job "x-${y}" {}\n', "HG001", 1, 5, "block labels must be plain strings"),  # a job name to substitute
    ('job "x" {\n  env {\n    "TZ" = "UTC"\n  }\n}\n', "HG001", 3, 5, "argument names must not be quoted"),
    (
        'job "x" {\n  meta {\n    a = -1,\n  }\n}\n',
        "HG001",
        3,
        11,
        "an argument must end with a new line, not `,`",
    ),
    ("a = {b = 1 c = 2}\n", "HG001", 1, 12, "unexpected `c`"),
    # a Levant placeholder left in (`[[.cpu]]`): inside a list an expression was expected, not a label
    ("cpu = [[.cpu]]\n", "HG001", 1, 9, "unexpected `.`; expected an expression"),
    ("a = f(1 2)\n", "HG001", 1, 9, "unexpected `2`; expected"),
    ("a = <<EOF trailing\nx\nEOF\n", "HG001", 1, 5, "the heredoc marker `<<EOF` must end its line"),
    ('a = "x%{y}"\n', "HG001", 1, 7, "`%{y` is not a template directive"),
    ("a = <<EOF\nx%{ y }\nEOF\n", "HG001", 2, 2, "`%{ y` is not a template directive"),
]


def test_quoted_argument_names_are_one_error_per_block_as_hcl_reports_them() -> None:
    """hclsyntax skips the rest of a block after "Invalid argument name": an HCL1-era `env`
    block of quoted names is one error, and errors in other blocks are still found."""
    text = (
        'job "x" {\n  group "g" {\n    task "t" {\n      env {\n        "PUID" = "1"\n'
        '        "TZ" = "UTC"\n      }\n      meta {\n        "a" = "b"\n      }\n'
        "      config {\n        image =\n      }\n    }\n  }\n}\n"
    )
    tree, diagnostics = parse_text(text)
    source = SourceFile("t", text)
    found = [(d.message, source.position(d.span.start).line) for d in diagnostics if d.span]
    assert tree is None and found == [
        ("argument names must not be quoted", 5),
        ("argument names must not be quoted", 9),
        ("expected an expression after `=`, found the end of the line", 12),
    ]


@pytest.mark.parametrize(("text", "code", "line", "column", "message"), CASES)
def test_syntax_error(text: str, code: str, line: int, column: int, message: str) -> None:
    tree, diagnostics = parse_text(text)
    assert tree is None
    source = SourceFile("t", text)
    found = [
        (d.code, source.position(d.span.start).line, source.position(d.span.start).column, d.message)
        for d in diagnostics
        if d.span is not None
    ]
    assert any((c, ln, col) == (code, line, column) and message in m for c, ln, col, m in found), found


def test_messages_never_name_grammar_terminals() -> None:
    terminal = re.compile(r"\b(?:IDENT|LBRACE|RBRACE|LSQB|NL|QUOTE_OPEN|TEMPLATE_LIT|\$END|__ANON)\b")
    for text, *_ in CASES:
        _, diagnostics = parse_text(text)
        for diagnostic in diagnostics:
            assert not terminal.search(diagnostic.message), diagnostic.message
            assert not terminal.search(diagnostic.help or ""), diagnostic.help


def test_unclosed_heredoc_points_back_at_its_opener() -> None:
    text = 'job "x" {\n  data = <<EOH\n  {{ key "a" }}\n'
    _, diagnostics = parse_text(text)
    (diagnostic,) = diagnostics
    assert diagnostic.code == "HG003"
    (related,) = diagnostic.related
    assert text[related.span.start : related.span.end] == "<<EOH"


def test_independent_errors_in_one_file_are_all_reported() -> None:
    text = (
        'job "x" {\n'
        '  group "a" {\n'
        "    count 1\n"
        "  }\n"
        '  group "b" {\n'
        "    meta = \n"
        "  }\n"
        '  group "c" {\n'
        '    image = "x\n'
        "  }\n"
        "}\n"
    )
    _, diagnostics = parse_text(text)
    found = [(d.code, SourceFile("t", text).position(d.span.start).line) for d in diagnostics]  # type: ignore[union-attr]
    assert found == [("HG001", 3), ("HG001", 6), ("HG002", 9)]


def test_brace_on_next_line_is_read_on_but_refused() -> None:
    """hclsyntax refuses it ("Invalid block definition", jobspec2-oracle on backend.tf of
    python-hcl2's suite); hclgpu reads the block on, so that the rest is checked too."""
    tree, diagnostics = parse_text('provider "aws"\n{\n  region = "x"\n}\n')
    assert tree is not None
    assert [(d.code, d.severity) for d in diagnostics] == [("HG009", "error")]
