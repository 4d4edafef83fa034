"""Which job files are unchanged since a check that found nothing in them.

A re-check of a large tree where nothing changed should cost a directory walk and a
``stat`` per file: no file read, no compiler imported. This module keeps the record
that makes that possible (``index.json`` beside the check cache: absolute path →
``[mtime_ns, ctime_ns, size, inode, device, inputs fingerprint, cache key]``), and so it
imports nothing beyond ``os``, ``json``, the file reader :mod:`hclgpu.io.files`, the
directory walk :mod:`hclgpu.io.walk` and the cache's place (:mod:`hclgpu.io.records`):
``hclgpu check`` consults it before loading anything else. A file is in the record only if
its last check reported nothing and read no other file. The status recorded is the one the
file had when it was read, so a file changed while a long check runs is read again next
time; the change time catches a rewrite that restores the size and modification time, and a
change of permissions.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

from hclgpu.io.files import read_bytes, remove_quietly
from hclgpu.io.records import cache_dir
from hclgpu.io.walk import Exclusion, Reading, absolute_job_files, signature

RACY_NS = 2_000_000_000
"""A file modified less than this long before it was checked is not recorded: another
write within the same timestamp tick, of the same size, would look unchanged (git's
"racily clean" problem). Its next check reads it again, and the content cache answers."""


def cache_root() -> str:
    """``$XDG_CACHE_HOME/hclgpu/check``, else ``~/.cache/hclgpu/check``."""
    return os.path.join(cache_dir(), "check")


def fingerprint(
    variables: tuple[str, ...],
    var_files: tuple[str, ...],
    allow_fs: bool,
    env: tuple[tuple[str, str], ...],
    profile: tuple[object, ...] = (),
    policies: str = "",
    file_base: str = "working-directory",
) -> str:
    """A digest of everything checking a job file reads besides the file: the variables
    (var-files by content), where file functions resolve paths from, the cluster
    ``profile``'s facts and ``policies`` (the policy
    set's own fingerprint, of every policy file's text). Whether a folder's walk found the
    file is not part of it: that changes only what a file that is not a job file gives, and
    such a file is never recorded as clean."""
    from hclgpu.digests import sha256

    home = os.environ.get("HOME", "") if allow_fs else ""  # pathexpand("~") reads it
    parts = (variables, allow_fs, file_base, env, home, profile, policies)
    digest = sha256(repr(parts).encode())
    for name in var_files:
        try:
            digest.update(read_bytes(name)[0])  # never /dev/zero or a FIFO: evaluation refuses them
        except OSError:
            digest.update(b"\0missing\0" + name.encode())
    return digest.hexdigest()


def nomad_var_env() -> tuple[tuple[str, str], ...]:
    """The ``NOMAD_VAR_*`` environment variables, sorted (they are variable values)."""
    return tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("NOMAD_VAR_")))


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
        known = self._load().get(os.path.abspath(path))  # normalized, as remember() stores it
        # a damaged record holds anything: only a list of the right shape can match
        return isinstance(known, list) and known[:6] == [*signature(status), inputs]

    def remember(self, path: str, inputs: str, key: str, read: Reading) -> None:
        """Record ``path`` as clean with the status it had when it was read."""
        *signature, read_ns = read
        if read_ns - signature[0] < RACY_NS:
            return
        self._load()[os.path.abspath(path)] = [*signature, inputs, key]
        self._changed = True

    def save(self) -> None:
        """Write the record atomically, without the files that are gone (a cache that cannot
        be written only costs speed)."""
        if not self._changed or self._entries is None:
            return
        self._entries = {path: entry for path, entry in self._entries.items() if os.path.exists(path)}
        temporary = os.path.join(self.root, f".index.{os.getpid()}.tmp")
        try:
            os.makedirs(self.root, exist_ok=True)
            with open(temporary, "w", encoding="utf-8") as handle:
                json.dump({"version": self.version, **self._entries}, handle)
            os.replace(temporary, os.path.join(self.root, "index.json"))
        except OSError:
            pass
        finally:  # interrupted or failed: no temporary file is left behind
            remove_quietly(temporary)


def all_clean(
    paths: list[str],
    index: CleanIndex,
    inputs: Callable[[str], str],
    exclusion: Exclusion | None = None,
    force_exclude: bool = False,
) -> int | None:
    """How many job files ``paths`` name (a file named twice counted once), when every one
    is in the record and unchanged; None as soon as one is not (or a path is missing, or a
    directory holds no job file). ``inputs(path)`` is the fingerprint of what
    checking it reads (the settings of its folder); ``exclusion`` skips what a
    folder's configuration excludes, in named files too with ``force_exclude``."""
    seen: set[str] = set()
    for raw in paths:
        if os.path.isdir(raw):
            files = absolute_job_files(raw, exclusion)
            if not files:
                return None
        elif os.path.isfile(raw):
            files = [os.path.abspath(raw)]
            if force_exclude and _excluded(files[0], exclusion):
                continue
        else:
            return None
        for path in files:
            if not index.clean(path, inputs(path)):
                return None
        seen.update(files)
    return len(seen)


def _excluded(path: str, exclusion: Exclusion | None) -> bool:
    excluded = exclusion(os.path.dirname(path)) if exclusion is not None else None
    return excluded is not None and excluded(path, False, True)
