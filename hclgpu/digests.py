"""SHA-256 for the digests hclgpu names and checks its own files by, without OpenSSL.

``import hashlib`` loads OpenSSL's libcrypto: 2-3 ms of every start of a command that needs
one digest of a few bytes (a cache record's name, a rendered file's suffix, the warm
re-check's key). The interpreter carries its own SHA-256 (the ``_sha2`` module, ``_sha256``
before Python 3.12), which gives the same digests. What hashes many large inputs (every file
of a tree, for the check cache) keeps using hashlib, which is faster per byte.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import Protocol


class Hash(Protocol):
    def update(self, data: bytes, /) -> None: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...


def sha256(data: bytes = b"") -> Hash:
    """A SHA-256 hash of ``data``, as ``hashlib.sha256(data)``."""
    return _constructor()(data)


def sha256_digest(data: bytes) -> bytes:
    """The 32-byte SHA-256 of ``data``."""
    return sha256(data).digest()


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hexadecimal."""
    return sha256(data).hexdigest()


@cache
def _constructor() -> Callable[[bytes], Hash]:
    for name in ("_sha2", "_sha256"):
        try:
            constructor: Callable[[bytes], Hash] = importlib.import_module(name).sha256
            return constructor
        except (ImportError, AttributeError):
            continue
    import hashlib  # an interpreter built without its own SHA-2

    return hashlib.sha256
