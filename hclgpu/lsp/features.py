"""The requests the server answers, each from the document's current analysis.

A request about a document the client never opened (or has closed) gets an empty answer:
the server knows only the text it was given, and never reads a file for a request.
"""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from hclgpu.lsp.analysis import Analysis

Current = Callable[[str], Analysis | None]


def register(server: LanguageServer, current: Current) -> None:
    _register_tokens(server)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: types.HoverParams) -> types.Hover | None:
        from hclgpu.lsp.hover import hover as answer

        analysis = current(params.text_document.uri)
        return None if analysis is None else answer(analysis, params.position)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=['"', ".", "{", "$", "/"]),
    )
    def completion(ls: LanguageServer, params: types.CompletionParams) -> types.CompletionList:
        from hclgpu.lsp.completion import Client, complete
        from hclgpu.lsp.documents import opened

        uri = params.text_document.uri
        document = opened(ls, uri)
        if document is None:
            return types.CompletionList(is_incomplete=False, items=[])
        client = Client.of(ls.client_capabilities)
        items = complete(document.source, params.position, client, lambda: current(uri))
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: LanguageServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        from hclgpu.lsp.actions import formatting as answer

        analysis = current(params.text_document.uri)
        return None if analysis is None else answer(analysis)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: LanguageServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        from hclgpu.lsp.navigation import symbols as answer

        analysis = current(params.text_document.uri)
        return [] if analysis is None else answer(analysis)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: LanguageServer, params: types.DefinitionParams) -> list[types.Location]:
        from hclgpu.lsp.navigation import definition as answer

        analysis = current(params.text_document.uri)
        return [] if analysis is None else answer(analysis, params.position)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    def references(ls: LanguageServer, params: types.ReferenceParams) -> list[types.Location]:
        from hclgpu.lsp.navigation import find_references

        analysis = current(params.text_document.uri)
        if analysis is None:
            return []
        return find_references(analysis, params.position, params.context.include_declaration)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, "source.fixAll.hclgpu"]),
    )
    def code_action(ls: LanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        from hclgpu.lsp.actions import code_actions

        analysis = current(params.text_document.uri)
        only = [str(kind) for kind in params.context.only] if params.context.only else None
        return [] if analysis is None else code_actions(analysis, params.range, only)


def _register_tokens(server: LanguageServer) -> None:
    """Semantic tokens, whole or as a delta from the last result, from the document's text
    (no analysis needed: the lexer alone colours the file)."""
    from hclgpu.lsp.semantic import LEGEND, Results

    results = Results()

    def text_of(ls: LanguageServer, uri: str) -> str | None:
        from hclgpu.lsp.documents import opened

        document = opened(ls, uri)
        if document is None:
            results.forget(uri)
        return None if document is None else document.source

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    def tokens(ls: LanguageServer, params: types.SemanticTokensParams) -> types.SemanticTokens:
        text = text_of(ls, params.text_document.uri)
        return types.SemanticTokens(data=[]) if text is None else results.full(params.text_document.uri, text)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA)
    def tokens_delta(
        ls: LanguageServer, params: types.SemanticTokensDeltaParams
    ) -> types.SemanticTokens | types.SemanticTokensDelta:
        uri = params.text_document.uri
        text = text_of(ls, uri)
        if text is None:
            return types.SemanticTokens(data=[])
        return results.delta(uri, text, params.previous_result_id)
