"""Writing a set of output files as one transaction: all of them, or none, even when the
process is killed.

`render --out` writes several artifacts (an OCI bundle per task, a manifest per object); a
user who finds half of them new and half stale cannot tell which is which. An exception
can be caught and undone, but SIGKILL (the OOM killer, a CI runner's timeout) cannot: only
the order of the steps on disk keeps the promise. So the output directory is replaced as a
whole:

* **Swap** (the rule). A new directory is built beside the old one, ``.hg-<key>.new-XXXXXXXX``:
  every entry of the old directory hard-linked into it (the user's own files keep their
  inode, owner and permissions, and nothing is copied), its folders made again with their
  modes, the new files written in full. Files and folders are fsync'ed, then one
  ``renameat2(RENAME_EXCHANGE)`` puts the new directory in the old one's place: at every
  instant the directory is the old one or the new one. The old tree, now under the
  temporary name, is removed. Where the file system has no exchange, two renames do it
  (the old directory aside as ``.hg-<key>.old-XXXXXXXX`` first); a kill between them
  leaves no directory, and the next run puts the old one back. The price: the directory
  is a new one (a program that watches the old one with inotify, or sits in it, keeps the
  old one; extended attributes and ACLs of its folders are not carried over), and a file
  another program adds to it while it is rebuilt is lost.
* **In place** (when the directory cannot be swapped: a mount point, the working directory
  or one above it, a tree that cannot be hard-linked, a parent that cannot be written).
  The new files are written and synced in a private folder inside it, ``.hg-XXXXXXXX.d``,
  with a journal of the steps; then each is moved into place, the file it replaces into
  the folder. A kill during those moves leaves a mix that the next run undoes from the
  journal before it writes.

Files of the user's in the directory are kept, and so are files an earlier rendering wrote
that this one does not: hclgpu only adds and replaces. Every temporary name is one of the
forms above (``.hg-`` and random letters, reserved with ``O_EXCL``), so none is ever taken
for a user's file; a run first cleans what a killed run left (a lock on the parent folder
keeps two runs from cleaning each other's work). SIGINT and SIGTERM are held while the
directory is written, milliseconds, and acted on when it is complete, so an interrupt never
lands between two steps.

Every name is checked before anything is written: it must lead inside the directory, to a
file, once, and through no symbolic link: a link in the directory would send a file
elsewhere (a pull request can add ``out/bundle -> /etc``), and outside the swap.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hclgpu.io.durable import (
    create_file,
    entries_quietly,
    locked,
    mode_of,
    quietly,
    remove_folders,
    remove_stale_temporaries,
    remove_tree,
    replace_file,
    signals_held,
    sync_folder,
    sync_tree,
    umask,
)
from hclgpu.io.files import remove_quietly

PREFIX = ".hg-"
"""The start of every temporary name: short, so that it never makes a name too long."""

_WORK = re.compile(r"\.hg-[a-z0-9_]{8}\.d")
"""The private folder of an in-place write, inside the output directory."""
_EARLIER = re.compile(r"\.hg-[a-z0-9_]{8}\.(tmp|bak)")
"""The temporary and backup files earlier versions of hclgpu left when killed: a swap leaves
them behind, an in-place write removes those at the top of the directory."""
_CANNOT_LINK = {errno.EXDEV, errno.EPERM, errno.EACCES, errno.EMLINK, errno.ENOTSUP, errno.ENOSYS}
"""Why a tree cannot be mirrored by hard links: another file system below it, links to
others' files refused (``fs.protected_hardlinks``), a folder that cannot be read, a file
system without hard links. The directory is then written in place."""
_NO_EXCHANGE = {errno.EINVAL, errno.ENOSYS, errno.ENOTSUP}
"""The file system (or the C library) has no RENAME_EXCHANGE: two renames do it."""
_NOT_MOVABLE = {errno.EBUSY, errno.EXDEV}
"""The directory cannot be renamed (a mount point, an overlay's lower folder): in place."""
_JOURNAL = "journal"


class WriteFailed(Exception):
    """Nothing was written; ``str()`` says which file failed and why."""


class _CannotSwap(Exception):
    """The directory cannot be replaced as a whole; it is written in place instead."""


def write_files(directory: str | Path, files: Sequence[tuple[str, str]]) -> None:
    """Write ``files`` (name relative to ``directory``, text) atomically as a set.

    OSError and ValueError (text that cannot be encoded) become WriteFailed, the directory
    as it was; an interrupt during the write is acted on once it is complete."""
    root = Path(directory)
    _check_names(root, [name for name, _ in files])
    writing = _Writing(root, Path(os.path.realpath(root)))
    with signals_held() as held:
        created = writing.ancestors()
        try:
            with locked(writing.target.parent, held):
                writing.run(files)
        except BaseException as error:
            remove_folders(created)
            if not isinstance(error, (OSError, ValueError)):
                raise
            raise WriteFailed(writing.message(error)) from error


def write_file(path: str | Path, text: str) -> None:
    """Create or replace the one file ``path`` names (a report, an imported job) in one step.

    Its folder is any folder (the working directory, ``$HOME``, ``/tmp``), not one hclgpu
    writes as a whole, so it is never rebuilt: the text goes into a locked temporary beside
    the file, synced, renamed over it (a link at that name is replaced, not followed), and
    the folder synced. A temporary a killed run left there is removed by the next run.
    Missing folders above the file are made. OSError and ValueError become WriteFailed,
    the file as it was."""
    target = Path(path)
    folder = Path(os.path.abspath(target.parent))
    try:
        with signals_held():
            os.makedirs(folder, exist_ok=True)
            remove_stale_temporaries(folder)
            replace_file(folder / target.name, text, mode_of(target), ".part")
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise WriteFailed(f"cannot write {target}: {reason}") from error


def recover(directory: str | Path) -> None:
    """Finish what a killed write into ``directory`` left: the old directory back where two
    renames were cut, a half-done in-place commit undone, every temporary removed."""
    target = Path(os.path.realpath(directory))
    with signals_held() as held, locked(target.parent, held):
        _recover(target)


# ---- names --------------------------------------------------------------------------------


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


# ---- one write ----------------------------------------------------------------------------


@dataclass
class _Writing:
    """One :func:`write_files` call: where it writes, and what its messages name."""

    root: Path
    """The directory as given (messages name files under it)."""
    target: Path
    """The directory, links resolved: what is swapped, or written in place."""
    current: Path | None = None
    """The file being written, for the message."""
    places: dict[Path, Path | None] = field(default_factory=dict)
    """Temporary folders, by the path messages show for what is inside (None: hidden)."""

    def ancestors(self) -> list[Path]:
        """Make the folders above the directory that are missing; those made, outermost first."""
        missing: list[Path] = []
        folder = self.target.parent
        while not os.path.lexists(folder):
            missing.append(folder)
            folder = folder.parent
        created: list[Path] = []
        try:
            for path in reversed(missing):
                os.mkdir(path)
                created.append(path)
                sync_folder(path.parent)
        except BaseException as error:
            remove_folders(created)
            if isinstance(error, OSError):
                raise WriteFailed(self.message(error)) from error
            raise
        return created

    def run(self, files: Sequence[tuple[str, str]]) -> None:
        """Clean what a killed run left, then write: swapped in where the directory allows."""
        _recover(self.target)
        if os.path.lexists(self.target) and not os.path.isdir(self.target):
            self.current = self.root
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(self.root))
        for name, _ in files:
            self.preflight(name)
        if os.path.isdir(self.target) and not _swappable(self.target):
            _InPlace(self).run(files)
            return
        try:
            _Swap(self).run(files)
        except _CannotSwap:
            _InPlace(self).run(files)

    def file(self, name: str) -> None:
        self.current = self.root / name

    def preflight(self, name: str) -> None:
        """Refuse a folder on the way to the file that is a symbolic link (the file would land
        wherever it points, outside the swap), and a folder where the file goes."""
        self.file(name)
        parts = Path(name).parts
        for depth in range(1, len(parts) + 1):
            try:
                status = os.lstat(self.target.joinpath(*parts[:depth]))
            except (FileNotFoundError, NotADirectoryError):
                return  # made, or refused, when it is written
            if depth < len(parts) and stat.S_ISLNK(status.st_mode):
                link = self.root.joinpath(*parts[:depth])
                reason = (
                    f"{link} is a symbolic link; hclgpu does not write through links in the output directory"
                )
                raise OSError(errno.ELOOP, reason, str(self.current))
            if depth == len(parts) and stat.S_ISDIR(status.st_mode):
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(self.current))

    def message(self, error: OSError | ValueError) -> str:
        """``cannot write FILE: reason``: the file being written, and the path the failing
        call was about when that is another one (a folder on the way), never a temporary."""
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        other = error.filename if isinstance(error, OSError) else None
        if isinstance(other, (str, bytes)):
            path = self.shown(Path(os.fsdecode(other)))
            if path is not None and path != self.current:
                reason = f"{path}: {reason}"
        return f"cannot write {self.current if self.current is not None else self.root}: {reason}"

    def shown(self, path: Path) -> Path | None:
        """``path`` as the user knows it: inside a temporary folder, the place it stands for."""
        for folder, shown in [*self.places.items(), (self.target, self.root)]:
            if path == folder or folder in path.parents:
                return None if shown is None else shown / path.relative_to(folder)
        return None if path.name.startswith(PREFIX) else path


def _swappable(target: Path) -> bool:
    """Whether the directory can be replaced as a whole: not the root of the file system or
    a mount point (neither can be renamed), and not the working directory or a folder above
    it (a shell there would be left in a deleted folder), and not a tree of more than
    :data:`MAX_MIRRORED` entries (``--out ~`` would mirror a whole home directory)."""
    if target.parent == target:
        return False
    with contextlib.suppress(OSError):
        here = os.getcwd()
        if here == str(target) or here.startswith(str(target) + os.sep):
            return False
    return os.lstat(target).st_dev == os.lstat(target.parent).st_dev and _small(target)


MAX_MIRRORED = 10_000
"""The most entries an output directory may hold to be swapped: a swap hard-links each one
into the new tree, and a directory this large is not one a rendering made."""


def _small(top: Path) -> bool:
    """Whether the tree below ``top`` holds at most :data:`MAX_MIRRORED` entries (counted
    only that far)."""
    seen = 0
    pending = [top]
    while pending:
        for entry in entries_quietly(pending.pop()):
            seen += 1
            if seen > MAX_MIRRORED:
                return False
            if entry.is_dir(follow_symlinks=False):
                pending.append(Path(entry.path))
    return True


# ---- the swap -----------------------------------------------------------------------------


def _key(target: Path) -> str:
    """What names the temporary folders of ``target`` beside it: a digest of its name, so
    that a long name never makes theirs too long."""
    from hclgpu.digests import sha256_hex

    return sha256_hex(os.fsencode(target.name))[:16]


_SWAP = re.compile(r"\.hg-(?P<key>[0-9a-f]{16})\.(?P<kind>new|old)-(?P<random>[a-z0-9_]{8})")
"""A swap folder beside the output directory: the new tree being built (or, once swapped,
the old one being removed), or the old directory moved aside."""


class _Swap:
    """The output directory built anew beside itself and exchanged with it in one step."""

    def __init__(self, writing: _Writing) -> None:
        self.writing = writing
        self.target = writing.target
        self.existed = os.path.isdir(self.target)

    def run(self, files: Sequence[tuple[str, str]]) -> None:
        self.writing.current = self.writing.root
        staging = self._staging()
        self.writing.places[staging] = self.writing.root
        try:
            folders = _mirror(self.target, staging) if self.existed else []
            _write_all(self.writing, staging, self.target, files)
            _apply_modes(folders)
            _match_folder(staging, self.target if self.existed else None)
            sync_tree(staging)
            old = self._commit(staging)
        except BaseException:
            remove_tree(staging)
            raise
        if old is not None:
            remove_tree(old)

    def _staging(self) -> Path:
        try:
            return Path(tempfile.mkdtemp(prefix=f"{PREFIX}{_key(self.target)}.new-", dir=self.target.parent))
        except OSError as error:
            if self.existed and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise _CannotSwap from error  # a parent that cannot be written: in place
            raise

    def _commit(self, staging: Path) -> Path | None:
        """Put ``staging`` in the directory's place; the path the old tree is now at."""
        self.writing.current = self.writing.root
        parent = self.target.parent
        if not self.existed:
            os.rename(staging, self.target)
            sync_folder(parent, quietly=True)  # done: from here on, nothing is undone
            return None
        try:
            _exchange(staging, self.target)
        except OSError as error:
            if error.errno in _NOT_MOVABLE:
                raise _CannotSwap from error
            if error.errno not in _NO_EXCHANGE:
                raise
            return self._two_renames(staging)
        sync_folder(parent, quietly=True)
        return staging

    def _two_renames(self, staging: Path) -> Path:
        """The swap as two renames: the old directory aside, the new one in (a kill between
        them is repaired by the next run, which moves the old one back)."""
        aside = staging.with_name(staging.name.replace(".new-", ".old-"))
        try:
            os.rename(self.target, aside)
        except OSError as error:
            if error.errno in _NOT_MOVABLE:
                raise _CannotSwap from error
            raise
        try:
            os.rename(staging, self.target)
        except BaseException:
            os.rename(aside, self.target)
            raise
        sync_folder(self.target.parent, quietly=True)
        return aside


def _mirror(source: Path, copy: Path) -> list[tuple[Path, os.stat_result]]:
    """Make ``copy`` hold what ``source`` holds: folders made again, every other entry (a
    file, a link, a FIFO) hard-linked, so that nothing is copied and the user's files keep
    their identity. The folders made, with the status to give them once written."""
    folders: list[tuple[Path, os.stat_result]] = []
    device = os.lstat(source).st_dev
    pending = [(source, copy)]
    while pending:
        here, there = pending.pop()
        for entry in _entries(here):
            if _WORK.fullmatch(entry.name) or _EARLIER.fullmatch(entry.name):
                continue  # hclgpu's own leftovers do not move into the new directory
            made = there / entry.name
            status = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(status.st_mode):
                if status.st_dev != device:
                    raise _CannotSwap(f"{entry.path} is another file system")
                os.mkdir(made, 0o700)
                folders.append((made, status))
                pending.append((Path(entry.path), made))
            else:
                _link(entry.path, made)
    return folders


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as found:
            return list(found)
    except OSError as error:
        if error.errno in _CANNOT_LINK:
            raise _CannotSwap(str(error)) from error
        raise


def _link(source: str, link: Path) -> None:
    try:
        os.link(source, link, follow_symlinks=False)
    except OSError as error:
        if error.errno in _CANNOT_LINK:
            raise _CannotSwap(str(error)) from error
        raise


def _write_all(writing: _Writing, into: Path, old: Path, files: Sequence[tuple[str, str]]) -> None:
    """Write each file at its name in ``into`` (a file linked there from ``old`` is unlinked
    first, never written through), with the permissions of the file it replaces."""
    for name, text in files:
        writing.file(name)
        final = into / name
        _make_folders(final.parent, into)
        mode = _mode(old / name, text)
        if os.path.lexists(final):
            os.unlink(final)
        create_file(final, text, mode)


def _mode(replaced: Path, text: str) -> int:
    """The permissions of the file it replaces (or what open() gives a new one); a script
    (``#!``) is also executable by whoever may read it, as `chmod +x` would make it."""
    mode = mode_of(replaced)
    return mode | (mode & 0o444) >> 2 if text.startswith("#!") else mode


def _make_folders(folder: Path, top: Path) -> None:
    missing = []
    while folder != top and not os.path.lexists(folder):
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        os.mkdir(path)


def _apply_modes(folders: list[tuple[Path, os.stat_result]]) -> None:
    """Give each folder made again the mode and owner of the one it stands for (after the
    files are written, so that a read-only folder could take them)."""
    for path, status in reversed(folders):
        _give_owner(path, status)
        os.chmod(path, stat.S_IMODE(status.st_mode))


def _match_folder(staging: Path, old: Path | None) -> None:
    """The new directory gets the old one's mode and owner, or, new, what mkdir gives."""
    if old is None:
        os.chmod(staging, 0o777 & ~umask())
        return
    status = os.lstat(old)
    _give_owner(staging, status)
    os.chmod(staging, stat.S_IMODE(status.st_mode))


def _give_owner(path: Path, status: os.stat_result) -> None:
    """Give a folder made again the owner and group of the one it stands for. Only root can
    give a folder away: a directory of someone else's (a team's shared folder) that the new
    one could not be given is written in place instead, keeping its owner."""
    mine = os.lstat(path)
    if (mine.st_uid, mine.st_gid) != (status.st_uid, status.st_gid) and hasattr(os, "chown"):
        try:
            os.chown(path, status.st_uid, status.st_gid)
        except PermissionError as error:
            raise _CannotSwap(str(error)) from error


def _exchange(first: Path, second: Path) -> None:
    """Swap the two names in one step (Linux ``renameat2`` with RENAME_EXCHANGE);
    OSError ENOSYS where the C library has no such call."""
    call = _renameat2()
    if call is None:
        raise OSError(errno.ENOSYS, os.strerror(errno.ENOSYS), str(first))
    at_cwd, exchange = -100, 2  # AT_FDCWD, RENAME_EXCHANGE
    if call(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), exchange) != 0:
        import ctypes

        code = ctypes.get_errno()
        raise OSError(code, os.strerror(code), str(first), None, str(second))


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    try:
        import ctypes

        call = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError, ImportError):
        return None
    call.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    call.restype = ctypes.c_int
    return call


# ---- in place -----------------------------------------------------------------------------


class _InPlace:
    """The files written into the directory itself, from a private folder, with a journal
    that lets the next run undo a commit a kill cut short."""

    def __init__(self, writing: _Writing) -> None:
        self.writing = writing
        self.target = writing.target

    def run(self, files: Sequence[tuple[str, str]]) -> None:
        self.writing.current = self.writing.root
        folders = _planned_folders(self.target, files)
        steps = [(name, os.path.lexists(self.target / name)) for name, _ in files]
        work = Path(tempfile.mkdtemp(prefix=PREFIX, suffix=".d", dir=self.target))
        self.writing.places[work] = None
        journal = _Journal(self.target, work, folders, steps)
        try:
            journal.save()
            self._stage(journal, files)
            self._commit(journal)
        except BaseException:
            quietly(journal.undo)
            remove_tree(work)
            raise
        remove_tree(work)

    def _stage(self, journal: _Journal, files: Sequence[tuple[str, str]]) -> None:
        for folder in journal.folders:
            self.writing.file(next(name for name, _ in files if name.startswith(folder + "/")))
            os.mkdir(self.target / folder)
        for index, (name, text) in enumerate(files):
            self.writing.file(name)
            create_file(journal.new(index), text, _mode(self.target / name, text))
        sync_folder(journal.work)

    def _commit(self, journal: _Journal) -> None:
        for index, (name, replaces) in enumerate(journal.steps):
            self.writing.file(name)
            if replaces:
                os.replace(self.target / name, journal.old(index))
            os.replace(journal.new(index), self.target / name)
        for folder in journal.touched():
            sync_folder(folder)
        journal.close()


def _planned_folders(target: Path, files: Sequence[tuple[str, str]]) -> list[str]:
    """The folders the files need that are missing, outermost first, relative to ``target``."""
    planned: list[str] = []
    for name, _ in files:
        parts = Path(name).parts[:-1]
        for depth in range(1, len(parts) + 1):
            folder = str(Path(*parts[:depth]))
            if folder not in planned and not os.path.lexists(target / folder):
                planned.append(folder)
    return planned


@dataclass
class _Journal:
    """What an in-place write will do, saved (and synced) before it does any of it."""

    target: Path
    work: Path
    folders: list[str]
    """Folders to make, outermost first (relative to ``target``)."""
    steps: list[tuple[str, bool]]
    """Each file's name, and whether a file of that name was there to replace."""

    def new(self, index: int) -> Path:
        return self.work / f"{index}.new"

    def old(self, index: int) -> Path:
        return self.work / f"{index}.old"

    def save(self) -> None:
        text = json.dumps({"folders": self.folders, "steps": self.steps})
        create_file(self.work / _JOURNAL, text, 0o600)
        sync_folder(self.work)

    @classmethod
    def load(cls, target: Path, work: Path) -> _Journal | None:
        """The journal a killed run left in ``work``; None when it had not finished writing
        it (then it had not begun to change the directory) or had committed."""
        try:
            data = json.loads((work / _JOURNAL).read_text(encoding="utf-8"))
            steps = [(str(name), bool(replaces)) for name, replaces in data["steps"]]
            return cls(target, work, [str(f) for f in data["folders"]], steps)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def touched(self) -> list[Path]:
        """The folders whose entries the commit changed."""
        found = {self.work, *((self.target / name).parent for name, _ in self.steps)}
        found.update((self.target / folder).parent for folder in self.folders)
        return sorted(found)

    def close(self) -> None:
        """The commit point: with the journal gone, the new files stay."""
        os.unlink(self.work / _JOURNAL)
        sync_folder(self.work, quietly=True)

    def undo(self) -> None:
        """Put back every file replaced, remove every file and folder added; each step is
        judged from what is on disk, so that undoing twice is undoing once."""
        for index, (name, replaces) in reversed(list(enumerate(self.steps))):
            final = self.target / name
            if os.path.lexists(self.old(index)):
                os.replace(self.old(index), final)
            elif not replaces and not os.path.lexists(self.new(index)) and os.path.lexists(final):
                os.unlink(final)  # a new file that was moved into place
        remove_folders([self.target / folder for folder in self.folders])
        for folder in self.touched():
            sync_folder(folder, quietly=True)


# ---- what a killed run left -------------------------------------------------------------


def _recover(target: Path) -> None:
    """Repair and clean what killed writes into ``target`` left (under the lock)."""
    parent = target.parent
    key = _key(target)
    with contextlib.suppress(FileNotFoundError, NotADirectoryError):
        for entry in entries_quietly(parent):
            found = _SWAP.fullmatch(entry.name)
            if found is None or found["key"] != key or not entry.is_dir(follow_symlinks=False):
                continue
            if found["kind"] == "old" and not os.path.lexists(target):
                os.rename(entry.path, target)  # cut between two renames: the old one returns
                sync_folder(parent)
            else:
                remove_tree(Path(entry.path))
    if not os.path.isdir(target) or os.path.islink(target):
        return
    for entry in entries_quietly(target):
        if _WORK.fullmatch(entry.name) and entry.is_dir(follow_symlinks=False):
            journal = _Journal.load(target, Path(entry.path))
            if journal is not None:
                journal.undo()
            remove_tree(Path(entry.path))
        elif _EARLIER.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
            remove_quietly(entry.path)
