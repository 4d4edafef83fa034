"""The IR as an HCL job file: the decoder run backwards.

The walk is driven by the same :class:`~hclgpu.ir.base.Hcl` markers the decoder reads
(:func:`~hclgpu.ir.schema.schema_of`), so a new model field is written as soon as it
is decoded. A field is written only when decoding the file could not already give
its value: a pointer field when it is not null, a plain field when it is not Go's
zero value. Everything HCL cannot express (fields with no marker, keys that are not
identifiers where only a block would do) is reported as a :class:`Dropped` entry,
located by JSON pointer, rather than left out silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from hclgpu.codes.base import Code
from hclgpu.codes.targets import HG301
from hclgpu.ir import models as m
from hclgpu.ir.base import Hcl, Node
from hclgpu.ir.schema import schema_of

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
_KEYWORDS = frozenset({"true", "false", "null", "for", "in", "if", "endif", "endfor", "else"})
_INDENT = "  "
_MAP_ATTRIBUTE_FORM = {(m.Job, "meta"), (m.TaskGroup, "meta"), (m.Task, "meta"), (m.Task, "env")}
"""Map fields jobspec2 also accepts as ``name = { ... }``: the only way to write keys that
are not identifiers."""
_TASK_SCALING_LABELS = {"vertical_cpu": "cpu", "vertical_mem": "mem"}


@dataclass(frozen=True, slots=True)
class Dropped:
    """A value the HCL cannot carry: where it was (a JSON pointer into document ``document``
    of the input) and why; HG301 when it is left out, HG302 when only approximated."""

    pointer: str
    message: str
    code: Code = HG301
    document: int = 0


@dataclass(slots=True)
class _Writer:
    root: str
    """The JSON pointer of the job object (``/Job`` or empty for a bare job)."""
    lines: list[str] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)

    def drop(self, path: tuple[str, ...], message: str) -> None:
        pointer = self.root + "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in path)
        self.dropped.append(Dropped(pointer, message))


def write_job(job: m.Job, root: str = "/Job") -> tuple[str, list[Dropped]]:
    """The job as an HCL job file, and what could not be written (``root`` prefixes pointers)."""
    writer = _Writer(root)
    label = job.id if job.id is not None else job.name
    if label is None:
        writer.drop(("ID",), "the job has no ID: the label is empty")
        label = ""
    writer.lines.append(f"job {quote_label(label)} {{")
    _body(writer, job, (), 1)
    writer.lines.append("}")
    return _formatted("\n".join(writer.lines) + "\n"), writer.dropped


def _formatted(text: str) -> str:
    """The text in ``hclgpu fmt`` layout (``=`` aligned), so an imported file is fmt-clean;
    as written when formatting cannot be proven safe (it always can, short of a printer bug)."""
    from hclgpu.diagnostics import Sink
    from hclgpu.printer.fmt import UnsafeFormat, format_checked
    from hclgpu.source import SourceFile
    from hclgpu.syntax.parser import parse

    tree = parse(SourceFile("<import>", text), Sink())
    if tree is None:
        return text
    try:
        return format_checked(tree, text)
    except UnsafeFormat:
        return text


def _skip_job_field(job: m.Job, name: str) -> bool:
    """ID is the label; Name is written only when it differs from the label."""
    if name == "id":
        return True
    return name == "name" and job.name == (job.id if job.id is not None else job.name)


def _body(writer: _Writer, node: Node, path: tuple[str, ...], depth: int) -> None:
    """Every field of ``node`` that decoding would not give by itself, in declaration order."""
    model = type(node)
    values = node.__dict__
    for name, info in _fields(model):
        if name == "span":
            continue
        if name == "operand" and values.get(name) == "=" and isinstance(node, (m.Constraint, m.Affinity)):
            continue  # jobspec2 fills in "=" (constraint shortcuts aside, which are never written)
        value = values.get(name)
        alias = info.alias or name
        here = (*path, alias)
        marker = next((x for x in info.metadata if isinstance(x, Hcl)), None)
        if isinstance(node, m.Job) and _skip_job_field(node, name):
            continue
        if marker is None:
            _unmarked(writer, node, name, value, info.default, here, depth)
            continue
        if marker.kind == "label" or not _is_set(value, info.default):
            continue
        if isinstance(node, m.NetworkResource) and name in ("reserved_ports", "dynamic_ports"):
            _ports(writer, value, here, depth, reserved=name == "reserved_ports")
            continue
        if marker.kind == "attr":
            writer.lines.append(f"{_INDENT * depth}{marker.name} = {_attribute_value(value, marker)}")
        elif marker.kind == "block":
            _block_field(writer, node, marker, value, here, depth)
        else:
            writer.drop(here, "this field has no HCL form")


_READING_ORDER = {"l_target": 0, "operand": 1, "r_target": 2}


def _fields(model: type[Node]) -> list[tuple[str, Any]]:
    """The model's fields; a constraint or affinity reads as it is said: attribute, operator, value."""
    fields = list(model.model_fields.items())
    if model in (m.Constraint, m.Affinity):
        fields.sort(key=lambda item: _READING_ORDER.get(item[0], 3))
    return fields


def _ports(
    writer: _Writer, ports: list[m.Port] | None, path: tuple[str, ...], depth: int, reserved: bool
) -> None:
    """Every port as `port "label" { }`: jobspec2 rebuilds ReservedPorts from the ports with a
    `static` value (a `reserved_ports` block would be overwritten), DynamicPorts from the rest."""
    for index, port in enumerate(ports or []):
        here = (*path, str(index))
        if reserved and port.value <= 0:
            writer.drop((*here, "Value"), "a reserved port needs a static value above 0 to be written as one")
        elif not reserved and port.value > 0:
            writer.drop((*here, "Value"), "a dynamic port with a value reads back as a reserved port")
        _block(writer, "port", [port.label], port, here, depth)


def _is_set(value: Any, default: Any) -> bool:
    """A pointer field (default None) is set when not null; a plain one when not its zero value."""
    if default is None:
        return value is not None
    return bool(value != default)


def _unmarked(
    writer: _Writer, node: Node, name: str, value: Any, default: Any, path: tuple[str, ...], depth: int
) -> None:
    """Fields with no hcl tag: the few jobspec2 derives, else reported as dropped."""
    if isinstance(node, m.Task) and name == "identity" and value is not None:
        _block(writer, "identity", [], value, path, depth)
        return
    if isinstance(node, m.PeriodicConfig) and name == "spec_type":
        derived = "cron" if (node.spec is not None or node.specs) else None
        if value == derived:
            return
    if _is_set(value, default):
        writer.drop(path, "this field cannot be set in a job file (it is set by Nomad)")


def _block_field(
    writer: _Writer, node: Node, marker: Hcl, value: Any, path: tuple[str, ...], depth: int
) -> None:
    if marker.go == "any":
        if isinstance(value, dict):
            _data_block(writer, marker.name, [], value, path, depth)
        return
    if isinstance(value, Node):
        _block(writer, marker.name, _labels(value), value, path, depth)
    elif isinstance(value, list):
        if not value:
            writer.drop(path, "an empty list of blocks cannot be written (it reads back as null)")
        for index, item in enumerate(value):
            labels = _labels(item)
            if isinstance(node, m.Task) and marker.name == "scaling":
                labels = [_TASK_SCALING_LABELS.get(item.type, item.type)]
            _block(writer, marker.name, labels, item, (*path, str(index)), depth)
    elif isinstance(value, dict) and all(isinstance(v, Node) for v in value.values()):
        for key, item in value.items():
            labels = _labels(item) or [key]
            _block(writer, marker.name, labels, item, (*path, key), depth)
    elif isinstance(value, dict):
        _map_field(writer, node, marker.name, value, path, depth)


def _labels(node: Node) -> list[str]:
    return [str(node.__dict__[spec.name] or "") for spec in schema_of(type(node)).labels]


def _block(
    writer: _Writer, name: str, labels: list[str], node: Node, path: tuple[str, ...], depth: int
) -> None:
    head = " ".join([name, *(quote_label(label) for label in labels)])
    writer.lines.append(f"{_INDENT * depth}{head} {{")
    _body(writer, node, path, depth + 1)
    writer.lines.append(f"{_INDENT * depth}}}")


def _map_field(
    writer: _Writer, node: Node, name: str, value: dict[str, Any], path: tuple[str, ...], depth: int
) -> None:
    """A string map (`meta`, `env`): a block when every key is an identifier, else ``name = {}``."""
    pad = _INDENT * depth
    if all(_is_identifier(key) for key in value):
        writer.lines.append(f"{pad}{name} {{")
        for key, item in value.items():
            writer.lines.append(f"{pad}{_INDENT}{key} = {expression(item, depth + 1)}")
        writer.lines.append(f"{pad}}}")
    elif (type(node), name) in _MAP_ATTRIBUTE_FORM:
        writer.lines.append(f"{pad}{name} = {expression(value, depth)}")
    else:
        bad = [key for key in value if not _is_identifier(key)]
        for key in bad:
            writer.drop((*path, key), "this key is not an HCL identifier, and the map has no attribute form")
        writer.lines.append(f"{pad}{name} {{")
        for key, item in value.items():
            if key not in bad:
                writer.lines.append(f"{pad}{_INDENT}{key} = {expression(item, depth + 1)}")
        writer.lines.append(f"{pad}}}")


def _is_identifier(key: str) -> bool:
    return bool(_IDENTIFIER.match(key)) and key not in _KEYWORDS


# ---- schemaless data (task `config`, scaling `policy`) -------------------------------


def _data_block(
    writer: _Writer, name: str, labels: list[str], data: dict[str, Any], path: tuple[str, ...], depth: int
) -> None:
    head = " ".join([name, *(quote_label(label) for label in labels)])
    writer.lines.append(f"{_INDENT * depth}{head} {{")
    _data_body(writer, data, path, depth + 1)
    writer.lines.append(f"{_INDENT * depth}}}")


def _data_body(writer: _Writer, data: dict[str, Any], path: tuple[str, ...], depth: int) -> None:
    """Entries written so that jobspec2's ``BlocksAsAttrs`` reading gives them back.

    A list of maps came from blocks or from an object attribute (wrapped in a list);
    blocks read back the same and are what people write. A bare map cannot come from
    an object literal (that would be wrapped), so it is written in parentheses.
    """
    pad = _INDENT * depth
    for key, value in data.items():
        here = (*path, key)
        if not _is_identifier(key) or key == "dynamic":
            writer.drop(here, "this key is not an HCL identifier and cannot be an argument name")
            continue
        if isinstance(value, list) and value and all(_block_data(item) for item in value):
            for item in value:
                _data_block(writer, key, [], item, here, depth)
        elif isinstance(value, dict):
            writer.lines.append(f"{pad}{key} = ({expression(value, depth)})")
        else:
            writer.lines.append(f"{pad}{key} = {expression(value, depth, heredoc=True)}")


def _block_data(value: Any) -> bool:
    """A map a block body reproduces: every key can be an argument or block name."""
    return isinstance(value, dict) and all(_is_identifier(k) and k != "dynamic" for k in value)


# ---- values ------------------------------------------------------------------------


def _attribute_value(value: Any, marker: Hcl) -> str:
    if marker.go == "duration" and isinstance(value, int) and not isinstance(value, bool):
        return quote(go_duration(value))
    return expression(value, 0, heredoc=True)


def expression(value: Any, depth: int, heredoc: bool = False) -> str:
    """A value as an HCL expression that evaluates to exactly that value.

    ``heredoc``: the value is a whole attribute, so multi-line text may be a heredoc
    (its closing marker must end the line, which rules it out inside lists and maps).
    """
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return _heredoc(value) if heredoc else quote(value)
    if isinstance(value, bytes):
        import base64

        return quote(base64.b64encode(value).decode("ascii"))
    if isinstance(value, list):
        if not value:
            return "[]"
        items = [expression(item, depth + 1) for item in value]
        flat = "[" + ", ".join(items) + "]"
        if len(flat) <= 80 and "\n" not in flat:
            return flat
        inner = _INDENT * (depth + 1)
        return "[\n" + "".join(f"{inner}{item},\n" for item in items) + _INDENT * depth + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = _INDENT * (depth + 1)
        entries = "".join(f"{inner}{quote(k)} = {expression(v, depth + 1)}\n" for k, v in value.items())
        return "{\n" + entries + _INDENT * depth + "}"
    raise TypeError(f"cannot write {type(value).__name__} as HCL")


def _float(value: float) -> str:
    if value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def _heredoc(value: str) -> str:
    """Multi-line text ending in a newline as a heredoc (templates stay readable), else quoted."""
    lines = value.split("\n")
    if (
        len(lines) > 2
        and value.endswith("\n")
        and all(ch in "\t\n" or ch >= " " for ch in value)
        and "EOT" not in (line.strip() for line in lines)
    ):
        body = escape_template(value)
        return "<<EOT\n" + body + "EOT"
    return quote(value)


_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def quote(text: str) -> str:
    """A quoted HCL string: backslash escapes, and ``${``/``%{`` doubled so they stay literal
    (run-time references aside, see :func:`escape_template`)."""
    return '"' + escape_template(_escaped(text)) + '"'


def quote_label(text: str) -> str:
    """A block label: a plain quoted string, where every ``${`` and ``%{`` is doubled (a
    label is never a template, so not even a run-time reference may stay as it is)."""
    return '"' + _escaped(text).replace("${", "$${").replace("%{", "%%{") + '"'


def _escaped(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ch < " " or ch == "\x7f":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


_RUNTIME = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_-]*)(?:\.[A-Za-z_][A-Za-z0-9_-]*|\[[0-9]+\])*\}")
_NOT_RUNTIME_ROOTS = frozenset({"var", "local", "true", "false", "null"})


def escape_template(text: str) -> str:
    """Text as template source that evaluates to itself: ``%{`` and ``${`` doubled, except a
    ``${...}`` run-time reference (``${NOMAD_TASK_DIR}``, ``${attr.cpu.arch}``), which Nomad
    keeps as written anyway and reads better as it is."""
    out, end = [], 0
    for match in _RUNTIME.finditer(text):
        out.append(text[end : match.start()].replace("${", "$${"))
        kept = match.group(1) not in _NOT_RUNTIME_ROOTS and not text[: match.start()].endswith("$")
        out.append(match.group(0) if kept else "$" + match.group(0))
        end = match.end()
    out.append(text[end:].replace("${", "$${"))
    return "".join(out).replace("%{", "%%{")


_UNITS = (("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000),
          ("ms", 1_000_000), ("us", 1_000), ("ns", 1))  # fmt: skip


def go_duration(nanoseconds: int) -> str:
    """A duration as ``time.ParseDuration`` reads it, shortest first: ``90s`` → ``1m30s``."""
    if nanoseconds == 0:
        return "0s"
    sign = "-" if nanoseconds < 0 else ""
    rest = abs(nanoseconds)
    parts = []
    for unit, size in _UNITS:
        count, rest = divmod(rest, size)
        if count:
            parts.append(f"{count}{unit}")
    return sign + "".join(parts)
