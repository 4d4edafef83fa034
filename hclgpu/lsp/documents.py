"""Document state: what the client opened, the newest analysis of each document, and the
debounced analysis that follows each change.

A change after a quiet spell is analysed at once (the edit a user makes and then looks at);
a change that follows another within ``debounce``, or arrives while one is being analysed,
waits for a short pause, so a burst of typing costs one more analysis, not one per key. A
newer change cancels a waiting analysis, and a result is published only if its version is
still the document's, so an editor never shows diagnostics for text that is gone.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from hclgpu.lsp.analysis import Analysis, Settings, analyse
from hclgpu.lsp.convert import lsp_diagnostics


@dataclass(slots=True)
class State:
    """One server's documents: settings, the newest analysis per URI and the analyses waiting."""

    settings: Settings
    debounce: float
    root: str | None = None
    analyses: dict[str, Analysis] = field(default_factory=dict)
    pending: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    last_change: dict[str, float] = field(default_factory=dict)
    """When each document last changed (event-loop time), to tell a burst from a quiet edit."""


def register(server: LanguageServer, state: State) -> None:
    """The document-sync notifications: open, change, save and close."""

    @server.feature(types.INITIALIZE)
    def initialize(ls: LanguageServer, params: types.InitializeParams) -> None:
        state.root = to_fs_path(params.root_uri) if params.root_uri else None
        _read_options(state, params.initialization_options)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        schedule(ls, state, params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        now = asyncio.get_running_loop().time()
        quiet = now - state.last_change.get(uri, float("-inf")) >= state.debounce and uri not in state.pending
        state.last_change[uri] = now
        schedule(ls, state, uri, 0.0 if quiet else state.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        schedule(ls, state, params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = state.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        state.analyses.pop(uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def _read_options(state: State, options: Any) -> None:
    """``initializationOptions``: ``{"varFiles": [...], "vars": ["k=v"], "allowFs": false,
    "policy": ["policies"], "policyNamespaces": ["main"], "policyAllNamespaces": false,
    "policyTimeout": 10}``; relative variable files and policy directories are found from the
    workspace root. A time limit that is not a number above 0 is ignored."""
    if not isinstance(options, dict):
        return
    files = _paths(state, options.get("varFiles"))
    policy = _paths(state, options.get("policy"))
    namespaces = [str(n) for n in options.get("policyNamespaces") or [] if isinstance(n, str)]
    state.settings = Settings(
        var_files=[*state.settings.var_files, *files],
        variables=[*state.settings.variables, *(str(v) for v in options.get("vars") or [])],
        allow_fs=bool(options.get("allowFs", state.settings.allow_fs)),
        policy=[*state.settings.policy, *policy],
        policy_namespaces=[*state.settings.policy_namespaces, *namespaces],
        all_namespaces=bool(options.get("policyAllNamespaces", state.settings.all_namespaces)),
        policy_timeout=_timeout(options.get("policyTimeout")) or state.settings.policy_timeout,
    )


def _timeout(value: Any) -> float | None:
    """A number (not a boolean) usable as a time limit, or None."""
    from hclgpu.cli.policy import is_time_limit

    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if is_time_limit(value) else None


def _paths(state: State, value: Any) -> list[str]:
    """A list of paths from the client, relative ones from the workspace root."""
    if isinstance(value, str):
        value = [value]
    paths = [str(f) for f in value or [] if isinstance(f, str)]
    if state.root:
        paths = [f if os.path.isabs(f) else os.path.join(state.root, f) for f in paths]
    return paths


def schedule(ls: LanguageServer, state: State, uri: str, delay: float) -> None:
    """Analyse ``uri`` after ``delay`` seconds, replacing any analysis still waiting."""
    previous = state.pending.pop(uri, None)
    if previous is not None:
        previous.cancel()
    state.pending[uri] = asyncio.ensure_future(_analyse_later(ls, state, uri, delay))


async def _analyse_later(ls: LanguageServer, state: State, uri: str, delay: float) -> None:
    if delay > 0:
        await asyncio.sleep(delay)
    document = opened(ls, uri)
    if document is None:
        return  # closed meanwhile
    text, version = document.source, document.version
    loop = asyncio.get_running_loop()
    path = to_fs_path(uri) or uri
    analysis = await loop.run_in_executor(None, analyse, uri, path, text, version, state.settings)
    now = opened(ls, uri)
    if now is None or now.version != version:
        return  # closed, or a newer change is on its way: never publish for text that is gone
    state.analyses[uri] = analysis
    state.pending.pop(uri, None)
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=lsp_diagnostics(analysis))
    )


def opened(ls: LanguageServer, uri: str) -> TextDocument | None:
    """The document the client opened as ``uri``, or None. pygls would read any other URI
    from disk, whole: a FIFO or ``/dev/zero`` would never end and a missing file would be an
    internal error; the server answers only for text it was given."""
    documents: dict[str, TextDocument] = ls.workspace.text_documents
    return documents.get(unquote(uri))  # pygls keys its documents so


def current(ls: LanguageServer, state: State, uri: str) -> Analysis | None:
    """The analysis of the document as it is now (made now if the newest one is older);
    None for a document the client has not opened."""
    document = opened(ls, uri)
    if document is None:
        return None
    found = state.analyses.get(uri)
    if found is not None and found.version == document.version and found.text == document.source:
        return found
    path = to_fs_path(uri) or uri
    found = analyse(uri, path, document.source, document.version, state.settings)
    state.analyses[uri] = found
    return found
