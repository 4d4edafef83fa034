"""The lexer's whole lines: a line such as `count = 2` reaches the parser as one ATTRIBUTE
token holding the finished node, and a block's `name "label" {` as one HEADER token. The
tree, every span and every diagnostic must be exactly what the general path (a token for
each name, label, `=`, value and `{`) gives, wherever the line stands."""

from __future__ import annotations

import json

import pytest

from hclgpu.diagnostics import Sink
from hclgpu.source import SourceFile
from hclgpu.syntax import lexer as lexer_module
from hclgpu.syntax import parser as parser_module
from hclgpu.syntax.dump import to_json
from hclgpu.syntax.redefined import check_redefined

CASES = {
    "plain": 'job "a" {\n  count = 2\n  name = "x"\n  on = true\n  off = false\n  none = null\n'
    "  f = 1.5\n}\n",
    "first line of the file": 'a = 1\nb = "x"\n',
    "trailing comments": 'job "a" {\n  a = 1 # one\n  b = "x" // two\n  c = 3 /* three */\n}\n',
    "continued by the next line": 'job "a" {\n  a = 1\n    + 2\n  b = true\n    || false\n'
    '  c = "x"\n\n  # note\n  == "y"\n}\n',
    "conditional over lines": 'job "a" {\n  a = true\n    ? 1\n    : 2\n}\n',
    "object items are no attributes": 'job "a" {\n  meta = {\n    a = 1\n    b = "x"\n  }\n}\n',
    "object of objects": "x = {\n  a = {\n    b = 1\n  }\n  c = 2\n}\n",
    "for expression": "x = {\n  for k, v in y : k => v\n}\nz = 1\n",
    "not plain values": 'job "a" {\n  a = "x${y}"\n  b = "q\\"q"\n  c = 1e3\n  d = "50%"\n'
    "  e = truex\n  f = 1.\n}\n",
    "two on a line": 'job "a" {\n  a = 1 b = 2\n}\n',
    "brace on the next line": 'a = "x"\n{\n}\n',
    "keywords as names": 'job "a" {\n  for = 1\n  in = 2\n  if = 3\n}\n',
    "missing value": 'job "a" {\n  a =\n  b = 1\n}\n',
    "equality is no attribute": 'job "a" {\n  a == 1\n}\n',
    "windows line ends": 'job "a" {\r\n  a = 1\r\n  b = "x"\r\n}\r\n',
    "after a heredoc": 'job "a" {\n  a = <<EOF\nx = 1\nEOF\n  b = 2\n}\n',
    "inside brackets": "x = [\n  1,\n  a = 2\n]\ny = (\n  1\n)\n",
    "unicode names": 'job "a" {\n  námé = "ü"\n}\n',
    "headers": 'job "a" {\n  group "b" {\n    network {\n      port "http" { to = 8000 }\n'
    '      port "m" {}\n    }\n  }\n  meta "x" "y"{ # c\n  }\n}\n',
    "headers the general path takes": 'job "a" {\n  a b {\n  }\n  c "q\\"q" {\n  }\n'
    '  d "${x}" {\n  }\n  for "x" {\n  }\n}\n',
    "a header in an object": 'x = {\n  a "b" {\n  }\n}\n',
    "a header without its brace": 'job "a" {\n  group "b"\n  {\n  }\n}\n',
    "a header after an open operator": 'job "a" {\n  a = 1 +\n  group "b" {\n  }\n}\n',
    "a header never closed": 'job "a" {\n  group "b" {\n    count = 1\n',
    "templates": 'job "a" {\n  a = "${x}"\n  b = "${a.b-c.d_e}"\n  c = "v${a.b}-x${y}z"\n'
    '  d = "${a}${b}"\n  e = "${x}" # c\n}\n',
    "templates the general path takes": 'job "a" {\n  a = "${ x }"\n  b = "${true}"\n  c = "${a.0}"\n'
    '  d = "%{if x}y%{endif}"\n  e = "$${a}"\n  f = "${a[0]}"\n  g = "${x}"\n    + "y"\n}\n',
    "lists": 'job "a" {\n  a = []\n  b = ["x"]\n  c = ["x",]\n  d = [ "x" , "y" ]\n  e = ["x", 1]\n'
    '  f = ["a${b}"]\n  g = [\n    "x",\n  ]\n  h = ["x"] # c\n  i = ["x"]\n    [0]\n}\n',
    "closing braces": 'job "a" {\n  a = 1 +\n}\nx = {\n  a = 1\n\n}\ny = [\n}\n'
    "z = {\n  for k in y : k => 1\n}\n",
    "an error where a whole line starts": 'job "a" {\n  a =\n}\njob "b"\n  group "c" {\n  }\n'
    "x = 1 x\n  y = 2\n",
    "whole-line blocks": '# x\njob "a" {\n  group "b" {\n    a = 1\n    c {\n    }\n  }\n  d = 2\n  e {\n'
    '    f = "${x}"\n  }\n  g = [1]\n  h {\n  }\n}\n',
    "an error after held lines": '# x\njob "a" {\n  a = 1\n  b {\n    c = 1\n    d =\n  }\n}\n',
    "a lexical error after held lines": '# x\njob "a" {\n  a = 1\n  b {\n    c = 1\n    d = @\n  }\n}\n',
    "unclosed after held lines": '# x\njob "a" {\n  a = 1\n  b {\n    c = 1\n',
    "redefined in whole-line blocks": '# x\njob "a" {\n  g {\n    a = 1\n    a = 2\n    h {\n      b = 1\n'
    "      b = 2\n    }\n    i {\n      c = 1\n    }\n  }\n  d = 1\n  d = 3\n  k {\n    x = 1\n    m {\n"
    "      e = 1\n      e = 2\n    }\n  }\n}\n",
    "nested too deeply": "".join(f'{"  " * i}b "{i}" {{\n' for i in range(300)),
}


def _parse(text: str, lines: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[object, list[object]]:
    general = lexer_module.Lexer
    monkeypatch.setattr(parser_module, "Lexer", lambda t, **_: general(t, lines=lines))
    source = SourceFile("x.hcl", text)
    sink = Sink()
    tree = parser_module.parse(source, sink)
    if tree is not None:  # as the pipeline does: redefinitions are looked for after the parse
        check_redefined(tree, source, sink)
    found = [(d.code, d.span.start if d.span else None, d.message, d.help) for d in sink.sorted()]
    return json.dumps(to_json(tree, source)) if tree else None, found


@pytest.mark.parametrize("name", sorted(CASES))
def test_whole_lines_parse_as_the_general_path_does(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    text = CASES[name]
    assert _parse(text, True, monkeypatch) == _parse(text, False, monkeypatch)


def _types(text: str) -> list[str]:
    return [token.type for batch in lexer_module.Lexer(text, lines=True).batches() for token in batch]


def test_whole_lines_reach_the_parser_as_few_tokens() -> None:
    # a block of whole lines is built by the lexer: the file is one LINES token (the
    # first line of a file, with no newline before it, takes the general path)
    lines = '# a job\njob "a" {\n  group "b" {\n    a = "v${x.y}"\n    b = ["x", "y"]\n  }\n}\n'
    assert _types(lines) == ["LINES", "NL", "$END"]
    # a general token hands over the blocks being built, each HEADER with its lines so far
    assert _types('\njob "a" {\n  count = 2\n  x = y\n}\n')[:4] == ["HEADER", "LINES", "NL", "IDENT"]
    assert "LINES" not in _types('job "a" {\n  count = 2\n    + 1\n}\n')
    assert "LINES" not in _types("x = {\n  a = 1\n}\n")
    general = _types_without_lines('job "a" {\n  count = 2\n}\n')
    assert "LINES" not in general and "HEADER" not in general  # semantic tokens read every token


def _types_without_lines(text: str) -> list[str]:
    return [token.type for batch in lexer_module.Lexer(text).batches() for token in batch]


def test_a_lexical_error_hands_over_what_was_held_first() -> None:
    lexer = lexer_module.Lexer('\njob "a" {\n  count = 2\n  group "b" {\n    c = 1\n', lines=True)
    types = [token.type for batch in lexer.batches() for token in batch]
    assert types == ["HEADER", "LINES", "HEADER", "LINES", "$ERROR"]
    assert lexer.error is not None and lexer.error.code == "HG005"
