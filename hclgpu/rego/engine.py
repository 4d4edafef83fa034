"""The parent's side of the Rego engine: one worker process per policy set and process.

The worker (:mod:`hclgpu.rego.worker`) compiles the policies and then evaluates one job per
request. The first engine of a run saves the compiled bundle to a temporary file; the check
worker processes of a large run, forked from the process that compiled, load that bundle
instead of compiling again, so a run compiles its policies once (a language server, once per
session). Each evaluation has a deadline: past it the worker is killed, the rule it was
running is named, and the next job starts a fresh worker.
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from hclgpu.rego.policies import PolicySet

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")
STARTUP_SECONDS = 60.0
"""Time for the worker to start and compile the policies (a loaded CI machine is slow)."""


class EngineMissing(Exception):
    """regopy is not installed: policies cannot be evaluated here."""


@dataclass(slots=True)
class Reply:
    """The engine's answer for one job: each rule's value or error, by rule index, and why
    it stopped early (``timeout``, ``crash``), with the index of the rule it was running."""

    values: dict[int, Any] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)
    stopped: str | None = None
    running: int | None = None
    detail: str | None = None
    """What the worker said when it could not evaluate (an exception's text), if it said it."""


@dataclass(slots=True)
class CompileError:
    file: str
    offset: int | None
    """Byte offset in the file, when the engine gave one."""
    length: int
    """Bytes the error covers from there."""
    message: str


class Engine:
    def __init__(self, policies: PolicySet) -> None:
        self.policies = policies
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self.compile_errors: list[CompileError] = []
        self.bundle: str | None = None
        """The compiled policies, saved by this engine's worker for the processes forked later."""
        self._lock = threading.Lock()
        """One conversation with the worker at a time (a language server analyses in threads)."""

    # ---- life -------------------------------------------------------------------

    def start(self) -> list[CompileError]:
        """Start the worker and compile; the compile errors (none when it is ready). Policies
        that did not compile are not compiled again."""
        with self._lock:
            return self._start()

    def _start(self) -> list[CompileError]:
        if self.compile_errors or self._process is not None:
            return self.compile_errors
        _require_regopy()
        rules = [list(rule) for rule in self.policies.rules]
        inherited = _compiled_elsewhere(self.policies)
        if inherited is not None and self._setup({"bundle": inherited, "rules": rules}) is None:
            return []
        self.bundle = _bundle_path(self.policies)
        modules = [[m.path, m.text] for m in self.policies.modules]
        errors = self._setup({"modules": modules, "rules": rules, "save": self.bundle})
        if errors is None:
            return []
        self.bundle = None
        self.compile_errors = errors
        return errors

    def _setup(self, setup: dict[str, Any]) -> list[CompileError] | None:
        """A new worker, given ``setup``: None when it is ready, else why not."""
        self._process = subprocess.Popen(
            [sys.executable, "-P", WORKER],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, close_fds=True,
        )  # fmt: skip
        self._buffer = b""
        first = self._send(setup, time.monotonic() + max(STARTUP_SECONDS, self.policies.timeout))
        if first is not None and first.get("ready"):
            return None
        self.close()
        if first is None:
            return [CompileError("", None, 0, "the policy engine did not start")]
        return [
            CompileError(e["file"], e["offset"], e.get("length", 0), e["message"])
            for e in first.get("errors", [])
        ]

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()

    # ---- evaluation ---------------------------------------------------------------

    def evaluate(self, document: dict[str, Any]) -> Reply:
        """Every rule's value on ``document`` within the policies' time limit. After a time
        out the rules run again one at a time in a fresh worker, to name the one that never
        ends (a second period of the limit, spent only on a job that already failed)."""
        with self._lock:
            return self._evaluate(document)

    def _evaluate(self, document: dict[str, Any]) -> Reply:
        if self._process is None and self._start():
            return Reply(stopped="crash")
        deadline = time.monotonic() + self.policies.timeout
        answer = self._send({"input": document}, deadline)
        if answer is not None and "values" in answer:
            return Reply(values=dict(enumerate(answer["values"])))
        if answer is None:  # out of time, or the worker died: find the rule, one at a time
            self.close()
            if self._start():
                return Reply(stopped="crash")
            deadline = time.monotonic() + self.policies.timeout
            answer = self._send({"input": document, "each": True}, deadline)
        return self._each(answer, deadline)

    def _each(self, answer: dict[str, Any] | None, deadline: float) -> Reply:
        """The per-rule replies that follow ``answer``, until ``done``."""
        reply = Reply()
        expected = 0
        while answer is not None and not answer.get("done") and "failed" not in answer:
            index = answer["rule"]
            if "error" in answer:
                reply.errors[index] = answer["error"]
            else:
                reply.values[index] = answer["value"]
            expected = index + 1
            answer = self._read(deadline)
        if answer is None or "failed" in answer:
            reply.stopped = "timeout" if answer is None and time.monotonic() >= deadline else "crash"
            reply.running = expected
            reply.detail = answer.get("failed") if answer is not None else None
            self.close()
        return reply

    def _send(self, message: dict[str, Any], deadline: float) -> dict[str, Any] | None:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            return None
        return self._read(deadline)

    def _read(self, deadline: float) -> dict[str, Any] | None:
        """The worker's next line, or None when it ends or the deadline passes."""
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    return None
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            answer: dict[str, Any] = json.loads(line)
        except ValueError:
            return None
        return answer


def _require_regopy() -> None:
    import importlib.util

    if importlib.util.find_spec("regopy") is None:
        raise EngineMissing("the Rego engine (regopy) is not installed: pip install 'hclgpu[policy]'")


_ENGINES: dict[tuple[int, str], Engine] = {}


def engine_for(policies: PolicySet) -> Engine:
    """This process's engine for ``policies`` (a forked worker never uses its parent's)."""
    key = (os.getpid(), policies.fingerprint)
    engine = _ENGINES.get(key)
    if engine is None:
        for (pid, _), old in list(_ENGINES.items()):
            if pid == key[0]:  # other policies in this process (an editor's files changed)
                old.close()
                del _ENGINES[(pid, _)]
        engine = _ENGINES[key] = Engine(policies)
    return engine


def _compiled_elsewhere(policies: PolicySet) -> str | None:
    """The bundle an engine of the process this one was forked from saved for ``policies``."""
    for (pid, fingerprint), engine in _ENGINES.items():
        if pid != os.getpid() and fingerprint == policies.fingerprint and engine.bundle is not None:
            return engine.bundle
    return None


_BUNDLES: dict[int, str] = {}
"""The folder for saved bundles of each process that made one (a forked process sees its
parent's entry, and makes its own)."""


def _bundle_path(policies: PolicySet) -> str:
    folder = _BUNDLES.get(os.getpid())
    if folder is None:
        import tempfile

        folder = _BUNDLES[os.getpid()] = tempfile.mkdtemp(prefix="hclgpu-policies-")
    return os.path.join(folder, f"{policies.fingerprint[:16]}.rbb")


def close_engines() -> None:
    """Stop this process's workers (a forked process leaves its parent's alone)."""
    for (pid, _), engine in list(_ENGINES.items()):
        if pid == os.getpid():
            engine.close()


@atexit.register
def _close_all() -> None:
    """Stop this process's workers and remove the bundles it saved."""
    close_engines()
    folder = _BUNDLES.get(os.getpid())
    if folder is not None:
        import shutil

        shutil.rmtree(folder, ignore_errors=True)
