"""Hashing, bcrypt, RSA decryption and UUIDs (go-cty-funcs ``crypto`` and ``uuid``).

``bcrypt`` is implemented here (the standard library has no Blowfish): the
EksBlowfish setup of ``golang.org/x/crypto/bcrypt`` with the ``$2a$`` prefix Go emits.
Its constants are the hexadecimal digits of pi, computed on first use rather than
stored. Pure Python needs a few seconds at the default cost of 10, so when the system's
``libcrypt`` (libxcrypt) is present it computes the same hash; the tests check both
agree. ``rsadecrypt`` parses a PEM PKCS #1 key with a minimal DER reader and undoes
PKCS #1 v1.5 padding with Python's ``pow``; like Nomad it refuses other key formats.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache

from hclgpu.eval.functions.base import CallError, Function, Param, define, go_quote, whole

__all__ = ["TABLE", "bcrypt_hash"]

_STR = Param("str", "string")

# --- hashes ------------------------------------------------------------------------------


def _hasher(algorithm: str) -> Callable[[str], str]:
    """A function returning the hex digest of a string's UTF-8 bytes."""

    def digest(value: str) -> str:
        """The hex digest (hashlib is imported only when a hash is asked for)."""
        import hashlib

        return hashlib.new(algorithm, value.encode("utf-8", "surrogatepass")).hexdigest()

    digest.__doc__ = f"The {algorithm} digest of the UTF-8 bytes, in lower-case hex."
    return digest


# --- bcrypt ------------------------------------------------------------------------------

_BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_STD_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_MASK = 0xFFFFFFFF


@cache
def _pi_words() -> tuple[int, ...]:
    """The first 1042 32-bit words of pi's fraction: Blowfish's P-array and S-boxes."""
    words = 18 + 4 * 256
    bits = 32 * words + 64
    one = 1 << bits

    def arctan_inverse(x: int) -> int:
        """``arctan(1/x)`` in fixed point (Machin's formula needs 1/5 and 1/239)."""
        total, term, k, sign = 0, one // x, 1, 1
        while term:
            total += sign * (term // k)
            term //= x * x
            k += 2
            sign = -sign
        return total

    pi = 16 * arctan_inverse(5) - 4 * arctan_inverse(239)
    fraction = (pi - 3 * one) >> 64
    return tuple((fraction >> (32 * (words - 1 - i))) & _MASK for i in range(words))


def _bcrypt_b64encode(data: bytes) -> str:
    """bcrypt's base64: its own alphabet, no padding."""
    import base64

    text = base64.b64encode(data).decode("ascii").rstrip("=")
    return text.translate(str.maketrans(_STD_ALPHABET, _BCRYPT_ALPHABET))


def _bcrypt_b64decode(text: str) -> bytes:
    """Inverse of :func:`_bcrypt_b64encode`."""
    import base64

    standard = text.translate(str.maketrans(_BCRYPT_ALPHABET, _STD_ALPHABET))
    return base64.b64decode(standard + "=" * (-len(standard) % 4))


class _Blowfish:
    """The Blowfish state that EksBlowfish evolves (P-array and four S-boxes)."""

    def __init__(self) -> None:
        words = _pi_words()
        self.p = list(words[:18])
        self.s = [list(words[18 + 256 * i : 18 + 256 * (i + 1)]) for i in range(4)]

    def encrypt(self, left: int, right: int) -> tuple[int, int]:
        """Encrypt one 64-bit block given as two 32-bit halves."""
        p = self.p
        s0, s1, s2, s3 = self.s
        left ^= p[0]
        for i in range(1, 17, 2):
            right ^= (
                (((s0[left >> 24] + s1[(left >> 16) & 255]) & _MASK) ^ s2[(left >> 8) & 255]) + s3[left & 255]
            ) & _MASK ^ p[i]
            left ^= (
                (((s0[right >> 24] + s1[(right >> 16) & 255]) & _MASK) ^ s2[(right >> 8) & 255])
                + s3[right & 255]
            ) & _MASK ^ p[i + 1]
        return right ^ p[17], left

    def expand(self, key: list[int], salt: list[int] | None) -> None:
        """Blowfish key expansion: XOR the key into P, then re-encrypt all tables.

        ``key`` and ``salt`` are already cycled to 18 and 4 words; ``salt`` None means
        the unsalted ``ExpandKey``.
        """
        p = self.p
        for i in range(18):
            p[i] ^= key[i]
        left = right = 0
        position = 0
        for table in (p, *self.s):
            for i in range(0, len(table), 2):
                if salt is not None:
                    left ^= salt[position]
                    right ^= salt[position + 1]
                    position = (position + 2) % 4
                left, right = self.encrypt(left, right)
                table[i], table[i + 1] = left, right


def _cycle_words(data: bytes, count: int) -> list[int]:
    """``count`` big-endian words read cyclically from ``data`` (Go's ``getNextWord``)."""
    stream = (data * (4 * count // len(data) + 1))[: 4 * count]
    return [int.from_bytes(stream[i : i + 4], "big") for i in range(0, 4 * count, 4)]


def _bcrypt_pure(password: bytes, salt: bytes, cost: int) -> bytes:
    """The 23 raw bytes of a bcrypt hash (x/crypto's ``bcrypt``)."""
    key = _cycle_words(password + b"\x00", 18)
    salt_key = _cycle_words(salt, 18)
    state = _Blowfish()
    state.expand(key, _cycle_words(salt, 4))
    for _ in range(1 << cost):
        state.expand(key, None)
        state.expand(salt_key, None)
    text = _cycle_words(b"OrpheanBeholderScryDoubt", 6)
    for _ in range(64):
        for j in range(0, 6, 2):
            text[j], text[j + 1] = state.encrypt(text[j], text[j + 1])
    return b"".join(word.to_bytes(4, "big") for word in text)[:23]


_LIBCRYPT_LOCK = threading.Lock()


@cache
def _libcrypt() -> Callable[[bytes, bytes], bytes | None] | None:
    """The system's ``crypt(3)`` when it is libxcrypt (which knows ``$2a$``), else None."""
    try:
        import ctypes

        library = ctypes.CDLL("libcrypt.so.1")
        function = library.crypt
    except (OSError, AttributeError):
        return None
    function.restype = ctypes.c_char_p
    function.argtypes = [ctypes.c_char_p, ctypes.c_char_p]

    def call(password: bytes, setting: bytes) -> bytes | None:
        """``crypt`` uses a static buffer, hence the lock."""
        with _LIBCRYPT_LOCK:
            result: bytes | None = function(password, setting)
        return result

    return call


def bcrypt_hash(password: bytes, salt: bytes, cost: int, use_system: bool = True) -> str:
    """``$2a$`` bcrypt of ``password`` with a 16-byte ``salt``; the system's crypt if it can."""
    setting = f"$2a${cost:02d}${_bcrypt_b64encode(salt)}"
    system = _libcrypt() if use_system and b"\x00" not in password else None
    if system is not None:
        result = system(password, setting.encode("ascii"))
        if result is not None and result.startswith(setting.encode("ascii")) and len(result) == 60:
            return result.decode("ascii")
    return setting + _bcrypt_b64encode(_bcrypt_pure(password, salt, cost))


MAX_BCRYPT_COST = 14
"""The highest cost hclgpu computes: about a second with the system's crypt(3). Each step
doubles the time (cost 31 takes days), and the hash is random-salted, so no check or
output of hclgpu depends on its value."""
MAX_BCRYPT_COST_IN_PYTHON = 10
"""The same where the system's crypt(3) has no bcrypt and hclgpu hashes in Python (cost
10, the default, already takes seconds there)."""


def _bcrypt(value: str, *cost: int | float) -> str:
    """x/crypto's ``GenerateFromPassword`` with a random salt; cost defaults to 10.

    Nomad accepts costs up to 31; hclgpu computes at most :data:`MAX_BCRYPT_COST` and
    reports a higher one as a failed call rather than spend hours on a random value.
    """
    import os

    rounds = 10
    if cost:
        rounds = whole(cost[0])
    if len(cost) > 1:
        raise CallError("bcrypt() takes no more than two arguments")
    password = value.encode("utf-8", "surrogatepass")
    if len(password) > 72:
        raise CallError("error occured generating password bcrypt: password length exceeds 72 bytes")
    if rounds > 31:
        raise CallError(
            f"error occured generating password crypto/bcrypt: cost {rounds} is outside allowed "
            "inclusive range 4..31"
        )
    limit = MAX_BCRYPT_COST if _libcrypt() is not None else MAX_BCRYPT_COST_IN_PYTHON
    if rounds > limit:
        raise CallError(
            f"hclgpu computes bcrypt hashes with a cost of at most {limit}: each step doubles "
            f"the time, and cost {rounds} would take {2 ** (rounds - limit)} times as long as that"
        )
    return bcrypt_hash(password, os.urandom(16), rounds if rounds >= 4 else 10)


# --- RSA ---------------------------------------------------------------------------------


class _Asn1Error(ValueError):
    """DER that does not have the expected structure."""


def _der_item(data: bytes, offset: int) -> tuple[int, bytes, int]:
    """One DER TLV at ``offset``: its tag, its contents and the offset after it."""
    if offset + 2 > len(data):
        raise _Asn1Error("asn1: syntax error: data truncated")
    tag, length, offset = data[offset], data[offset + 1], offset + 2
    if length & 0x80:
        size = length & 0x7F
        if size == 0 or size > 4 or offset + size > len(data):
            raise _Asn1Error("asn1: syntax error: invalid length")
        length, offset = int.from_bytes(data[offset : offset + size], "big"), offset + size
    if offset + length > len(data):
        raise _Asn1Error("asn1: syntax error: data truncated")
    return tag, data[offset : offset + length], offset + length


def _der_sequence(data: bytes) -> list[tuple[int, bytes]]:
    """The elements of a DER SEQUENCE that spans all of ``data``."""
    tag, body, end = _der_item(data, 0)
    if tag != 0x30:
        raise _Asn1Error("asn1: structure error: tags don't match")
    if end != len(data):
        raise _Asn1Error("asn1: syntax error: trailing data")
    items, offset = [], 0
    while offset < len(body):
        item_tag, contents, offset = _der_item(body, offset)
        items.append((item_tag, contents))
    return items


def _pkcs1_private_key(der: bytes) -> tuple[int, int, int]:
    """``(n, e, d)`` from PKCS #1 ``RSAPrivateKey`` DER, with Go's ``x509`` errors."""
    items = _der_sequence(der)
    if len(items) < 9 or any(tag != 0x02 for tag, _ in items[:9]):
        if len(items) >= 3 and items[0][0] == 0x02 and items[1][0] == 0x30 and items[2][0] == 0x04:
            raise _Asn1Error(
                "x509: failed to parse private key (use ParsePKCS8PrivateKey instead for this key format)"
            )
        if len(items) >= 2 and items[0][0] == 0x02 and items[1][0] == 0x04:
            raise _Asn1Error(
                "x509: failed to parse private key (use ParseECPrivateKey instead for this key format)"
            )
        raise _Asn1Error("asn1: structure error: tags don't match")
    version, n, e, d, p, q = (int.from_bytes(body, "big", signed=True) for _, body in items[:6])
    if version > 1:
        raise _Asn1Error("x509: unsupported private key version")
    if min(n, d, p, q) <= 0:
        raise _Asn1Error("x509: private key contains zero or negative value")
    return n, e, d


def _pem_block(text: str) -> tuple[dict[str, str], bytes] | None:
    """The headers and decoded body of the first PEM block (Go's ``pem.Decode``)."""
    import base64
    import binascii
    import re

    for match in re.finditer(r"-----BEGIN ([^\n]*?)-----\r?\n(.*?)-----END \1-----", text, re.S):
        body = match.group(2)
        headers: dict[str, str] = {}
        lines = body.splitlines()
        while lines and ":" in lines[0]:
            name, _, header_value = lines.pop(0).partition(":")
            headers[name.strip()] = header_value.strip()
        try:
            return headers, base64.b64decode("".join("".join(lines).split()), validate=True)
        except (binascii.Error, ValueError):
            continue
    return None


def _rsadecrypt(ciphertext: str, private_key: str) -> str:
    """Decrypt base64 PKCS #1 v1.5 ciphertext with a PEM PKCS #1 RSA private key."""
    import base64
    import binascii

    try:
        data = base64.b64decode(ciphertext.replace("\r", "").replace("\n", ""), validate=True)
    except (binascii.Error, ValueError):
        raise CallError(
            f"failed to decode input {go_quote(ciphertext)}: cipher text must be base64-encoded", arg=0
        ) from None
    block = _pem_block(private_key)
    if block is None:
        raise CallError("failed to parse key: no key found", arg=1)
    headers, der = block
    if headers.get("Proc-Type") == "4,ENCRYPTED":
        raise CallError(
            "failed to parse key: password protected keys are not supported. "
            "Please decrypt the key prior to use",
            arg=1,
        )
    try:
        n, _, d = _pkcs1_private_key(der)
    except _Asn1Error as exc:
        raise CallError(str(exc), arg=1) from None
    return _pkcs1_v15_decrypt(n, d, data).decode("utf-8", "replace")


def _pkcs1_v15_decrypt(n: int, d: int, data: bytes) -> bytes:
    """RSA decryption and PKCS #1 v1.5 unpadding; any failure is Go's ``ErrDecryption``."""
    size = (n.bit_length() + 7) // 8
    number = int.from_bytes(data, "big")
    if len(data) != size or number >= n or size < 11:
        raise CallError("crypto/rsa: decryption error", arg=0)
    message = pow(number, d, n).to_bytes(size, "big")
    separator = message.find(b"\x00", 2)
    if message[:2] != b"\x00\x02" or separator < 10:
        raise CallError("crypto/rsa: decryption error", arg=0)
    return message[separator + 1 :]


# --- UUIDs -------------------------------------------------------------------------------

_NAMESPACES = {
    "dns": "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    "url": "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
    "oid": "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
    "x500": "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
}


def _parse_uuid(text: str) -> bytes:
    """google/uuid's ``Parse``: plain, ``urn:uuid:``, braced or 32 hex digit forms."""
    raw = text.encode("utf-8", "surrogatepass")
    length = len(raw)
    if length == 45:
        if raw[:9].lower() != b"urn:uuid:":
            raise ValueError(f"invalid urn prefix: {go_quote(raw[:9].decode('utf-8', 'replace'))}")
        raw = raw[9:]
    elif length == 38:
        raw = raw[1:]
    elif length == 32:
        return _hex_bytes(raw)
    elif length != 36:
        raise ValueError(f"invalid UUID length: {length}")
    if any(raw[i : i + 1] != b"-" for i in (8, 13, 18, 23)):
        raise ValueError("invalid UUID format")
    return _hex_bytes(raw[:36].replace(b"-", b""))


def _hex_bytes(raw: bytes) -> bytes:
    """32 hexadecimal digits as 16 bytes."""
    try:
        if len(raw) != 32:
            raise ValueError
        return bytes.fromhex(raw.decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        raise ValueError("invalid UUID format") from None


def _uuidv4() -> str:
    """A random (version 4) UUID."""
    import uuid

    return str(uuid.uuid4())


def _uuidv5(namespace: str, name: str) -> str:
    """A name-based (version 5, SHA-1) UUID in a named or given namespace."""
    import uuid

    try:
        space = _parse_uuid(_NAMESPACES.get(namespace, namespace))
    except ValueError as exc:
        raise CallError(f"uuidv5() doesn't support namespace {namespace} ({exc})", arg=0) from None
    return str(uuid.uuid5(uuid.UUID(bytes=space), name))


TABLE: tuple[Function, ...] = (
    define("md5", _hasher("md5"), _STR),
    define("sha1", _hasher("sha1"), _STR),
    define("sha256", _hasher("sha256"), _STR),
    define("sha512", _hasher("sha512"), _STR),
    define("bcrypt", _bcrypt, _STR, var=Param("cost", "number")),
    define("rsadecrypt", _rsadecrypt, Param("ciphertext", "string"), Param("privatekey", "string")),
    define("uuidv4", _uuidv4),
    define("uuidv5", _uuidv5, Param("namespace", "string"), Param("name", "string")),
)
