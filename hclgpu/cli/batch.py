"""`hclgpu check` over many files: the cache first, then the files left, in worker processes
when there are enough of them to pay for the workers, with a progress bar on a terminal.

Workers are forked after the compiler is imported, so each starts warm; they send back
diagnostics as plain data (:func:`hclgpu.cli.cache.entry`) and the parent rebuilds them against
its own copy of the text. Results come back in input order, so the output is the same for
any ``--jobs``. Workers ignore Ctrl-C: the parent takes it, cancels the work not started
and stops them.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hclgpu.cli.cache import Cache, Inputs, Touched, diagnostic, entry
from hclgpu.codes import Severity
from hclgpu.codes.policies import HG411, HG412, HG414
from hclgpu.codes.syntax import HG901
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.io.inputs import Input, decode, read_input
from hclgpu.source import SourceFile, Span

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

WORKERS_PAY_FROM = 24
"""Fewer files than this are checked in this process: forking costs more than it saves."""
_UNCACHEABLE = frozenset({HG411, HG412, HG414})
PROGRESS_FROM = 50
"""A progress bar for runs of at least this many files (on a terminal, text output only)."""


@dataclass(frozen=True, slots=True)
class Options:
    jobs: int
    cache: Cache | None
    progress: bool


class WorkerDied(Exception):
    """A worker process ended without answering (killed, out of memory): the run is void."""


def check_paths(paths: Sequence[tuple[str, str, Inputs]], options: Options, sink: Sink) -> None:
    """Check files by path, each with its inputs: with a cache, a file unchanged since a
    clean check is not even read; the others are read and checked as :func:`check_all` does."""
    fingerprints = _Fingerprints()
    cache = options.cache
    items: list[tuple[Input, Inputs]] = []
    for path, shown, inputs in paths:
        if cache is not None and cache.index.clean(path, fingerprints(inputs)):
            continue
        item = read_input(path, shown, sink)
        if item is not None:
            items.append((item, inputs))
    clean = check_all(items, options, sink, fingerprints)
    if cache is not None:
        for item, inputs, key in clean:
            if item.file is not None and item.read is not None:
                cache.index.remember(item.file, fingerprints(inputs), key, item.read)
        cache.index.save()


class _Fingerprints:
    """Each distinct inputs' fingerprint, computed once (it hashes the var-files)."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[Inputs, str]] = {}

    def __call__(self, inputs: Inputs) -> str:
        known = self._known.get(id(inputs))
        if known is None:
            known = (inputs, inputs.fingerprint())
            self._known[id(inputs)] = known
        return known[1]


def check_all(
    items: Sequence[tuple[Input, Inputs]],
    options: Options,
    sink: Sink,
    fingerprints: _Fingerprints | None = None,
) -> list[tuple[Input, Inputs, str]]:
    """Check every input with its inputs; their diagnostics go to ``sink``, in input order.
    Returns each input that came out clean (no diagnostic, no other file read) with its
    cache key."""
    fingerprints = fingerprints or _Fingerprints()
    cache = options.cache
    sources: list[tuple[Input, SourceFile, str | None, Inputs]] = []
    for item, inputs in items:
        source = decode(item, sink)
        if source is not None:
            found_by = "walked" if inputs.walked else "named"
            key = (
                cache.key(item.path, item.data or b"", f"{fingerprints(inputs)}:{found_by}")
                if cache
                else None
            )
            sources.append((item, source, key, inputs))
    results: list[list[Diagnostic]] = [[] for _ in sources]
    pending = []
    clean: list[tuple[Input, Inputs, str]] = []
    for index, (item, source, key, inputs) in enumerate(sources):
        cached = cache.load(key, source) if cache and key else None
        if cached is None:
            pending.append(index)
            continue
        results[index], read_files = cached
        if key is not None and not results[index] and not read_files:
            clean.append((item, inputs, key))
    progress = _Progress(len(sources), len(sources) - len(pending), options.progress)
    work = [(sources[i][1], sources[i][3]) for i in pending]
    try:
        for index, entries, touched in _run(work, pending, options, progress):
            item, source, key, inputs = sources[index]
            results[index] = [diagnostic(e, source) for e in entries]
            if cache is not None and key is not None:
                cache.store(key, entries, touched)
                if not entries and not touched:
                    clean.append((item, inputs, key))
            progress.advance()
    finally:  # on Ctrl-C too: the terminal gets its cursor back
        progress.stop()
    _report_once(sink, [(source, found) for (_, source, _, _), found in zip(sources, results, strict=True)])
    return clean


def _report_once(sink: Sink, per_file: list[tuple[SourceFile, list[Diagnostic]]]) -> None:
    """Each file's diagnostics in order; one located in another file that all the jobs read
    (a var-file) is reported once, not once for every job that found it."""
    seen: set[tuple[str, str, str, Span | None]] = set()
    for job, found in per_file:
        for d in found:
            if d.source.path != job.path:
                spot = (d.source.path, d.code, d.message, d.span)
                if spot in seen:
                    continue
                seen.add(spot)
            sink.extend((d,))


Outcome = tuple[int, list[dict[str, Any]], list[Touched]]


def _run(
    work: list[tuple[SourceFile, Inputs]], indexes: list[int], options: Options, progress: _Progress
) -> Iterator[Outcome]:
    """Each source's outcome in order: in this process, or shared among worker processes
    (the progress bar starts once they are forked: forking beside its thread could leave a
    worker holding a lock the thread had)."""
    jobs = min(options.jobs, len(work))
    if jobs <= 1 or len(work) < WORKERS_PAY_FROM:
        progress.start()
        for index, (source, inputs) in zip(indexes, work, strict=True):
            entries, touched = compile_entries(source.path, source.text, inputs)
            yield index, entries, touched
        return
    yield from _in_workers(work, indexes, jobs, progress)


def _in_workers(
    work: list[tuple[SourceFile, Inputs]], indexes: list[int], jobs: int, progress: _Progress
) -> Iterator[Outcome]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    import hclgpu.pipeline  # noqa: F401  (imported before forking: every worker starts warm)

    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    )
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_setup)
    size = max(1, min(32, len(work) // (jobs * 4)))
    paths = [s.path for s, _ in work]
    texts = [s.text for s, _ in work]
    inputs = [i for _, i in work]
    finished = False
    try:
        chunks = [  # not pool.map: its results, abandoned, cancel their futures (see _stop_workers)
            pool.submit(
                compile_chunk,
                paths[start : start + size],
                texts[start : start + size],
                inputs[start : start + size],
            )
            for start in range(0, len(work), size)
        ]
        progress.start()
        position = 0
        for chunk in chunks:
            for entries, touched in chunk.result():
                yield indexes[position], entries, touched
                position += 1
        finished = True
    except BrokenProcessPool as error:
        raise WorkerDied(str(error)) from None
    finally:  # done, failed, interrupted or abandoned: no work left queued, no worker waited for
        if finished:
            pool.shutdown(wait=True)  # every worker idle: they end at once
        else:
            _stop_workers(pool)


_MANAGER_WAIT = 10.0
"""Seconds to wait for a stopped pool's manager thread; a guard, never reached in practice."""


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the workers of an abandoned run (Ctrl-C, an error) now: ``shutdown`` cancels only
    the chunks not yet started, and the interpreter's exit would wait for those being checked
    (32 files, each near the evaluation budget, are minutes of work). Their futures are left
    as they are, for the pool's manager to fail: on Python 3.11 it cannot fail a cancelled one
    and prints a traceback instead."""
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
    else:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            process.terminate()
        for process in processes:
            process.join()
        pool.shutdown(wait=False)
    if manager is not None:
        # Wait for the manager thread to wind down (its workers are gone: a moment). Left
        # running, it closes its wake-up pipe while the interpreter's exit hook
        # (concurrent.futures.process._python_exit, which takes no lock) may be writing to
        # it, and the exit prints "Exception ignored ... Bad file descriptor".
        manager.join(timeout=_MANAGER_WAIT)


def compile_chunk(
    paths: list[str], texts: list[str], inputs: list[Inputs]
) -> list[tuple[list[dict[str, Any]], list[Touched]]]:
    """:func:`compile_entries` for each of a worker's files, in order."""
    return [compile_entries(*work) for work in zip(paths, texts, inputs, strict=True)]


def _worker_setup() -> None:
    """In a worker: Ctrl-C is the parent's to handle (it reaches the whole process group), and
    SIGTERM, the parent ending an abandoned run, ends this worker's policy engine with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_terminated)


def _worker_terminated(signum: int, frame: object) -> None:
    """Stop the engine process this worker started (busy with a rule, it would run on,
    orphaned, until the rule ends) and exit at once, as the default action would. The pool
    may send SIGTERM twice (its manager ends the workers of a broken pool too): the second
    must not cut the first short before the engine is reaped."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    engine = sys.modules.get("hclgpu.rego.engine")
    if engine is not None:
        engine.close_engines()
    os._exit(128 + signum)


def compile_entries(path: str, text: str, inputs: Inputs) -> tuple[list[dict[str, Any]], list[Touched]]:
    """One file's diagnostics as plain data, and the files its file functions touched."""
    from hclgpu.eval.functions.fs import TOUCHED
    from hclgpu.pipeline import compile_source, evaluation, file_base_dir

    source = SourceFile(path, text)
    touched: list[Touched] = []
    token = TOUCHED.set(touched)
    try:
        base = file_base_dir(path, inputs.file_base)
        options = evaluation(
            path, inputs.variables, inputs.var_files, inputs.allow_fs, inputs.profile, base=base
        )
        result = compile_source(source, options, policies=inputs.policies, skip_non_jobs=inputs.walked)
        found = result.diagnostics
        if any(d.code in _UNCACHEABLE for d in found):
            touched.append(("", None))  # a policy that failed or ran out of time may pass next time
    except Exception as error:  # a bug in hclgpu: report it, never a traceback
        message = f"internal error while checking this file: {type(error).__name__}: {error}"
        bug = "this is a bug in hclgpu; please report it with the file"
        found = [Diagnostic(HG901, Severity.ERROR, message, source, help=bug)]
        touched.append(("", None))  # never cache a crash
    finally:
        TOUCHED.reset(token)
    return [entry(d, source) for d in found], touched


class _Progress:
    """A progress bar over the files being checked; nothing off a terminal, for short runs,
    or for machine-readable output."""

    def __init__(self, total: int, done: int, wanted: bool) -> None:
        self.total, self.done = total, done
        self.wanted = wanted and total >= PROGRESS_FROM and sys.stderr.isatty()
        self._bar: Any = None
        self._task: Any = None

    def start(self) -> None:
        if not self.wanted or self._bar is not None:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self._bar = Progress(
            TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=Console(stderr=True), transient=True,
        )  # fmt: skip
        self._task = self._bar.add_task("check", total=self.total, completed=self.done)
        self._bar.start()

    def advance(self) -> None:
        if self._bar is not None:
            self._bar.advance(self._task)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
