"""Writing a set of output files as one transaction: all of them, or none.

`render --out` writes several artifacts (an OCI bundle per task, a manifest per
object); a user who finds half of them new and half stale cannot tell which is which.
So every file is first written in full to a temporary file beside its final name (a
rename never crosses file systems), and only when all are staged are they renamed
into place, the file each one replaces moved aside first. A failure at any step
undoes the steps before it: the replaced files come back, new files and new
directories go, and the directory is as it was.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path


class WriteFailed(Exception):
    """Nothing was written; ``str()`` says which file failed and why."""


def write_files(directory: str | Path, files: Sequence[tuple[str, str]]) -> None:
    """Write ``files`` (name relative to ``directory``, text) atomically as a set."""
    root = Path(directory)
    transaction = _Transaction()
    try:
        for name, text in files:
            transaction.stage(root / name, text)
        transaction.commit()
    except (OSError, ValueError) as error:
        transaction.roll_back()
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise WriteFailed(f"cannot write into {root}: {reason}") from error
    transaction.discard_backups()


class _Transaction:
    """The undo log of one :func:`write_files` call."""

    def __init__(self) -> None:
        self.created: list[Path] = []
        """Directories made here, outermost first."""
        self.staged: list[tuple[Path, Path]] = []
        """(temporary file, final name), written and closed."""
        self.done: list[tuple[Path, Path | None]] = []
        """(final name, backup of the file it replaced or None), in place."""

    def stage(self, final: Path, text: str) -> None:
        self._make_directories(final.parent)
        descriptor, temporary = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.", suffix=".tmp")
        self.staged.append((Path(temporary), final))
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        # a replaced file keeps its permissions; a new one gets what open() would give it
        try:
            mode = final.stat().st_mode & 0o7777
        except OSError:
            mode = 0o666 & ~_umask()
        os.chmod(temporary, mode)

    def commit(self) -> None:
        for temporary, final in self.staged:
            backup = None
            if final.exists() or final.is_symlink():
                backup = final.with_name(f".{final.name}.{os.getpid()}.bak")
                os.replace(final, backup)
            self.done.append((final, backup))
            os.replace(temporary, final)

    def roll_back(self) -> None:
        """Undo everything; failures here are ignored so the rest can still be undone."""
        for final, backup in reversed(self.done):
            if backup is None:
                _quietly(_remove, final)
            else:
                _quietly(os.replace, backup, final)
        for temporary, _ in self.staged:
            _quietly(_remove, temporary)
        for directory in reversed(self.created):
            _quietly(os.rmdir, directory)

    def discard_backups(self) -> None:
        for _, backup in self.done:
            if backup is not None:
                _quietly(_remove, backup)

    def _make_directories(self, directory: Path) -> None:
        missing = []
        while not directory.exists():
            missing.append(directory)
            directory = directory.parent
        for path in reversed(missing):
            path.mkdir()
            self.created.append(path)


def _quietly(action: Callable[..., object], *paths: Path) -> None:
    """Run one undo step; a step that fails must not stop the others."""
    with contextlib.suppress(OSError):
        action(*paths)


def _remove(path: Path) -> None:
    path.unlink(missing_ok=True)


def _umask() -> int:
    """The process umask (read by setting it, then restoring it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
