"""Completion over the real server (pytest-lsp, stdio), as two editors ask for it: VS Code
(insert/replace edits, snippets, markdown) and Emacs (plain edits, no snippets). Each test
applies the chosen item's edits to the text and asserts the resulting line exactly: an item
must replace what was typed, never repeat it, and leave a valid target behind."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import ROOT
from tests.test_lsp import JOB, SERVER, at, open_document, start_session

MEMORY = 'attribute = "${device.attr.memory}"'


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def vscode(lsp_client: LanguageClient) -> object:
    """A client with insertReplaceSupport, snippetSupport and markdown documentation."""
    await start_session(lsp_client, ROOT, "visual-studio-code")
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def emacs(lsp_client: LanguageClient) -> object:
    """A client with none of them: plain TextEdits, plain text, documentation as a string."""
    await start_session(lsp_client, ROOT, "emacs")
    yield
    await lsp_client.shutdown_session()


async def completions(client: LanguageClient, name: str, text: str) -> tuple[str, list[types.CompletionItem]]:
    """The items at the `|` in ``text``, and the text without it."""
    cursor = text.index("|")
    text = text.replace("|", "", 1)
    document = await open_document(client, name, text)
    line_start = text.rfind("\n", 0, cursor) + 1
    units = sum(2 if ord(c) > 0xFFFF else 1 for c in text[line_start:cursor])
    position = types.Position(line=text.count("\n", 0, cursor), character=units)
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=document), position=position)
    )
    assert isinstance(found, types.CompletionList)
    return text, list(found.items)


def item(items: list[types.CompletionItem], label: str) -> types.CompletionItem:
    found = [i for i in items if i.label == label]
    assert len(found) == 1, [i.label for i in items]
    return found[0]


def offset(text: str, position: types.Position) -> int:
    """The code-point offset of an LSP position (columns in UTF-16 code units)."""
    start = sum(len(line) + 1 for line in text.split("\n")[: position.line])
    units = 0
    column = 0
    line = text.split("\n")[position.line]
    while units < position.character:
        units += 2 if ord(line[column]) > 0xFFFF else 1
        column += 1
    return start + column


def applied(text: str, chosen: types.CompletionItem, mode: str = "replace") -> str:
    """The text after the client applies ``chosen``: its main edit (for an insert/replace edit,
    the range ``mode`` says) and its additional edits, last first."""
    edit = chosen.text_edit
    assert edit is not None
    if isinstance(edit, types.InsertReplaceEdit):
        main = edit.replace if mode == "replace" else edit.insert
    else:
        main = edit.range
    edits = [(main, edit.new_text)] + [(e.range, e.new_text) for e in chosen.additional_text_edits or []]
    for where, new in sorted(edits, key=lambda e: (e[0].start.line, e[0].start.character), reverse=True):
        text = text[: offset(text, where.start)] + new + text[offset(text, where.end) :]
    return text


def line_of(text: str, needle: str) -> str:
    return next(line.strip() for line in text.splitlines() if needle in line)


TYPED = ['"${device.attr.mem|', '"${device.attr.mem|"', '"${device.attr.mem|}"', '"${device.attr.mem|}']
"""`${device.attr.mem` typed with nothing, a quote, a brace and a quote, or a brace after it."""


@pytest.mark.parametrize("typed", TYPED)
@pytest.mark.parametrize("mode", ["insert", "replace"])
@pytest.mark.asyncio(loop_scope="module")
async def test_a_device_attribute_is_written_once_with_insert_replace_edits(
    vscode: LanguageClient, typed: str, mode: str
) -> None:
    text, items = await completions(
        vscode, f"attr-{mode}-{TYPED.index(typed)}.nomad.hcl", JOB.replace('"${device.attr.memory}"', typed)
    )
    memory = item(items, "${device.attr.memory}")
    assert isinstance(memory.text_edit, types.InsertReplaceEdit)
    assert memory.filter_text == "${device.attr.memory}"
    assert line_of(applied(text, memory, mode), "attribute") == MEMORY
    clock = item(items, "${device.attr.memory_clock}")
    assert line_of(applied(text, clock, mode), "attribute") == 'attribute = "${device.attr.memory_clock}"'


@pytest.mark.parametrize("typed", TYPED)
@pytest.mark.asyncio(loop_scope="module")
async def test_a_device_attribute_is_written_once_with_plain_edits(emacs: LanguageClient, typed: str) -> None:
    text, items = await completions(
        emacs, f"attr-plain-{TYPED.index(typed)}.nomad.hcl", JOB.replace('"${device.attr.memory}"', typed)
    )
    memory = item(items, "${device.attr.memory}")
    assert isinstance(memory.text_edit, types.TextEdit)
    assert memory.text_edit.range.start == at(text, '"${device.attr.mem', 1)
    assert memory.text_edit.range.end == at(text, '"${device.attr.mem', len('"${device.attr.mem'))
    assert line_of(applied(text, memory), "attribute") == MEMORY


@pytest.mark.asyncio(loop_scope="module")
async def test_ranges_count_utf16_code_units(vscode: LanguageClient) -> None:
    """The 🚀 before the target is two UTF-16 units: the edit must start after it, not inside."""
    typed = JOB.replace(MEMORY, '/* 🚀 */ attribute = "${device.attr.mem|')
    text, items = await completions(vscode, "attr-utf16.nomad.hcl", typed)
    memory = item(items, "${device.attr.memory}")
    assert line_of(applied(text, memory), "attribute") == "/* 🚀 */ " + MEMORY


@pytest.mark.parametrize("client_name", ["vscode", "emacs"])
@pytest.mark.asyncio(loop_scope="module")
async def test_a_device_model_does_not_repeat_the_typed_vendor_and_type(
    client_name: str, request: pytest.FixtureRequest
) -> None:
    client: LanguageClient = request.getfixturevalue(client_name)
    for number, typed in enumerate(('device "nvidia/gpu/|" {', 'device "nvidia/gpu/| {')):
        name = f"model-{client_name}-{number}.nomad.hcl"
        text, items = await completions(client, name, JOB.replace('device "nvidia/gpu" {', typed))
        model = item(items, "nvidia/gpu/NVIDIA A100-SXM4-40GB")
        assert model.filter_text == "nvidia/gpu/NVIDIA A100-SXM4-40GB"
        assert line_of(applied(text, model), "device") == 'device "nvidia/gpu/NVIDIA A100-SXM4-40GB" {'


@pytest.mark.asyncio(loop_scope="module")
async def test_a_device_constraint_offers_only_the_targets_the_checker_accepts(
    vscode: LanguageClient,
) -> None:
    _, items = await completions(vscode, "targets-device.nomad.hcl", JOB.replace(MEMORY, 'attribute = "${|'))
    labels = [i.label for i in items]
    assert labels[:4] == ["${device.ids}", "${device.model}", "${device.vendor}", "${device.type}"]
    assert all(label.startswith("${device.") for label in labels), labels
    assert not [label for label in labels if label.startswith(("${attr.", "${node.", "${meta."))]
    assert "${device.attr.memory_clock}" in labels
    assert "${device.attr.cuda_cores}" not in labels and "${device.attr.memory_bandwidth}" not in labels
    clock = item(items, "${device.attr.memory_clock}")
    assert isinstance(clock.documentation, types.MarkupContent)
    assert clock.documentation.kind == types.MarkupKind.Markdown and "MHz" in clock.documentation.value


@pytest.mark.asyncio(loop_scope="module")
async def test_a_task_constraint_offers_node_targets_and_no_device_target(vscode: LanguageClient) -> None:
    typed = JOB.replace('      driver = "docker"\n', '      driver = "docker"\n      constraint {\n'
                        '        attribute = "${|"\n      }\n')  # fmt: skip
    text, items = await completions(vscode, "targets-node.nomad.hcl", typed)
    labels = [i.label for i in items]
    assert "${node.datacenter}" in labels and "${attr.kernel.name}" in labels
    assert not [label for label in labels if label.startswith("${device.")]
    assert "${meta.}" not in labels
    chosen = applied(text, item(items, "${node.datacenter}"))
    assert line_of(chosen, "attribute = ") == 'attribute = "${node.datacenter}"'


@pytest.mark.asyncio(loop_scope="module")
async def test_a_device_constraint_offers_the_operators_the_checker_accepts_there(
    vscode: LanguageClient,
) -> None:
    typed = JOB.replace('operator  = ">="', 'operator  = "|"')
    text, items = await completions(vscode, "operators-device.nomad.hcl", typed)
    labels = [i.label for i in items]
    assert ">=" in labels and "version" in labels and "is_set" in labels
    assert "distinct_hosts" not in labels and "distinct_property" not in labels
    assert line_of(applied(text, item(items, "version")), "operator") == 'operator  = "version"'


LOCALS = """locals {
  image = "nvcr.io/nvidia/pytorch:24.05-py3"
  ports = {
    http    = 8080
    metrics = 9090
  }
}
"""


LOCAL_REFERENCES = ["image = local.|", "image = local.im|", 'image = "${local.|}"']


@pytest.mark.parametrize("typed", LOCAL_REFERENCES)
@pytest.mark.asyncio(loop_scope="module")
async def test_local_offers_local_names_never_a_maps_keys(vscode: LanguageClient, typed: str) -> None:
    """Mid-edit (`local.` does not parse) and in a file that parses (`local.im`), the names
    are the locals, not `http` and `metrics`, keys of the map `ports`."""
    source = JOB.replace('locals {\n  image = "nvcr.io/nvidia/pytorch:24.05-py3"\n}\n', LOCALS)
    name = f"locals-{LOCAL_REFERENCES.index(typed)}.nomad.hcl"
    text, items = await completions(vscode, name, source.replace("image = local.image", typed))
    assert [i.label for i in items] == ["image", "ports"]
    written = line_of(applied(text, item(items, "image")), "local.")
    assert written == ('image = "${local.image}"' if "$" in typed else "image = local.image")


@pytest.mark.asyncio(loop_scope="module")
async def test_var_offers_the_declared_variables(emacs: LanguageClient) -> None:
    _, items = await completions(emacs, "vars.nomad.hcl", JOB.replace("count = var.gpus", "count = var.|"))
    assert [i.label for i in items] == ["gpus"]


BLOCK_LINE = "          count = var.gpus\n"


@pytest.mark.asyncio(loop_scope="module")
async def test_a_block_is_a_snippet_where_the_client_takes_snippets(vscode: LanguageClient) -> None:
    text, items = await completions(
        vscode, "snippet.nomad.hcl", JOB.replace(BLOCK_LINE, BLOCK_LINE + "          con|\n")
    )
    constraint = item(items, "constraint")
    assert constraint.insert_text_format == types.InsertTextFormat.Snippet
    assert constraint.insert_text_mode == types.InsertTextMode.AsIs
    assert constraint.text_edit is not None
    assert constraint.text_edit.new_text == (
        'constraint {\n            attribute = "$1"\n            value     = "$2"\n          }'
    )
    assert constraint.filter_text == "constraint"
    assert '          count = var.gpus\n          constraint {\n            attribute = "$1"' in applied(
        text, constraint
    )
    count = item(items, "count")
    assert count.text_edit is not None and count.text_edit.new_text == "count = "
    assert isinstance(count.documentation, types.MarkupContent) and "`count`" in count.documentation.value


@pytest.mark.asyncio(loop_scope="module")
async def test_a_block_is_its_name_where_the_client_takes_no_snippets(emacs: LanguageClient) -> None:
    text, items = await completions(
        emacs, "no-snippet.nomad.hcl", JOB.replace(BLOCK_LINE, BLOCK_LINE + "          con|\n")
    )
    constraint = item(items, "constraint")
    assert constraint.insert_text_format == types.InsertTextFormat.PlainText
    assert BLOCK_LINE + "          constraint\n" in applied(text, constraint)
    assert isinstance(constraint.documentation, str) and "`" not in constraint.documentation
