"""Completion from the text before the cursor, which is usually not a valid file while one
types: the blocks around the cursor are found by scanning braces (strings and comments
skipped), then the line decides what is wanted: a block or argument name valid there, an
operator, a driver, a device name, an interpolation target, a variable or local name."""

from __future__ import annotations

import re

from lsprotocol import types

from hclgpu.ir.schema import schema_of
from hclgpu.lsp.analysis import Analysis
from hclgpu.lsp.syntax import model_for

OPERATORS = ("=", "!=", "<", "<=", ">", ">=", "regexp", "version", "semver", "set_contains",
             "set_contains_any", "set_contains_all", "is_set", "is_not_set", "distinct_hosts",
             "distinct_property")  # fmt: skip
DRIVERS = ("docker", "podman", "exec", "raw_exec", "java", "qemu", "containerd-driver", "nvidia-docker")
DEVICES = ("nvidia/gpu", "amd/gpu", "intel/gpu", "aws/neuron", "aws/neuroncore", "gpu",
           "nvidia/gpu/NVIDIA A100-SXM4-40GB", "nvidia/gpu/NVIDIA A100-SXM4-80GB",
           "nvidia/gpu/NVIDIA H100 80GB HBM3", "nvidia/gpu/Tesla V100-SXM2-16GB", "nvidia/gpu/Tesla T4",
           "nvidia/gpu/NVIDIA L4", "nvidia/gpu/NVIDIA A10G")  # fmt: skip
DEVICE_TARGETS = ("${device.model}", "${device.vendor}", "${device.type}", "${device.ids}",
                  "${device.attr.memory}", "${device.attr.driver_version}", "${device.attr.cuda_cores}",
                  "${device.attr.memory_bandwidth}", "${device.attr.bar1}", "${device.attr.power}",
                  "${device.attr.pci_bandwidth}", "${device.attr.cores_clock}",
                  "${device.attr.display_state}", "${device.attr.persistence_mode}")  # fmt: skip
NODE_TARGETS = ("${attr.kernel.name}", "${attr.cpu.arch}", "${attr.cpu.numcores}", "${attr.os.name}",
                "${attr.unique.hostname}", "${attr.driver.docker}", "${attr.nvidia.driver_version}",
                "${node.datacenter}", "${node.class}", "${node.unique.name}", "${node.unique.id}",
                "${node.pool}", "${meta.}")  # fmt: skip
_SKIP = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|//[^\n]*|/\*[\s\S]*?\*/')
_HEADER = re.compile(r'([A-Za-z_][\w-]*)((?:\s+(?:"[^"\n]*"|[A-Za-z_][\w-]*))*)\s*$')


def enclosing_blocks(text: str) -> list[tuple[str, list[str]]]:
    """(type, labels) of each block open at the end of ``text``, outermost first."""
    stack: list[tuple[str, list[str]]] = []
    last = 0
    position = 0
    pieces: list[str] = []
    while position < len(text):
        char = text[position]
        if char in '"#/':
            skipped = _SKIP.match(text, position)
            if skipped is not None and skipped.end() > position:
                pieces.append(text[last : skipped.end()])
                last = position = skipped.end()
                continue
        if char == "{":
            head = "".join(pieces) + text[last:position]
            line = head.rsplit("\n", 1)[-1]
            match = _HEADER.search(line)
            labels = re.findall(r'"([^"\n]*)"|([A-Za-z_][\w-]*)', match.group(2)) if match else []
            stack.append((match.group(1) if match else "", [a or b for a, b in labels]))
            pieces, last = [], position + 1
        elif char == "}" and stack:
            stack.pop()
            pieces, last = [], position + 1
        position += 1
    return stack


def complete(analysis: Analysis | None, text: str, offset: int) -> list[types.CompletionItem]:
    before = text[:offset]
    line = before.rsplit("\n", 1)[-1]
    blocks = enclosing_blocks(before)
    for wanted in (_in_string, _references):
        items = wanted(line, blocks, text)
        if items is not None:
            return items
    if re.fullmatch(r"\s*[\w-]*", line):
        return _names(blocks)
    return []


def _kinds(blocks: list[tuple[str, list[str]]]) -> list[str]:
    kinds: list[str] = []
    for block_type, labels in blocks:
        if block_type == "dynamic" and labels:
            kinds.append(labels[0])
        elif block_type != "content":
            kinds.append(block_type)
    return kinds


def _names(blocks: list[tuple[str, list[str]]]) -> list[types.CompletionItem]:
    """The arguments and blocks the enclosing block takes (top level: job, variable, locals)."""
    if not blocks:
        return [_block(name) for name in ("job", "variable", "variables", "locals")]
    model = model_for(_kinds(blocks))
    if model is None:
        return []
    schema = schema_of(model)
    items = [_attribute(name) for name in schema.attributes]
    return items + [_block(name) for name in schema.blocks] + [_block("dynamic")]


def _attribute(name: str) -> types.CompletionItem:
    return types.CompletionItem(
        label=name, kind=types.CompletionItemKind.Property, insert_text=f"{name} = ", detail="argument"
    )


def _block(name: str) -> types.CompletionItem:
    return types.CompletionItem(label=name, kind=types.CompletionItemKind.Struct, detail="block")


def _values(
    values: tuple[str, ...] | list[str], kind: types.CompletionItemKind, detail: str
) -> list[types.CompletionItem]:
    return [types.CompletionItem(label=v, kind=kind, detail=detail) for v in values]


def _in_string(
    line: str, blocks: list[tuple[str, list[str]]], text: str
) -> list[types.CompletionItem] | None:
    """Inside a quoted value: what that argument takes."""
    if line.count('"') % 2 == 0:
        return None
    head = line[: line.rfind('"')].strip()
    kinds = _kinds(blocks)
    if re.fullmatch(r"operator\s*=", head):
        return _values(OPERATORS, types.CompletionItemKind.Operator, "operator")
    if re.fullmatch(r"driver\s*=", head):
        return _values(DRIVERS, types.CompletionItemKind.EnumMember, "task driver")
    if head == "device":
        return _values(DEVICES, types.CompletionItemKind.EnumMember, "device name")
    if re.fullmatch(r"(attribute|value)\s*=", head) or "${" in line[line.rfind('"') :]:
        targets = list(NODE_TARGETS)
        if "device" in kinds:
            targets = [*DEVICE_TARGETS, *targets]
        return _values(targets, types.CompletionItemKind.Variable, "target")
    return []


def _references(
    line: str, blocks: list[tuple[str, list[str]]], text: str
) -> list[types.CompletionItem] | None:
    """After `var.` or `local.`: the names this file declares."""
    match = re.search(r"\b(var|local)\.([\w-]*)$", line)
    if match is None:
        return None
    if match.group(1) == "var":
        names = re.findall(r'^\s*variable\s+"([^"]+)"', text, re.MULTILINE)
        names += _assigned_in(text, "variables")
    else:
        names = _assigned_in(text, "locals")
    return _values(sorted(set(names)), types.CompletionItemKind.Variable, match.group(1))


def _assigned_in(text: str, block: str) -> list[str]:
    names: list[str] = []
    for found in re.finditer(rf"^\s*{block}\s*\{{", text, re.MULTILINE):
        depth, position = 1, found.end()
        start = position
        while position < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[position], 0)
            position += 1
        body = text[start:position]
        names += re.findall(r"^\s{0,8}([A-Za-z_][\w-]*)\s*=", body, re.MULTILINE)
    return names
