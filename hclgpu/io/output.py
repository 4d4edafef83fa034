"""Writing a set of output files as one transaction: all of them, or none.

`render --out` writes several artifacts (an OCI bundle per task, a manifest per
object); a user who finds half of them new and half stale cannot tell which is which.
So every file is first written in full to a temporary file beside its final name (a
rename never crosses file systems), and only when all are staged are they renamed
into place, the file each one replaces moved aside first. A failure at any step, an
interrupt included, undoes the steps before it: the replaced files come back, new files
and new directories go, and the directory is as it was.

Temporary files and backups have short names of their own (``.hg-XXXXXXXX.tmp``,
``.hg-XXXXXXXX.bak``), reserved with ``O_EXCL``: any name the file system accepts can be
written, and no file of the user's is ever taken for one. Every name is checked before
anything is written: it must lead inside the directory, to a file, once.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

PREFIX = ".hg-"
"""The start of every temporary and backup name: short, so that it never makes a name too long."""


class WriteFailed(Exception):
    """Nothing was written; ``str()`` says which file failed and why."""


def write_files(directory: str | Path, files: Sequence[tuple[str, str]]) -> None:
    """Write ``files`` (name relative to ``directory``, text) atomically as a set.

    OSError and ValueError (text that cannot be encoded) become WriteFailed; anything
    else, KeyboardInterrupt included, is re-raised unchanged once the directory is restored.
    """
    root = Path(directory)
    _check_names(root, [name for name, _ in files])
    transaction = _Transaction()
    try:
        for name, text in files:
            transaction.stage(root / name, text)
        transaction.commit()
    except BaseException as error:
        transaction.roll_back()
        if not isinstance(error, (OSError, ValueError)):
            raise
        raise WriteFailed(_message(transaction.current, error)) from error
    transaction.discard_backups()


def _check_names(root: Path, names: Sequence[str]) -> None:
    """Refuse, before anything is written, a name that could land outside ``root`` or on
    another file of the set: a relative path of non-empty components, none `.` or `..`."""
    seen: set[str] = set()
    for name in names:
        problem = _name_problem(name)
        if problem is None and name in seen:
            problem = "two of the files have this name"
        if problem is not None:
            raise WriteFailed(f"cannot write {name!r} into {root}: {problem}")
        seen.add(name)


def _name_problem(name: str) -> str | None:
    if not name:
        return "the file name is empty"
    if "\0" in name:
        return "the file name holds a NUL character"
    if os.path.isabs(name) or name.startswith("/"):
        return "the file name is an absolute path"
    parts = name.replace(os.sep, "/").replace(os.altsep or "/", "/").split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "the file name has an empty, `.` or `..` component"
    return None


def _message(final: Path | None, error: OSError | ValueError) -> str:
    """``cannot write FILE: reason``: the file being written, and the path the failing call
    was about when that is another one (a parent directory), not a temporary file."""
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    other = error.filename if isinstance(error, OSError) else None
    if isinstance(other, (str, bytes)):
        path = Path(os.fsdecode(other))
        if path != final and not path.name.startswith(PREFIX):
            reason = f"{path}: {reason}"
    return f"cannot write {final if final is not None else 'the files'}: {reason}"


Identity = tuple[int, int]
"""(device, inode): which file a name points at now."""


def _identity(path: Path) -> Identity | None:
    try:
        found = os.lstat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


@dataclass(slots=True)
class _Step:
    """One file being put in place: enough to undo it from whatever point it reached."""

    final: Path
    temporary: Path
    written: Identity | None = None
    """The staged file (``final`` holds it once it is in place)."""
    backup: Path | None = None
    reserved: Identity | None = None
    """The empty file reserving ``backup``: while ``backup`` is still it, the file replaced
    was not moved yet."""


class _Transaction:
    """The undo log of one :func:`write_files` call."""

    def __init__(self) -> None:
        self.created: list[Path] = []
        """Directories made here, outermost first."""
        self.staged: list[_Step] = []
        """Temporary files written and closed, in order."""
        self.committed = 0
        """How many of ``staged`` the commit has started to put in place."""
        self.current: Path | None = None
        """The file being staged or put in place (for the message)."""

    def stage(self, final: Path, text: str) -> None:
        self.current = final
        if final.is_dir() and not final.is_symlink():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(final))
        self._make_directories(final.parent)
        descriptor, name = tempfile.mkstemp(dir=final.parent, prefix=PREFIX, suffix=".tmp")
        step = _Step(final, Path(name))
        self.staged.append(step)
        try:
            stats = os.fstat(descriptor)
            step.written = (stats.st_dev, stats.st_ino)
            handle = os.fdopen(descriptor, "w", encoding="utf-8", newline="")
        except BaseException:
            os.close(descriptor)
            raise
        with handle:
            handle.write(text)
        # a replaced file keeps its permissions; a new one gets what open() would give it
        try:
            mode = final.stat().st_mode & 0o7777
        except OSError:
            mode = 0o666 & ~_umask()
        os.chmod(step.temporary, mode)

    def commit(self) -> None:
        for step in self.staged:
            self.current = step.final
            self.committed += 1
            if step.final.exists() or step.final.is_symlink():
                step.backup, step.reserved = _reserve(step.final.parent)
                os.replace(step.final, step.backup)
            os.replace(step.temporary, step.final)

    def roll_back(self) -> None:
        """Undo everything; failures here are ignored so the rest can still be undone."""
        for step in reversed(self.staged[: self.committed]):
            _quietly(_undo, step)
        for step in self.staged:
            _quietly(_remove, step.temporary)
        for directory in reversed(self.created):
            _quietly(os.rmdir, directory)

    def discard_backups(self) -> None:
        for step in self.staged:
            if step.backup is not None:
                _quietly(_remove, step.backup)

    def _make_directories(self, directory: Path) -> None:
        missing = []
        while not directory.exists():
            missing.append(directory)
            directory = directory.parent
        for path in reversed(missing):
            path.mkdir()
            self.created.append(path)


def _reserve(directory: Path) -> tuple[Path, Identity]:
    """A new backup name in ``directory``, held by an empty file (O_EXCL: never a user's)."""
    descriptor, name = tempfile.mkstemp(dir=directory, prefix=PREFIX, suffix=".bak")
    try:
        stats = os.fstat(descriptor)
    finally:
        os.close(descriptor)
    return Path(name), (stats.st_dev, stats.st_ino)


def _undo(step: _Step) -> None:
    """Put back what ``final`` was, judging from the files which point the commit reached."""
    if step.backup is not None and _identity(step.backup) not in (None, step.reserved):
        os.replace(step.backup, step.final)  # the replaced file was moved aside: it returns
        return
    if _identity(step.final) == step.written:
        _remove(step.final)  # a new file that is in place goes
    if step.backup is not None:
        _remove(step.backup)  # an unused reservation


def _quietly(action: Callable[..., object], *arguments: object) -> None:
    """Run one undo step; a step that fails must not stop the others."""
    with contextlib.suppress(OSError):
        action(*arguments)


def _remove(path: Path) -> None:
    path.unlink(missing_ok=True)


def _umask() -> int:
    """The process umask (read by setting it, then restoring it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
