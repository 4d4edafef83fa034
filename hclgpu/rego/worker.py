"""The Rego engine's own process: compiles the policies once, then evaluates one job per request.

Started by :mod:`hclgpu.rego.engine` as ``python -P worker.py``; it imports nothing of hclgpu,
only the standard library and regopy (rego-cpp), so it starts in tens of milliseconds. Why a
process of its own: a rule can run for ever (the parent kills the process at the time limit,
which no thread can do to C++ code), rego-cpp prints its compile errors on standard output (the
parent's output, or the language server's protocol stream), and a policy that exhausts memory
takes only this process down. (No memory limit is set: rego-cpp's allocator, snmalloc, reserves
more address space at start than any useful ``RLIMIT_AS`` or ``RLIMIT_DATA`` allows.)

Protocol, one JSON document per line. The first request is
``{"modules": [[name, text], ...], "rules": [[package, rule], ...], "save": path}``: compile
the policies into one bundle (a query over every rule, and each rule as an entry point) and,
with ``save``, write it there in rego-cpp's binary format; or ``{"bundle": path, "rules":
[...]}``: load such a bundle, compiled by another worker of the same run. The answer is
``{"ready": true}`` or ``{"errors": [{"file", "offset", "length", "message"}]}`` (in bytes). Then
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
from typing import Any

_ERROR = re.compile(rb"\(error (\d+):")
_MESSAGE = re.compile(rb"\(errormsg (\d+):")


def main() -> None:
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)  # rego-cpp prints compile errors on fd 1: never into the replies
    requests = sys.stdin
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
        queries = [f"[v | v := data.{package}.{rule}]" for package, rule in setup["rules"]]
        try:
            self.bundle = self.rego.build("x := [" + ", ".join(queries) + "]", self.entrypoints)
            if setup.get("save"):
                self.rego.save_bundle(setup["save"], self.bundle, BundleFormat.Binary)
        except regopy.RegoError as error:
            self.errors.extend(parse_errors(str(error), ""))

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
