"""Hypothesis strategies for fuzzing: job files built from a syntax tree, and mutated corpora.

A generated job is a tree of :class:`Block` and :class:`Attribute` values, printed by
:func:`render` in a layout drawn at random (indentation, spacing, comments, blank lines,
one-line blocks), so the same tree reaches the parser in many spellings. Its values mix
what a GPU job holds (units, operators, device names) with strings built to break quoting
in every target: quotes, backslashes, template markers, YAML and shell metacharacters,
line separators and non-BMP characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hypothesis import strategies as st

from hclgpu.importers.hcl_writer import quote, quote_label
from tests.conftest import ROOT, vendored

# ---- the tree --------------------------------------------------------------------------


@dataclass(frozen=True)
class Attribute:
    name: str
    value: str
    """HCL expression text."""
    text: str | None = None
    """The string ``value`` spells, when it is a quoted string (what evaluation must give)."""


@dataclass(frozen=True)
class Block:
    type: str
    labels: tuple[str, ...]
    items: tuple[Attribute | Block, ...]


@dataclass(frozen=True)
class Layout:
    indent: str
    equals: str
    """The text around `=` (one attribute's own spacing varies on top of it)."""
    comments: bool
    blank_lines: bool
    one_line_blocks: bool
    line_end: str


def render(item: Block, layout: Layout, draw: st.DrawFn) -> str:
    """The tree as HCL source in ``layout``, with small random variations drawn per item."""
    return "".join(_lines(item, layout, draw, 0))


def _lines(item: Attribute | Block, layout: Layout, draw: st.DrawFn, depth: int) -> list[str]:
    pad = layout.indent * depth
    end = layout.line_end
    out: list[str] = []
    if layout.comments and draw(st.integers(0, 5)) == 0:
        out.append(pad + draw(st.sampled_from(["# note", "// note ${x}", "/* a\n b */"])) + end)
    if layout.blank_lines and draw(st.integers(0, 4)) == 0:
        out.append(end)
    if isinstance(item, Attribute):
        spacing = layout.equals if draw(st.booleans()) else " = "
        trailing = " # t" if layout.comments and draw(st.integers(0, 6)) == 0 else ""
        return [*out, f"{pad}{item.name}{spacing}{item.value}{trailing}{end}"]
    head = " ".join([item.type, *(quote_label(label) for label in item.labels)])
    single = [i for i in item.items if isinstance(i, Attribute) and "\n" not in i.value]
    if layout.one_line_blocks and len(item.items) == 1 and single and draw(st.booleans()):
        return [*out, f"{pad}{head} {{ {single[0].name} = {single[0].value} }}{end}"]
    body = [line for child in item.items for line in _lines(child, layout, draw, depth + 1)]
    return [*out, f"{pad}{head} {{{end}", *body, f"{pad}}}{end}"]


def skeleton(item: Attribute | Block) -> object:
    """What parsing must give back: block types and labels, attribute names, in order."""
    if isinstance(item, Attribute):
        return ("=", item.name)
    return (item.type, item.labels, tuple(skeleton(child) for child in item.items))


LAYOUTS = st.builds(
    Layout,
    indent=st.sampled_from(["  ", "    ", "\t", " "]),
    equals=st.sampled_from([" = ", "=", "   =  ", "\t=\t"]),
    comments=st.booleans(),
    blank_lines=st.booleans(),
    one_line_blocks=st.booleans(),
    line_end=st.sampled_from(["\n", "\n", "\r\n"]),
)

# ---- values ----------------------------------------------------------------------------

NASTY = [
    'quote " inside',
    "back\\slash\\",
    "line\nbreak",
    "tab\there",
    "${NOMAD_ALLOC_INDEX}",
    "$${not} %{ if x }",
    "{{ .Values.x }}",
    "key: value",
    "- item",
    "# hash",
    "&anchor *alias",
    "!!python/object:os.system",
    "yes",
    "NO",
    "0o17",
    "012",
    "1e3",
    "~",
    "",
    " leading and trailing ",
    "$(reboot); `id` && echo $HOME | cat > /tmp/x",
    "'single' \"double\"",
    "sep\u2028line\u2029para\x85nel",
    "中文 ✓ Ünïcödé",
    "emoji \U0001f680",
    "=equals=",
    "--flag",
]
"""Strings that have broken quoting somewhere: each target must carry them unchanged."""

SAFE_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00") | st.sampled_from("\n\t"),
    max_size=30,
)
STRINGS = st.one_of(st.sampled_from(NASTY), SAFE_TEXT)
"""Values a job may carry to any target (no NUL: argv and environment strings cannot hold it)."""

NAMES = st.from_regex(r"[a-z][a-z0-9-]{0,14}", fullmatch=True)
ENV_NAMES = st.from_regex(r"[A-Z_][A-Z0-9_]{0,10}", fullmatch=True)
DEVICE_NAMES = st.sampled_from(
    ["nvidia/gpu", "gpu", "nvidia/gpu/Tesla V100-SXM2-16GB", "aws/neuron", "amd/gpu", "nvidia/mig"]
)
ATTRIBUTES = st.sampled_from(
    [
        "${device.attr.memory}",
        "${device.model}",
        "${device.vendor}",
        "${device.type}",
        "${device.attr.cuda_cores}",
        "${device.attr.compute_capability}",
        "${device.attr.driver_version}",
        "${device.attr.memory_bandwidth}",
        "${device.attr.nope}",
        "${attr.kernel.name}",
    ]
)
OPERATORS = st.sampled_from(
    [
        "=",
        "!=",
        ">",
        ">=",
        "<",
        "<=",
        "regexp",
        "version",
        "semver",
        "set_contains",
        "is_set",
        "is_not_set",
        "=>",
    ]
)
OPERANDS = st.sampled_from(
    [
        "4 GiB",
        "16 GB",
        "1000 MiB",
        "80GiB",
        "Tesla",
        "A100|H100",
        "(a+)+$",
        ">= 7.0",
        "12.0",
        "nvidia",
        "abc",
        "",
    ]
)


def string(value: str) -> str:
    return quote(value)


def text_attribute(name: str, value: str) -> Attribute:
    """``name = "value"``, remembering ``value`` to compare with what the job evaluates to."""
    return Attribute(name, quote(value), value)


def environments(job: Block) -> dict[tuple[str, str], dict[str, str]]:
    """Each task's generated environment, by (group, task) name."""
    found = {}
    for group in (i for i in job.items if isinstance(i, Block) and i.type == "group"):
        for task in (i for i in group.items if isinstance(i, Block) and i.type == "task"):
            env = [i for i in task.items if isinstance(i, Block) and i.type == "env"]
            values = {a.name: a.text for block in env for a in block.items if isinstance(a, Attribute)}
            found[(group.labels[0], task.labels[0])] = {k: v for k, v in values.items() if v is not None}
    return found


def string_list(values: list[str]) -> str:
    return "[" + ", ".join(quote(v) for v in values) + "]"


VALID_RULES = [
    ("${device.attr.memory}", [">=", ">", "<", "<=", "="], ["4 GiB", "16 GB", "1000 MiB", "80GiB"]),
    ("${device.model}", ["=", "!="], ["Tesla V100-SXM2-16GB", "NVIDIA A100-SXM4-80GB"]),
    ("${device.model}", ["regexp"], ["A100|H100", "(a+)+$", "^Tesla"]),
    ("${device.vendor}", ["="], ["nvidia", "aws"]),
    ("${device.attr.compute_capability}", ["version"], [">= 7.0", "< 9.0, >= 8.0"]),
    ("${device.attr.driver_version}", ["version"], [">= 450", "~> 535.1"]),
    ("${device.attr.cuda_cores}", [">", "<="], ["1000", "5120"]),
    ("${device.attr.memory_bandwidth}", [">="], ["900 GB/s", "1000 MB/s"]),
]
"""Constraints that Nomad accepts (attribute, operators, operands), for jobs meant to compile."""


@st.composite
def rule(draw: st.DrawFn, kind: str, strict: bool) -> Block:
    """A constraint or affinity: from :data:`VALID_RULES` when ``strict``, else anything."""
    if strict:
        attribute, operators, operands = draw(st.sampled_from(VALID_RULES))
        operator, operand = draw(st.sampled_from(operators)), draw(st.sampled_from(operands))
    else:
        attribute, operator, operand = draw(ATTRIBUTES), draw(OPERATORS), draw(OPERANDS)
    items: list[Attribute | Block] = [Attribute("attribute", string(attribute))]
    if operator != "=" or draw(st.booleans()):
        items.append(Attribute("operator", string(operator)))
    if operator not in ("is_set", "is_not_set"):
        items.append(Attribute("value", string(operand)))
    if kind == "affinity":
        weights = st.integers(-100, 100).filter(bool) if strict else st.integers(-120, 120)
        items.append(Attribute("weight", str(draw(weights))))
    return Block(kind, (), tuple(items))


@st.composite
def device(draw: st.DrawFn, strict: bool) -> Block:
    items: list[Attribute | Block] = []
    if draw(st.booleans()):
        items.append(Attribute("count", str(draw(st.integers(0, 9)))))
    items += draw(st.lists(rule("constraint", strict), max_size=2))
    items += draw(st.lists(rule("affinity", strict), max_size=2))
    return Block("device", (draw(DEVICE_NAMES),), tuple(items))


@st.composite
def task(draw: st.DrawFn, name: str, strict: bool) -> Block:
    driver = draw(st.sampled_from(["docker", "docker", "docker", "exec", "raw_exec"]))
    config: list[Attribute | Block] = [
        Attribute("image" if driver == "docker" else "command", string(draw(st.sampled_from(IMAGES))))
    ]
    if draw(st.booleans()):
        config.append(Attribute("args", string_list(draw(st.lists(STRINGS, max_size=4)))))
    resources: list[Attribute | Block] = [
        Attribute("cpu", str(draw(st.integers(1, 64_000)))),
        Attribute("memory", str(draw(st.integers(10 if strict else 1, 500_000)))),
    ]
    resources += draw(st.lists(device(strict), max_size=2))
    items: list[Attribute | Block] = [Attribute("driver", string(driver)), Block("config", (), tuple(config))]
    env = draw(st.dictionaries(ENV_NAMES, STRINGS, max_size=4))
    if env:
        items.append(Block("env", (), tuple(text_attribute(k, v) for k, v in env.items())))
    items.append(Block("resources", (), tuple(resources)))
    return Block("task", (name,), tuple(items))


IMAGES = [
    "nvcr.io/nvidia/pytorch:24.05-py3",
    "busybox:1.36",
    "/usr/bin/python3",
    "registry:5000/a/b@sha256:" + "a" * 64,
]


@st.composite
def group(draw: st.DrawFn, name: str, strict: bool, max_count: int) -> Block:
    items: list[Attribute | Block] = []
    if draw(st.booleans()):
        items.append(Attribute("count", str(draw(st.integers(0, max_count)))))
    if draw(st.booleans()):
        port = Block("port", ("http",), (Attribute("to", str(draw(st.integers(1, 65535)))),))
        items.append(Block("network", (), (port,)))
    names = draw(st.lists(NAMES, min_size=1, max_size=2, unique=True))
    items += [draw(task(n, strict)) for n in names]
    return Block("group", (name,), tuple(items))


@st.composite
def jobs(draw: st.DrawFn) -> tuple[Block, Layout, str, dict[str, str]]:
    """A job tree, its layout, its text, and the job's ``meta`` (the strings generated)."""
    items: list[Attribute | Block] = [Attribute("datacenters", string_list(["dc1"]))]
    kind = draw(st.sampled_from(["service", "batch", "system", None]))
    if kind is not None:
        items.append(Attribute("type", string(kind)))
    meta = draw(st.dictionaries(NAMES.map(lambda n: n.replace("-", "_")), STRINGS, max_size=3))
    if meta:
        items.append(Block("meta", (), tuple(text_attribute(k, v) for k, v in meta.items())))
    names = draw(st.lists(NAMES, min_size=1, max_size=2, unique=True))
    strict = draw(st.integers(0, 3)) > 0  # most jobs are meant to compile and render
    max_count = 1 if strict and kind == "system" else 5  # a system job runs one per node
    items += [draw(group(n, strict, max_count)) for n in names]
    tree = Block("job", (draw(NAMES),), tuple(items))
    layout = draw(LAYOUTS)
    return tree, layout, render(tree, layout, draw), meta


# ---- mutated corpora -------------------------------------------------------------------


def corpus() -> list[tuple[str, bytes]]:
    """Real job files: the samples and the Nomad conformance inputs (tests/data/conformance)."""
    paths = sorted((ROOT / "samples").glob("*.hcl"))
    conformance = vendored("conformance", "nomad")
    paths += sorted(conformance.rglob("*.hcl")) + sorted(conformance.rglob("*.nomad"))
    return [(p.name, p.read_bytes()) for p in paths]


_TOKENS = re.compile(rb'"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_.-]*|[0-9]+|\s+|.', re.DOTALL)


@st.composite
def mutated(draw: st.DrawFn, files: list[tuple[str, bytes]]) -> tuple[str, bytes, list[str]]:
    """A corpus file after one to four mutations; returns its name, bytes and what was done."""
    name, data = draw(st.sampled_from(files))
    done: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(MUTATIONS))
        data = how(draw, data)
        done.append(how.__name__)
    return name, data, done


def truncate(draw: st.DrawFn, data: bytes) -> bytes:
    return data[: draw(st.integers(0, len(data)))]


def delete_token(draw: st.DrawFn, data: bytes) -> bytes:
    tokens = [m.span() for m in _TOKENS.finditer(data) if not m.group().isspace()]
    if not tokens:
        return data
    start, end = draw(st.sampled_from(tokens))
    return data[:start] + data[end:]


def flip_byte(draw: st.DrawFn, data: bytes) -> bytes:
    if not data:
        return data
    index = draw(st.integers(0, len(data) - 1))
    return data[:index] + bytes([data[index] ^ (1 << draw(st.integers(0, 7)))]) + data[index + 1 :]


def insert_bytes(draw: st.DrawFn, data: bytes) -> bytes:
    index = draw(st.integers(0, len(data)))
    junk = draw(
        st.one_of(
            st.binary(max_size=8), st.sampled_from([b"{", b"}", b"${", b'"', b"<<EOF\n", b"\x00", b"\xff"])
        )
    )
    return data[:index] + junk + data[index:]


def duplicate_block(draw: st.DrawFn, data: bytes) -> bytes:
    """Repeat one `name ... {` to its matching `}` (by brace depth) right after itself."""
    opens = [m.start() for m in re.finditer(rb"(?m)^[ \t]*[a-z_]+[^\n=]*\{[ \t]*$", data)]
    if not opens:
        return data
    start = draw(st.sampled_from(opens))
    depth, end = 0, len(data)
    for index in range(data.index(b"{", start), len(data)):
        depth += {ord("{"): 1, ord("}"): -1}.get(data[index], 0)
        if depth == 0:
            end = index + 1
            break
    return data[:end] + b"\n" + data[start:end] + data[end:]


def swap_lines(draw: st.DrawFn, data: bytes) -> bytes:
    lines = data.split(b"\n")
    if len(lines) < 2:
        return data
    a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[a], lines[b] = lines[b], lines[a]
    return b"\n".join(lines)


MUTATIONS = [truncate, delete_token, flip_byte, insert_bytes, duplicate_block, swap_lines]


# ---- regular expressions ---------------------------------------------------------------

PATTERN_ALPHABET = "abkKsS1_ \n.éÉαΩſKİ-"
"""The characters patterns and texts are drawn from: letters whose case folds surprise
(``ſ`` folds with ``s``, the Kelvin sign with ``k``, ``İ`` with nothing), a digit, word and
non-word characters, a newline for ``.`` and the multi-line anchors."""

_ANCHORS = (".", "^", "$", r"\A", r"\z", r"\b", r"\B")
_PERL_CLASSES = (r"\d", r"\D", r"\w", r"\W", r"\s", r"\S")
_POSIX_CLASSES = ("[[:alpha:]]", "[[:^digit:]]", "[[:word:]]", "[[:space:]]")
_UNICODE_CLASSES = (r"\pL", r"\PL", r"\p{Greek}", r"\pN", r"\p{Lu}")
_ESCAPES = (r"\x{3b1}", r"\Qa.b\E", r"\.", r"\-", r"\n")
_ATOMS = st.sampled_from(_ANCHORS + _PERL_CLASSES + _POSIX_CLASSES + _UNICODE_CLASSES + _ESCAPES)
_CLASS_ITEMS = st.sampled_from(["a", "b-k", "A-Z", "é", "α-ω", r"\d", r"\s", r"\W", "[:upper:]", "_", r"\-"])


@st.composite
def _regex_class(draw: st.DrawFn) -> str:
    items = draw(st.lists(_CLASS_ITEMS, min_size=1, max_size=4))
    return "[" + ("^" if draw(st.booleans()) else "") + "".join(items) + "]"


def _literal(char: str) -> str:
    return re.escape(char) if char in ".-" else "\\n" if char == "\n" else char


_LEAVES = st.one_of(st.sampled_from(PATTERN_ALPHABET).map(_literal), _ATOMS, _regex_class())
_REPEATS = st.sampled_from(["*", "+", "?", "{2}", "{1,3}", "{0,}", "{2,}", "*?", "+?", "??", "{1,2}?"])
_GROUPS = st.sampled_from(["({})", "(?:{})", "(?i:{})", "(?s:{})", "(?m:{})", "(?U:{})", "(?i){}"])


def _extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    concat = st.lists(children, min_size=2, max_size=4).map("".join)
    alternation = st.lists(children, min_size=2, max_size=3).map("|".join)
    grouped = st.tuples(_GROUPS, children).map(lambda t: t[0].format(t[1]))
    # a repetition applies to a group, never to a repetition: Go rejects `a**`, C++ RE2 does not
    repeated = st.tuples(children, _REPEATS).map(lambda t: f"(?:{t[0]}){t[1]}")
    return st.one_of(concat, alternation, grouped, repeated)


def regexps() -> st.SearchStrategy[str]:
    """RE2 patterns that Go and C++ RE2 both accept, nested a few levels."""
    return st.recursive(_LEAVES, _extend, max_leaves=10)


def regexp_texts() -> st.SearchStrategy[str]:
    return st.text(st.sampled_from(PATTERN_ALPHABET), max_size=12)
