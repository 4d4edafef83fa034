"""The language server: the document state of :mod:`hclgpu.lsp.documents` and the requests
of :mod:`hclgpu.lsp.features`, wired to one pygls server.

Requests (hover, completion...) use the newest analysis when it matches the document, and
analyse afresh when it does not.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from hclgpu import __version__
from hclgpu.lsp import configuration, documents, features


def create_server(given: dict[str, object] | None = None, debounce: float = 0.01) -> LanguageServer:
    """A server ready for ``start_io()``; ``given`` are the settings of the command line
    (``hclgpu lsp --var-file ... --nomad-version ...``), by attribute."""
    server = LanguageServer(
        "hclgpu", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental
    )
    state = documents.State(dict(given or {}), debounce)
    documents.register(server, state)
    configuration.register(server, state)
    features.register(server, lambda uri: documents.current(server, state, uri))
    return server


def serve(given: dict[str, object] | None = None, debounce: float = 0.01) -> None:
    """Run over stdio until the client says exit."""
    create_server(given, debounce).start_io()
