"""Semantic tokens over the real server: exact tokens for a job, UTF-16 columns, heredocs cut
per line, a broken file coloured up to its error, and a delta that rebuilds the full data."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.conftest import ROOT
from tests.test_lsp import SERVER, open_document, start_session


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient) -> object:
    await start_session(lsp_client, ROOT)
    yield
    await lsp_client.shutdown_session()


def decoded(
    client: LanguageClient, text: str, data: list[int] | tuple[int, ...]
) -> list[tuple[str, str, bool]]:
    """(the token's text, its type, declaration) for each token of ``data``; columns and
    lengths in UTF-16 units, as the server sends them."""
    names = ["keyword", "property", "string", "number", "comment", "operator", "variable", "function"]
    lines = text.split("\n")
    out = []
    line = column = 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, modifiers = data[i : i + 5]
        line += delta_line
        column = column + delta_start if delta_line == 0 else delta_start
        units = lines[line].encode("utf-16-le")
        piece = units[column * 2 : (column + length) * 2].decode("utf-16-le")
        out.append((piece, names[kind], bool(modifiers & 1)))
    return out


JOB = 'job "web" { # ok\n  count = 2\n  x = "é ${var.b}"\n  f = upper("q")\n  h = <<EOF\nhi\nthere\nEOF\n}\n'


async def _full(client: LanguageClient, document: str) -> types.SemanticTokens:
    found = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=document))
    )
    assert isinstance(found, types.SemanticTokens)
    return found


@pytest.mark.asyncio(loop_scope="module")
async def test_the_legend_is_advertised_with_deltas(client: LanguageClient) -> None:
    provider = client.initialized.capabilities.semantic_tokens_provider  # type: ignore[attr-defined]
    assert list(provider.legend.token_types[:3]) == ["keyword", "property", "string"]
    assert provider.full == types.SemanticTokensFullDelta(delta=True)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_job_is_coloured_token_by_token(client: LanguageClient) -> None:
    document = await open_document(client, "tokens.nomad.hcl", JOB)
    tokens = decoded(client, JOB, (await _full(client, document)).data)
    assert tokens == [
        ("job", "keyword", False),
        ('"web"', "string", True),
        ("# ok", "comment", False),
        ("count", "property", False),
        ("=", "operator", False),
        ("2", "number", False),
        ("x", "property", False),
        ("=", "operator", False),
        ('"', "string", False),
        ("é ", "string", False),  # UTF-16 columns after a non-ASCII letter
        ("${", "operator", False),
        ("var", "variable", False),
        ("b", "property", False),
        ("}", "operator", False),
        ('"', "string", False),
        ("f", "property", False),
        ("=", "operator", False),
        ("upper", "function", False),
        ('"q"', "string", False),
        ("h", "property", False),
        ("=", "operator", False),
        ("<<EOF", "string", False),  # the heredoc, one token per line
        ("hi", "string", False),
        ("there", "string", False),
        ("EOF", "string", False),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_broken_file_is_coloured_up_to_its_error(client: LanguageClient) -> None:
    text = 'job "web" {\n  count = 2\n  bad = "unclosed\n'
    document = await open_document(client, "tokens-broken.nomad.hcl", text)
    tokens = decoded(client, text, (await _full(client, document)).data)
    assert tokens[:5] == [
        ("job", "keyword", False),
        ('"web"', "string", True),
        ("count", "property", False),
        ("=", "operator", False),
        ("2", "number", False),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_a_delta_rebuilds_the_new_tokens(client: LanguageClient) -> None:
    document = await open_document(client, "tokens-delta.nomad.hcl", JOB)
    first = await _full(client, document)
    changed = JOB.replace("count = 2", "count = 12")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=document, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=changed)],
        )
    )
    found = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(
            text_document=types.TextDocumentIdentifier(uri=document), previous_result_id=first.result_id or ""
        )
    )
    assert isinstance(found, types.SemanticTokensDelta) and found.result_id != first.result_id
    data = list(first.data)
    for edit in sorted(found.edits, key=lambda e: e.start, reverse=True):
        data[edit.start : edit.start + edit.delete_count] = edit.data or []
    assert ("12", "number", False) in decoded(client, changed, data)
    stale = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(
            text_document=types.TextDocumentIdentifier(uri=document), previous_result_id="unknown"
        )
    )
    assert isinstance(stale, types.SemanticTokens) and list(stale.data) == data  # the whole, afresh


def test_for_in_and_if_are_keywords_in_expressions_and_directives() -> None:
    from hclgpu.lsp.semantic import TYPES, pieces

    text = 'x = [for a in b : a if a]\ny = "%{ for v in l }${v}%{ endfor }"\n'
    keywords = [text[p.start : p.end] for p in pieces(text) if TYPES[p.type] == "keyword"]
    assert keywords == ["for", "in", "if", "%{ for", "in", "%{ endfor"]
