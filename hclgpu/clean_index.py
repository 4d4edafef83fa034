"""Which job files are unchanged since a check that found nothing in them.

A re-check of a large tree where nothing changed should cost a directory walk and a
``stat`` per file: no file read, no compiler imported. This module keeps the record
that makes that possible (``index.json`` beside the check cache: absolute path →
``[mtime_ns, size, inode, inputs fingerprint, cache key]``), and so it imports nothing
beyond ``os`` and ``json``: ``hclgpu check`` consults it before loading anything else.
A file is in the record only if its last check reported nothing and read no other file.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator

JOB_SUFFIXES = (".hcl", ".nomad")
RACY_NS = 2_000_000_000
"""A file modified less than this long before it was checked is not recorded: another
write within the same timestamp tick, of the same size, would look unchanged (git's
"racily clean" problem). Its next check reads it again, and the content cache answers."""


def cache_root() -> str:
    """``$XDG_CACHE_HOME/hclgpu/check``, else ``~/.cache/hclgpu/check``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hclgpu", "check")


def fingerprint(
    variables: tuple[str, ...], var_files: tuple[str, ...], allow_fs: bool, env: tuple[tuple[str, str], ...]
) -> str:
    """A digest of everything evaluation reads besides the job file (var-files by content)."""
    import hashlib

    digest = hashlib.sha256(repr((variables, allow_fs, env)).encode())
    for name in var_files:
        try:
            with open(name, "rb") as handle:
                digest.update(handle.read())
        except OSError:
            digest.update(b"\0missing\0" + name.encode())
    return digest.hexdigest()


def nomad_var_env() -> tuple[tuple[str, str], ...]:
    """The ``NOMAD_VAR_*`` environment variables, sorted (they are variable values)."""
    return tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("NOMAD_VAR_")))


def _job_files(directory: str) -> Iterator[tuple[str, str]]:
    """(directory, file name) of each job file below ``directory``, hidden directories
    skipped, in sorted order: the one definition of which files a directory holds."""
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.endswith(JOB_SUFFIXES):
                yield root, name


def walk(directory: str, shown: str) -> list[tuple[str, str]]:
    """The job files below ``directory``, each with its name as reported: relative to
    ``shown`` by string operations alone, and normalized (``.`` holds ``a.nomad``, not
    ``./a.nomad``: GitHub annotations need the repository-relative path)."""
    base = os.path.normpath(shown)
    base = "" if base == os.curdir else base
    found: list[tuple[str, str]] = []
    for root, name in _job_files(directory):
        inner = root[len(directory) :].lstrip(os.sep)
        prefix = os.path.join(base, inner) if inner else base
        found.append((os.path.join(root, name), os.path.join(prefix, name)))
    return found


class CleanIndex:
    """The record of clean files, read on first use and written back only when changed."""

    __slots__ = ("_changed", "_entries", "root", "version")

    def __init__(self, root: str, version: str) -> None:
        self.root = root
        self.version = version
        self._entries: dict[str, list[object]] | None = None
        self._changed = False

    def _load(self) -> dict[str, list[object]]:
        if self._entries is None:
            try:
                with open(os.path.join(self.root, "index.json"), encoding="utf-8") as handle:
                    loaded = json.load(handle)
                valid = isinstance(loaded, dict) and loaded.pop("version", None) == self.version
                self._entries = loaded if valid else {}
            except (OSError, ValueError):
                self._entries = {}
        return self._entries

    def clean(self, path: str, inputs: str) -> bool:
        """Whether ``path`` is unchanged since a check, with these inputs, that found nothing."""
        try:
            status = os.stat(path)
        except OSError:
            return False
        known = self._load().get(path if path.startswith("/") else os.path.abspath(path))
        return known is not None and known[:4] == [status.st_mtime_ns, status.st_size, status.st_ino, inputs]

    def remember(self, path: str, inputs: str, key: str) -> None:
        try:
            status = os.stat(path)
        except OSError:
            return
        if time.time_ns() - status.st_mtime_ns < RACY_NS:
            return
        entry: list[object] = [status.st_mtime_ns, status.st_size, status.st_ino, inputs, key]
        self._load()[os.path.abspath(path)] = entry
        self._changed = True

    def save(self) -> None:
        """Write the record atomically, without the files that are gone (a cache that cannot
        be written only costs speed)."""
        if not self._changed or self._entries is None:
            return
        self._entries = {path: entry for path, entry in self._entries.items() if os.path.exists(path)}
        try:
            os.makedirs(self.root, exist_ok=True)
            temporary = os.path.join(self.root, f".index.{os.getpid()}.tmp")
            with open(temporary, "w", encoding="utf-8") as handle:
                json.dump({"version": self.version, **self._entries}, handle)
            os.replace(temporary, os.path.join(self.root, "index.json"))
        except OSError:
            pass


def all_clean(paths: list[str], index: CleanIndex, inputs: str) -> int | None:
    """How many job files ``paths`` name (a file named twice counted once), when every one
    is in the record and unchanged; None as soon as one is not (or a path is missing, or a
    directory holds no job file)."""
    seen: set[str] = set()
    for raw in paths:
        if os.path.isdir(raw):
            files = _absolute_job_files(raw)
            if not files:
                return None
        elif os.path.isfile(raw):
            files = [os.path.abspath(raw)]
        else:
            return None
        for path in files:
            if not index.clean(path, inputs):
                return None
        seen.update(files)
    return len(seen)


def _absolute_job_files(directory: str) -> list[str]:
    """The job files :func:`walk` finds, as absolute paths (the record's keys) made by
    concatenation: this runs once per file of a warm check."""
    root = os.path.abspath(directory)
    return [
        (folder if folder.endswith(os.sep) else folder + os.sep) + name for folder, name in _job_files(root)
    ]
