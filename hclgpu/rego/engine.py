"""The parent's side of the Rego engine: one worker process per policy set and process.

The worker (:mod:`hclgpu.rego.worker`) compiles the policies and then evaluates one job per
request. The first engine of a run saves the compiled bundle to a temporary file; the check
worker processes of a large run, forked from the process that compiled, load that bundle
instead of compiling again, so a run compiles its policies once (a language server, once per
session). Each evaluation has a deadline and a memory limit: past either the worker is killed,
the rule it was running is named, and the next job starts a fresh worker.

The worker is started with no environment (:func:`_environment`): the policies come from the
same pull request as the jobs, and CI keeps its secrets in the environment.
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

from hclgpu.codes import declared
from hclgpu.codes.base import Code
from hclgpu.codes.policies import HG410
from hclgpu.rego.policies import PolicySet

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")
STARTUP_SECONDS = 60.0
"""Time for the worker to start and compile the policies (a loaded CI machine is slow)."""
MEMORY_LIMIT = 1 << 30
"""Bytes of resident memory the worker may hold, 1 GiB: some thirty times what it needs for
the policies of a team and a large job, and a small part of a CI runner. A rule that builds a
value larger than that is stopped (HG414) rather than left to take the machine until its time
limit. Read from /proc, so enforced on Linux only; elsewhere the time limit alone applies."""
MEMORY_POLL_SECONDS = 0.05
"""How often the worker's memory is read while it works: at some 300 MB/s of growth (a
comprehension over a large range in rego-cpp) a stopped rule overshoots the limit by a few
tens of megabytes."""
_PROC = os.path.exists("/proc/self/statm")
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class EngineMissing(Exception):
    """regopy is not installed: policies cannot be evaluated here."""


@dataclass(slots=True)
class Reply:
    """The engine's answer for one job: each rule's value or error, by rule index, and why
    it stopped early (``timeout``, ``memory``, ``crash``), with the index of the rule it was
    running."""

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
    code: Code = HG410
    """The diagnostic: HG410 for what does not compile, HG415 for a built-in the engine lacks."""


class Engine:
    def __init__(self, policies: PolicySet) -> None:
        self.policies = policies
        self._process: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self.compile_errors: list[CompileError] = []
        self.bundle: str | None = None
        """The compiled policies, saved by this engine's worker for the processes forked later."""
        self._regopy = ""
        """The folder regopy is installed in (found when the worker first starts)."""
        self._lock = threading.Lock()
        """One conversation with the worker at a time (a language server analyses in threads)."""
        self._stop: str | None = None
        """Why the last read got no answer: ``timeout``, ``memory`` or ``ended``."""

    # ---- life -------------------------------------------------------------------

    def start(self) -> list[CompileError]:
        """Start the worker and compile; the compile errors (none when it is ready). Policies
        that did not compile are not compiled again."""
        with self._lock:
            return self._start()

    def _start(self) -> list[CompileError]:
        if self.compile_errors or self._process is not None:
            return self.compile_errors
        self._regopy = _require_regopy()
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
            [sys.executable, "-P", WORKER, self._regopy],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, close_fds=True,
            env=_environment(),
        )  # fmt: skip
        self._buffer = b""
        first = self._send(setup, time.monotonic() + max(STARTUP_SECONDS, self.policies.timeout))
        if first is not None and first.get("ready"):
            return None
        self.close()
        if first is None and self._stop == "memory":
            limit = memory_text(MEMORY_LIMIT)
            return [CompileError("", None, 0, f"compiling the policies took more than {limit} of memory")]
        if first is None:
            return [CompileError("", None, 0, "the policy engine did not start")]
        return [
            CompileError(e["file"], e["offset"], e.get("length", 0), e["message"], _code(e.get("code")))
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
            stop = self._stop if answer is None else None
            reply.stopped = stop if stop in ("timeout", "memory") else "crash"
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
            self._stop = "ended"
            return None
        return self._read(deadline)

    def _read(self, deadline: float) -> dict[str, Any] | None:
        """The worker's next line; None when it ends, the deadline passes or it holds more
        than :data:`MEMORY_LIMIT` (then it is killed), with the reason in ``_stop``."""
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        self._stop = None
        check = time.monotonic() + MEMORY_POLL_SECONDS
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                now = time.monotonic()
                if now >= deadline:
                    self._stop = "timeout"
                    return None
                if now >= check:
                    if _over_memory(process):
                        self._stop = "memory"
                        return None
                    check = now + MEMORY_POLL_SECONDS
                if not selector.select(min(deadline, check) - now):
                    continue
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    self._stop = "ended"
                    return None
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            answer: dict[str, Any] = json.loads(line)
        except ValueError:
            self._stop = "ended"
            return None
        return answer


def _over_memory(process: subprocess.Popen[bytes]) -> bool:
    """Whether ``process`` holds more resident memory than :data:`MEMORY_LIMIT`; if so it is
    killed at once, before it takes more."""
    if not _PROC:
        return False
    try:
        with open(f"/proc/{process.pid}/statm", "rb") as handle:
            resident = int(handle.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):  # it has just ended: the read says so
        return False
    if resident <= MEMORY_LIMIT:
        return False
    process.kill()
    return True


def memory_text(size: int) -> str:
    """``1 GiB``, ``256 MiB``: a limit as the messages write it."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} bytes"


def _environment() -> dict[str, str]:
    """The worker's environment: nothing of the parent's but what the interpreter may need to
    start at all. Python started by its absolute path finds its standard library and a
    virtual environment's packages from its own location, and the worker is told where
    regopy is (its argument); the loader's and Python's home paths are kept where set, for
    builds that need them (they are paths, not secrets, and the worker clears them once
    started). Windows cannot start a process without SYSTEMROOT."""
    kept = ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "PYTHONHOME", "SYSTEMROOT")
    return {name: os.environ[name] for name in kept if name in os.environ}


def _require_regopy() -> str:
    """The folder regopy is installed in, for the worker, which has no PYTHONPATH."""
    import importlib.util

    spec = importlib.util.find_spec("regopy")
    if spec is None:
        raise EngineMissing("the Rego engine (regopy) is not installed: pip install 'hclgpu[policy]'")
    places = list(spec.submodule_search_locations or []) or [spec.origin or ""]
    return os.path.dirname(os.path.abspath(places[0]))


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


def _code(sent: str | None) -> Code:
    """The code a worker's error names (as its id, in JSON), HG410 when it names none."""
    return declared(sent) if sent is not None else HG410
