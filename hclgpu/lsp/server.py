"""The language server: the document state of :mod:`hclgpu.lsp.documents` and the requests
of :mod:`hclgpu.lsp.features`, wired to one pygls server, read from stdin by our own loop.

Requests (hover, completion...) use the newest analysis when it matches the document, and
analyse afresh when it does not. pygls' own stdio loop is not used: one bad frame puts it
out of step with the stream for good (see :mod:`hclgpu.lsp.framing`), and it drops what it
cannot read unanswered (see :mod:`hclgpu.lsp.protocol`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from collections.abc import Callable
from typing import BinaryIO

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from hclgpu import __version__
from hclgpu.lsp import configuration, documents, features
from hclgpu.lsp.framing import Framer, Problem
from hclgpu.lsp.protocol import Protocol

logger = logging.getLogger(__name__)

CHUNK = 64 * 1024
"""The most bytes read from stdin at a time."""
QUEUED = 4
"""Chunks read ahead of the server: a client that writes faster than it is served waits."""


def create_server(given: dict[str, object] | None = None, debounce: float = 0.01) -> LanguageServer:
    """A server ready for :func:`serve_stdio`; ``given`` are the settings of the command line
    (``hclgpu lsp --var-file ... --nomad-version ...``), by attribute."""
    server = LanguageServer(
        "hclgpu",
        __version__,
        text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        protocol_cls=Protocol,
    )
    state = documents.State(dict(given or {}), debounce)
    documents.register(server, state)
    configuration.register(server, state)
    features.register(server, lambda uri: documents.current(server, state, uri))
    return server


def serve(given: dict[str, object] | None = None, debounce: float = 0.01) -> int:
    """Run over stdio until the client says exit; the exit status (LSP: 0 after
    ``shutdown``, 1 without)."""
    return serve_stdio(create_server(given, debounce), sys.stdin.buffer, sys.stdout.buffer)


def serve_stdio(server: LanguageServer, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Serve the client at the other end of ``stdin``/``stdout``; the exit status."""
    protocol = server.protocol
    assert isinstance(protocol, Protocol), "create_server() makes the server"
    protocol.set_writer(StdoutWriter(stdout))
    return asyncio.run(_serve(protocol, stdin))


async def _serve(protocol: Protocol, stdin: BinaryIO) -> int:
    """Feed each message the client sends to ``protocol`` until ``exit`` or the end of input."""
    reader = _Reader(stdin, asyncio.get_running_loop())
    framer = Framer()
    while chunk := await reader.next():
        for frame in framer.feed(chunk):
            if isinstance(frame, Problem):
                logger.warning("hclgpu lsp: %s", frame.reason)
            elif (status := _receive(protocol, frame)) is not None:
                return status
    return 0 if protocol.shut_down else 1  # the client went away: an exit it did not say


def _receive(protocol: Protocol, body: bytes) -> int | None:
    """Handle one message; the exit status once it was ``exit``."""
    try:
        protocol.receive(body)
    except SystemExit as stop:  # pygls' `exit` handler
        return stop.code if isinstance(stop.code, int) else 1
    except BrokenPipeError:  # the client is gone: nothing can be answered any more
        raise
    except Exception:  # a bug in one message's handling must not end the session
        logger.exception("hclgpu lsp: a message could not be handled")
    return None


def _raw_reader(stdin: BinaryIO) -> Callable[[int], bytes]:
    """``read(n)``: up to ``n`` bytes as soon as any are there, ``b""`` at the end."""
    try:
        descriptor = stdin.fileno()
    except (OSError, ValueError):  # not a file (a test's BytesIO): read it as it is
        return getattr(stdin, "read1", stdin.read)
    return lambda size: os.read(descriptor, size)


class _Reader:
    """stdin's bytes for the event loop, read on a daemon thread: a read that blocks must
    never keep the process from exiting, as asyncio's executor threads would. The thread
    reads the file descriptor, never ``sys.stdin.buffer``: a daemon thread blocked inside a
    buffered reader holds its lock, and Python aborts when it closes the reader at exit.
    At most ``QUEUED`` chunks wait, so a client that writes faster than it is served waits."""

    def __init__(self, stdin: BinaryIO, loop: asyncio.AbstractEventLoop) -> None:
        self._read = _raw_reader(stdin)
        self._loop = loop
        self._chunks: asyncio.Queue[bytes] = asyncio.Queue()
        self._room = threading.Semaphore(QUEUED)
        threading.Thread(target=self._pump, name="hclgpu-lsp-stdin", daemon=True).start()

    async def next(self) -> bytes:
        """The next chunk; ``b""`` at the end of input."""
        chunk = await self._chunks.get()
        self._room.release()
        return chunk

    def _pump(self) -> None:
        chunk = b"-"
        while chunk:
            self._room.acquire()
            try:
                chunk = self._read(CHUNK)
            except (OSError, ValueError):  # closed under us: the end of input
                chunk = b""
            try:
                self._loop.call_soon_threadsafe(self._chunks.put_nowait, chunk)
            except RuntimeError:  # the event loop has ended
                return
