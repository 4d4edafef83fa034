"""`hclgpu lsp` driven over stdio by pytest-lsp: the real server process, the real protocol.

One server per module (starting one costs ~0.3 s); each test opens its own document URI.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import ROOT

SERVER = [sys.executable, "-m", "hclgpu", "lsp", "--debounce-ms", "5"]

JOB = """variable "gpus" {
  type    = number
  default = 2
}

locals {
  image = "nvcr.io/nvidia/pytorch:24.05-py3"
}

job "train" {
  type = "batch"
  group "trainer" {
    task "torchrun" {
      driver = "docker"
      config {
        image = local.image
      }
      resources {
        memory = 4096
        device "nvidia/gpu" {
          count = var.gpus
          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "16130 MiB"
          }
        }
      }
    }
  }
}
"""


async def start_session(
    client: LanguageClient, root: Path, editor: str = "neovim", options: dict[str, Any] | None = None
) -> None:
    """Initialize ``client``'s session as ``editor`` would, in the workspace ``root``, with
    ``options`` as the ``initializationOptions``; the client accepts the server's watching of
    configuration files (``client/registerCapability``), as editors do, and keeps the server's
    answer as ``client.initialized``."""
    registered = client.registered = []  # type: ignore[attr-defined]
    publishes = client.publishes = Publishes()  # type: ignore[attr-defined]
    features = client.protocol.fm.features
    keep = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]  # pytest-lsp's: client.diagnostics

    def publish(params: types.PublishDiagnosticsParams) -> None:
        keep(params)
        publishes.record(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = publish

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        registered.extend(params.registrations)

    client.initialized = await client.initialize_session(  # type: ignore[attr-defined]
        types.InitializeParams(
            capabilities=pytest_lsp.client_capabilities(editor),
            root_uri=root.as_uri(),
            initialization_options=options,
        )
    )


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient) -> object:
    await start_session(lsp_client, ROOT, "visual-studio-code")
    yield
    await lsp_client.shutdown_session()


def uri(name: str) -> str:
    return (ROOT / "tests" / "lsp-documents" / name).as_uri()


async def open_document(client: LanguageClient, name: str, text: str, version: int = 1) -> str:
    document = uri(name)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=document, language_id="hcl", version=version, text=text)
        )
    )
    await published(client, document, version)
    return document


class Publishes:
    """Every ``publishDiagnostics`` the client received, in order, and how far the tests have
    read them. pytest-lsp's ``wait_for_notification`` sees only a notification that comes
    after it is called: two that arrive together, while a test handles the first, would lose
    the second, and the test would wait for ever."""

    def __init__(self) -> None:
        self.received: list[types.PublishDiagnosticsParams] = []
        self.read = 0
        self.arrived = asyncio.Event()

    def record(self, params: types.PublishDiagnosticsParams) -> None:
        self.received.append(params)
        self.arrived.set()

    async def next(self) -> types.PublishDiagnosticsParams:
        """The first publish not read yet, waiting for one if there is none."""
        while self.read == len(self.received):
            self.arrived.clear()
            await self.arrived.wait()
        self.read += 1
        return self.received[self.read - 1]


def next_publish(client: LanguageClient) -> Awaitable[types.PublishDiagnosticsParams]:
    publishes: Publishes = client.publishes  # type: ignore[attr-defined]
    return publishes.next()


async def published(client: LanguageClient, document: str, version: int) -> list[types.Diagnostic]:
    """Wait for the publish of ``version`` of ``document`` (others may come first)."""
    while True:
        params = await next_publish(client)
        if params.uri == document and params.version == version:
            return list(params.diagnostics)


def change(client: LanguageClient, document: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=document, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def at(text: str, needle: str, delta: int = 0) -> types.Position:
    """The LSP position of ``needle`` (plus ``delta`` characters) in ASCII ``text``."""
    offset = text.index(needle) + delta
    line = text.count("\n", 0, offset)
    return types.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


# --------------------------------------------------------------------------- diagnostics


@pytest.mark.asyncio(loop_scope="module")
async def test_a_clean_job_publishes_no_diagnostics(client: LanguageClient) -> None:
    document = uri("clean.nomad.hcl")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=document, language_id="hcl", version=1, text=JOB)
        )
    )
    assert await published(client, document, 1) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_an_error_appears_and_disappears_as_the_text_changes(client: LanguageClient) -> None:
    document = await open_document(client, "edit.nomad.hcl", JOB)
    broken = JOB.replace('operator  = ">="', 'operator  = ">=>"')
    change(client, document, 2, broken)
    (diagnostic,) = await published(client, document, 2)
    assert (diagnostic.code, diagnostic.severity) == ("HG220", types.DiagnosticSeverity.Error)
    assert diagnostic.range.start == at(broken, '">=>"')
    assert diagnostic.range.end == at(broken, '">=>"', len('">=>"'))
    change(client, document, 3, JOB)
    assert await published(client, document, 3) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_a_syntax_error_has_its_exact_range(client: LanguageClient) -> None:
    text = 'job "x" {\n  type = \n}\n'
    document = uri("syntax.nomad.hcl")
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=document, language_id="hcl", version=1, text=text)
        )
    )
    (diagnostic, *_) = await published(client, document, 1)
    assert diagnostic.source == "hclgpu" and diagnostic.code.startswith("HG0")
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.range.start.line in (1, 2)


@pytest.mark.asyncio(loop_scope="module")
async def test_ranges_count_utf16_units_after_non_ascii_text(client: LanguageClient) -> None:
    """`é` is one UTF-16 unit, `🚀` two: the error after them starts 2 + 1 units further than
    the 2 code points before it would say."""
    text = 'job "x" {\n  group "é🚀" { coutn = 1 }\n}\n'
    document = await open_document(client, "utf16.nomad.hcl", text)
    (diagnostic,) = list(client.diagnostics[document])
    assert diagnostic.code == "HG101"
    code_points = len('  group "é🚀" { ')  # code points before `coutn`
    assert diagnostic.range.start == types.Position(line=1, character=code_points + 1)
    assert diagnostic.range.end == types.Position(line=1, character=code_points + 1 + len("coutn"))


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostics_follow_the_edits_in_order_and_the_last_is_published(
    client: LanguageClient,
) -> None:
    """Three quick edits: diagnostics are published in version order and the last one is
    always published. Which earlier versions are also published depends on when the edits
    reach the server relative to its debounce, which a loaded machine shifts, so the test
    asserts the order, not a count that depends on time."""
    document = await open_document(client, "stale.nomad.hcl", JOB)
    seen: list[int | None] = []
    for version, text in ((2, JOB.replace("4096", "-1")), (3, JOB.replace("4096", "-2")), (4, JOB)):
        change(client, document, version, text)
    while True:
        params = await next_publish(client)
        if params.uri == document:
            seen.append(params.version)
            if params.version == 4:
                break
    assert seen == sorted(set(seen)) and seen[-1] == 4, seen
    assert list(client.diagnostics[document]) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_close_clears_the_diagnostics(client: LanguageClient) -> None:
    document = await open_document(client, "close.nomad.hcl", JOB.replace("4096", "-1"))
    assert list(client.diagnostics[document])
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=document))
    )
    params = await next_publish(client)
    while params.uri != document or params.version is not None:  # a close's has no version
        params = await next_publish(client)
    assert list(params.diagnostics) == []


# --------------------------------------------------------------------------- hover


async def hover_text(client: LanguageClient, document: str, position: types.Position) -> str:
    found = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=document), position=position)
    )
    assert found is not None
    assert isinstance(found.contents, types.MarkupContent)
    return found.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_documents_blocks_arguments_units_and_values(client: LanguageClient) -> None:
    document = await open_document(client, "hover.nomad.hcl", JOB)
    block = await hover_text(client, document, at(JOB, 'device "nvidia/gpu"', 2))
    assert "block `device`" in block and "Arguments: `count`" in block
    argument = await hover_text(client, document, at(JOB, "count = var.gpus", 1))
    assert "`count`" in argument and "API field `Count`" in argument
    unit = await hover_text(client, document, at(JOB, "16130 MiB", 3))
    assert "`16130 MiB` = 15.75 GiB" in unit and "16130 MiB = 16913530880 bytes" in unit
    value = await hover_text(client, document, at(JOB, "var.gpus", 5))
    assert value == "`var.gpus` = `2`"
    local = await hover_text(client, document, at(JOB, "local.image", 7))
    assert local == '`local.image` = `"nvcr.io/nvidia/pytorch:24.05-py3"`'


DOUBLING_LOCALS = (
    'locals {\n  l0 = ["x", "x"]\n'
    + "".join(f"  l{i} = [local.l{i - 1}, local.l{i - 1}]\n" for i in range(1, 31))
    + '  all = local.l30\n}\njob "j" {\n  meta = { a = "x" }\n}\n'
)
"""``local.l30`` stands for 2^31 strings in 31 shared lists."""


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_value_of_billions_of_shared_elements_answers_at_once(
    client: LanguageClient,
) -> None:
    document = await open_document(client, "hover-shared.nomad.hcl", DOUBLING_LOCALS)
    found = await asyncio.wait_for(
        hover_text(client, document, at(DOUBLING_LOCALS, "local.l30", 7)), timeout=10
    )
    assert found == "`local.l30` = `(a value too large to show)`"
    small = await hover_text(client, document, at(DOUBLING_LOCALS, "local.l1]", 7))
    assert small == '`local.l1` = `[["x", "x"], ["x", "x"]]`'


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_diagnostic_explains_its_code(client: LanguageClient) -> None:
    text = JOB.replace('operator  = ">="', 'operator  = "=>"')
    document = await open_document(client, "hover-code.nomad.hcl", text)
    explained = await hover_text(client, document, at(text, '"=>"', 1))
    assert explained.startswith("**HG220** `unknown-operator`")


# --------------------------------------------------------------------------- completion


async def labels(client: LanguageClient, document: str, position: types.Position) -> list[str]:
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=document), position=position)
    )
    assert isinstance(found, types.CompletionList)
    return [item.label for item in found.items]


@pytest.mark.parametrize(
    ("edit", "cursor", "expected", "absent"),
    [
        (('    task "torchrun" {', '    t\n    task "torchrun" {'), "    t\n", ["task", "count", "network"],
         ["image"]),
        (('operator  = ">="', 'operator  = "'), 'operator  = "', [">=", "version", "regexp", "is_set"], []),
        (('driver = "docker"', 'driver = "'), 'driver = "', ["docker", "exec", "raw_exec"], []),
        (('device "nvidia/gpu"', 'device "nv'), 'device "nv', ["nvidia/gpu", "nvidia/gpu/Tesla T4"], []),
        (('attribute = "${device.attr.memory}"', 'attribute = "${device.'), 'attribute = "${device.',
         ["${device.attr.memory}", "${device.model}", "${device.attr.memory_clock}"],
         ["${attr.kernel.name}", "${node.class}", "${device.attr.cuda_cores}"]),
        (("count = var.gpus", "count = var."), "count = var.", ["gpus"], []),
        (("image = local.image", "image = local."), "image = local.", ["image"], ["gpus"]),
    ],
)  # fmt: skip
@pytest.mark.asyncio(loop_scope="module")
async def test_completion_offers_what_is_valid_at_the_cursor(
    client: LanguageClient, edit: tuple[str, str], cursor: str, expected: list[str], absent: list[str]
) -> None:
    """The file is mid-edit (it does not parse): completion still knows the blocks around."""
    text = JOB.replace(*edit)
    document = await open_document(client, f"complete-{abs(hash(cursor))}.nomad.hcl", text)
    found = await labels(client, document, at(text, cursor, len(cursor.rstrip("\n"))))
    assert set(expected) <= set(found), found
    assert not set(absent) & set(found)


# --------------------------------------------------------------------------- formatting and symbols


@pytest.mark.asyncio(loop_scope="module")
async def test_formatting_uses_the_fmt_layout(client: LanguageClient) -> None:
    text = 'job "x" {\ntype="batch"\n  group "g" {\n  count=2\n  }\n}\n'
    document = await open_document(client, "format.nomad.hcl", text)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=document),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert edits is not None and len(edits) == 1
    assert edits[0].new_text == 'job "x" {\n  type = "batch"\n  group "g" {\n    count = 2\n  }\n}\n'
    assert edits[0].range.start == types.Position(line=0, character=0)


@pytest.mark.asyncio(loop_scope="module")
async def test_formatting_leaves_a_file_with_a_syntax_error_alone(client: LanguageClient) -> None:
    document = await open_document(client, "format-bad.nomad.hcl", 'job "x" {\ntype = \n')
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=document),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert not edits


@pytest.mark.asyncio(loop_scope="module")
async def test_document_symbols_outline_job_groups_tasks_devices(client: LanguageClient) -> None:
    document = await open_document(client, "symbols.nomad.hcl", JOB)
    found = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=document))
    )
    assert found is not None

    def outline(items: list[types.DocumentSymbol]) -> list[object]:
        return [(s.detail, s.name, outline(s.children or [])) for s in items]

    assert outline(found) == [  # type: ignore[arg-type]
        ("variable", "gpus", []),
        ("locals", "locals", []),
        (
            "job",
            "train",
            [
                (
                    "group",
                    "trainer",
                    [("task", "torchrun", [("resources", "resources", [("device", "nvidia/gpu", [])])])],
                )
            ],
        ),
    ]


# --------------------------------------------------------------------------- definition and references


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_and_references_of_variables_and_locals(client: LanguageClient) -> None:
    text = JOB.replace("memory = 4096", "memory = var.gpus * 2048")
    document = await open_document(client, "navigate.nomad.hcl", text)
    identifier = types.TextDocumentIdentifier(uri=document)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=identifier, position=at(text, "var.gpus", 5))
    )
    assert isinstance(found, list) and len(found) == 1
    assert found[0].range.start == at(text, '"gpus"')
    local = await client.text_document_definition_async(
        types.DefinitionParams(text_document=identifier, position=at(text, "local.image", 8))
    )
    assert isinstance(local, list) and local[0].range.start == at(text, 'image = "nvcr')
    uses = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=identifier,
            position=at(text, '"gpus"', 2),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert uses is not None
    starts = [u.range.start for u in uses]
    assert starts == [at(text, '"gpus"'), at(text, "var.gpus * 2048"), at(text, "var.gpus\n")]


# --------------------------------------------------------------------------- quick fixes


async def fixes(client: LanguageClient, document: str, text: str, needle: str) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=document),
            range=types.Range(start=at(text, needle), end=at(text, needle, len(needle))),
            context=types.CodeActionContext(diagnostics=list(client.diagnostics[document])),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


def applied(text: str, action: types.CodeAction) -> str:
    """The text with the action's edits made (last first, so earlier offsets hold)."""
    assert action.edit is not None and action.edit.changes is not None
    (edits,) = action.edit.changes.values()
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = starts[edit.range.start.line] + edit.range.start.character
        end = starts[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


@pytest.mark.parametrize(
    ("broken", "needle", "fixed"),
    [
        (JOB.replace('type = "batch"', 'typ = "batch"'), 'typ = "batch"', JOB),
        (JOB.replace("resources {", "resorces {"), "resorces", JOB),
        (JOB.replace("count = var.gpus", "count = var.gpu"), "var.gpu", JOB),
        (JOB.replace("memory = 4096", "memory = maxx(4096, 1)"), "maxx",
         JOB.replace("memory = 4096", "memory = max(4096, 1)")),
        (JOB.replace('operator  = ">="', 'operator  = "versoin"'), "versoin",
         JOB.replace('operator  = ">="', 'operator  = "version"')),
        (JOB.replace("${device.attr.memory}", "${device.attr.memroy}"), "memroy", JOB),
    ],
)  # fmt: skip
@pytest.mark.asyncio(loop_scope="module")
async def test_did_you_mean_is_a_quick_fix(
    client: LanguageClient, broken: str, needle: str, fixed: str
) -> None:
    document = await open_document(client, f"fix-{abs(hash(broken))}.nomad.hcl", broken)
    (action,) = await fixes(client, document, broken, needle)
    assert action.kind == types.CodeActionKind.QuickFix
    assert applied(broken, action) == fixed


@pytest.mark.asyncio(loop_scope="module")
async def test_weight_and_target_spacing_fixes(client: LanguageClient) -> None:
    text = (
        JOB.replace("constraint {", "affinity {")
        .replace('value     = "16130 MiB"', 'value     = "16130 MiB"\n            weight    = 200')
        .replace('"${device.attr.memory}"', '"${ device.attr.memory }"')
    )
    document = await open_document(client, "fix-weight.nomad.hcl", text)
    (clamp,) = await fixes(client, document, text, "200")
    assert "weight    = 100" in applied(text, clamp)
    (spaces,) = await fixes(client, document, text, "${ device.attr.memory }")
    assert 'attribute = "${device.attr.memory}"' in applied(text, spaces)


PORT_MAP = """job "web" {
  group "g" {
    network {
      port "http" {}
    }
    task "t" {
      driver = "docker"
      config {
        image = "nginx"
        port_map {
          http = 8080
        }
      }
    }
  }
}
"""


@pytest.mark.asyncio(loop_scope="module")
async def test_port_map_is_rewritten_to_group_ports(client: LanguageClient) -> None:
    document = await open_document(client, "fix-port-map.nomad.hcl", PORT_MAP)
    (action,) = await fixes(client, document, PORT_MAP, "port_map")
    rewritten = applied(PORT_MAP, action)
    assert 'ports = ["http"]' in rewritten and "port_map" not in rewritten
    assert 'port "http" {\n        to = 8080\n      }' in rewritten
    change(client, document, 2, rewritten)
    assert [d.code for d in await published(client, document, 2)] == []


# --------------------------------------------------------------------------- documents never opened


@pytest.mark.asyncio(loop_scope="module")
async def test_requests_for_documents_never_opened_are_answered_empty(client: LanguageClient) -> None:
    """The server answers from what the client opened, never from disk: a URI it was never
    given (a job on disk, a missing file; /dev/zero would never end) gets an empty answer,
    not the file's analysis nor an internal error."""
    on_disk = ROOT / "samples" / "tensorrt.nomad.hcl"
    for document in (on_disk.as_uri(), uri("never-opened.nomad.hcl")):
        ident = types.TextDocumentIdentifier(uri=document)
        start = types.Position(line=4, character=1)
        assert (
            await client.text_document_hover_async(types.HoverParams(text_document=ident, position=start))
            is None
        )
        completion = await client.text_document_completion_async(
            types.CompletionParams(text_document=ident, position=start)
        )
        assert isinstance(completion, types.CompletionList) and tuple(completion.items) == ()
        formatting = await client.text_document_formatting_async(
            types.DocumentFormattingParams(text_document=ident, options=types.FormattingOptions(2, True))
        )
        assert formatting is None
        symbols = types.DocumentSymbolParams(text_document=ident)
        assert tuple(await client.text_document_document_symbol_async(symbols)) == ()
        where = types.DefinitionParams(text_document=ident, position=start)
        assert tuple(await client.text_document_definition_async(where)) == ()
        context = types.ReferenceContext(include_declaration=True)
        references = types.ReferenceParams(text_document=ident, position=start, context=context)
        assert tuple(await client.text_document_references_async(references)) == ()
        whole = types.Range(start=types.Position(0, 0), end=types.Position(1000, 0))
        actions = types.CodeActionParams(ident, whole, types.CodeActionContext(diagnostics=[]))
        assert tuple(await client.text_document_code_action_async(actions)) == ()


# --------------------------------------------------------------------------- debounce

SLOW = [sys.executable, "-m", "hclgpu", "lsp", "--debounce-ms", "1500"]


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SLOW))
async def slow_client(lsp_client: LanguageClient) -> object:
    """A server with a long debounce, so that waiting for it is measurable."""
    await start_session(lsp_client, ROOT)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_quiet_edit_is_analysed_at_once_and_a_burst_waits_for_a_pause(
    slow_client: LanguageClient,
) -> None:
    document = await open_document(slow_client, "quiet.nomad.hcl", JOB)
    started = time.monotonic()
    change(slow_client, document, 2, JOB.replace("4096", "5"))  # one error: below Nomad's 10 MB
    assert len(await published(slow_client, document, 2)) == 1
    # the debounce is a contract in time, so time it is, but as a bound the debounce sets, not
    # a speed: published at once, so before the 1.5 s a debounced analysis would wait
    assert time.monotonic() - started < 1.45
    started = time.monotonic()
    change(slow_client, document, 3, JOB.replace("4096", "-2"))  # right after the last edit
    change(slow_client, document, 4, JOB)
    assert await published(slow_client, document, 4) == []
    assert time.monotonic() - started >= 1.4
