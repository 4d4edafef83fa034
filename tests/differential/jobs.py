"""Hypothesis strategies for Nomad job files, valid and nearly valid, for the differential test.

A job is drawn as a small tree of :class:`Block`, :class:`Attr` and :class:`Comment` values
(job, groups, tasks, resources, devices, constraints, ...), optionally damaged by one
:func:`mutations` step (a missing driver, a typo in a block name, a layout HCL refuses, ...),
and printed by :func:`render`, which lays each small block out on one line or several. The
values mix what GPU jobs hold (device names, attribute targets, operators, units) with what
stresses a parser and an evaluator: signed zero, long decimals, big integers, nulls,
heredocs, dynamic blocks, variables, locals and function calls.

:func:`job_files` is the entry point: about half of its files are accepted by Nomad's
validator, the rest refused, by its parser or its validation, for varied reasons. Every draw
is built, never filtered, so generation is fast and follows Hypothesis's seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

MAX_LINES = 140
"""The longest file drawn (the tree is pruned to fit before it is damaged and printed)."""

# ---- the tree --------------------------------------------------------------------------


@dataclass(frozen=True)
class Heredoc:
    """A heredoc value: ``<<MARKER`` (lines as written) or ``<<-MARKER`` (lines indented
    one level deeper than the argument, which HCL strips)."""

    marker: str
    lines: tuple[str, ...]
    indented: bool = False


@dataclass(frozen=True)
class Attr:
    """An argument ``name = value``; ``value`` is HCL expression source on one line, or a
    heredoc."""

    name: str
    value: str | Heredoc


@dataclass(frozen=True)
class Comment:
    """A comment line (``# ...`` or ``// ...``)."""

    text: str


@dataclass(frozen=True)
class Block:
    """A block ``type "label" { body }``.

    ``style`` is how :func:`render` lays it out: ``auto`` (one line when it holds at most one
    one-line argument and the draw says so, else several), ``multi``, ``single``, and the
    layouts HCL refuses: ``crammed`` (the whole body on the opening line, nested blocks
    and several arguments included), ``open_inline`` (the first argument on the opening
    line, the brace closed on a later line), ``close_inline`` (the last argument followed
    by the closing brace) and ``brace_next_line``.
    """

    type: str
    labels: tuple[str, ...] = ()
    body: tuple[Attr | Block | Comment, ...] = ()
    style: str = "auto"


Item = Attr | Block | Comment


@dataclass(frozen=True)
class JobFile:
    """One generated job file and how to run it."""

    text: str
    """The whole job file."""
    args: tuple[str, ...] = ()
    """CLI arguments for the oracle and hclgpu: ``("-var", "name=value", ...)``."""
    files: tuple[tuple[str, str], ...] = ()
    """Extra files ``(relative name, text)`` the job reads with ``file()``, written beside it."""


@dataclass(frozen=True)
class Scope:
    """Expressions the body may use, from the variables and locals the file declares,
    by the type they evaluate to."""

    numbers: tuple[str, ...] = ()
    strings: tuple[str, ...] = ()
    string_lists: tuple[str, ...] = ()
    bools: tuple[str, ...] = ()
    maps: tuple[str, ...] = ()
    device_lists: tuple[str, ...] = ()


EMPTY = Scope()

# ---- small helpers ---------------------------------------------------------------------


def weighted(*pairs: tuple[int, T]) -> st.SearchStrategy[T]:
    """One of the values, each drawn as often as its weight says; shrinking reaches the first."""
    return st.sampled_from([value for weight, value in pairs for _ in range(weight)])


def chance(percent: int) -> st.SearchStrategy[bool]:
    """True ``percent`` times in a hundred; shrinks to False."""
    return weighted((100 - percent, False), (percent, True))


def hcl_string(text: str) -> str:
    """``text`` as a quoted HCL string literal that evaluates to exactly ``text``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return '"' + escaped.replace("${", "$${").replace("%{", "%%{") + '"'


def hcl_list(items: Sequence[str]) -> str:
    """A one-line tuple constructor of the expressions ``items``."""
    return "[" + ", ".join(items) + "]"


def hcl_object(pairs: Sequence[tuple[str, str]], commas: bool = True) -> str:
    """A one-line object constructor; keys that are not identifiers are quoted."""
    sep = ", " if commas else " "
    return "{ " + sep.join(f"{_key(k)} = {v}" for k, v in pairs) + " }" if pairs else "{}"


def _key(name: str) -> str:
    return name if name.replace("_", "a").isalnum() and not name[0].isdigit() else json.dumps(name)


def _label(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


# ---- rendering -------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """How a whole file is spelled: the indentation unit, the text around ``=``, and how
    often an eligible block is written on one line."""

    indent: str = "  "
    equals: str = " = "
    single_line_percent: int = 25


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    """The file-wide spelling: two or four spaces or a tab, ``=`` with or without spaces."""
    return Layout(
        indent=draw(weighted((6, "  "), (2, "    "), (1, "\t"))),
        equals=draw(weighted((9, " = "), (1, "="))),
        single_line_percent=draw(weighted((2, 25), (1, 0), (1, 60))),
    )


def _one_line_value(item: Item) -> bool:
    return isinstance(item, Attr) and isinstance(item.value, str)


def _single_ok(block: Block) -> bool:
    """Whether HCL accepts ``block`` on one line: at most one argument, on one line."""
    return len(block.body) <= 1 and all(_one_line_value(item) for item in block.body)


def inlinable(block: Block) -> bool:
    """Whether ``block`` can be crammed onto one line (no heredocs, no comments, inside)."""
    for item in block.body:
        if isinstance(item, Comment) or (isinstance(item, Attr) and not isinstance(item.value, str)):
            return False
        if isinstance(item, Block) and not inlinable(item):
            return False
    return True


def _header(block: Block) -> str:
    return " ".join([block.type, *(_label(label) for label in block.labels)])


def _inline(item: Item, layout: Layout) -> str:
    if isinstance(item, Attr):
        assert isinstance(item.value, str)
        return f"{item.name}{layout.equals}{item.value}"
    assert isinstance(item, Block)
    inner = " ".join(_inline(i, layout) for i in item.body if not isinstance(i, Comment))
    return f"{_header(item)} {{ {inner} }}" if inner else f"{_header(item)} {{}}"


def _attr_lines(attr: Attr, pad: str, layout: Layout) -> list[str]:
    value = attr.value
    if isinstance(value, str):
        return [f"{pad}{attr.name}{layout.equals}{value}"]
    inner = pad + layout.indent if value.indented else ""
    opener = "<<-" if value.indented else "<<"
    body = [inner + line if line else line for line in value.lines]
    return [f"{pad}{attr.name}{layout.equals}{opener}{value.marker}", *body, f"{pad}{value.marker}"]


def _lines(draw: st.DrawFn, item: Item, depth: int, layout: Layout) -> list[str]:
    pad = layout.indent * depth
    if isinstance(item, Comment):
        return [pad + item.text]
    if isinstance(item, Attr):
        return _attr_lines(item, pad, layout)
    style = item.style
    if style == "auto":
        one = depth > 0 and _single_ok(item) and draw(st.integers(0, 99)) < layout.single_line_percent
        style = "single" if one else "multi"
    if style == "crammed" or (style == "single" and _single_ok(item)):
        return [pad + _inline(item, layout)]
    head = pad + _header(item)
    body = list(item.body)
    if style == "open_inline" and body and _one_line_value(body[0]):
        rest = [line for i in body[1:] for line in _lines(draw, i, depth + 1, layout)]
        return [f"{head} {{ {_inline(body[0], layout)}", *rest, pad + "}"]
    if style == "close_inline" and body and _one_line_value(body[-1]):
        rest = [line for i in body[:-1] for line in _lines(draw, i, depth + 1, layout)]
        return [head + " {", *rest, f"{pad}{layout.indent}{_inline(body[-1], layout)} }}"]
    inner = [line for i in body for line in _lines(draw, i, depth + 1, layout)]
    if style == "brace_next_line":
        return [head, pad + "{", *inner, pad + "}"]
    return [head + " {", *inner, pad + "}"]


def render(draw: st.DrawFn, items: Sequence[Item], layout: Layout) -> str:
    """The file holding ``items`` at its top level, as HCL source ending with a newline."""
    return "\n".join(line for item in items for line in _lines(draw, item, 0, layout)) + "\n"


def size(item: Item) -> int:
    """How many lines ``item`` takes written on several lines."""
    if isinstance(item, Comment):
        return 1
    if isinstance(item, Attr):
        return 1 if isinstance(item.value, str) else len(item.value.lines) + 2
    return 2 + sum(size(i) for i in item.body)


# ---- values ----------------------------------------------------------------------------

WORDS = ("web", "api", "cache", "trainer", "inference", "worker", "etl", "redis", "llm", "render")

GOOD_DURATIONS = ("30s", "1m30s", "5m", "10s", "15s", "1h", "2m", "45s", "1h30m", "20s", "10m")
BAD_DURATIONS = ("5x", "ten seconds", "1 m", "", "30", "m5", "1.5.0s", "-")

NUMBER_TEXTS = (
    "-0.0",
    "3.14159265358979323846264",
    "12345678901234567890123",
    "42",
    "-7",
    "1e3",
    "0.1",
    "1.0",
    "9007199254740993",
    "-0",
    "2.5e-3",
)

RUNTIME_STRINGS = (
    "${NOMAD_JOB_NAME}",
    "${NOMAD_ALLOC_DIR}/data",
    "${node.unique.name}",
    "${attr.kernel.name}",
    "${meta.rack}",
    "${NOMAD_TASK_DIR}/config.json",
)
"""Strings that hold interpolations Nomad resolves at run time, which jobspec2 keeps as text."""


def names() -> st.SearchStrategy[str]:
    """Job, group and task names: a short word, sometimes with a number."""
    return st.builds(
        lambda word, n: word if n is None else f"{word}-{n}",
        st.sampled_from(WORDS),
        weighted((3, None), (1, 1), (1, 2), (1, 7)),
    )


def durations(bad_percent: int = 0) -> st.SearchStrategy[str]:
    """A duration expression: mostly a quoted Go duration, sometimes nanoseconds as a number,
    and ``bad_percent`` of the time a string Go cannot parse (``"5x"``)."""
    good = st.one_of(
        st.sampled_from(GOOD_DURATIONS).map(hcl_string),
        weighted((9, False), (1, True)).map(lambda _: "30000000000"),
    )
    bad = st.sampled_from(BAD_DURATIONS).map(hcl_string)
    return weighted((100 - bad_percent, 0), (bad_percent, 1)).flatmap(lambda b: bad if b else good)


@st.composite
def string_exprs(draw: st.DrawFn, scope: Scope = EMPTY, words: Sequence[str] = WORDS) -> str:
    """An expression that evaluates to a string: a literal, a run-time interpolation, a
    variable or local, or a call of upper, format, join, lookup or jsonencode."""
    word = draw(st.sampled_from(words))
    kind = draw(
        weighted(
            (10, "literal"),
            (2, "scope"),
            (1, "upper"),
            (1, "format"),
            (1, "join"),
            (1, "lookup"),
            (1, "jsonencode"),
            (1, "runtime"),
            (1, "template"),
        )
    )
    if kind == "scope" and scope.strings:
        return draw(st.sampled_from(scope.strings))
    if kind == "upper":
        return f"upper({hcl_string(word)})"
    if kind == "format":
        return f'format("%s-%03d", {hcl_string(word)}, {draw(st.integers(0, 999))})'
    if kind == "join":
        return f'join(",", {hcl_list([hcl_string(word), hcl_string("b")])})'
    if kind == "lookup":
        return f'lookup({{ a = {hcl_string(word)} }}, "{draw(st.sampled_from("ab"))}", "fallback")'
    if kind == "jsonencode":
        return 'jsonencode({ a = 1, b = [true, null], c = "x" })'
    if kind == "runtime":
        return f'"{draw(st.sampled_from(RUNTIME_STRINGS))}"'
    if kind == "template":
        return f'"{word}-${{1 + 2}}-%{{ if true }}on%{{ endif }}"'
    return hcl_string(draw(st.sampled_from([*words, "a b c", "héllo", "", "x=y", 'quote"d'])))


@st.composite
def number_exprs(draw: st.DrawFn, low: int, high: int, scope: Scope = EMPTY) -> str:
    """An expression that evaluates to a whole number in ``[low, high]`` (a literal, min/max,
    or a variable or local from ``scope``)."""
    n = draw(st.integers(low, high))
    kind = draw(weighted((12, "literal"), (1, "min"), (1, "max"), (2, "scope")))
    if kind == "min":
        return f"min({n}, {n + 10})"
    if kind == "max":
        return f"max({low}, {n})"
    if kind == "scope" and scope.numbers:
        return draw(st.sampled_from(scope.numbers))
    return str(n)


@st.composite
def meta_values(draw: st.DrawFn, scope: Scope = EMPTY) -> str:
    """A value for a meta map: strings, numbers spelled as HCL numbers (``-0.0``, long
    decimals, big integers), booleans, and function calls."""
    kind = draw(weighted((5, "string"), (4, "number"), (1, "bool")))
    if kind == "number":
        return draw(st.sampled_from(NUMBER_TEXTS))
    if kind == "bool":
        return draw(st.sampled_from(("true", "false")))
    return draw(string_exprs(scope))


@st.composite
def meta_blocks(draw: st.DrawFn, scope: Scope = EMPTY) -> Item:
    """A meta map as a block ``meta { k = v }`` or an argument ``meta = { "k.k" = v }``."""
    keys = draw(
        st.lists(
            st.sampled_from(("owner", "team", "version", "tier", "zone", "x")),
            min_size=1,
            max_size=3,
            unique=True,
        )
    )
    pairs = [(key, draw(meta_values(scope))) for key in keys]
    if draw(chance(30)):
        if draw(chance(40)):
            pairs.append(("gpu.model", hcl_string("H100")))
        if bool(scope.maps) and draw(chance(40)):
            return Attr("meta", f"merge({draw(st.sampled_from(scope.maps))}, {hcl_object(pairs)})")
        return Attr("meta", hcl_object(pairs, commas=draw(chance(90))))
    return Block("meta", (), tuple(Attr(k, v) for k, v in pairs))


# ---- constraints, affinities, devices --------------------------------------------------

DEVICE_TARGETS = (
    "${device.attr.memory}",
    "${device.model}",
    "${device.vendor}",
    "${device.type}",
    "${device.attr.cuda_cores}",
    "${device.attr.compute_capability}",
    "${device.attr.memory_bandwidth}",
    "${device.attr.graphics_clock}",
    "${device.attr.pci_bandwidth}",
)
NODE_TARGETS = (
    "${attr.kernel.name}",
    "${attr.cpu.arch}",
    "${node.class}",
    "${node.datacenter}",
    "${meta.rack}",
    "${attr.driver.docker.version}",
    "${attr.nvidia.driver.version}",
    "${node.unique.name}",
)
VALUES_BY_TARGET = {
    "memory": ("4 GiB", "40GiB", "80 GiB", "16384 MiB", "12 GB", "1 TiB"),
    "model": ("H100", "A100-SXM4-80GB", "Tesla T4", "MI300X"),
    "vendor": ("nvidia", "amd", "intel"),
    "type": ("gpu", "fpga"),
    "cuda_cores": ("5120", "10496", "0"),
    "compute_capability": ("8.0", "9.0", "7.5"),
    "memory_bandwidth": ("900 GB/s", "2 TB/s", "10 Gbps"),
    "graphics_clock": ("1.5 GHz", "500 MHz", "1410 MHz"),
    "pci_bandwidth": ("10 Gbps", "64 GB/s", "16 GT/s"),
    "node": ("linux", "amd64", "gpu-node", "dc1", "rack-1", "20.10.7", "535.104.05"),
}
ORDER_OPERATORS = (">", ">=", "<", "<=")
SET_OPERATORS = ("set_contains", "set_contains_any", "set_contains_all")
BAD_OPERATORS = ("==", "~=", "contains", "like", "=>", "in", "is")


def _target_kind(target: str) -> str:
    for key in VALUES_BY_TARGET:
        if target.endswith(f".{key}}}") or target.endswith(f".attr.{key}}}"):
            return key
    return "node"


@st.composite
def operator_values(draw: st.DrawFn, target: str, operator: str) -> str | None:
    """A right-hand value that suits ``operator`` on ``target`` (None: no value), now and
    then one that does not (a regexp that does not compile, a version that is no version)."""
    kind = _target_kind(target)
    if operator in ("is_set", "is_not_set", "distinct_hosts"):
        return draw(weighted((15, None), (1, "true")))
    if operator == "regexp":
        return draw(weighted((5, "^H100"), (3, "A100.*"), (3, "nvidia|amd"), (2, "(?i)tesla"), (1, "([")))
    if operator == "version":
        return draw(weighted((5, ">= 1.2"), (3, "~> 535.0"), (3, "> 12.0, < 13.0"), (1, "abc")))
    if operator == "semver":
        return draw(weighted((8, ">= 1.2.0"), (4, "< 2.0.0-beta"), (1, "1..2")))
    if operator in SET_OPERATORS:
        return draw(st.sampled_from(("a,b", "sm_80,sm_90", "H100", "nvidia,amd")))
    if operator == "distinct_property":
        return draw(st.sampled_from(("1", "2", "")))
    if operator in ORDER_OPERATORS and kind in ("model", "vendor", "type", "node"):
        return draw(st.sampled_from(("4 GiB", "1.5 GHz", "2", "8.0")))
    if draw(chance(2)):
        return ""
    return draw(st.sampled_from(VALUES_BY_TARGET[kind]))


def targets(device: bool) -> st.SearchStrategy[str]:
    """An attribute target: a device's own (``${device.attr.memory}``) in a device block,
    a node's (``${attr.kernel.name}``) elsewhere, now and then the other kind."""
    own, other = (DEVICE_TARGETS, NODE_TARGETS) if device else (NODE_TARGETS, DEVICE_TARGETS)
    return weighted((12, 0), (1, 1)).flatmap(lambda o: st.sampled_from(other if o else own))


def operators(affinity: bool) -> st.SearchStrategy[str]:
    """A constraint or affinity operator, mostly valid, sometimes one Nomad does not know
    (for an affinity, also one only constraints take: ``is_set``, ``distinct_hosts``)."""
    valid = ["=", "!=", *ORDER_OPERATORS, "regexp", "version", "semver", *SET_OPERATORS]
    bad: tuple[str, ...] = BAD_OPERATORS
    if affinity:
        bad += ("is_set", "is_not_set", "distinct_hosts")
    else:
        valid += ["is_set", "is_not_set"]
    return weighted((40, 0), (1, 1)).flatmap(lambda b: st.sampled_from(bad if b else valid))


def _target_expr(target: str, escape: bool) -> str:
    return hcl_string(target) if escape else f'"{target}"'


@st.composite
def constraints(draw: st.DrawFn, device: bool = False, escape: bool = False) -> Block:
    """A ``constraint`` block: attribute, operator and value, the operator left out for
    ``=``, or one of the shortcuts written as an argument (``distinct_hosts = true``,
    ``version = ">= 1.2"``, ``set_contains_any = "a,b"``, ``is_set = true``, ...).
    ``escape``: write ``$${...}`` (inside a dynamic block whose iterator shadows ``device``)."""
    target = draw(targets(device))
    shape = draw(weighted((16, "full"), (2, "shortcut"), (0 if device else 1, "distinct")))
    if shape == "distinct":
        if draw(st.booleans()):
            return Block(
                "constraint", (), (Attr("distinct_hosts", draw(weighted((4, "true"), (1, "false")))),)
            )
        return Block("constraint", (), (Attr("distinct_property", _target_expr("${meta.rack}", escape)),))
    if shape == "shortcut":
        name = draw(
            weighted(
                (3, "version"),
                (2, "regexp"),
                (2, "semver"),
                (2, "set_contains"),
                (1, "set_contains_any"),
                (1, "set_contains_all"),
                (1, "is_set"),
            )
        )
        value = draw(operator_values(target, "set_contains" if name.startswith("set_") else name))
        shortcut = "true" if name == "is_set" else hcl_string(value or "x")
        return Block(
            "constraint", (), (Attr("attribute", _target_expr(target, escape)), Attr(name, shortcut))
        )
    operator = draw(operators(affinity=False))
    value = draw(operator_values(target, operator))
    body: list[Item] = [Attr("attribute", _target_expr(target, escape))]
    if operator != "=" or draw(chance(30)):
        body.append(Attr("operator", hcl_string(operator)))
    if value is not None:
        body.append(Attr("value", hcl_string(value)))
    return Block("constraint", (), tuple(body))


def weights() -> st.SearchStrategy[str]:
    """An affinity weight: mostly in -100..100 and non-zero, sometimes 0, 150 or -101."""
    return weighted((8, 50), (5, 100), (5, -50), (3, 1), (3, -100), (3, 75), (1, 0), (1, 150), (1, -101)).map(
        str
    )


def spread_weights() -> st.SearchStrategy[str]:
    """A spread weight: mostly in 1..100, sometimes 0, -10 or 150."""
    return weighted((12, 50), (8, 100), (4, 1), (1, 0), (1, -10), (1, 150)).map(str)


@st.composite
def affinities(draw: st.DrawFn, device: bool = False, escape: bool = False) -> Block:
    """An ``affinity`` block with a weight, or a shortcut operator written as an argument."""
    target = draw(targets(device))
    body: list[Item] = [Attr("attribute", _target_expr(target, escape))]
    if draw(chance(15)):
        name = draw(st.sampled_from(("version", "regexp", "semver", "set_contains_any", "set_contains_all")))
        value = draw(operator_values(target, "set_contains" if name.startswith("set_") else name))
        body.append(Attr(name, hcl_string(value or "x")))
    else:
        operator = draw(operators(affinity=True))
        value = draw(operator_values(target, operator))
        if operator != "=" or draw(chance(30)):
            body.append(Attr("operator", hcl_string(operator)))
        if value is not None:
            body.append(Attr("value", hcl_string(value)))
    if draw(chance(97)):
        body.append(Attr("weight", draw(weights())))
    return Block("affinity", (), tuple(body))


DEVICE_NAMES = (
    "nvidia/gpu",
    "nvidia/gpu/H100",
    "gpu",
    "amd/gpu",
    "nvidia/gpu/Tesla T4",
    "nvidia/gpu/A100-SXM4-80GB",
    "intel/fpga",
    "nvidia/mig",
)
BAD_DEVICE_NAMES = ("", "nvidia/gpu/H100/extra", "nvidia//gpu")


def device_counts(scope: Scope = EMPTY) -> st.SearchStrategy[str | None]:
    """A device count: left out, 1, 2, 4, 0, a variable, and rarely -1 or 1.5."""
    literal = weighted((8, None), (16, "1"), (8, "2"), (3, "4"), (2, "0"), (1, "-1"), (1, '"2"'), (1, "1.5"))
    if not scope.numbers:
        return literal
    return st.one_of(literal, st.sampled_from(scope.numbers))


@st.composite
def devices(draw: st.DrawFn, scope: Scope = EMPTY) -> Block:
    """A ``device "nvidia/gpu"`` block with a count, constraints and affinities."""
    name = draw(
        weighted((40, 0), (1, 1)).flatmap(
            lambda bad: st.sampled_from(BAD_DEVICE_NAMES if bad else DEVICE_NAMES)
        )
    )
    body: list[Item] = []
    count = draw(device_counts(scope))
    if count is not None:
        body.append(Attr("count", count))
    body += draw(st.lists(constraints(device=True), max_size=2))
    body += draw(st.lists(affinities(device=True), max_size=1))
    return Block("device", (name,), tuple(body))


@st.composite
def dynamic_devices(draw: st.DrawFn, scope: Scope = EMPTY) -> Block:
    """``dynamic "device" { for_each = ... labels = [...] content { ... } }`` over a list,
    a map (name to count) or a local; with or without an ``iterator``. Inside ``content``
    the iterator shadows ``device``, so targets are written ``$${device...}``; now and then
    they are not, or ``labels`` is left out, which Nomad refuses."""
    iterator = draw(weighted((3, "device"), (1, "gpu")))
    over = draw(weighted((3, "list"), (2, "map"), (2 if scope.device_lists else 0, "scope")))
    escape = iterator == "device" and draw(chance(90))
    body: list[Item] = []
    content: list[Item] = []
    if over == "map":
        pairs = [
            (n, str(draw(st.integers(1, 2))))
            for n in draw(st.lists(st.sampled_from(DEVICE_NAMES[:4]), min_size=1, max_size=2, unique=True))
        ]
        body.append(Attr("for_each", hcl_object(pairs)))
        content.append(Attr("count", f"{iterator}.value"))
        label = f"{iterator}.key"
    else:
        listed = draw(st.lists(st.sampled_from(DEVICE_NAMES[:4]), min_size=0, max_size=2, unique=True))
        source = (
            draw(st.sampled_from(scope.device_lists))
            if over == "scope"
            else hcl_list([hcl_string(n) for n in listed])
        )
        body.append(Attr("for_each", source))
        content.append(Attr("count", draw(weighted((3, "1"), (1, "2")))))
        label = f"{iterator}.value"
    if iterator != "device":
        body.append(Attr("iterator", iterator))
    if draw(chance(97)):
        body.append(Attr("labels", f"[{label}]"))
    content += draw(st.lists(constraints(device=True, escape=escape), max_size=1))
    content += draw(st.lists(affinities(device=True, escape=escape), max_size=1))
    body.append(Block("content", (), tuple(content)))
    return Block("dynamic", ("device",), tuple(body))


@st.composite
def dynamic_constraints(draw: st.DrawFn, scope: Scope = EMPTY) -> Block:
    """``dynamic "constraint"`` over a list or map of values for one node attribute."""
    values = draw(
        st.lists(st.sampled_from(("linux", "amd64", "gpu-node", "dc1")), min_size=1, max_size=2, unique=True)
    )
    if draw(st.booleans()):
        source = hcl_object([(f"c{i}", hcl_string(v)) for i, v in enumerate(values)])
    else:
        source = hcl_list([hcl_string(v) for v in values])
    content = (
        Attr("attribute", '"${attr.kernel.name}"'),
        Attr("operator", hcl_string(draw(weighted((3, "="), (1, "!="), (1, "regexp"))))),
        Attr("value", "constraint.value"),
    )
    return Block("dynamic", ("constraint",), (Attr("for_each", source), Block("content", (), content)))


# ---- resources and tasks ---------------------------------------------------------------


@st.composite
def resources(draw: st.DrawFn, scope: Scope = EMPTY) -> Block:
    """A ``resources`` block: cpu or cores, memory and memory_max, and up to two devices
    (or one dynamic device block); sometimes values Nomad refuses (both cpu and cores,
    memory_max below memory, memory below 10 MB, cpu 0)."""
    body: list[Item] = []
    compute = draw(weighted((40, "cpu"), (12, "cores"), (8, "none"), (1, "both")))
    if compute in ("cpu", "both"):
        cpu = draw(weighted((50, "ok"), (1, "0"), (1, "-100"), (1, "1")))
        body.append(Attr("cpu", draw(number_exprs(20, 4000, scope)) if cpu == "ok" else cpu))
    if compute in ("cores", "both"):
        body.append(Attr("cores", str(draw(weighted((3, 1), (2, 2), (1, 4), (1, 8))))))
    memory = None
    if draw(chance(85)):
        memory = draw(weighted((30, 128), (20, 256), (20, 1024), (10, 4096), (5, 32768), (1, 5)))
        body.append(Attr("memory", str(memory)))
    if memory and draw(chance(25)):
        body.append(Attr("memory_max", str(draw(weighted((12, memory * 2), (1, memory // 2), (2, memory))))))
    if draw(chance(12)):
        body.append(draw(dynamic_devices(scope)))
    else:
        body += draw(
            weighted((2, 0), (6, 1), (1, 2)).flatmap(
                lambda n: st.lists(devices(scope), min_size=n, max_size=n)
            )
        )
    return Block("resources", (), tuple(body))


IMAGES = (
    "redis:7",
    "nvidia/cuda:12.4.0-base-ubuntu22.04",
    "pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime",
    "busybox",
)


@st.composite
def driver_configs(draw: st.DrawFn, driver: str, scope: Scope = EMPTY) -> Block:
    """A task's ``config`` block for ``driver``: docker's image, args, nested maps and
    blocks, nulls; exec's and raw_exec's command and args."""
    body: list[Item] = []
    args = draw(
        st.lists(
            st.sampled_from(("--port", "8080", "-c", "sleep 3600", "--gpus=all", "${NOMAD_TASK_DIR}/x")),
            max_size=3,
        )
    )
    arg_exprs = [hcl_string(a) if "$" not in a else f'"{a}"' for a in args]
    args_expr = hcl_list(arg_exprs)
    if bool(scope.string_lists) and draw(chance(30)):
        args_expr = f"concat({args_expr}, {draw(st.sampled_from(scope.string_lists))})"
    elif draw(chance(10)):
        args_expr = f'split(",", "a,b,{draw(st.integers(0, 9))}")'
    if driver == "docker":
        image = (
            draw(st.sampled_from(scope.strings))
            if bool(scope.strings) and draw(chance(30))
            else hcl_string(draw(st.sampled_from(IMAGES)))
        )
        body.append(Attr("image", image))
        if bool(args) or draw(chance(20)):
            body.append(Attr("args", args_expr))
        extras = draw(
            st.lists(
                st.sampled_from(
                    ("command_null", "labels_block", "labels_map", "auth", "ports", "privileged", "shm")
                ),
                max_size=2,
                unique=True,
            )
        )
        for extra in extras:
            if extra == "command_null":
                body.append(Attr(draw(st.sampled_from(("command", "entrypoint"))), "null"))
            elif extra == "labels_block":
                body.append(Block("labels", (), (Attr("team", hcl_string("ml")), Attr("gpu", "true"))))
            elif extra == "labels_map":
                body.append(Attr("labels", hcl_object([("team", '"ml"'), ("nested", "{ a = 1, b = null }")])))
            elif extra == "auth":
                body.append(Block("auth", (), (Attr("username", '"bot"'), Attr("password", '"s3cr3t"'))))
            elif extra == "ports":
                body.append(Attr("ports", '["http"]'))
            elif extra == "privileged":
                body.append(Attr("privileged", "false"))
            else:
                body.append(Attr("shm_size", "1073741824"))
    else:
        body.append(
            Attr(
                "command", hcl_string(draw(st.sampled_from(("/bin/sh", "/usr/bin/python3", "local/run.sh"))))
            )
        )
        if args:
            body.append(Attr("args", args_expr))
    return Block("config", (), tuple(body))


TEMPLATE_LINES = (
    'ALLOC={{ env "NOMAD_ALLOC_ID" }}',
    '{{ range service "redis" }}{{ .Address }}:{{ .Port }}{{ end }}',
    "GPU_MEMORY=40GiB",
    "threshold: -0.0",
    "  indented: yes",
    "",
    'KEY={{ key "service/app/key" }}',
    "HOME=$${HOME}",
)


@st.composite
def heredocs(draw: st.DrawFn, scope: Scope = EMPTY) -> Heredoc:
    """A ``<<EOH`` or ``<<-EOH`` heredoc of template lines, some interpolating HCL."""
    lines = draw(st.lists(st.sampled_from(TEMPLATE_LINES), min_size=1, max_size=4))
    if bool(scope.strings) and draw(chance(30)):
        lines.append(f"name=${{{draw(st.sampled_from(scope.strings))}}}")
    if draw(chance(20)):
        lines.append("answer=${21 * 2}")
    return Heredoc(draw(st.sampled_from(("EOH", "EOF", "EOT"))), tuple(lines), indented=draw(st.booleans()))


@st.composite
def templates(draw: st.DrawFn, scope: Scope = EMPTY) -> Block:
    """A ``template`` block whose data is a heredoc, a one-line string, ``file("motd.txt")``
    or, rarely, ``templatefile("app.tpl", {...})`` (which jobspec2 does not define); with a
    destination (rarely left out) and sometimes env, change_mode and perms."""
    source = draw(weighted((20, "heredoc"), (3, "string"), (3, "file"), (1, "templatefile")))
    if source == "heredoc":
        data: str | Heredoc = draw(heredocs(scope))
    elif source == "string":
        data = hcl_string('PORT={{ env "NOMAD_PORT_http" }}\n')
    elif source == "file":
        data = 'file("motd.txt")'
    else:
        given = [("port", "8080"), ("name", hcl_string("web"))][: draw(weighted((9, 2), (1, 1)))]
        data = f'templatefile("app.tpl", {hcl_object(given)})'
    body: list[Item] = [Attr("data", data)]
    if draw(chance(97)):
        body.append(
            Attr(
                "destination",
                hcl_string(draw(st.sampled_from(("local/app.env", "secrets/config.yml", "local/x")))),
            )
        )
    if draw(chance(30)):
        body.append(Attr("env", "true"))
    if draw(chance(30)):
        mode = draw(weighted((3, "restart"), (2, "noop"), (2, "signal")))
        body.append(Attr("change_mode", hcl_string(mode)))
        if mode == "signal" and draw(chance(85)):
            body.append(Attr("change_signal", '"SIGHUP"'))
    if draw(chance(10)):
        body.append(Attr("perms", '"0644"'))
    return Block("template", (), tuple(body))


ENV_KEYS = ("CUDA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "LOG_LEVEL", "PORT", "MODEL_PATH")


@st.composite
def envs(draw: st.DrawFn, scope: Scope = EMPTY) -> Item:
    """The ``env`` map, as a block or as an argument (whose keys may hold dots)."""
    keys = draw(st.lists(st.sampled_from(ENV_KEYS), min_size=1, max_size=3, unique=True))
    pairs = [(k, draw(st.one_of(string_exprs(scope), st.sampled_from(NUMBER_TEXTS)))) for k in keys]
    if draw(chance(25)):
        if draw(st.booleans()):
            pairs.append(("app.mode", '"gpu"'))
        return Attr("env", hcl_object(pairs))
    return Block("env", (), tuple(Attr(k, v) for k, v in pairs))


@st.composite
def tasks(draw: st.DrawFn, name: str | None = None, scope: Scope = EMPTY) -> Block:
    """A ``task`` with a driver (docker, exec, raw_exec), its config, env, meta, resources,
    templates, constraints and a few more arguments."""
    name = name or draw(names())
    driver = draw(weighted((6, "docker"), (2, "exec"), (2, "raw_exec")))
    body: list[Item] = [Attr("driver", hcl_string(driver))]
    if draw(chance(5)):
        body.insert(0, Comment(draw(st.sampled_from(("# the main task", "// GPU work")))))
    body.append(draw(driver_configs(driver, scope)))
    if draw(chance(40)):
        body.append(draw(envs(scope)))
    if draw(chance(25)):
        body.append(draw(meta_blocks(scope)))
    if draw(chance(90)):
        body.append(draw(resources(scope)))
    if draw(chance(30)):
        body.append(draw(templates(scope)))
    if draw(chance(15)):
        body.append(
            Attr("kill_timeout", draw(weighted((12, '"5s"'), (8, '"30s"'), (1, '"1h"'), (1, '"5x"'))))
        )
    if draw(chance(10)):
        body.append(Attr("user", '"nobody"'))
    if draw(chance(10)):
        body.append(Attr("leader", "true"))
    if draw(chance(10)):
        body.append(
            Block(
                "logs",
                (),
                (
                    Attr("max_files", "3"),
                    Attr("max_file_size", str(draw(weighted((4, 10), (2, 20), (1, 0))))),
                ),
            )
        )
    if draw(chance(15)):
        body.append(draw(constraints()))
    if draw(chance(10)):
        body.append(draw(affinities()))
    return Block("task", (name,), tuple(body))


# ---- groups and jobs -------------------------------------------------------------------


@st.composite
def restart_blocks(draw: st.DrawFn) -> Block:
    """``restart`` with attempts, interval, delay and mode; now and then a bad duration or
    numbers Nomad refuses together (attempts that do not fit the interval)."""
    attempts = draw(weighted((8, 2), (4, 3), (4, 1), (1, 0), (1, 10)))
    body: list[Item] = [Attr("attempts", str(attempts))]
    body.append(Attr("interval", draw(weighted((10, "30m"), (6, "5m"), (1, "10s")).map(hcl_string))))
    delay = draw(weighted((30, "ok"), (1, "bad"), (1, "long")))
    if delay == "ok":
        body.append(Attr("delay", draw(st.sampled_from(('"15s"', '"25s"', '"30s"', '"1m"', "15000000000")))))
    else:
        body.append(Attr("delay", draw(durations(bad_percent=100 if delay == "bad" else 0))))
    body.append(Attr("mode", hcl_string(draw(weighted((7, "fail"), (7, "delay"), (1, "retry"))))))
    if draw(chance(10)):
        body.append(Attr("render_templates", "true"))
    return Block("restart", (), tuple(body[: draw(st.integers(1, len(body)))]))


@st.composite
def reschedule_blocks(draw: st.DrawFn) -> Block:
    """``reschedule`` with attempts and interval, or unlimited with a delay function."""
    body: list[Item] = []
    if draw(chance(30)):
        body.append(Attr("unlimited", "true"))
        if draw(chance(90)):
            body.append(Attr("attempts", "0"))
        body.append(
            Attr(
                "delay_function",
                hcl_string(
                    draw(weighted((6, "exponential"), (4, "fibonacci"), (4, "constant"), (1, "linear")))
                ),
            )
        )
        body.append(Attr("delay", draw(durations(bad_percent=3))))
        body.append(Attr("max_delay", hcl_string(draw(weighted((4, "1h"), (3, "2h"), (1, "5s"))))))
    else:
        body.append(Attr("attempts", str(draw(weighted((3, 1), (3, 3), (1, 0))))))
        body.append(Attr("interval", hcl_string(draw(st.sampled_from(("1h", "24h", "30m"))))))
        if draw(chance(90)):  # a service job's default policy is unlimited
            body.append(Attr("unlimited", "false"))
    return Block("reschedule", (), tuple(body))


@st.composite
def update_blocks(draw: st.DrawFn) -> Block:
    """``update`` with max_parallel, health deadlines, canaries and auto_revert."""
    body: list[Item] = [Attr("max_parallel", str(draw(weighted((4, 1), (2, 2), (1, 0)))))]
    if draw(chance(60)):
        body.append(
            Attr("min_healthy_time", draw(weighted((12, "10s"), (6, "30s"), (1, "5x")).map(hcl_string)))
        )
        body.append(Attr("healthy_deadline", draw(weighted((8, "5m"), (2, "3m"), (1, "5s")).map(hcl_string))))
    if draw(chance(30)):
        body.append(Attr("progress_deadline", hcl_string(draw(weighted((4, "10m"), (1, "1m"))))))
    if draw(chance(30)):
        body.append(
            Attr(
                "health_check",
                hcl_string(draw(weighted((6, "checks"), (4, "task_states"), (2, "manual"), (1, "none")))),
            )
        )
    if draw(chance(25)):
        body.append(Attr("canary", str(draw(weighted((3, 1), (1, 0))))))
        body.append(Attr("auto_revert", "true"))
    return Block("update", (), tuple(body))


@st.composite
def networks(draw: st.DrawFn) -> Block:
    """A group ``network`` with a mode and a labelled port."""
    port: list[Item] = [Attr("to", str(draw(st.sampled_from((8080, 6379, 0)))))]
    if draw(chance(20)):
        port.append(Attr("static", str(draw(weighted((4, 9000), (1, 70000))))))
    body: list[Item] = [Block("port", (draw(st.sampled_from(("http", "grpc", "metrics"))),), tuple(port))]
    if draw(st.booleans()):
        body.insert(0, Attr("mode", hcl_string(draw(st.sampled_from(("bridge", "host"))))))
    return Block("network", (), tuple(body))


@st.composite
def groups(
    draw: st.DrawFn, job_type: str = "service", scope: Scope = EMPTY, name: str | None = None
) -> Block:
    """A ``group`` of one or two tasks, with a count, restart, reschedule and update
    policies, a network, constraints, affinities and meta, chosen to suit ``job_type``."""
    name = name or draw(names())
    system = job_type in ("system", "sysbatch")
    body: list[Item] = []
    if draw(chance(70)):
        if system:
            count = draw(weighted((8, "1"), (1, "0"), (1, "2")))
        else:
            count = draw(weighted((40, "ok"), (1, "-1"), (1, "0"))).replace(
                "ok", draw(number_exprs(1, 5, scope))
            )
        body.append(Attr("count", count))
    if draw(chance(25)):
        body.append(draw(restart_blocks()))
    if draw(chance(3 if system else 20)):
        body.append(draw(reschedule_blocks()))
    if draw(chance({"service": 20, "system": 8}.get(job_type, 2))):
        body.append(draw(update_blocks()))
    if draw(chance(15)):
        body.append(draw(networks()))
    if draw(chance(15)):
        body.append(
            Block("ephemeral_disk", (), (Attr("size", str(draw(weighted((20, 300), (8, 1024), (1, 0))))),))
        )
    if draw(chance(20)):
        body.append(draw(meta_blocks(scope)))
    if draw(chance(25)):
        body.append(draw(constraints()))
    if draw(chance(10)):
        body.append(draw(dynamic_constraints(scope)))
    if draw(chance(10)):
        body.append(draw(affinities()))
    if draw(chance(5)):
        body.append(
            Block(
                "spread",
                (),
                (Attr("attribute", '"${node.datacenter}"'), Attr("weight", draw(spread_weights()))),
            )
        )
    task_names = draw(st.lists(names(), min_size=1, max_size=draw(weighted((3, 1), (1, 2))), unique=True))
    body += [draw(tasks(task_name, scope)) for task_name in task_names]
    return Block("group", (name,), tuple(body))


@st.composite
def jobs(draw: st.DrawFn, scope: Scope = EMPTY) -> Block:
    """A ``job`` block: type, datacenters, priority, region, meta, constraints, an update
    policy and one or two groups."""
    job_type = draw(weighted((5, "service"), (3, "batch"), (1, "system"), (1, "sysbatch")))
    body: list[Item] = []
    if draw(chance(85)):
        body.append(Attr("type", hcl_string(job_type)))
    else:
        job_type = "service"
    if draw(chance(70)):
        if bool(scope.string_lists) and draw(chance(40)):
            dcs = draw(st.sampled_from(scope.string_lists))
        else:
            dcs = hcl_list(
                [
                    hcl_string(d)
                    for d in draw(
                        st.lists(
                            st.sampled_from(("dc1", "dc2", "us-east-1", "*")),
                            min_size=1,
                            max_size=2,
                            unique=True,
                        )
                    )
                ]
            )
        body.append(Attr("datacenters", dcs))
    if draw(chance(30)):
        body.append(
            Attr(
                "priority",
                str(draw(weighted((16, 50), (8, 70), (8, 100), (4, 1), (1, 0), (1, 101), (1, -5)))),
            )
        )
    if draw(chance(10)):
        body.append(Attr("region", '"global"'))
    if draw(chance(20)):
        body.append(draw(meta_blocks(scope)))
    if draw(chance(15)):
        body.append(draw(constraints()))
    if draw(chance(8 if job_type in ("service", "system") else 1)):
        body.append(draw(update_blocks()))
    group_names = draw(st.lists(names(), min_size=1, max_size=draw(weighted((4, 1), (1, 2))), unique=True))
    body += [draw(groups(job_type, scope, group_name)) for group_name in group_names]
    job_name = (
        draw(weighted((60, "ok"), (1, "with space")))
        .replace("ok", draw(names()))
        .replace("with space", "my job")
    )
    return Block("job", (job_name,), tuple(body))


# ---- variables and locals --------------------------------------------------------------


@dataclass(frozen=True)
class Declarations:
    """What the file declares before its job: ``variable`` and ``locals`` blocks, the
    ``-var`` arguments that go with them, and what the job may refer to."""

    blocks: tuple[Item, ...] = ()
    args: tuple[str, ...] = ()
    scope: Scope = EMPTY


def _variable(name: str, type_expr: str | None, default: str | None, description: bool) -> Block:
    body: list[Item] = []
    if type_expr:
        body.append(Attr("type", type_expr))
    if description:
        body.append(Attr("description", hcl_string(f"The {name}.")))
    if default is not None:
        body.append(Attr("default", default))
    return Block("variable", (name,), tuple(body))


@st.composite
def declarations(draw: st.DrawFn) -> Declarations:
    """Variables (typed or not, with or without a default, set or not with ``-var``, now
    and then required and unset, or set with a value of the wrong type) and locals built
    with functions (concat, upper, max, merge, range, file)."""
    blocks: list[Item] = []
    args: list[str] = []
    scope: dict[str, list[str]] = {
        k: [] for k in ("numbers", "strings", "string_lists", "bools", "maps", "device_lists")
    }
    chosen = draw(
        st.lists(
            st.sampled_from(("instances", "image", "datacenters", "gpu_count", "enable_gpu", "cpu")),
            max_size=3,
            unique=True,
        )
    )
    for name in chosen:
        described = draw(chance(30))
        if name == "instances":
            blocks.append(_variable(name, "number", draw(weighted((8, "2"), (3, "1"), (1, None))), described))
            cli = draw(weighted((6, None), (4, "3"), (1, "two")))
            scope["numbers"].append("var.instances")
        elif name == "image":
            blocks.append(_variable(name, draw(weighted((3, "string"), (1, None))), '"redis:7"', described))
            cli = draw(weighted((3, None), (1, "nginx:1.25")))
            scope["strings"].append("var.image")
        elif name == "datacenters":
            blocks.append(_variable(name, "list(string)", '["dc1"]', described))
            cli = draw(weighted((6, None), (3, '["dc1","dc2"]'), (1, "dc1")))
            scope["string_lists"].append("var.datacenters")
        elif name == "gpu_count":
            default = draw(weighted((3, "1"), (1, None)))
            blocks.append(_variable(name, "number", default, described))
            cli = draw(weighted((3, "2"), (1, "1")) if default is None else weighted((3, None), (2, "2")))
            if default is None and draw(chance(15)):
                cli = None  # a required variable left unset
            scope["numbers"].append("var.gpu_count")
        elif name == "enable_gpu":
            blocks.append(_variable(name, "bool", "true", described))
            cli = draw(weighted((3, None), (1, "false")))
            scope["bools"].append("var.enable_gpu")
            scope["device_lists"].append('var.enable_gpu ? ["nvidia/gpu"] : []')
        else:
            blocks.append(_variable(name, None, "500", described))
            cli = draw(weighted((3, None), (1, "750")))
            scope["numbers"].append("var.cpu")
        if cli is not None:
            args += ["-var", f"{name}={cli}"]
    if draw(chance(2)):
        args += ["-var", "undeclared=1"]
    if draw(chance(35)):
        pairs: list[tuple[str, str]] = []
        for local in draw(
            st.lists(
                st.sampled_from(("dcs", "prefix", "replicas", "labels", "gpus", "banner", "extra_args")),
                min_size=1,
                max_size=3,
                unique=True,
            )
        ):
            if local == "dcs":
                pairs.append((local, 'concat(["dc1"], ["dc2"])'))
                scope["string_lists"].append("local.dcs")
            elif local == "prefix":
                pairs.append((local, f'upper("{draw(st.sampled_from(WORDS))}")'))
                scope["strings"].append("local.prefix")
            elif local == "replicas":
                pairs.append((local, "max(1, length(range(2)))"))
                scope["numbers"].append("local.replicas")
            elif local == "labels":
                pairs.append((local, 'merge({ team = "ml" }, { tier = "gpu" })'))
                scope["maps"].append("local.labels")
            elif local == "gpus":
                pairs.append((local, 'concat(["nvidia/gpu"], ["amd/gpu"])'))
                scope["device_lists"].append("local.gpus")
            elif local == "banner":
                pairs.append((local, 'trimspace(file("motd.txt"))'))
                scope["strings"].append("local.banner")
            else:
                pairs.append((local, '[for n in range(2) : format("--shard=%d", n)]'))
                scope["string_lists"].append("local.extra_args")
        blocks.append(Block("locals", (), tuple(Attr(k, v) for k, v in pairs), style="multi"))
    return Declarations(tuple(blocks), tuple(args), Scope(**{k: tuple(v) for k, v in scope.items()}))


# ---- mutations -------------------------------------------------------------------------

Path = tuple[int, ...]


def block_paths(block: Block, types: Sequence[str] | None = None, path: Path = ()) -> list[Path]:
    """The paths (indices into nested bodies) of the blocks inside ``block`` whose type is
    one of ``types`` (any type when None), in document order."""
    found: list[Path] = []
    for index, item in enumerate(block.body):
        if isinstance(item, Block):
            here = (*path, index)
            if types is None or item.type in types:
                found.append(here)
            found += block_paths(item, types, here)
    return found


def get(block: Block, path: Path) -> Block:
    """The block at ``path`` inside ``block``."""
    for index in path:
        item = block.body[index]
        assert isinstance(item, Block)
        block = item
    return block


def update(block: Block, path: Path, change: Callable[[Block], Block]) -> Block:
    """``block`` with the block at ``path`` replaced by ``change(it)``."""
    if not path:
        return change(block)
    index, rest = path[0], path[1:]
    child = block.body[index]
    assert isinstance(child, Block)
    body = list(block.body)
    body[index] = update(child, rest, change)
    return replace(block, body=tuple(body))


def _set_attr(block: Block, name: str, value: str) -> Block:
    body = [item for item in block.body if not (isinstance(item, Attr) and item.name == name)]
    return replace(block, body=(Attr(name, value), *body))


def _without(block: Block, name: str) -> Block:
    """``block`` without its arguments and blocks called ``name``."""
    return replace(
        block, body=tuple(i for i in block.body if not (isinstance(i, Attr | Block) and _name(i) == name))
    )


def _name(item: Attr | Block) -> str:
    return item.name if isinstance(item, Attr) else item.type


def _add(block: Block, *items: Item) -> Block:
    return replace(block, body=(*block.body, *items))


Mutation = Callable[[st.DrawFn, Block], Block]


def _pick(
    draw: st.DrawFn, root: Block, types: Sequence[str] | None, where: Callable[[Block], bool] = lambda b: True
) -> Path | None:
    paths = [p for p in block_paths(root, types) if where(get(root, p))]
    return draw(st.sampled_from(paths)) if paths else None


def _missing_driver(draw: st.DrawFn, root: Block) -> Block:
    """A task without its ``driver`` (Nomad: Missing task driver)."""
    path = _pick(draw, root, ["task"])
    return update(root, path, lambda t: _without(t, "driver")) if path else root


UNKNOWN_ATTRIBUTES = (
    ("gpu_count", "2"),
    ("colour", '"blue"'),
    ("memroy", "256"),
    ("counts", "1"),
    ("labels", '["a"]'),
)


def _unknown_attribute(draw: st.DrawFn, root: Block) -> Block:
    """An argument the block does not take (``gpu_count``, ``memroy``, ...)."""
    path = _pick(
        draw,
        root,
        [
            "job",
            "group",
            "task",
            "resources",
            "device",
            "restart",
            "update",
            "constraint",
            "affinity",
            "template",
        ],
    )
    name, value = draw(st.sampled_from(UNKNOWN_ATTRIBUTES))
    return update(root, path, lambda b: _add(b, Attr(name, value))) if path else root


WRONG_TYPES = {
    "group": (("count", '"two"'), ("count", "[1]"), ("count", "1.5")),
    "resources": (("cpu", '"lots"'), ("memory", "true"), ("cores", '"four"')),
    "job": (("priority", '"high"'), ("datacenters", "42"), ("type", "[1]")),
    "device": (("count", '"one"'), ("count", "{ n = 1 }")),
    "affinity": (("weight", '"heavy"'),),
    "task": (("driver", "42"), ("leader", '"yes"'), ("kill_timeout", "true")),
}


def _wrong_type(draw: st.DrawFn, root: Block) -> Block:
    """An argument of the wrong type (``count = "two"``, ``cpu = "lots"``, ``weight = "heavy"``)."""
    path = _pick(draw, root, list(WRONG_TYPES))
    if path is None:
        return root
    name, value = draw(st.sampled_from(WRONG_TYPES[get(root, path).type]))
    return update(root, path, lambda b: _set_attr(b, name, value))


def _duplicate_task(draw: st.DrawFn, root: Block) -> Block:
    """A second task with the name of one already in its group."""
    path = _pick(draw, root, ["task"])
    if path is None:
        return root
    twin = _minimal_task(get(root, path).labels[0])
    return update(root, path[:-1], lambda g: _add(g, twin))


def _duplicate_group(draw: st.DrawFn, root: Block) -> Block:
    """A second group with the name of one already in the job."""
    path = _pick(draw, root, ["group"])
    if path is None:
        return root
    twin = Block("group", get(root, path).labels, (_minimal_task(draw(names())),))
    return update(root, path[:-1], lambda j: _add(j, twin))


def _minimal_task(name: str) -> Block:
    return Block(
        "task", (name,), (Attr("driver", '"exec"'), Block("config", (), (Attr("command", '"/bin/true"'),)))
    )


def _bad_duration(draw: st.DrawFn, root: Block) -> Block:
    """A duration Go cannot parse (``delay = "5x"``) in a restart block or a task."""
    path = _pick(draw, root, ["group", "task"])
    if path is None:
        return root
    bad = hcl_string(draw(st.sampled_from(BAD_DURATIONS)))
    if get(root, path).type == "task":
        return update(
            root, path, lambda t: _set_attr(t, draw(st.sampled_from(("kill_timeout", "shutdown_delay"))), bad)
        )
    restart = Block(
        "restart", (), (Attr("attempts", "2"), Attr(draw(st.sampled_from(("delay", "interval"))), bad))
    )
    return update(
        root,
        path,
        lambda g: replace(
            g, body=(restart, *(i for i in g.body if not (isinstance(i, Block) and i.type == "restart")))
        ),
    )


def _empty_device_name(draw: st.DrawFn, root: Block) -> Block:
    """A device with an empty name (``device "" {}``)."""
    path = _pick(draw, root, ["device"])
    if path is not None:
        return update(root, path, lambda d: replace(d, labels=("",)))
    path = _pick(draw, root, ["resources"])
    return (
        update(root, path, lambda r: _add(r, Block("device", ("",), (Attr("count", "1"),)))) if path else root
    )


def _bad_operator(draw: st.DrawFn, root: Block) -> Block:
    """A constraint or affinity operator Nomad does not know (``==``, ``~=``, ...)."""
    path = _pick(draw, root, ["constraint", "affinity"])
    if path is None:
        return root
    return update(
        root, path, lambda c: _set_attr(c, "operator", hcl_string(draw(st.sampled_from(BAD_OPERATORS))))
    )


TYPOS = {
    "group": ("grop", "groups"),
    "task": ("tsak", "tasks"),
    "resources": ("resorces", "resource"),
    "config": ("cofig",),
    "device": ("devices", "gpu"),
    "constraint": ("constrain", "constraints"),
    "affinity": ("afinity",),
    "restart": ("restrat",),
    "template": ("templates",),
    "env": ("environment",),
}


def _typo_block_name(draw: st.DrawFn, root: Block) -> Block:
    """A block type misspelt (``resorces``, ``grop``, ``constrain``, ...)."""
    path = _pick(draw, root, list(TYPOS))
    if path is None:
        return root
    return update(root, path, lambda b: replace(b, type=draw(st.sampled_from(TYPOS[b.type]))))


def _missing_tasks(draw: st.DrawFn, root: Block) -> Block:
    """A group without tasks."""
    path = _pick(draw, root, ["group"])
    return update(root, path, lambda g: _without(g, "task")) if path else root


def _duplicate_attribute(draw: st.DrawFn, root: Block) -> Block:
    """An argument set twice in one block."""
    path = _pick(
        draw,
        root,
        None,
        lambda b: any(isinstance(i, Attr) for i in b.body) and b.type not in ("locals", "variable"),
    )
    if path is None:
        return root
    block = get(root, path)
    first = next(i for i in block.body if isinstance(i, Attr))
    return update(root, path, lambda b: _add(b, first))


def _undefined_reference(draw: st.DrawFn, root: Block) -> Block:
    """A reference to an undeclared variable, local, function or file."""
    path = _pick(draw, root, ["task", "group"])
    if path is None:
        return root
    ref = draw(
        st.sampled_from(
            ("var.undefined", "local.missing", "upper(nope)", 'file("absent.txt")', "unknownfn(1)")
        )
    )
    return update(root, path, lambda b: _add(b, Block("meta", (), (Attr("broken", ref),))))


def _crammed(draw: st.DrawFn, root: Block) -> Block:
    """A block with several arguments or a nested block written on one line
    (``resources { device "nvidia/gpu" { count = 1 } }``), which HCL refuses."""

    def two_or_nested(b: Block) -> bool:
        return (
            inlinable(b)
            and (len(b.body) >= 2 or any(isinstance(i, Block) for i in b.body))
            and b.type != "job"
        )

    path = _pick(draw, root, None, two_or_nested)
    return update(root, path, lambda b: replace(b, style="crammed")) if path else root


def _open_inline(draw: st.DrawFn, root: Block) -> Block:
    """A block opened with an argument on its line and closed on a later line."""
    path = _pick(draw, root, None, lambda b: bool(b.body) and _one_line_value(b.body[0]))
    return update(root, path, lambda b: replace(b, style="open_inline")) if path else root


def _close_inline(draw: st.DrawFn, root: Block) -> Block:
    """A multi-line block closed after its last argument (``image = "x" }``)."""
    path = _pick(draw, root, None, lambda b: bool(b.body) and _one_line_value(b.body[-1]))
    return update(root, path, lambda b: replace(b, style="close_inline")) if path else root


def _brace_next_line(draw: st.DrawFn, root: Block) -> Block:
    """A block whose opening brace is on the next line."""
    path = _pick(draw, root, None)
    return update(root, path, lambda b: replace(b, style="brace_next_line")) if path else root


MUTATIONS: dict[str, tuple[int, Mutation]] = {
    "missing_driver": (3, _missing_driver),
    "unknown_attribute": (4, _unknown_attribute),
    "wrong_type": (4, _wrong_type),
    "duplicate_task": (3, _duplicate_task),
    "duplicate_group": (1, _duplicate_group),
    "bad_duration": (3, _bad_duration),
    "empty_device_name": (3, _empty_device_name),
    "bad_operator": (3, _bad_operator),
    "typo_block_name": (4, _typo_block_name),
    "missing_tasks": (1, _missing_tasks),
    "duplicate_attribute": (2, _duplicate_attribute),
    "undefined_reference": (2, _undefined_reference),
    "crammed": (3, _crammed),
    "open_inline": (2, _open_inline),
    "close_inline": (2, _close_inline),
    "brace_next_line": (1, _brace_next_line),
}
"""Each way to damage a job, with how often it is drawn."""


def mutations() -> st.SearchStrategy[str]:
    """The name of one entry of :data:`MUTATIONS`, drawn by weight (``missing_brace``, a
    text-level damage, is drawn now and then too)."""
    return weighted(*((weight, name) for name, (weight, _) in MUTATIONS.items()), (1, "missing_brace"))


# ---- whole files -----------------------------------------------------------------------

FILES = {
    "motd.txt": "Welcome to the GPU cluster.\nBe nice.\n",
    "app.tpl": "port=${port}\nname=${name}\n",
}
"""The files a job may read (``file("motd.txt")``, ``templatefile("app.tpl", ...)``)."""


def fit(job: Block, limit: int = MAX_LINES) -> Block:
    """``job`` pruned until it takes at most ``limit`` lines (``limit`` counts what comes
    before it too, by the caller): extra tasks, then extra groups, then templates, then
    devices beyond the first of a resources block go."""
    while size(job) > limit:
        group_paths = [(i,) for i, item in enumerate(job.body) if _is(item, "group")]
        crowded = [p for p in group_paths if sum(_is(i, "task") for i in get(job, p).body) > 1]
        if crowded:
            group = max(crowded, key=lambda p: size(get(job, p)))
            last = max(i for i, item in enumerate(get(job, group).body) if _is(item, "task"))
            job = remove(job, (*group, last))
        elif len(group_paths) > 1:
            job = remove(job, group_paths[-1])
        elif templates_ := block_paths(job, ["template"]):
            job = remove(job, templates_[-1])
        elif extra := [
            p
            for p in block_paths(job, ["device", "dynamic"])
            if p[-1] > 0 and get(job, p[:-1]).type == "resources"
        ]:
            job = remove(job, extra[-1])
        else:
            break
    return job


def _is(item: Item, block_type: str) -> bool:
    return isinstance(item, Block) and item.type == block_type


def remove(root: Block, path: Path) -> Block:
    """``root`` without the item at ``path``."""
    return update(root, path[:-1], lambda parent: _drop(parent, path[-1]))


def _drop(block: Block, index: int) -> Block:
    return replace(block, body=block.body[:index] + block.body[index + 1 :])


@st.composite
def job_files(draw: st.DrawFn) -> JobFile:
    """A Nomad job file: declarations, a job, at most one damage, a layout; with the
    ``-var`` arguments and the files it reads. About half are accepted by Nomad."""
    declared = draw(declarations()) if draw(chance(40)) else Declarations()
    head: list[Item] = []
    if draw(chance(10)):
        head.append(Comment(draw(st.sampled_from(("# generated", "// a GPU job", "# -*- hcl -*-")))))
    head += declared.blocks
    job = fit(draw(jobs(declared.scope)), MAX_LINES - sum(size(i) for i in head) - 8)
    root = Block("", (), (*head, job))
    mutation = draw(mutations()) if draw(chance(30)) else None
    if mutation is not None and mutation in MUTATIONS:
        root = MUTATIONS[mutation][1](draw, root)
    text = render(draw, root.body, draw(layouts()))
    if mutation == "missing_brace":
        text = text.rstrip("\n").removesuffix("}") + "\n"
    files = tuple((name, body) for name, body in FILES.items() if f'"{name}"' in text)
    return JobFile(text, declared.args, files)
