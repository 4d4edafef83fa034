"""Reading inputs: files, directories searched for job files, and standard input.

Reading problems are diagnostics too: a missing file or an empty directory is
fatal for the run (exit 2); invalid UTF-8, NUL bytes and oversized files are errors
located in the file (exit 1).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hclgpu.codes.syntax import HG010, HG011, HG013, HG020, HG021
from hclgpu.diagnostics import Sink
from hclgpu.io.files import MAX_BYTES, MAX_MIB, NotUtf8, Unreadable, decode_utf8, read_bytes
from hclgpu.io.walk import Exclusion, Reading, reading, walk
from hclgpu.source import SourceFile, Span

__all__ = ["MAX_BYTES", "MAX_MIB", "Input", "collect", "decode", "display_path", "job_paths", "read_input"]


@dataclass(frozen=True, slots=True)
class Input:
    path: str
    """The path as reported: normalized, relative to the working directory where possible."""
    data: bytes | None
    """The raw bytes, or None when they could not be read."""
    file: str | None = None
    """The path the bytes were read from, as given (None for standard input): ``fmt``
    writes here, since the reported ``path`` is normalized (``a/../b`` is ``b``)."""
    read: Reading | None = None
    """The file's status as it was read (None for standard input)."""
    walked: bool = False
    """Found by walking a folder (or named with ``--force-exclude``): a file that is not a
    job file is then only noted, not checked."""


def display_path(path: Path) -> str:
    """The path as reported: relative to the working directory where possible."""
    text = str(path)
    if not os.path.isabs(text):
        return os.path.normpath(text)
    try:
        return os.path.relpath(text)
    except ValueError:
        return text


def job_paths(
    paths: list[str], sink: Sink, exclusion: Exclusion | None = None, force_exclude: bool = False
) -> list[tuple[str, str, bool]]:
    """The files ``paths`` name (directories searched, skipping what ``exclusion``
    excludes), with their reported names and whether a walk found them, unread: a caller
    with a cache may not need to read them at all. ``-`` is not allowed here. A file named
    twice (``a.nomad ./a.nomad .``) is listed once, under its first name. With
    ``force_exclude``, a file named is treated as if a walk had found it."""
    found: list[tuple[str, str, bool]] = []
    for raw in _distinct(paths):
        path = Path(raw)
        if path.is_dir():
            files = _walk(raw, display_path(path), exclusion, sink)
            found.extend((file, shown, True) for file, shown in files)
        elif path.exists() and not path.is_file():
            sink.emit(HG020, f"`{raw}` is neither a file nor a directory", SourceFile(raw, ""))
        elif not (force_exclude and excluded_file(raw, exclusion)):
            found.append((raw, os.path.normpath(raw), force_exclude))
    return _once(found)


def _walk(raw: str, shown: str, exclusion: Exclusion | None, sink: Sink) -> list[tuple[str, str]]:
    """The job files below the folder ``raw`` (see :func:`walk`). Each folder that cannot be
    listed is HG020 (exit 2: its job files were never seen); finding nothing else, HG021."""
    unlisted: list[str] = []

    def report(folder: str, error: OSError) -> None:
        unlisted.append(folder)
        reason = error.strerror or str(error)
        sink.emit(HG020, f"cannot list the folder `{folder}`: {reason}", SourceFile(folder, ""))

    files = walk(raw, shown, exclusion, report)
    if not files and not unlisted:
        sink.emit(HG021, f"no job files (*.hcl, *.nomad, *.nomad.hcl) in directory `{raw}`",
                  SourceFile(raw, ""))  # fmt: skip
    return files


def excluded_file(path: str, exclusion: Exclusion | None) -> bool:
    """Whether the configuration of the folder holding ``path`` excludes it."""
    excluded = exclusion(os.path.dirname(os.path.abspath(path))) if exclusion is not None else None
    return excluded is not None and excluded(path, False, True)


def _once(paths: list[tuple[str, str, bool]]) -> list[tuple[str, str, bool]]:
    """Each file once, by absolute path (the check cache's key), in the order given."""
    seen: set[str] = set()
    return [entry for entry in paths if _first_time(entry[0], seen)]


def _distinct(paths: list[str]) -> list[str]:
    """The arguments, each path once (``. ./`` is one directory, reported once if empty);
    ``-`` is kept wherever it is, as standard input is read where it is named."""
    seen: set[str] = set()
    return [raw for raw in paths if raw == "-" or _first_time(raw, seen)]


def _first_time(path: str | Path, seen: set[str]) -> bool:
    """Whether ``path`` is not in ``seen`` (by absolute path); it is from now on."""
    key = os.path.abspath(path)
    if key in seen:
        return False
    seen.add(key)
    return True


def read_input(path: str, shown: str, sink: Sink) -> Input | None:
    """One file as an input (None, reported, when it is too large or unreadable)."""
    return next(_read(Path(path), shown, sink), None)


def _read(path: Path, shown: str, sink: Sink, walked: bool = False) -> Iterator[Input]:
    """The file's bytes with its status taken from the open file: what the record of clean
    files stores must describe the bytes checked, not a later version of the file."""
    try:
        data, status = read_bytes(path)
    except Unreadable as error:
        message = str(error) if error.code == HG013 else f"`{shown}` is {error}"
        sink.emit(error.code, message, SourceFile(shown, ""))
        return
    except OSError as error:
        reason = error.strerror or str(error)
        sink.emit(HG020, f"cannot read `{shown}`: {reason}", SourceFile(shown, ""))
        return
    yield Input(shown, data, str(path), reading(status), walked)


def collect(
    paths: list[str],
    sink: Sink,
    stdin_name: str = "<stdin>",
    exclusion: Exclusion | None = None,
    force_exclude: bool = False,
) -> Iterator[Input]:
    """Yield each input named by ``paths``, each file once (as :func:`job_paths` lists
    them, with the same exclusions); report unreadable ones to ``sink``."""
    seen: set[str] = set()
    for raw in _distinct(paths):
        if raw == "-":
            if not (
                force_exclude and not stdin_name.startswith("<") and excluded_file(stdin_name, exclusion)
            ):
                yield Input(stdin_name, sys.stdin.buffer.read(MAX_BYTES + 1))
            continue
        path = Path(raw)
        if path.is_dir():
            files = _walk(raw, display_path(path), exclusion, sink)
            for file, _ in files:
                if _first_time(file, seen):
                    yield from _read(Path(file), display_path(Path(file)), sink, walked=True)
        elif path.exists() and not path.is_file():
            sink.emit(HG020, f"`{raw}` is neither a file nor a directory", SourceFile(raw, ""))
        elif _first_time(raw, seen) and not (force_exclude and excluded_file(raw, exclusion)):
            yield from _read(path, os.path.normpath(raw), sink, walked=force_exclude)


def decode(item: Input, sink: Sink) -> SourceFile | None:
    """Decode UTF-8 text; report invalid bytes, NUL bytes and excess size."""
    data = item.data or b""
    if len(data) > MAX_BYTES:
        sink.emit(HG013, f"the input is larger than {MAX_MIB} MiB", SourceFile(item.path, ""))
        return None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        source = SourceFile(item.path, data.decode("utf-16", errors="replace"))
        sink.emit(HG011, "the file is UTF-16 text (it starts with a UTF-16 byte-order mark)", source,
                  Span(0, 1), help="save the file as UTF-8 text")  # fmt: skip
        return None
    try:
        text = decode_utf8(data)
    except NotUtf8 as error:
        span = Span(error.position, error.position + 1)
        sink.emit(HG010, str(error), SourceFile(item.path, error.text), span, help="save the file as UTF-8")
        return None
    if text.startswith("\ufeff"):
        text = " " + text[1:]
    nul = text.find("\x00")
    if nul >= 0:
        source = SourceFile(item.path, text.replace("\x00", "\ufffd"))
        sink.emit(
            HG011,
            "the file contains a NUL byte; it looks like a binary or UTF-16 file",
            source,
            Span(nul, nul + 1),
            help="save the file as UTF-8 text",
        )
        return None
    return SourceFile(item.path, text)
