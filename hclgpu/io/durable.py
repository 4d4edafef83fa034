"""Steps on disk that survive a crash, and the signals held around them.

Both writers of hclgpu (``render --out`` through :mod:`hclgpu.io.output`, ``fmt`` through
:mod:`hclgpu.printer.fmt`) keep a promise that holds even when the process is killed: a
file is created whole and synced before its name is used, the folder holding a new name is
synced, temporaries are removed quietly, and SIGINT/SIGTERM wait for the milliseconds of a
write to end. These are those steps, written once.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import signal
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hclgpu.io.files import remove_quietly


def entries_quietly(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as found:
            return list(found)
    except (PermissionError, FileNotFoundError, NotADirectoryError):
        return []


def create_file(path: Path, text: str, mode: int) -> None:
    """A new file holding ``text``, with ``mode``, synced to disk; never an existing one
    (``O_EXCL``: no name of the user's is reused, no link followed)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    descriptor = os.open(path, flags, 0o600)
    try:
        handle = os.fdopen(descriptor, "w", encoding="utf-8", newline="")
    except BaseException:
        os.close(descriptor)
        raise
    with handle:
        handle.write(text)
        handle.flush()
        if hasattr(os, "fchmod"):
            os.fchmod(descriptor, mode)
        else:
            os.chmod(path, mode)
        os.fsync(descriptor)


def mode_of(existing: Path) -> int:
    """A replaced file's permissions; for a new one (or in place of a link), what open() gives."""
    with contextlib.suppress(OSError):
        status = os.lstat(existing)
        if stat.S_ISREG(status.st_mode):
            return stat.S_IMODE(status.st_mode)
    return 0o666 & ~umask()


def sync_folder(folder: Path, quietly: bool = False) -> None:
    """fsync a folder, so that the names changed in it survive a crash; a file system that
    cannot sync folders is let be."""
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
    except OSError as error:
        if not quietly and error.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EACCES):
            raise


def sync_tree(top: Path) -> None:
    """fsync every folder below ``top`` (without recursion: a tree may be deep)."""
    pending = [top]
    while pending:
        folder = pending.pop()
        sync_folder(folder)
        with os.scandir(folder) as entries:
            pending.extend(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))


def remove_tree(path: Path) -> None:
    """Remove a temporary folder; what cannot be removed is left to the next run."""
    for attempt in range(2):
        with contextlib.suppress(RecursionError):
            shutil.rmtree(path, ignore_errors=True)
        if attempt or not os.path.lexists(path):
            return
        _open_up(path)


def _open_up(top: Path) -> None:
    """Let the owner read and write every folder below ``top``: a read-only folder of the
    old tree would keep its entries from being removed (it is being removed as a whole)."""
    pending = [top]
    while pending:
        folder = pending.pop()
        with contextlib.suppress(OSError):
            os.chmod(folder, 0o700)
            with os.scandir(folder) as entries:
                pending.extend(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))


def remove_folders(folders: list[Path]) -> None:
    """Remove folders made here, innermost first, each only if it is still empty."""
    for folder in reversed(folders):
        quietly(os.rmdir, folder)


def quietly(action: Callable[..., object], *arguments: object) -> None:
    """Run one clean-up step; a step that fails must not stop the others."""
    with contextlib.suppress(OSError):
        action(*arguments)


def umask() -> int:
    """The process umask (read by setting it, then restoring it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Held:
    """The signals that arrived while held, to be acted on at the end."""

    def __init__(self) -> None:
        self.caught: list[int] = []

    def record(self, signum: int, frame: object) -> None:
        self.caught.append(signum)


@contextlib.contextmanager
def signals_held() -> Iterator[Held]:
    """Hold SIGINT and SIGTERM until the block ends, then act on the first that came, as
    its handler would have: a write is milliseconds, and an interrupt in the middle of it
    would leave a temporary file no clean-up knows about. (Off the main thread Python
    cannot set handlers; signals are then acted on as they come.)"""
    held = Held()
    previous: dict[int, Any] = {}
    try:
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous[signum] = signal.signal(signum, held.record)
    except ValueError:
        pass
    try:
        yield held
    finally:
        for number, handler in previous.items():
            signal.signal(number, signal.SIG_DFL if handler is None else handler)
        if held.caught:
            os.kill(os.getpid(), held.caught[0])


@contextlib.contextmanager
def locked(folder: Path, held: Held) -> Iterator[None]:
    """An exclusive lock on ``folder`` (the output directory's parent) for the block, so
    that a run never cleans up another's work in progress. Waiting for it, an interrupt is
    acted on at once. Where the folder cannot be opened or locked, no lock."""
    try:
        descriptor: int | None = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        descriptor = None
    try:
        if descriptor is not None:
            _wait_for_lock(descriptor, held)
        yield
    finally:
        if descriptor is not None:
            os.close(descriptor)  # closing releases the lock


def _wait_for_lock(descriptor: int, held: Held) -> None:
    try:
        import fcntl
    except ImportError:
        return
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if held.caught:
                raise KeyboardInterrupt from None  # the held signal follows at the end
            time.sleep(0.02)
        except OSError:
            return  # a file system without locks


TEMPORARY = re.compile(r"\.hg-[a-z0-9_]{8}\.(fmt|part)")
"""A file being written beside the one it replaces (``fmt``'s, or a single output file's),
locked by its writer for as long as the writer lives."""


def mark_alive(descriptor: int) -> None:
    """Lock the temporary file for as long as this process has it open: the lock ends with
    the process, so a later run knows a temporary file nobody holds is a killed run's."""
    with contextlib.suppress(ImportError, OSError):
        import fcntl

        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)


def remove_stale_temporaries(folder: str | Path) -> None:
    """Remove the temporary files a killed ``fmt`` left in ``folder``: those of the form
    :data:`TEMPORARY` no living process holds."""
    try:
        with os.scandir(folder) as entries:
            stale = [
                e.path for e in entries if TEMPORARY.fullmatch(e.name) and e.is_file(follow_symlinks=False)
            ]
    except OSError:
        return
    for path in stale:
        with contextlib.suppress(OSError):
            _remove_if_abandoned(path)


def _remove_if_abandoned(path: str) -> None:
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        with contextlib.suppress(ImportError):
            import fcntl

            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError: alive
        os.unlink(path)
    finally:
        os.close(descriptor)


def replace_file(
    target: Path, text: str, mode: int, suffix: str, owner: os.stat_result | None = None
) -> None:
    """Replace (or create) ``target`` in one step: a locked temporary beside it (``.hg-``,
    random letters, ``suffix``) holding ``text`` with ``mode`` (and ``owner``'s owner and
    group, where allowed), synced, renamed over it, and its folder synced. A kill leaves the
    old file, and a temporary :func:`remove_stale_temporaries` removes later; a failure
    removes the temporary at once."""
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=".hg-", suffix=suffix)
    try:
        mark_alive(descriptor)
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            if owner is not None:
                _keep_owner(temporary, owner)
            os.chmod(temporary, mode)  # after chown, which may clear set-id bits
            os.fsync(handle.fileno())
        os.replace(temporary, target)
    except BaseException:
        remove_quietly(temporary)
        raise
    sync_folder(target.parent, quietly=True)


def _keep_owner(path: str, status: os.stat_result) -> None:
    """Give ``path`` the original's owner and group where allowed: only root can give a
    file away, so for anyone else the new file stays theirs, as an editor's would."""
    if not hasattr(os, "chown"):
        return
    with contextlib.suppress(PermissionError):
        os.chown(path, status.st_uid, status.st_gid)
