"""Reading a file a user named, within hclgpu's limits: job files, var-files, node
inventories, nvidia-smi output, CDI specs and files to import all come through here.

A file is read only when it is a regular file of at most :data:`MAX_BYTES`: a device such
as ``/dev/zero`` or a FIFO nobody writes to would never end, and a huge file would cost
twenty times its size in memory once parsed. The file is opened without blocking, so
naming a FIFO is refused at once instead of waiting for a writer.
"""

from __future__ import annotations

import errno
import os
import stat

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a warm re-check's start-up)
if TYPE_CHECKING:
    from typing import BinaryIO

    from hclgpu.codes.base import Code

MAX_BYTES = 16 * 1024 * 1024
"""The largest input read (16 MiB): the biggest real job files are well under 1 MiB, and
parsing costs about 20 bytes of memory per byte of input."""
MAX_MIB = MAX_BYTES // (1024 * 1024)


class Unreadable(OSError):
    """A file that is not read because of its kind or its size; ``str()`` says why without
    naming it (callers name it as their messages do). ``code`` is the diagnostic for it:
    HG013 when it is too large, HG020 otherwise."""

    def __init__(self, reason: str, too_large: bool = False) -> None:
        super().__init__(reason)
        self.too_large = too_large

    @property
    def code(self) -> Code:
        """Looked up when asked for: a warm re-check reads files and no code table."""
        from hclgpu.codes.syntax import HG013, HG020

        return HG013 if self.too_large else HG020


class NotUtf8(ValueError):
    """Bytes that are not UTF-8 text, with where the first bad byte is (``line`` and
    ``column`` 1-based, the column in characters; ``position`` a character offset into
    ``text``, the bytes decoded with replacement characters)."""

    def __init__(self, data: bytes, error: UnicodeDecodeError) -> None:
        self.offset = error.start
        self.byte = data[error.start]
        self.text = data.decode("utf-8", errors="replace")
        self.position = len(data[: error.start].decode("utf-8", errors="replace"))
        self.line = self.text.count("\n", 0, self.position) + 1
        self.column = self.position - (self.text.rfind("\n", 0, self.position) + 1) + 1
        super().__init__(f"invalid UTF-8: byte 0x{self.byte:02x} at byte offset {self.offset}")


def read_bytes(path: str | os.PathLike[str]) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at ``path`` and its status as it was read.

    Raises :class:`Unreadable` for a FIFO, a device or a socket, and for a file over
    :data:`MAX_BYTES` (checked before reading, and again after, for files such as those
    in ``/proc`` that report no size); ``IsADirectoryError`` for a directory; any other
    ``OSError`` as the system gives it."""
    # non-blocking: opening a FIFO with no writer must not wait for one
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(descriptor, "rb") as handle:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(status.st_mode):
            raise Unreadable(f"not a regular file ({_kind(status.st_mode)})")
        if status.st_size > MAX_BYTES:
            size = -(-status.st_size // (1024 * 1024))
            raise Unreadable(f"the file is {size} MiB; hclgpu reads at most {MAX_MIB} MiB", too_large=True)
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Unreadable(f"the file is larger than {MAX_MIB} MiB, the most hclgpu reads", too_large=True)
    return data, status


def read_stream(stream: BinaryIO) -> bytes:
    """Standard input (or another stream) read up to :data:`MAX_BYTES`; :class:`Unreadable`
    when there is more."""
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Unreadable(f"the input is larger than {MAX_MIB} MiB", too_large=True)
    return data


def decode_utf8(data: bytes) -> str:
    """``data`` as UTF-8 text; :class:`NotUtf8`, located, when it is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotUtf8(data, error) from None


def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of the file at ``path`` (see :func:`read_bytes` and :func:`decode_utf8`)."""
    return decode_utf8(read_bytes(path)[0])


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "not a file"


def remove_quietly(path: str) -> None:
    """Remove ``path`` if it is there; a file that cannot be removed only costs space."""
    try:  # noqa: SIM105 (contextlib is one more import on the warm path)
        os.unlink(path)
    except OSError:
        pass


def read_side_file(path: str) -> str:
    """The UTF-8 text of a file named on the command line beside the job (a saved
    nvidia-smi report, say), read as :func:`read_text` reads; the OSError and ValueError
    messages name the file, and the line and column of the first byte that is not UTF-8."""
    try:
        return read_text(path)
    except NotUtf8 as error:
        raise ValueError(f"{path}:{error.line}:{error.column}: not UTF-8 text ({error})") from None
    except OSError as error:
        raise OSError(f"cannot read {path}: {error.strerror or error}") from None


def read_text_or_stdin(path: str) -> str:
    """The file at ``path``, or standard input for ``-``: at most :data:`MAX_BYTES` of UTF-8
    text (OSError when it cannot be read, :class:`NotUtf8` when it is not text)."""
    import sys

    return decode_utf8(read_stream(sys.stdin.buffer) if path == "-" else read_bytes(path)[0])
