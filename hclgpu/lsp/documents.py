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
from dataclasses import dataclass, field
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from hclgpu.lsp.analysis import Analysis, analyse
from hclgpu.lsp.convert import lsp_diagnostics


@dataclass(slots=True)
class State:
    """One server's documents: settings, the newest analysis per URI and the analyses waiting."""

    command_line: dict[str, object]
    """The settings ``hclgpu lsp`` was given as flags."""
    debounce: float
    root: str | None = None
    initialization: dict[str, object] = field(default_factory=dict)
    """The settings of the client's ``initializationOptions``."""
    workspace: dict[str, object] = field(default_factory=dict)
    """The settings of the client's `hclgpu` workspace configuration (pushed or pulled)."""
    configured: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once the workspace settings were asked for (or cannot be): no document is
    analysed with settings about to change."""
    generation: int = 0
    """Counts the changes of the settings and of the configuration files: an analysis made
    before the newest is not used again."""
    pushes: int = 0
    """Counts the workspace settings the client pushed (a pull's answer older than a push is
    dropped)."""
    analyses: dict[str, Analysis] = field(default_factory=dict)
    pending: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    running: dict[str, asyncio.Future[Analysis]] = field(default_factory=dict)
    """The analysis of each document under way in a worker thread: one at a time, since a
    thread cannot be stopped and stale analyses side by side only slow the newest down."""
    last_change: dict[str, float] = field(default_factory=dict)
    """When each document last changed (event-loop time), to tell a burst from a quiet edit."""
    watching: str | None = None
    """The glob pattern the client was asked to watch (None: not asked), so that settings
    naming other variable files ask again, and the same ones do not."""


def register(server: LanguageServer, state: State) -> None:
    """The document-sync notifications: open, change, save and close (the settings' are
    :mod:`hclgpu.lsp.configuration`'s)."""

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


def schedule(ls: LanguageServer, state: State, uri: str, delay: float) -> None:
    """Analyse ``uri`` after ``delay`` seconds, replacing any analysis still waiting."""
    previous = state.pending.pop(uri, None)
    if previous is not None:
        previous.cancel()
    state.pending[uri] = asyncio.ensure_future(_analyse_later(ls, state, uri, delay))


async def _analyse_later(ls: LanguageServer, state: State, uri: str, delay: float) -> None:
    if delay > 0:
        await asyncio.sleep(delay)
    await state.configured.wait()
    while (running := state.running.get(uri)) is not None:
        await asyncio.wait([running])  # the stale one ends; cancelling this task leaves it be
    document = opened(ls, uri)
    if document is None:
        return  # closed meanwhile
    text, version, generation = document.source, document.version, state.generation
    loop = asyncio.get_running_loop()
    path = to_fs_path(uri) or uri
    work = loop.run_in_executor(None, analyse, uri, path, text, version, given(state), state.root)
    state.running[uri] = work
    work.add_done_callback(lambda _: state.running.pop(uri, None) if state.running.get(uri) is work else None)
    analysis = await asyncio.shield(work)
    analysis.generation = generation
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
    fresh = found is not None and found.generation == state.generation
    if found is not None and fresh and found.version == document.version and found.text == document.source:
        return found
    path = to_fs_path(uri) or uri
    generation = state.generation
    found = analyse(uri, path, document.source, document.version, given(state), state.root)
    found.generation = generation
    state.analyses[uri] = found
    return found


def given(state: State) -> dict[str, object]:
    """The settings every document gets: the editor's over ``hclgpu lsp``'s flags, as a
    command line's are over the configuration."""
    from hclgpu.settings.resolve import layered

    return layered(state.command_line, state.initialization, state.workspace)


def analyse_again(ls: LanguageServer, state: State) -> None:
    """Every open document analysed again: the settings, a configuration file or a variable
    file changed."""
    state.generation += 1
    for uri in list(ls.workspace.text_documents):
        schedule(ls, state, uri, 0.0)
