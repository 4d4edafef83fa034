"""`hclgpu lsp` with policies: findings published at the lines their paths name, policies from
initializationOptions (relative to the workspace root) or from the nearest configuration, and
a policy that does not compile shown on the document with its own place."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import ROOT
from tests.test_lsp import SERVER, published, start_session

WORKSPACE = ROOT / "tests" / "data" / "lsp_policies"
JOB = (ROOT / "tests" / "data" / "policies" / "train.nomad.hcl").read_text()


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient) -> object:
    await start_session(lsp_client, WORKSPACE, options={"policy": ["policies"]})
    yield
    await lsp_client.shutdown_session()


async def opened(client: LanguageClient, name: str, text: str, version: int = 1) -> list[types.Diagnostic]:
    document = (WORKSPACE / name).as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=document, language_id="hcl", version=version, text=text)
        )
    )
    return await published(client, document, version)


def where(diagnostic: types.Diagnostic) -> tuple[str, int, int, int]:
    """(code, line, start character, end character), 0-based as LSP counts."""
    start, end = diagnostic.range.start, diagnostic.range.end
    return (str(diagnostic.code), start.line, start.character, end.character)


@pytest.mark.asyncio(loop_scope="module")
async def test_policy_findings_are_published_where_their_paths_point(client: LanguageClient) -> None:
    diagnostics = await opened(client, "train.nomad.hcl", JOB)
    assert [where(d) for d in diagnostics] == [("HG402", 0, 0, 11), ("HG401", 13, 16, 47)]
    assert diagnostics[1].message == "`main.violation`: image docker.io/someone/trainer:1.0 is not ours"
    assert diagnostics[1].severity == types.DiagnosticSeverity.Error


@pytest.mark.asyncio(loop_scope="module")
async def test_an_edit_is_checked_against_the_same_policies(client: LanguageClient) -> None:
    fixed = JOB.replace("docker.io/someone/trainer:1.0", "registry.example.com/trainer:1.0")
    diagnostics = await opened(client, "fixed.nomad.hcl", fixed)
    assert [where(d) for d in diagnostics] == [("HG402", 0, 0, 11)]


@pytest.mark.asyncio(loop_scope="module")
async def test_the_nearest_configuration_names_other_policies(client: LanguageClient) -> None:
    """initializationOptions win over the configuration; here the options name policies, so
    the `broken/` folder's own hclgpu.toml (a policy that does not compile) is not used."""
    diagnostics = await opened(client, "broken/train.nomad.hcl", JOB)
    assert [where(d)[0] for d in diagnostics] == ["HG402", "HG401"]


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def plain_client(lsp_client: LanguageClient) -> object:
    await start_session(lsp_client, WORKSPACE)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_a_policy_that_does_not_compile_is_shown_on_the_document(plain_client: LanguageClient) -> None:
    diagnostics = await opened(plain_client, "broken/train.nomad.hcl", JOB)
    assert [where(d) for d in diagnostics] == [("HG410", 0, 0, 0)]
    place, _, message = diagnostics[0].message.partition(": ")
    assert place.endswith("lsp_policies/broken/policies/bad.rego:6:7")  # relative to the server's directory
    assert message == "Invalid assignment operator"
