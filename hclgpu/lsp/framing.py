"""The base protocol's framing (``Content-Length: N\\r\\n\\r\\n`` then N bytes of body), read so
that no client can stall or sink the server.

pygls reads a frame on trust: one header it cannot parse, or a length that does not match
the body, leaves it out of step with the stream for good, and the server never answers
again; a huge length makes it wait for (and allocate) the bytes. Here a header that is not
valid is reported and the stream skipped to the next ``Content-Length:``, a header block or
a length over its limit is refused before anything is allocated for it, and a body that
holds a raw header is cut there: JSON cannot contain a raw CR LF, so such a body is broken
anyway, and its length overstated the bytes that were really sent.

No I/O here: :class:`Framer` is fed bytes as they come and gives back bodies and problems.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CONTENT_LENGTH = 64 * 1024 * 1024
"""The longest body accepted (bytes): a larger one is refused unread, never allocated."""
MAX_HEADER_BYTES = 8 * 1024
"""The longest header block accepted (bytes, every field): the two a client sends take ~80."""

_END = b"\r\n\r\n"
_FIELD = re.compile(rb"([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*")
_NEXT_HEADER = re.compile(rb"content-length:", re.IGNORECASE)
_HEADER_IN_BODY = re.compile(rb"content-length:[ \t]{0,8}[0-9]{1,20}[ \t]{0,8}\r\n", re.IGNORECASE)
_HEADER_IN_BODY_WIDTH = 64
"""At least the longest match of ``_HEADER_IN_BODY``: a body is searched again this far back,
for a header split between two reads."""


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in the stream that is not a frame, for the server's log."""

    reason: str


class BadHeader(ValueError):
    """A header block that gives no usable Content-Length."""


class Framer:
    """Splits the client's byte stream into message bodies, in step again after any damage."""

    def __init__(self, max_body: int = MAX_CONTENT_LENGTH, max_header: int = MAX_HEADER_BYTES) -> None:
        self.max_body = max_body
        self.max_header = max_header
        self._buffer = bytearray()
        self._length: int | None = None
        """The length of the body being read; None while reading a header."""
        self._searched = 0
        """How much of the body being read was searched for a raw header."""
        self._lost = False
        """Skipping damage: only the first problem of a run of it is reported."""

    @property
    def pending(self) -> int:
        """The bytes held for a frame not yet complete: at most a body's length, or the
        header block's limit, and one read."""
        return len(self._buffer)

    def feed(self, data: bytes) -> list[bytes | Problem]:
        """The bodies (and problems) that ``data`` completes, in stream order."""
        self._buffer += data
        found: list[bytes | Problem] = []
        while self._body(found) if self._length is not None else self._header(found):
            pass
        return found

    def _header(self, found: list[bytes | Problem]) -> bool:
        """Read one header block; False when more bytes are needed."""
        buffer = self._buffer
        blank = 0
        while blank < len(buffer) and buffer[blank] in b"\r\n":
            blank += 1
        del buffer[:blank]  # a stray line end between two messages is harmless
        end = buffer.find(_END, 0, self.max_header)
        if end < 0:
            if len(buffer) < self.max_header:
                return False
            return self._skip(found, f"a header block longer than {self.max_header} bytes")
        try:
            length = content_length(bytes(buffer[:end]), self.max_body)
        except BadHeader as bad:
            return self._skip(found, str(bad))
        del buffer[: end + len(_END)]
        self._length, self._searched, self._lost = length, 0, False
        return True

    def _body(self, found: list[bytes | Problem]) -> bool:
        """Read the body of the header just read; False when more bytes are needed."""
        buffer, length = self._buffer, self._length
        assert length is not None
        start = max(0, self._searched - _HEADER_IN_BODY_WIDTH)
        header = _HEADER_IN_BODY.search(buffer, start, min(len(buffer), length))
        if header is not None:
            found.append(Problem(f"a header inside a body of {length} bytes: its length overstated it"))
            length = header.start()
        elif len(buffer) < length:
            self._searched = len(buffer)
            return False
        found.append(bytes(buffer[:length]))
        del buffer[:length]
        self._length = None
        return True

    def _skip(self, found: list[bytes | Problem], reason: str) -> bool:
        """Drop bytes up to the next ``Content-Length:``; False when none is in sight yet."""
        if not self._lost:
            found.append(Problem(f"skipped to the next header: {reason}"))
            self._lost = True
        buffer = self._buffer
        after = _NEXT_HEADER.search(buffer, 1)
        if after is not None:
            del buffer[: after.start()]
            return True
        del buffer[: max(1, len(buffer) - len(b"content-length:") + 1)]  # keep what may begin one
        return False


def content_length(block: bytes, limit: int) -> int:
    """The body length a header block (its fields, without the blank line) gives."""
    length = None
    for line in block.split(b"\r\n"):
        field = _FIELD.fullmatch(line)
        if field is None:
            raise BadHeader(f"not a header field: {_shown(line)}")
        if field[1].lower() != b"content-length":
            continue  # Content-Type, or a field of a newer protocol
        value = field[2]
        if not value.isdigit():
            raise BadHeader(f"Content-Length is not a number of bytes: {_shown(value)}")
        if len(value) > len(str(limit)) or int(value) > limit:  # int() never reads 5000 digits
            raise BadHeader(f"Content-Length {_shown(value)} is over the limit of {limit} bytes")
        if length is not None and length != int(value):
            raise BadHeader("two different Content-Length fields")
        length = int(value)
    if length is None:
        raise BadHeader("no Content-Length")
    return length


def _shown(data: bytes) -> str:
    """``data`` quoted for a log line, at most 40 bytes of it."""
    return repr(data[:40].decode("latin-1")) + ("..." if len(data) > 40 else "")
