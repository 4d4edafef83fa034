"""Benchmark `hclgpu lsp`: from a one-character edit to fresh diagnostics, over the protocol.

A real server process (`python -m hclgpu lsp`, default debounce) is driven over stdio with
raw JSON-RPC: it opens a job of about 2,000 lines (GPU groups from ``bench/parse.py``), then
makes one-character edits (incremental `didChange`, typing and deleting a digit of a
`memory` value) and times each from sending the change to receiving `publishDiagnostics` for
that version. Semantic tokens are on, as in an editor without an HCL grammar: each change is
followed by a `semanticTokens/full/delta` request, timed too. Target: median under 50 ms.

Run from the project root: ``.venv/bin/python bench/lsp.py [EDITS]``.
"""

from __future__ import annotations

import json
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from parse import job_text  # noqa: E402

TARGET_MS = 50.0
URI = (ROOT / "bench" / "lsp-bench.nomad.hcl").as_uri()


class Client:
    """Just enough of an LSP client: framed JSON-RPC over a child's stdin/stdout."""

    def __init__(self) -> None:
        command = [sys.executable, "-m", "hclgpu", "lsp"]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.kept: list[dict[str, Any]] = []
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = stream.read(1)
                if not byte:
                    return
                header += byte
            length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def wait(self, predicate: Any, timeout: float = 30.0) -> dict[str, Any]:
        """The first message, received or kept aside, that ``predicate`` takes; the others
        received meanwhile are kept for later waits."""
        for i, kept in enumerate(self.kept):
            if predicate(kept):
                return self.kept.pop(i)
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message
            self.kept.append(message)

    def published(self, version: int) -> dict[str, Any]:
        return self.wait(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version
            )
        )


def main() -> None:
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    text = job_text(21)
    lines = text.count("\n")
    client = Client()
    client.send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": ROOT.as_uri(),
                 "capabilities": {}}})  # fmt: skip
    client.wait(lambda m: m.get("id") == 1)
    client.send({"method": "initialized", "params": {}})
    document = {"uri": URI, "languageId": "hcl", "version": 1, "text": text}
    client.send({"method": "textDocument/didOpen", "params": {"textDocument": document}})
    opened = client.published(1)
    client.send(
        {"id": 10, "method": "textDocument/semanticTokens/full", "params": {"textDocument": {"uri": URI}}}
    )
    result = client.wait(lambda m: m.get("id") == 10)["result"]["resultId"]
    tokens = []
    # The edit point: the last digit of the first `memory = ...` value.
    offset = text.index("memory") + text[text.index("memory") :].index("\n")
    line = text.count("\n", 0, offset)
    character = offset - (text.rfind("\n", 0, offset) + 1)
    times = []
    for version in range(2, edits + 2):
        typing = version % 2 == 0
        start = {"line": line, "character": character}
        end = start if typing else {"line": line, "character": character + 1}
        change = {"range": {"start": start, "end": end}, "text": "1" if typing else ""}
        began = time.perf_counter()
        client.send({"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}})  # fmt: skip
        client.send({"id": 100 + version, "method": "textDocument/semanticTokens/full/delta", "params": {
            "textDocument": {"uri": URI}, "previousResultId": result}})  # fmt: skip
        published = client.published(version)
        times.append((time.perf_counter() - began) * 1000)
        answer = client.wait(lambda m, v=version: m.get("id") == 100 + v)["result"]
        tokens.append((time.perf_counter() - began) * 1000)
        result = answer["resultId"]
        assert isinstance(published["params"]["diagnostics"], list)
    client.send({"id": 2, "method": "shutdown"})
    client.wait(lambda m: m.get("id") == 2)
    client.send({"method": "exit"})
    client.process.wait(timeout=10)
    median = statistics.median(times)
    print(
        f"job: {lines} lines, {len(text) / 1024:.0f} KiB; {len(opened['params']['diagnostics'])} diagnostics"
    )
    print(f"didChange -> publishDiagnostics over {edits} one-character edits:")
    print(f"  median {median:.1f} ms, p90 {statistics.quantiles(times, n=10)[-1]:.1f} ms, "
          f"min {min(times):.1f} ms, max {max(times):.1f} ms")  # fmt: skip
    print(f"  semantic tokens (delta) answered after a median {statistics.median(tokens):.1f} ms")
    verdict = "PASS" if median < TARGET_MS else "FAIL"
    print(f"target: median < {TARGET_MS:.0f} ms: {verdict}")


if __name__ == "__main__":
    main()
