"""`hclgpu check` over many files: the cache first, then the files left, in worker processes
when there are enough of them to pay for the workers, with a progress bar on a terminal.

Workers are forked after the compiler is imported, so each starts warm; they send back
diagnostics as plain data (:func:`hclgpu.cache.entry`) and the parent rebuilds them against
its own copy of the text. Results come back in input order, so the output is the same for
any ``--jobs``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hclgpu.cache import Cache, Inputs, Touched, diagnostic, entry
from hclgpu.diagnostics import Diagnostic, Severity, Sink
from hclgpu.inputs import Input, decode, read_input
from hclgpu.source import SourceFile

WORKERS_PAY_FROM = 24
"""Fewer files than this are checked in this process: forking costs more than it saves."""
PROGRESS_FROM = 50
"""A progress bar for runs of at least this many files (on a terminal, text output only)."""


@dataclass(frozen=True, slots=True)
class Options:
    inputs: Inputs
    jobs: int
    cache: Cache | None
    progress: bool


def check_paths(paths: Sequence[tuple[str, str]], options: Options, sink: Sink) -> None:
    """Check files by path: with a cache, a file unchanged since a clean check is not even
    read; the others are read and checked as :func:`check_all` does."""
    fingerprint = options.inputs.fingerprint()
    cache = options.cache
    items: list[Input] = []
    files: dict[str, str] = {}
    for path, shown in paths:
        if cache is not None and cache.index.clean(path, fingerprint):
            continue
        item = read_input(path, shown, sink)
        if item is not None:
            items.append(item)
            files[shown] = path
    clean = check_all(items, options, sink, fingerprint)
    if cache is not None:
        for shown, key in clean.items():
            cache.index.remember(files[shown], fingerprint, key)
        cache.index.save()


def check_all(
    items: Sequence[Input], options: Options, sink: Sink, fingerprint: str | None = None
) -> dict[str, str]:
    """Check every input; their diagnostics go to ``sink``, in input order. Returns the cache
    key of each input that came out clean (no diagnostic, no other file read)."""
    fingerprint = fingerprint if fingerprint is not None else options.inputs.fingerprint()
    sources: list[tuple[SourceFile, str | None]] = []
    for item in items:
        source = decode(item, sink)
        if source is not None:
            key = options.cache.key(item.path, item.data or b"", fingerprint) if options.cache else None
            sources.append((source, key))
    results: dict[int, list[Diagnostic]] = {}
    pending = []
    clean: dict[str, str] = {}
    for index, (source, key) in enumerate(sources):
        cached = options.cache.load(key, source) if options.cache and key else None
        if cached is None:
            pending.append(index)
            continue
        results[index], read_files = cached
        if key is not None and not results[index] and not read_files:
            clean[source.path] = key
    advance = _progress(len(sources), len(sources) - len(pending), options.progress)
    for index, entries, touched in _run([sources[i][0] for i in pending], pending, options):
        source, key = sources[index]
        found = [diagnostic(item, source) for item in entries]
        results[index] = found
        if options.cache is not None and key is not None:
            options.cache.store(key, found, touched)
            if not found and not touched:
                clean[source.path] = key
        advance()
    advance(done=True)
    for index in range(len(sources)):
        sink.extend(results[index])
    return clean


Outcome = tuple[int, list[dict[str, Any]], list[Touched]]


def _run(sources: list[SourceFile], indexes: list[int], options: Options) -> Iterator[Outcome]:
    jobs = min(options.jobs, len(sources))
    if jobs <= 1 or len(sources) < WORKERS_PAY_FROM:
        for index, source in zip(indexes, sources, strict=True):
            entries, touched = compile_entries(source.path, source.text, options.inputs)
            yield index, entries, touched
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import hclgpu.pipeline  # noqa: F401  (imported before forking: every worker starts warm)

    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    )
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        chunk = max(1, min(32, len(sources) // (jobs * 4)))
        paths = [s.path for s in sources]
        texts = [s.text for s in sources]
        outcomes = pool.map(compile_entries, paths, texts, [options.inputs] * len(sources), chunksize=chunk)
        for index, (entries, touched) in zip(indexes, outcomes, strict=True):
            yield index, entries, touched


def compile_entries(path: str, text: str, inputs: Inputs) -> tuple[list[dict[str, Any]], list[Touched]]:
    """One file's diagnostics as plain data, and the files its file functions touched."""
    from hclgpu.eval.functions_fs import TOUCHED
    from hclgpu.eval.program import EvalOptions
    from hclgpu.eval.variables import VariableInputs
    from hclgpu.pipeline import compile_source

    source = SourceFile(path, text)
    touched: list[Touched] = []
    token = TOUCHED.set(touched)
    try:
        variables = VariableInputs(
            args=list(inputs.variables), files=[Path(f) for f in inputs.var_files], env=dict(os.environ)
        )
        base = Path(path).parent if path and not path.startswith("<") else Path()
        result = compile_source(source, EvalOptions(variables, base_dir=base, allow_fs=inputs.allow_fs))
        found = result.diagnostics
    except Exception as error:  # a bug in hclgpu: report it, never a traceback
        message = f"internal error while checking this file: {type(error).__name__}: {error}"
        bug = "this is a bug in hclgpu; please report it with the file"
        found = [Diagnostic("HG901", Severity.ERROR, message, source, help=bug)]
        touched.append(("", None))  # never cache a crash
    finally:
        TOUCHED.reset(token)
    return [entry(d) for d in found], touched


def _progress(total: int, done: int, wanted: bool) -> Callable[..., None]:
    """A function to call per file checked (``done=True`` at the end); a no-op off a terminal."""
    if not wanted or total < PROGRESS_FROM or not sys.stderr.isatty():
        return lambda done=False: None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(
        TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True,
    )  # fmt: skip
    task = progress.add_task("check", total=total, completed=done)
    progress.start()

    def advance(done: bool = False) -> None:
        if done:
            progress.stop()
        else:
            progress.advance(task)

    return advance
