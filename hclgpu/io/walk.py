"""Which files a directory holds, and the status a file had when it was read.

The one definition of a job file below a directory (its suffix, hidden directories
skipped, sorted order) shared by ``check``, ``fmt`` and the record of clean files. It
imports nothing beyond ``os`` and ``time``: a warm ``hclgpu check`` walks the tree with it
before anything else is loaded.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

JOB_SUFFIXES = (".hcl", ".nomad")

Excluded = Callable[[str, bool, bool], bool]
"""Whether a path (a folder when the first flag is true) is excluded: itself, or with the
second flag a folder above it too (a file named rather than found)."""
Exclusion = Callable[[str], Excluded | None]
"""The exclusion that applies in a folder (its configuration's `exclude`), None for none."""

Signature = tuple[int, int, int, int, int]
"""What says a file is unchanged: mtime_ns, ctime_ns, size, inode, device."""

Reading = tuple[int, int, int, int, int, int]
"""A file's status as it was read: its :data:`Signature`, and when."""


def signature(status: os.stat_result) -> Signature:
    """The parts of a file's status that change when its content may have."""
    return (status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino, status.st_dev)


def reading(status: os.stat_result) -> Reading:
    """The status of a file just opened for reading, stamped with the time."""
    return (*signature(status), time.time_ns())


Unreadable = Callable[[str, OSError], None]
"""Told of each folder that cannot be listed: its name as reported, and why."""


class UnreadableFolder(OSError):
    """A folder below the one walked could not be listed: its job files are unknown."""


def job_files(
    directory: str, exclusion: Exclusion | None = None, unlisted: Callable[[OSError], None] | None = None
) -> Iterator[tuple[str, str]]:
    """(directory, file name) of each job file below ``directory``, hidden directories and
    what ``exclusion`` excludes skipped, in sorted order. A folder that cannot be listed is
    passed to ``unlisted`` (the error's ``filename`` is its path), or raised as
    :class:`UnreadableFolder` without one: a lint step that skips a folder it cannot read
    would pass files it never saw."""
    for root, dirs, files in os.walk(directory, onerror=unlisted or _raise):
        excluded = exclusion(root) if exclusion is not None else None
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".") and not (excluded and excluded(os.path.join(root, d), True, False))
        )
        for name in sorted(files):
            if name.endswith(JOB_SUFFIXES) and not (
                excluded and excluded(os.path.join(root, name), False, False)
            ):
                yield root, name


def _raise(error: OSError) -> None:
    raise UnreadableFolder(error.errno, error.strerror, error.filename)


def walk(
    directory: str, shown: str, exclusion: Exclusion | None = None, unreadable: Unreadable | None = None
) -> list[tuple[str, str]]:
    """The job files below ``directory``, each with its name as reported: relative to
    ``shown`` by string operations alone, and normalized (``.`` holds ``a.nomad``, not
    ``./a.nomad``: GitHub annotations need the repository-relative path). Each folder that
    cannot be listed is passed to ``unreadable`` under its reported name (raised as
    :class:`UnreadableFolder` without one)."""
    base = os.path.normpath(shown)
    base = "" if base == os.curdir else base

    def reported(root: str) -> str:
        inner = root[len(directory) :].lstrip(os.sep)
        return os.path.join(base, inner) if inner else base

    def unlisted(error: OSError) -> None:
        assert unreadable is not None
        unreadable(reported(os.fsdecode(error.filename or directory)) or os.curdir, error)

    return [
        (os.path.join(root, name), os.path.join(reported(root), name))
        for root, name in job_files(directory, exclusion, unlisted if unreadable is not None else None)
    ]


def absolute_job_files(directory: str, exclusion: Exclusion | None = None) -> list[str] | None:
    """The job files :func:`walk` finds, as absolute paths made by concatenation (a warm
    check calls this once per file, so no ``os.path`` call per name); None when a folder
    cannot be listed, so that the caller checks afresh and reports it."""
    root = os.path.abspath(directory)
    try:
        return [
            (folder if folder.endswith(os.sep) else folder + os.sep) + name
            for folder, name in job_files(root, exclusion)
        ]
    except UnreadableFolder:
        return None
