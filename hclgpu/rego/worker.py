"""The Rego engine's own process: compiles the policies once, then evaluates one job per request.

Started by :mod:`hclgpu.rego.engine` as ``python -P worker.py [FOLDER]`` (FOLDER: where the
parent found regopy); it imports nothing of hclgpu, only the standard library and regopy
(rego-cpp), so it starts in tens of milliseconds. Why a process of its own: a rule can run for
ever (the parent kills the process at the time limit, which no thread can do to C++ code),
rego-cpp prints its compile errors on standard output (the parent's output, or the language
server's protocol stream), and a policy that exhausts memory takes only this process down.
The memory limit is the parent's too: it watches this process's resident size and kills it
past the limit, since rego-cpp's allocator, snmalloc, reserves more address space at start than
any useful ``RLIMIT_AS`` or ``RLIMIT_DATA`` allows.

Policies come from pull requests and run next to CI's secrets, so this process has no
environment: the parent starts it with none, and it clears whatever a launcher added, since
rego-cpp's ``opa.runtime()`` hands a rule every variable of the process (``env``). Built-ins
that OPA has and rego-cpp only declares (``http.send``, ``net.*``: undefined when called, so a
rule that needs one passes silently) are refused at compile time, located at the call.

Protocol, one JSON document per line. The first request is
``{"modules": [[name, text], ...], "rules": [[package, rule], ...], "save": path}``: compile
the policies into one bundle (a query over every rule, and each rule as an entry point) and,
with ``save``, write it there in rego-cpp's binary format; or ``{"bundle": path, "rules":
[...]}``: load such a bundle, compiled by another worker of the same run. The answer is
``{"ready": true}`` or ``{"errors": [{"file", "offset", "length", "message"}]}`` (in bytes; an
error may carry ``"code"``, the diagnostic to report instead of a compile error). Then
each request is ``{"input": {...}}``, answered by ``{"values": [...]}`` with every rule's value
in order (``[]`` for an undefined rule), from one query over all the rules (the fast path).
When that query fails, or the request says ``"each": true`` (the parent asks so after a time
out, to learn which rule never ends), the rules are evaluated one at a time instead, each
answered as soon as it is known by ``{"rule": i, "value": ...}`` or ``{"rule": i, "error":
"message"}``, then ``{"done": true}``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from typing import Any, NamedTuple

from hclgpu.codes.policies import HG415

_ERROR = re.compile(rb"\(error (\d+):")
_MESSAGE = re.compile(rb"\(errormsg (\d+):")


def main() -> None:
    os.environ.clear()  # before rego-cpp is loaded: opa.runtime() hands a rule the environment
    if len(sys.argv) > 1:
        sys.path.append(sys.argv[1])  # where the parent found regopy (it has no PYTHONPATH here)
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)  # rego-cpp prints compile errors on fd 1: never into the replies
    requests = sys.stdin.buffer  # JSON in UTF-8 whatever the locale (there is none here)
    setup = json.loads(requests.readline())
    engine = _Engine(setup)
    if engine.errors:
        replies.write(json.dumps({"errors": engine.errors}) + "\n")
        return
    replies.write('{"ready": true}\n')
    for line in requests:
        try:
            request = json.loads(line)
            for reply in engine.evaluate(request["input"], request.get("each", False)):
                replies.write(json.dumps(reply) + "\n")
        except Exception as error:  # the engine failed (out of memory): the parent says so
            replies.write(json.dumps({"failed": f"{type(error).__name__}: {error}"}) + "\n")


class _Engine:
    def __init__(self, setup: dict[str, Any]) -> None:
        import regopy
        from regopy.interpreter import BundleFormat

        self.rego = regopy.Interpreter()
        self.errors: list[dict[str, Any]] = []
        self.entrypoints = ["/".join([*package.split("."), rule]) for package, rule in setup["rules"]]
        self.bundle: Any = None
        if "bundle" in setup:
            try:
                self.bundle = self.rego.load_bundle(setup["bundle"], BundleFormat.Binary)
            except regopy.RegoError as error:
                self.errors.extend(parse_errors(str(error), setup["bundle"]))
            return
        for name, text in setup["modules"]:
            try:
                self.rego.add_module(name, text)
            except regopy.RegoError as error:
                self.errors.extend(parse_errors(str(error), name))
        if self.errors:
            return
        for name, text in setup["modules"]:
            self.errors.extend(self._unavailable(name, text))
        if self.errors:
            return
        queries = [f"[v | v := data.{package}.{rule}]" for package, rule in setup["rules"]]
        try:
            self.bundle = self.rego.build("x := [" + ", ".join(queries) + "]", self.entrypoints)
            if setup.get("save"):
                self.rego.save_bundle(setup["save"], self.bundle, BundleFormat.Binary)
        except regopy.RegoError as error:
            self.errors.extend(parse_errors(str(error), ""))

    def _unavailable(self, module: str, text: str) -> Iterator[dict[str, Any]]:
        """An error for each call of a built-in this build of rego-cpp does not provide:
        such a call is undefined, and the rule around it would pass silently."""
        from regopy.rego_shared import rego_is_available_builtin

        for name, start, end in builtin_calls(text):
            if not rego_is_available_builtin(self.rego._impl, name):
                yield {
                    "file": module,
                    "offset": _size(text[:start]),
                    "length": _size(text[start:end]),
                    "message": f"`{name}` is not available in the policy engine: every call is"
                    " undefined, so the rule would pass silently",
                    "code": HG415,
                }

    def evaluate(self, document: Any, each: bool) -> Iterator[dict[str, Any]]:
        """Every rule's value in one reply; or, one at a time, each rule's reply as soon as it
        is known, then ``done``."""
        self.rego.set_input(_input(document))
        if not each:
            values, error = self._query(None)
            if error is None:
                yield {"values": [value[0] if value else [] for value in values["bindings"]["x"]]}
                return
        for index, entrypoint in enumerate(self.entrypoints):
            value, error = self._query(entrypoint)
            if error is None:
                yield {"rule": index, "value": value["expressions"][0] if value else []}
            else:
                yield {"rule": index, "error": error}
        yield {"done": True}

    def _query(self, entrypoint: str | None) -> tuple[Any, str | None]:
        """The answer to the bundle's query, or to one entry point (None when the rule is
        undefined), or the engine's error. Read through the C API: regopy's ``Output`` parses
        every answer as JSON, and an error can come back as an "ok" answer whose text is an
        error node (``Function not found``)."""
        from regopy.rego_shared import (
            rego_bundle_query,
            rego_bundle_query_entrypoint,
            rego_free_output,
            rego_output_node,
            rego_output_ok,
            rego_output_string,
        )

        if entrypoint is None:
            output = rego_bundle_query(self.rego._impl, self.bundle._impl)
        else:
            output = rego_bundle_query_entrypoint(self.rego._impl, self.bundle._impl, entrypoint)
        try:
            if not rego_output_ok(output):
                return None, _runtime_error(rego_output_node(output))
            text = rego_output_string(output)
            if text.startswith("(error"):
                return None, _error_text(text)
            return (None if text == "undefined" else json.loads(text)), None
        finally:
            rego_free_output(output)


MAYBE_MISSING = frozenset(
    {
        "http.send",
        *(f"net.{name}" for name in (
            "cidr_contains", "cidr_contains_matches", "cidr_expand", "cidr_intersects",
            "cidr_is_valid", "cidr_merge", "lookup_ip_addr",
        )),
        *(f"graphql.{name}" for name in (
            "is_valid", "parse", "parse_and_verify", "parse_query", "parse_schema", "schema_is_valid",
        )),
        "json.match_schema", "json.verify_schema",
        "rego.metadata.chain", "rego.metadata.rule", "rego.parse_module",
        "providers.aws.sign_req", "strings.render_template",
        *(f"crypto.{name}" for name in (
            "hmac.equal", "hmac.md5", "hmac.sha1", "hmac.sha256", "hmac.sha512", "md5", "sha1",
            "sha256", "parse_private_keys", "x509.parse_and_verify_certificates",
            "x509.parse_and_verify_certificates_with_options", "x509.parse_certificate_request",
            "x509.parse_certificates", "x509.parse_keypair", "x509.parse_rsa_private_key",
        )),
        *(f"io.jwt.{name}" for name in (
            "decode", "decode_verify", "encode_sign", "encode_sign_raw",
            *(f"verify_{kind}{bits}" for kind in ("es", "hs", "ps", "rs") for bits in (256, 384, 512)),
            "verify_eddsa",
        )),
        *(f"time.{name}" for name in (
            "add_date", "clock", "date", "diff", "format", "parse_ns", "parse_rfc3339_ns", "weekday",
        )),
    }
)  # fmt: skip
"""Built-ins of OPA that rego-cpp declares but may leave out (its "placeholders"): always HTTP,
networking, GraphQL, JSON schema, Rego metadata and parsing, AWS signing and templates; the
cryptography, JSON Web Token and calendar ones in a build without OpenSSL or C++20 dates.
Which of them this build lacks, rego-cpp says (``regoIsAvailableBuiltIn``); a name outside
this list that it does not know is no built-in at all (the policies' own function, or one that
fails when called)."""

_TOKEN = re.compile(r'(\s+|#[^\n]*)|("(?:[^"\\\n]|\\.)*"|`[^`]*`)|([A-Za-z_][A-Za-z0-9_]*)|(.)', re.S)


class _Token(NamedTuple):
    kind: str
    """``name``, ``string`` (``value`` is its text, decoded) or ``mark`` (one other character)."""
    value: str
    start: int
    end: int


def builtin_calls(text: str) -> Iterator[tuple[str, int, int]]:
    """Each call in a policy's ``text`` of a built-in of :data:`MAYBE_MISSING`: its name and
    the span of its reference, in characters. The reference is read as rego-cpp reads one,
    names joined by dots (space and comments may come between) or by ``["name"]``; comments
    and strings are skipped, and a reference that starts with an imported name (``import
    data.lib.net``) is the policies' own, not the built-in."""
    tokens = _tokens(text)
    imported = _imports(tokens)
    for index, token in enumerate(tokens):
        if token.kind != "name" or _is(tokens, index - 1, "."):
            continue  # not the start of a reference
        segments, after, end = _reference(tokens, index)
        name = ".".join(segments)
        if name in MAYBE_MISSING and segments[0] not in imported and _is(tokens, after, "("):
            yield name, token.start, end


def _tokens(text: str) -> list[_Token]:
    """The tokens of a policy but space and comments."""
    tokens = []
    for match in _TOKEN.finditer(text):
        space, string, name, _ = match.groups()
        if string is not None:
            tokens.append(_Token("string", _string(string), match.start(), match.end()))
        elif space is None:
            tokens.append(
                _Token("mark" if name is None else "name", match.group(), match.start(), match.end())
            )
    return tokens


def _string(literal: str) -> str:
    if literal.startswith("`"):
        return literal[1:-1]
    try:
        return str(json.loads(literal))
    except ValueError:
        return literal[1:-1]


def _reference(tokens: list[_Token], index: int) -> tuple[list[str], int, int]:
    """The segments of the reference that starts at ``tokens[index]``, the index after it and
    the character offset where it ends."""
    segments, at = [tokens[index].value], index + 1
    while True:
        if _is(tokens, at, ".") and _kind(tokens, at + 1) == "name":
            segments.append(tokens[at + 1].value)
            at += 2
        elif _is(tokens, at, "[") and _kind(tokens, at + 1) == "string" and _is(tokens, at + 2, "]"):
            segments.append(tokens[at + 1].value)
            at += 3
        else:
            return segments, at, tokens[at - 1].end


def _imports(tokens: list[_Token]) -> set[str]:
    """The names a module's imports bind: the alias after ``as``, else the last segment."""
    names = set()
    for index, token in enumerate(tokens):
        if token.kind == "name" and token.value == "import" and _kind(tokens, index + 1) == "name":
            segments, after, _ = _reference(tokens, index + 1)
            aliased = _kind(tokens, after) == "name" and tokens[after].value == "as"
            alias = tokens[after + 1].value if aliased and _kind(tokens, after + 1) == "name" else None
            names.add(alias or segments[-1])
    return names


def _kind(tokens: list[_Token], index: int) -> str | None:
    return tokens[index].kind if 0 <= index < len(tokens) else None


def _is(tokens: list[_Token], index: int, mark: str) -> bool:
    return _kind(tokens, index) == "mark" and tokens[index].value == mark


def _size(text: str) -> int:
    """Bytes of ``text`` in UTF-8: rego-cpp and the parent count offsets in bytes."""
    return len(text.encode("utf-8", "surrogatepass"))


def parse_errors(text: str, module: str) -> list[dict[str, Any]]:
    """rego-cpp's error sequence, ``(error 8:bad.rego|43|2 (errormsg 27:Invalid ...)``:
    every name and message is length-prefixed (bytes), a location is ``|offset|length``."""
    data = text.encode("utf-8")
    found = []
    for match in _ERROR.finditer(data):
        length = int(match.group(1))
        start = match.end()
        name = data[start : start + length].decode("utf-8", "replace")
        place = re.match(rb"\|(\d+)\|(\d+)", data[start + length :])
        message = _MESSAGE.search(data, start)
        text_of = "the policy does not compile"
        if message is not None:
            size = int(message.group(1))
            text_of = data[message.end() : message.end() + size].decode("utf-8", "replace")
        found.append(
            {
                "file": name or module,
                "offset": int(place.group(1)) if place and name else None,
                "length": int(place.group(2)) if place and name else 0,
                "message": text_of,
            }
        )
    return found or [{"file": module, "offset": None, "message": text.strip() or "unknown error"}]


def _error_text(text: str) -> str:
    """The messages of an error written as a node, ``(error (errormsg 26:Function not found...``."""
    data = text.encode("utf-8")
    messages = []
    for match in _MESSAGE.finditer(data):
        size = int(match.group(1))
        messages.append(data[match.end() : match.end() + size].decode("utf-8", "replace"))
    return "; ".join(messages) or "evaluation failed"


def _runtime_error(node: Any) -> str:
    """The messages of an error result (an ``ErrorSeq`` of ``Error`` nodes, each holding an
    ``ErrorMsg``): the Python binding shows only ``<error>``, the nodes hold the words."""
    from regopy.rego_shared import rego_node_get, rego_node_size, rego_node_value

    messages: list[str] = []

    def walk(node: Any, depth: int) -> None:
        for index in range(rego_node_size(node)):
            child = rego_node_get(node, index)
            if depth == 1 and index == 0:
                try:
                    text = rego_node_value(child)
                except Exception:  # a node without a value: nothing to say
                    text = ""
                if text:
                    messages.append(text)
            elif depth == 0:
                walk(child, 1)

    walk(node, 0)
    return "; ".join(messages) or "evaluation failed"


def _input(document: Any) -> Any:
    """The input built node by node through rego-cpp's C API: about twice as fast as
    ``regopy.Input`` (which tests every value against the collection ABCs) and several times
    faster than parsing the document as a Rego term."""
    import regopy
    from regopy.rego_shared import rego

    handle = rego.regoNewInput()
    string, integer, real = rego.regoInputString, rego.regoInputInt, rego.regoInputFloat
    boolean, null, item = rego.regoInputBoolean, rego.regoInputNull, rego.regoInputObjectItem
    obj, array = rego.regoInputObject, rego.regoInputArray

    def add(value: Any) -> None:
        kind = type(value)
        if kind is str:
            string(handle, value.encode("utf-8"))
        elif kind is dict:
            for key, inner in value.items():
                string(handle, key.encode("utf-8"))
                add(inner)
                item(handle)
            obj(handle, len(value))
        elif kind is list:
            for inner in value:
                add(inner)
            array(handle, len(value))
        elif value is None:
            null(handle)
        elif kind is bool:
            boolean(handle, value)
        elif kind is int:
            integer(handle, value)
        else:
            real(handle, float(value))

    add(document)
    built = regopy.Input.__new__(regopy.Input)
    built._impl = handle
    return built


if __name__ == "__main__":
    main()
