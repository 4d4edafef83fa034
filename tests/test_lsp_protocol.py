"""`hclgpu lsp` against a hostile or broken client: malformed frames, bodies that are not
JSON-RPC, parameters no handler can use, and the shutdown/exit handshake.

pytest-lsp's client frames every message correctly, so these tests speak raw bytes to the
real server process. Every wait has a deadline: a server that goes silent fails the test
instead of hanging the suite.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from hclgpu.lsp.framing import Framer, Problem
from tests.conftest import ROOT

SERVER = [sys.executable, "-m", "hclgpu", "lsp", "--debounce-ms", "5"]
TIMEOUT = 10.0
"""Seconds a test waits for an answer; far above what any answer here takes."""
URI = (ROOT / "tests" / "lsp-documents" / "protocol.nomad.hcl").as_uri()
TEXT = 'job "x" {\n  group "g" {\n    task "t" {\n      driver = "docker"\n    }\n  }\n}\n'

Message = dict[str, Any]
INITIALIZE = {"processId": None, "rootUri": None, "capabilities": {}}
"""A client that can do nothing more than ask: the server asks it nothing back."""


def frame(body: bytes | Message, header: bytes | None = None) -> bytes:
    """``body`` (a message, or raw bytes) behind ``header``, by default the right one."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return (header if header is not None else b"Content-Length: %d\r\n\r\n" % len(data)) + data


def request(msg_id: int, method: str, params: Any = None) -> Message:
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}


def notification(method: str, params: Any = None) -> Message:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def _read_frames(stream: IO[bytes], into: queue.Queue[Message | None]) -> None:
    """The server's messages as they come; None once its stdout ends."""
    while True:
        length = None
        while (line := stream.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if not line or length is None:
            into.put(None)
            return
        into.put(json.loads(stream.read(length)))


class Server:
    """The real server process, spoken to in raw bytes."""

    def __init__(self, stderr: Path) -> None:
        self.errors = stderr
        self.process = subprocess.Popen(
            SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr.open("wb")
        )
        self.messages: queue.Queue[Message | None] = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=_read_frames, args=(self.process.stdout, self.messages), daemon=True).start()

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def answer(self, msg_id: int | None) -> Message:
        """The response to ``msg_id`` (None: a response with ``"id": null``); the server's
        notifications and other responses before it are passed over."""
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                pytest.fail(f"no answer to id {msg_id} in {TIMEOUT} s; stderr:\n{self.stderr()}")
            if message is None:
                pytest.fail(f"the server closed its output before answering {msg_id}:\n{self.stderr()}")
            if "method" not in message and "id" in message and message["id"] == msg_id:
                return message

    def ask(self, msg_id: int, method: str, params: Any = None) -> Message:
        self.send(frame(request(msg_id, method, params)))
        return self.answer(msg_id)

    def initialize(self) -> None:
        self.ask(0, "initialize", INITIALIZE)
        self.send(frame(notification("initialized", {})))
        document = {"uri": URI, "languageId": "hcl", "version": 1, "text": TEXT}
        self.send(frame(notification("textDocument/didOpen", {"textDocument": document})))

    def exit_code(self) -> int:
        try:
            return self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the server did not exit in {TIMEOUT} s; stderr:\n{self.stderr()}")

    def stderr(self) -> str:
        return self.errors.read_text(errors="replace")[-4000:]

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server, initialized, with the document ``URI`` open."""
    started = Server(tmp_path / "stderr.txt")
    try:
        started.initialize()
        yield started
    finally:
        started.close()


def symbols(msg_id: int) -> bytes:
    """A request every working server answers with a result (the outline of ``URI``)."""
    return frame(request(msg_id, "textDocument/documentSymbol", {"textDocument": {"uri": URI}}))


def assert_alive(server: Server, msg_id: int = 77) -> None:
    """The server still answers, in sync with the stream."""
    server.send(symbols(msg_id))
    assert "result" in server.answer(msg_id)


# --------------------------------------------------------------------------- framing

JUNK = json.dumps(notification("$/junk")).encode()
"""A message body, to follow a header that is not its own."""
HEADER = b"Content-Length: %d\r\n\r\n" % len(JUNK)

BROKEN_HEADERS = {
    "not-a-number": b"Content-Length: abc\r\n\r\n" + JUNK,
    "negative": b"Content-Length: -5\r\n\r\n" + JUNK,
    "missing": b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + JUNK,
    "no-header-at-all": JUNK,
    "not-a-header": b"hello\r\n" + HEADER + JUNK,
    "beyond-the-limit": b"Content-Length: 68719476736\r\n\r\n" + JUNK,
    "thousands-of-digits": b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n" + JUNK,
    "header-line-too-long": b"X-Padding: " + b"a" * 200_000 + b"\r\n" + HEADER + JUNK,
    "overstated-length": b"Content-Length: 4096\r\n\r\n" + JUNK,
    "garbage": bytes(range(256)) * 64,
}


@pytest.mark.parametrize("broken", BROKEN_HEADERS.values(), ids=BROKEN_HEADERS.keys())
def test_a_broken_header_is_skipped_and_the_next_message_answered(server: Server, broken: bytes) -> None:
    """One bad frame must not cost the session: the server finds the next valid header."""
    server.send(broken + symbols(7))
    assert "result" in server.answer(7)
    assert_alive(server)


def test_every_message_is_answered_after_a_run_of_broken_frames(server: Server) -> None:
    server.send(b"".join(BROKEN_HEADERS.values()) + symbols(7))
    assert "result" in server.answer(7)
    assert_alive(server)


def bodies(frames: list[bytes | Problem]) -> list[bytes]:
    return [frame for frame in frames if isinstance(frame, bytes)]


def test_the_framer_finds_the_same_messages_however_the_stream_is_split() -> None:
    """A pipe delivers bytes in any pieces: a header or body split anywhere reads the same."""
    messages = [json.dumps(request(n, "shutdown")).encode() for n in range(3)]
    stream = frame(messages[0]) + b"".join(BROKEN_HEADERS.values()) + frame(messages[1]) + frame(messages[2])
    whole = Framer(max_header=1024).feed(stream)
    framer = Framer(max_header=1024)
    piecewise = [found for at in range(len(stream)) for found in framer.feed(stream[at : at + 1])]
    assert bodies(whole) == bodies(piecewise)
    assert [body for body in bodies(whole) if body in messages] == messages


def test_a_length_over_the_limit_is_refused_unread() -> None:
    """The refused body streams past: what is held stays under the header limit and one read."""
    framer = Framer(max_body=1000, max_header=64)
    assert [type(found) for found in framer.feed(b"Content-Length: 1001\r\n\r\n")] == [Problem]
    for _ in range(256):
        assert framer.feed(b"x" * 4096) == []
        assert framer.pending <= 64 + 4096
    assert framer.feed(frame(JUNK)) == [JUNK]


NOT_JSON = {
    "cut-short": b"Content-Length: 10\r\n\r\n" + frame(request(5, "shutdown")).split(b"\r\n\r\n")[1],
    "not-json": frame(b"hello"),
    "not-utf-8": frame(b'{"id": "\xff\xfe"}'),
    "empty-object-cut": frame(b"{"),
    "nested-too-deep": frame(b"[" * 100_000),
}


@pytest.mark.parametrize("broken", NOT_JSON.values(), ids=NOT_JSON.keys())
def test_a_body_that_is_not_json_is_a_parse_error(server: Server, broken: bytes) -> None:
    """JSON-RPC 2.0: a body that does not parse is answered with -32700 and ``"id": null``."""
    server.send(broken)
    error = server.answer(None)["error"]
    assert error["code"] == -32700 and error["message"]
    assert_alive(server)


NOT_A_REQUEST = {
    "array": (b"[]", None),
    "batch": (b'[{"jsonrpc": "2.0", "id": 3, "method": "shutdown"}]', None),
    "string": (b'"shutdown"', None),
    "no-method-no-id": (b'{"jsonrpc": "2.0"}', None),
    "id-an-object": (b'{"jsonrpc": "2.0", "id": {}, "method": "shutdown"}', None),
    "method-a-number": (b'{"jsonrpc": "2.0", "id": 3, "method": 12}', 3),
    "version-missing": (b'{"id": 3, "method": "shutdown"}', 3),
}


@pytest.mark.parametrize(("body", "msg_id"), NOT_A_REQUEST.values(), ids=NOT_A_REQUEST.keys())
def test_json_that_is_not_a_request_is_an_invalid_request(server: Server, body: bytes, msg_id: int) -> None:
    """-32600, with the request's id where it has a usable one, else ``null``."""
    server.send(frame(body))
    error = server.answer(msg_id)["error"]
    assert error["code"] == -32600 and error["message"]
    assert_alive(server)


# --------------------------------------------------------------------------- parameters

DOCUMENT = {"uri": URI}
NOWHERE = {"uri": (ROOT / "tests" / "lsp-documents" / "never-opened.nomad.hcl").as_uri()}
CONTEXT = {"diagnostics": []}
FAR = {"line": 100_000, "character": 100_000}
ZERO = {"line": 0, "character": 0}

INVALID_PARAMS: list[tuple[str, Any]] = [
    *((method, None) for method in ("hover", "completion", "definition", "references")),
    *((method, None) for method in ("codeAction", "documentSymbol", "formatting")),
    ("hover", {"textDocument": DOCUMENT, "position": {"line": -1, "character": 0}}),
    ("hover", {"textDocument": DOCUMENT, "position": {"line": "x", "character": 0}}),
    ("completion", {"textDocument": DOCUMENT, "position": {"line": 0, "character": -3}}),
    ("definition", {"textDocument": DOCUMENT, "position": {"line": 2**40, "character": 0}}),
    ("definition", {"textDocument": DOCUMENT}),
    ("hover", []),
    ("hover", "file:///x"),
    ("codeAction", {"textDocument": DOCUMENT, "range": {"start": ZERO, "end": None}, "context": CONTEXT}),
]


def test_parameters_no_handler_can_use_are_invalid_params(server: Server) -> None:
    """Each request is answered: -32602 and a message saying what is wrong, never silence."""
    for msg_id, (method, params) in enumerate(INVALID_PARAMS, start=100):
        error = server.ask(msg_id, f"textDocument/{method}", params).get("error")
        assert error is not None and error["code"] == -32602, (method, params, error)
        assert error["message"], (method, params)
    assert_alive(server)


ANSWERED: list[tuple[str, Any]] = [
    ("hover", {"textDocument": DOCUMENT, "position": FAR}),
    ("hover", {"textDocument": DOCUMENT, "position": {"line": 0, "character": 100_000}}),
    ("completion", {"textDocument": DOCUMENT, "position": FAR}),
    ("definition", {"textDocument": DOCUMENT, "position": FAR}),
    ("references", {"textDocument": DOCUMENT, "position": FAR, "context": {"includeDeclaration": True}}),
    ("codeAction", {"textDocument": DOCUMENT, "range": {"start": FAR, "end": ZERO}, "context": CONTEXT}),
    ("hover", {"textDocument": NOWHERE, "position": ZERO}),
    ("formatting", {"textDocument": NOWHERE, "options": {"tabSize": 2, "insertSpaces": True}}),
    ("documentSymbol", {"textDocument": {"uri": "not a uri"}}),
]


def test_positions_past_the_end_and_unknown_documents_get_a_result(server: Server) -> None:
    """A position beyond the text is clamped to it, a document never opened has an empty answer."""
    for msg_id, (method, params) in enumerate(ANSWERED, start=200):
        answer = server.ask(msg_id, f"textDocument/{method}", params)
        assert "result" in answer, (method, params, answer)
    assert_alive(server)


def test_an_unknown_method_is_method_not_found(server: Server) -> None:
    assert server.ask(9, "hclgpu/unknown", {})["error"]["code"] == -32601


# --------------------------------------------------------------------------- the session's lifecycle


def test_before_initialize_requests_are_refused_and_notifications_dropped(tmp_path: Path) -> None:
    """LSP: -32002 for a request before `initialize`, a notification dropped; then the session
    starts as usual, without the document opened too early."""
    server = Server(tmp_path / "stderr.txt")
    try:
        document = {"uri": URI, "languageId": "hcl", "version": 1, "text": TEXT}
        server.send(frame(notification("textDocument/didOpen", {"textDocument": document})))
        error = server.ask(1, "textDocument/documentSymbol", {"textDocument": DOCUMENT})["error"]
        assert error["code"] == -32002 and error["message"]
        assert "result" in server.ask(2, "initialize", INITIALIZE)
        assert server.ask(3, "textDocument/documentSymbol", {"textDocument": DOCUMENT})["result"] == []
    finally:
        server.close()


def test_after_shutdown_requests_are_refused_and_exit_ends_with_0(server: Server) -> None:
    """LSP: after `shutdown` the server answers requests with InvalidRequest, and `exit`
    then ends it with status 0 (the client need not close the pipe first)."""
    assert server.ask(1, "shutdown") == {"jsonrpc": "2.0", "id": 1, "result": None}
    for msg_id, method in enumerate(("textDocument/documentSymbol", "shutdown", "hclgpu/unknown"), start=2):
        error = server.ask(msg_id, method, {"textDocument": DOCUMENT}).get("error")
        assert error is not None and error["code"] == -32600, (method, error)
    server.send(frame(notification("exit")))
    assert server.exit_code() == 0


def test_exit_without_shutdown_ends_with_1(server: Server) -> None:
    """LSP: `exit` before `shutdown` is an abnormal end, status 1."""
    server.send(frame(notification("exit")))
    assert server.exit_code() == 1


def test_the_end_of_the_input_ends_the_server(server: Server) -> None:
    assert server.process.stdin is not None
    server.process.stdin.close()
    assert server.exit_code() == 1
