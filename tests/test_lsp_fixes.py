"""The editor's fixes over the real server: a quick fix is preferred only when it is safe,
and `source.fixAll.hclgpu` applies every safe fix at once, as one round of `check --fix`."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import ROOT
from tests.test_fixes import JOB, SAFE
from tests.test_lsp import SERVER, applied, fixes, open_document, start_session


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient) -> object:
    await start_session(lsp_client, ROOT)
    yield
    await lsp_client.shutdown_session()


async def _actions(client: LanguageClient, document: str, only: list[str] | None) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=document),
            range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


@pytest.mark.asyncio(loop_scope="module")
async def test_fix_all_applies_the_safe_fixes_when_asked(client: LanguageClient) -> None:
    document = await open_document(client, "fix-all.nomad.hcl", JOB)
    assert await _actions(client, document, None) == []  # not offered unasked
    (fix_all,) = await _actions(client, document, ["source.fixAll"])
    assert fix_all.kind == "source.fixAll.hclgpu" and fix_all.title == "hclgpu: fix all safe problems (1)"
    assert applied(JOB, fix_all) == SAFE


@pytest.mark.asyncio(loop_scope="module")
async def test_only_a_safe_quick_fix_is_preferred(client: LanguageClient) -> None:
    document = await open_document(client, "preferred.nomad.hcl", JOB)
    (spaces,) = await fixes(client, document, JOB, "${ device.model }")
    (unit,) = await fixes(client, document, JOB, "4 GIb")
    assert spaces.is_preferred is True and unit.is_preferred is False
    assert unit.title == 'HG215: replace with `"4 GiB"`'
