"""Each HCL2 construct parses to the expected node shape with exact spans."""

from __future__ import annotations

from typing import Any

import pytest

from hclgpu.syntax import ast
from tests.conftest import parse_ok


def value(expr_text: str) -> tuple[Any, str]:
    """Parse `a = <expr_text>` and return the value node and the whole text."""
    text = f"a = {expr_text}\n"
    tree = parse_ok(text)
    attribute = tree.body.items[0]
    assert isinstance(attribute, ast.Attribute)
    return attribute.value, text


def src(text: str, node: Any) -> str:
    return text[node.span.start : node.span.end]


def test_attribute_name_and_value_have_their_own_spans() -> None:
    text = "count   = 2\n"
    attribute = parse_ok(text).body.items[0]
    assert isinstance(attribute, ast.Attribute)
    assert text[attribute.name_span.start : attribute.name_span.end] == "count"
    assert src(text, attribute.value) == "2"
    assert src(text, attribute) == "count   = 2"


def test_block_with_quoted_and_bare_labels() -> None:
    text = 'resource "aws_instance" web {\n  ami = "x"\n}\n'
    block = parse_ok(text).body.items[0]
    assert isinstance(block, ast.Block)
    assert block.type == "resource"
    assert [(label.value, label.quoted) for label in block.labels] == [("aws_instance", True), ("web", False)]
    assert [text[label.span.start : label.span.end] for label in block.labels] == ['"aws_instance"', "web"]
    assert text[block.type_span.start : block.type_span.end] == "resource"
    assert src(text, block) == text.rstrip("\n")
    assert [item.name for item in block.body.attributes()] == ["ami"]


def test_one_line_and_empty_blocks() -> None:
    text = 'port "http" { static = 8080 }\nempty {}\n'
    tree = parse_ok(text)
    port, empty = tree.body.items
    assert isinstance(port, ast.Block) and isinstance(empty, ast.Block)
    assert port.body.items[0].name == "static"  # type: ignore[union-attr]
    assert empty.body.items == []
    assert src(text, empty) == "empty {}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("42", 42),
        ("1.5", 1.5),
        ("1e3", 1000.0),
        ("2.5E-1", 0.25),
        ("true", True),
        ("false", False),
        ("null", None),
        ('"plain"', "plain"),
        (r'"tab\tnl\nq\"bs\\u\u00e9"', 'tab\tnl\nq"bs\\u\u00e9'),
        (r'"\U0001F600"', "\U0001f600"),
        ('"$${not} %%{interp}"', "${not} %{interp}"),
    ],
)
def test_literals(text: str, expected: object) -> None:
    node, whole = value(text)
    assert isinstance(node, ast.Literal)
    assert node.value == expected and isinstance(node.value, type(expected))  # a fraction is a BigFloat
    assert src(whole, node) == text


def test_template_interpolation_and_strip_markers() -> None:
    node, text = value('"a-${~ var.x ~}-b"')
    assert isinstance(node, ast.Template)
    first, interp, last = node.parts
    assert isinstance(first, ast.TemplateText) and first.text == "a-"
    assert isinstance(interp, ast.Interpolation)
    assert (interp.strip_left, interp.strip_right) == (True, True)
    assert src(text, interp) == "${~ var.x ~}"
    assert isinstance(last, ast.TemplateText) and last.text == "-b"


def test_template_if_else_and_for_directives() -> None:
    node, text = value('"%{ if a }yes%{ else }no%{ endif }|%{ for k, v in m }${k}=${v},%{ endfor }"')
    assert isinstance(node, ast.Template)
    branch, bar, loop = node.parts
    assert isinstance(branch, ast.TemplateIf)
    assert [p.text for p in branch.then] == ["yes"]  # type: ignore[union-attr]
    assert branch.otherwise is not None and [p.text for p in branch.otherwise] == ["no"]  # type: ignore[union-attr]
    assert src(text, branch) == "%{ if a }yes%{ else }no%{ endif }"
    assert isinstance(bar, ast.TemplateText) and bar.text == "|"
    assert isinstance(loop, ast.TemplateFor)
    assert (loop.key_var, loop.value_var) == ("k", "v")
    assert len(loop.body) == 4


def test_nested_string_inside_interpolation() -> None:
    node, _ = value('"${"inner ${x}"}"')
    assert isinstance(node, ast.Template)
    inner = node.parts[0]
    assert isinstance(inner, ast.Interpolation) and isinstance(inner.expr, ast.Template)


def test_heredoc_keeps_final_newline_and_interpolates() -> None:
    text = 'a = <<EOH\n{{ key "x" }}\nport ${NOMAD_PORT_http}\nEOH\n'
    node = parse_ok(text).body.items[0].value  # type: ignore[union-attr]
    assert isinstance(node, ast.Template) and node.heredoc == "EOH" and not node.flush
    head, interp, tail = node.parts
    assert head.text == '{{ key "x" }}\nport '  # type: ignore[union-attr]
    assert isinstance(interp, ast.Interpolation)
    assert tail.text == "\n"  # type: ignore[union-attr]
    assert src(text, node) == text[4:-1]


def test_flush_heredoc_strips_common_indentation_and_allows_indented_marker() -> None:
    text = "a = <<-EOF\n    one\n      two\n    EOF\n"
    node = parse_ok(text).body.items[0].value  # type: ignore[union-attr]
    assert isinstance(node, ast.Template) and node.flush
    assert "".join(p.text for p in node.parts) == "one\n  two\n"  # type: ignore[union-attr]


def test_heredoc_marker_with_trailing_spaces_and_empty_heredoc() -> None:
    tree = parse_ok("a = <<EOF\nx\nEOF   \nb = <<EOF\nEOF\n")
    first, second = tree.body.items
    assert [p.text for p in first.value.parts] == ["x\n"]  # type: ignore[union-attr]
    assert second.value.parts == []  # type: ignore[union-attr]


def test_tuples_objects_and_trailing_commas() -> None:
    node, text = value('[1, "two", [3,],\n]')
    assert isinstance(node, ast.Tuple) and len(node.items) == 3
    assert src(text, node.items[2]) == "[3,]"
    obj, text = value('{\n  a = 1,\n  "b": 2\n  (c) = 3\n  d.e = 4,\n}')
    assert isinstance(obj, ast.Object)
    keys = [src(text, item.key) for item in obj.items]
    assert keys == ["a", '"b"', "(c)", "d.e"]
    assert src(text, obj.items[1]) == '"b": 2'


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        ("1 + 2 * 3", ("+", 1, ("*", 2, 3))),
        ("1 * 2 + 3", ("+", ("*", 1, 2), 3)),
        ("1 - 2 - 3", ("-", ("-", 1, 2), 3)),
        ("a || b && c", ("||", "a", ("&&", "b", "c"))),
        ("a == b && c != d", ("&&", ("==", "a", "b"), ("!=", "c", "d"))),
        ("a < b == c >= d", ("==", ("<", "a", "b"), (">=", "c", "d"))),
        ("a + b > c % d", (">", ("+", "a", "b"), ("%", "c", "d"))),
        ("!a && -b", ("&&", ("!", "a"), ("-", "b"))),
    ],
)
def test_operator_precedence(text: str, shape: object) -> None:
    def walk(node: Any) -> object:
        if isinstance(node, ast.BinaryOp):
            return (node.op, walk(node.left), walk(node.right))
        if isinstance(node, ast.UnaryOp):
            return (node.op, walk(node.operand))
        if isinstance(node, ast.Variable):
            return node.name
        assert isinstance(node, ast.Literal)
        return node.value

    node, whole = value(text)
    assert walk(node) == shape
    assert src(whole, node) == text


def test_conditional_is_right_associative_and_spans_lines() -> None:
    node, text = value("(\n  a\n  ? b\n  : c ? d : e\n)")
    assert isinstance(node, ast.Parens)
    cond = node.expr
    assert isinstance(cond, ast.Conditional)
    assert isinstance(cond.false, ast.Conditional)
    assert src(text, cond) == "a\n  ? b\n  : c ? d : e"


def test_multi_line_operators_in_a_body() -> None:
    tree = parse_ok("a = b &&\n  c\nd = x\n  || y\n")
    first, second = tree.body.items
    assert isinstance(first.value, ast.BinaryOp) and first.value.op == "&&"  # type: ignore[union-attr]
    assert isinstance(second.value, ast.BinaryOp) and second.value.op == "||"  # type: ignore[union-attr]


def test_function_calls_with_expansion_and_provider_names() -> None:
    node, text = value('format(\n  "%s-%d",\n  var.a,\n  list...\n)')
    assert isinstance(node, ast.FunctionCall)
    assert node.name == "format" and node.expand_final and len(node.args) == 3
    assert text[node.name_span.start : node.name_span.end] == "format"
    node, _ = value('provider::aws::arn("x")')
    assert isinstance(node, ast.FunctionCall) and node.name == "provider::aws::arn"


def test_traversals_indexes_and_splats() -> None:
    node, text = value("a.b[0].c.*.d[*].e.1")
    assert isinstance(node, ast.Traversal)
    kinds = [type(step).__name__ for step in node.steps]
    assert kinds == ["GetAttr", "Index", "GetAttr", "Splat", "GetAttr", "Splat", "GetAttr", "LegacyIndex"]
    assert [src(text, step) for step in node.steps] == [".b", "[0]", ".c", ".*", ".d", "[*]", ".e", ".1"]
    assert [step.full for step in node.steps if isinstance(step, ast.Splat)] == [False, True]


def test_for_expressions() -> None:
    node, text = value("[for i, x in xs : x * 2 if x > 0]")
    assert isinstance(node, ast.ForExpr)
    assert (node.key_var, node.value_var, node.key) == ("i", "x", None)
    assert src(text, node.condition) == "x > 0"
    node, text = value("{\n  for k, v in m :\n  k => v...\n  if v != null\n}")
    assert isinstance(node, ast.ForExpr)
    assert node.grouping and src(text, node.key) == "k"  # type: ignore[arg-type]
    assert src(text, node.condition) == "v != null"


def test_keywords_are_names_outside_for_expressions() -> None:
    tree = parse_ok("for = 1\nin = 2\nif = 3\nx = { for = 1, if = 2 }\n")
    assert [item.name for item in tree.body.items] == ["for", "in", "if", "x"]  # type: ignore[union-attr]


def test_comments_everywhere_and_attached() -> None:
    text = (
        "# leading\n"
        "a = /* inline */ 1 // trailing\n"
        "b = [\n  1, # inside\n  /* c */ 2\n]\n"
        'job "x" { # opener\n  // inner\n  c = 3\n}\n'
    )
    tree = parse_ok(text)
    a, b, job = tree.body.items
    assert [c.text for c in a.leading] == ["# leading"]
    assert a.trailing is not None and a.trailing.text == "// trailing"
    assert isinstance(a.value, ast.Literal) and a.value.value == 1
    assert isinstance(b.value, ast.Tuple) and len(b.value.items) == 2
    assert isinstance(job, ast.Block)
    inner = job.body.items[0]
    assert [c.text for c in inner.leading] == ["# opener", "// inner"]
    assert len(tree.comments) == 7


def test_crlf_and_no_final_newline() -> None:
    tree = parse_ok('job "x" {\r\n  a = 1\r\n}')
    assert isinstance(tree.body.items[0], ast.Block)


def test_unicode_columns_are_code_points() -> None:
    from hclgpu.source import SourceFile

    text = 'a = "héllo 😀"\nb = 1\n'
    tree = parse_ok(text)
    b = tree.body.items[1]
    position = SourceFile("x", text).position(b.span.start)
    assert (position.line, position.column) == (2, 1)
    assert SourceFile("x", text).position(text.index("😀")).column == 12


def test_a_label_may_hold_escaped_template_openers() -> None:
    """Labels are plain quoted strings: `${` must be written `$${` (HCL: "To include a literal
    `$`, double it"), and the label's value is the text with the escape undone."""
    tree = parse_ok('group "$${x} %%{y}" {\n  a = "$${z}"\n}\n')
    block = tree.body.items[0]
    assert isinstance(block, ast.Block)
    assert [label.value for label in block.labels] == ["${x} %{y}"]
