"""Small records hclgpu keeps in the user's cache to skip work it has done before.

A record is plain data (what :mod:`marshal` writes: numbers, strings, lists, tuples, dicts),
stored as the SHA-256 of its bytes followed by the bytes, and written atomically. It is
trusted only when whole: a damaged file (a disk error, a copy cut short, another program's
bytes) reads as no record, so the work is done again and the record replaced; nothing is
ever half-read. The parser's tables and the parsed configuration files are kept this way.
Records are not check results: ``--no-cache`` keeps them.
"""

from __future__ import annotations

import contextlib
import marshal
import os

_DIGEST = 32


def cache_dir() -> str:
    """``$XDG_CACHE_HOME/hclgpu``, else ``~/.cache/hclgpu``: where every cache of hclgpu is
    (the parser's tables, configuration documents, fleet summaries, check results)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hclgpu")


def pack(data: object) -> bytes:
    """The record's bytes; ValueError for a value marshal cannot write (a date, an object)."""
    from hclgpu.digests import sha256_digest  # here: the clean index takes only cache_dir

    payload = marshal.dumps(data)  # type: ignore[arg-type]
    return sha256_digest(payload) + payload


def unpack(data: bytes) -> tuple[bool, object]:
    """(True, the data) for a whole record, else (False, None)."""
    from hclgpu.digests import sha256_digest

    digest, payload = data[:_DIGEST], data[_DIGEST:]
    if sha256_digest(payload) != digest:
        return False, None
    try:
        return True, marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return False, None


def read_record(path: str) -> tuple[bool, object]:
    """The record in ``path``: (True, data), or (False, None) when there is none or it is damaged."""
    from hclgpu.io.files import read_bytes

    try:
        return unpack(read_bytes(path)[0])  # a regular file only: never a FIFO left there
    except OSError:
        return False, None


def write_record(path: str, data: object) -> None:
    """Store ``data`` in ``path`` atomically; a value marshal cannot write, or a cache that
    cannot be written, leaves no record (it only costs speed)."""
    try:
        packed = pack(data)
    except ValueError:
        return
    with contextlib.suppress(OSError):
        write_atomically(path, packed)


def write_atomically(path: str, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``."""
    import tempfile

    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".record-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
