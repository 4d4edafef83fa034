"""JSON and YAML data read within hclgpu's limits: node inventories, CDI specs and the files
``hclgpu import`` reads.

Parsed as they come, three kinds of input escape as Python errors or never end: nesting
deeper than the interpreter's recursion limit, integers of more than 4300 digits (Python
refuses to convert them), and YAML aliases that multiply a few lines into billions of
values. Here each is a :class:`DocumentError` at its line and column, with the job-file
reader's nesting limit (:data:`MAX_DEPTH`, HG012's 256 levels) and, for aliases, the budget
Compose files always had. Syntax errors are left to the callers, as ``json`` and ``yaml``
raise them, since each reports them in its own words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache
from itertools import accumulate
from typing import Any

from hclgpu.syntax.lexer import MAX_DEPTH

__all__ = [
    "ALIAS_BUDGET",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "DocumentError",
    "load_json",
    "load_yaml",
    "load_yaml_document",
]

MAX_DIGITS = 4300
"""The most digits an integer may have: Python's own conversion limit, and far beyond any
field (Nomad's and Kubernetes' integers are 64-bit)."""
_TOO_LARGE = 10**MAX_DIGITS
ALIAS_BUDGET = 200_000
"""How many values YAML aliases may add to a document beyond those it spells out."""

_DEEP = f"nested more than {MAX_DEPTH} levels deep"
_HUGE = f"an integer of more than {MAX_DIGITS} digits is out of range"


class DocumentError(ValueError):
    """A document beyond one of the limits; ``line`` and ``column`` (1-based) say where,
    when that is known."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


# --- JSON ---------------------------------------------------------------------------------------


class _HugeInteger(Exception):
    def __init__(self, digits: str) -> None:
        self.digits = digits


def _json_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _HugeInteger(digits)
    return int(digits)


def load_json(text: str) -> Any:
    """``text`` as JSON; :class:`DocumentError` beyond the limits, ``json.JSONDecodeError``
    when it is not JSON."""
    try:
        data = json.loads(text, parse_int=_json_int)
    except RecursionError:
        raise _json_too_deep(text) from None
    except _HugeInteger as error:
        raise DocumentError(_HUGE, *_line_column(text, text.find(error.digits))) from None
    if _json_depth(text) > MAX_DEPTH:
        raise _json_too_deep(text)
    return data


_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _json_depth(text: str) -> int:
    """How deeply valid JSON ``text`` nests, counted in C: strings, then all but the
    brackets, are cut out before the running total is taken."""
    brackets = _NOT_BRACKETS.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


_JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')


def _json_too_deep(text: str) -> DocumentError:
    """The error at the first bracket more than :data:`MAX_DEPTH` levels in."""
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return DocumentError(_DEEP, *_line_column(text, match.start()))
        elif token in "]}":
            depth -= 1
    return DocumentError(_DEEP)


def _line_column(text: str, offset: int) -> tuple[int | None, int | None]:
    if offset < 0:
        return None, None
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


# --- YAML ---------------------------------------------------------------------------------------


def load_yaml(text: str, yaml_1_2: bool = False) -> list[Any]:
    """Every document of ``text`` (None for an empty one); :class:`DocumentError` beyond the
    limits, ``yaml.YAMLError`` when it is not YAML.

    ``yaml_1_2``: read scalars as YAML 1.2 does (Compose's parser): only ``true``/``false``
    are booleans and ``8080:80`` is text, not a base-60 number as YAML 1.1 (Kubernetes'
    parser, and PyYAML's) has it.
    """
    loader = _loader(yaml_1_2)(text)
    try:
        documents = []
        while loader.check_node():
            documents.append(_construct(loader, loader.get_node()))
        return documents
    except RecursionError:  # only without libyaml, whose parser stops at 1000 levels itself
        raise DocumentError(_DEEP) from None
    finally:
        loader.dispose()


def load_yaml_document(text: str) -> Any:
    """The one document of ``text`` (None when there is none), as :func:`load_yaml` reads
    it; more than one is a ``yaml.YAMLError``, as for ``yaml.safe_load``."""
    loader = _loader(False)(text)
    try:
        node = loader.get_single_node()
        return None if node is None else _construct(loader, node)
    except RecursionError:
        raise DocumentError(_DEEP) from None
    finally:
        loader.dispose()


def _construct(loader: Any, node: Any) -> Any:
    """The data of a composed document, once its node graph is known to be within limits."""
    _check_graph(node)
    return loader.construct_document(node)


def _children(node: Any) -> list[Any]:
    value = node.value
    if not isinstance(value, list):
        return []  # a scalar
    if value and isinstance(value[0], tuple):
        return [part for pair in value for part in pair]  # a mapping's keys and values
    return list(value)


def _check_graph(root: Any) -> None:
    """Nesting, alias cycles and alias expansion, measured on the nodes (an alias is the
    node of its anchor again), each node once: a bomb costs only its own size here."""
    sizes: dict[int, int] = {}
    heights: dict[int, int] = {}
    nodes: dict[int, Any] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        key = id(node)
        if leaving:
            children = _children(node)
            sizes[key] = 1 + sum(sizes[id(child)] for child in children)
            heights[key] = 1 + max((heights[id(child)] for child in children), default=0)
            open_nodes.discard(key)
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            raise _at(node, "a YAML alias refers to a value that contains it")
        open_nodes.add(key)
        nodes[key] = node
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in sizes)
    if heights[id(root)] > MAX_DEPTH:
        raise _at(_descend(root, MAX_DEPTH, lambda n: heights[id(n)]), _DEEP)
    if sizes[id(root)] - len(nodes) > ALIAS_BUDGET:
        big = root
        while True:
            children = [c for c in _children(big) if sizes[id(c)] > ALIAS_BUDGET]
            if not children:
                break
            big = max(children, key=lambda c: sizes[id(c)])
        raise _at(
            big, f"YAML aliases expand this value to {sizes[id(big)]} values; hclgpu expands aliases "
            f"by at most {ALIAS_BUDGET} values",
        )  # fmt: skip


def _descend(node: Any, steps: int, height: Callable[[Any], int]) -> Any:
    """The node ``steps`` levels below ``node`` on its deepest path."""
    for _ in range(steps):
        node = max(_children(node), key=height)
    return node


def _at(node: Any, message: str) -> DocumentError:
    mark = node.start_mark
    return DocumentError(message, mark.line + 1, mark.column + 1)


@lru_cache(maxsize=2)
def _loader(yaml_1_2: bool) -> Any:
    """A safe loader (libyaml's when there is one) whose integers are bounded, with YAML
    1.2's core schema for ``yaml_1_2``."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader: Any = type("Yaml12Loader" if yaml_1_2 else "YamlLoader", (base,), {})
    if not yaml_1_2:
        loader.add_constructor("tag:yaml.org,2002:int", _bounded(base.construct_yaml_int))
        return loader
    dropped = {f"tag:yaml.org,2002:{t}" for t in ("bool", "int", "float", "timestamp")}
    loader.yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag not in dropped]
        for first, resolvers in base.yaml_implicit_resolvers.items()
    }
    core = (
        ("tag:yaml.org,2002:bool", r"true|True|TRUE|false|False|FALSE", "tTfF"),
        ("tag:yaml.org,2002:int", r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+", "-+0123456789"),
        ("tag:yaml.org,2002:float",
         r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)",
         "-+.0123456789"),
    )  # fmt: skip
    for tag, pattern, first in core:
        loader.add_implicit_resolver(tag, re.compile(f"^(?:{pattern})$"), list(first))
    loader.add_constructor("tag:yaml.org,2002:int", _bounded(_core_int))
    return loader


def _core_int(loader: Any, node: Any) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith("0o"):
        return int(text[2:], 8)
    return int(text, 16) if text.startswith("0x") else int(text)


def _bounded(construct: Callable[[Any, Any], int]) -> Callable[[Any, Any], int]:
    """``construct`` refusing integers of more than :data:`MAX_DIGITS` digits, before a
    decimal one is converted (Python would raise) and after any other is."""

    def construct_int(loader: Any, node: Any) -> int:
        text = str(node.value).replace("_", "").lstrip("+-")
        if text.isdigit() and len(text.lstrip("0")) > MAX_DIGITS:
            raise _at(node, _HUGE)
        try:
            value = construct(loader, node)
        except ValueError:  # beyond a lower limit set for this interpreter
            raise _at(node, _HUGE) from None
        if abs(value) >= _TOO_LARGE:
            raise _at(node, _HUGE)
        return value

    return construct_int
