"""What completion offers, from the tables the checker judges with: operators, device targets
and the NVIDIA plugin's attributes, node targets, GPU model names, drivers, and the arguments
and blocks of each model (with snippets for the blocks nearly always written alike). Where the
cursor is, and so which of these apply, is :mod:`hclgpu.lsp.completion`'s to decide.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from hclgpu.checks.jobs import EXACT_TARGETS
from hclgpu.checks.operators import NOT_IN_AFFINITY, NOT_IN_DEVICE, OPERATORS
from hclgpu.checks.targets import DEVICE_TARGETS, NVIDIA_ATTRIBUTES
from hclgpu.checks.values import NVIDIA_UNITS, STRING_ATTRIBUTES
from hclgpu.ir.base import Node
from hclgpu.lsp.docs import describe_attribute, describe_block
from hclgpu.lsp.syntax import model_for
from hclgpu.units.gpu_names import GPU_NAMES

Kind = types.CompletionItemKind

DRIVERS = ("docker", "podman", "exec", "raw_exec", "java", "qemu", "containerd-driver", "nvidia-docker")
DEVICE_TYPES = ("nvidia/gpu", "amd/gpu", "intel/gpu", "aws/neuron", "aws/neuroncore", "gpu")
DEVICES = (*DEVICE_TYPES, *(f"nvidia/gpu/{row.model}" for row in GPU_NAMES))
"""Device names: `vendor/type` and, for NVIDIA GPUs, `vendor/type/model` with the model as
the plugin reports it (the names :mod:`hclgpu.units.gpu_names` has on record)."""
NODE_ATTRIBUTES = ("kernel.name", "kernel.version", "cpu.arch", "cpu.numcores", "os.name",
                   "os.version", "unique.hostname", "unique.network.ip-address", "driver.docker")  # fmt: skip
"""Common `${attr.*}` node attributes (the checker accepts any `${attr.` target)."""
NODE_TARGETS = (*EXACT_TARGETS, *(f"${{attr.{name}}}" for name in NODE_ATTRIBUTES))
UNIT_EXAMPLES = {"MiB": "16 GiB", "W": "300 W", "MHz": "1400 MHz", "MB/s": "16 GB/s"}
SNIPPETS = {
    "constraint": 'constraint {\n  attribute = "$1"\n  value     = "$2"\n}',
    "affinity": 'affinity {\n  attribute = "$1"\n  value     = "$2"\n  weight    = ${3:50}\n}',
    "device": 'device "${1:nvidia/gpu}" {\n  count = ${2:1}\n}',
    "dynamic": 'dynamic "$1" {\n  for_each = $2\n  content {\n    $0\n  }\n}',
}
"""Bodies for the blocks that are nearly always written with the same arguments."""
OPERATOR_DOCS = {
    "==": "The same as `=`.",
    "is": "The same as `=`.",
    "not": "The same as `!=`.",
    "regexp": "`value` is a regular expression (Go syntax) the attribute must match.",
    "version": 'Compares versions: `value` is a constraint such as `">= 1.2, < 2.0"`.',
    "semver": "Compares as Semantic Versioning 2.0 (pre-releases ordered as the spec says).",
    "set_contains": "The attribute, a comma-separated list, contains every value listed.",
    "set_contains_all": "The same as `set_contains`.",
    "set_contains_any": "The attribute, a comma-separated list, contains one of the values listed.",
    "is_set": "The attribute is set (no `value`).",
    "is_not_set": "The attribute is not set (no `value`).",
    "distinct_hosts": "No two allocations of the job (or group) on one node.",
    "distinct_property": "At most `value` allocations (default 1) share a value of the attribute.",
}
"""What an operator does, where its name does not say."""
TOP_LEVEL = {"job": 1, "variable": 1, "variables": 0, "locals": 0}
"""The top-level blocks and how many labels each takes."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One thing to offer: ``text`` is what it writes in place of the typed prefix."""

    label: str
    kind: types.CompletionItemKind
    detail: str
    text: str = ""
    documentation: str | None = None
    snippet: str | None = None
    filter: str = ""
    """What the typed prefix is matched against (default: the text)."""

    @property
    def written(self) -> str:
        """The text without a snippet's placeholders: the label unless it writes more."""
        return self.text or self.label


def operators(kinds: list[str]) -> list[Candidate]:
    """The operators the checker accepts in this block (no `distinct_*` in a device, no
    `is_set` and such in an affinity)."""
    excluded = set(NOT_IN_DEVICE if "device" in kinds else ())
    if kinds and kinds[-1] == "affinity":
        excluded |= set(NOT_IN_AFFINITY)
    return [
        Candidate(o, Kind.Operator, "operator", documentation=OPERATOR_DOCS.get(o))
        for o in OPERATORS
        if o not in excluded
    ]


def targets(device: str | None) -> list[Candidate]:
    """Inside a device block (``device``: its name) only `${device.*}` resolves (HG210), with
    the attributes its plugin reports (HG213); elsewhere (None) the node's targets, where
    `${device.*}` never does."""
    if device is None:
        doc = "A node target: resolved against each node the job may be placed on."
        return [Candidate(t, Kind.Variable, "node target", documentation=doc) for t in NODE_TARGETS]
    doc = "A device target: resolved against each device the block may be given."
    found = [Candidate(t, Kind.Variable, "device target", documentation=doc) for t in DEVICE_TARGETS]
    if device.split("/", 1)[0] in ("nvidia", device):
        detail = "NVIDIA device attribute"
        for name in NVIDIA_ATTRIBUTES:
            found.append(
                Candidate(f"${{device.attr.{name}}}", Kind.Field, detail, documentation=_attribute_doc(name))
            )
    return found


def _attribute_doc(name: str) -> str:
    """What the NVIDIA plugin reports the attribute as, so the value compares."""
    unit = NVIDIA_UNITS.get(name)
    if unit is not None:
        return (
            f"`{name}`: reported by the NVIDIA device plugin in {unit}; compare it with a value "
            f'that has a unit, e.g. `"{UNIT_EXAMPLES.get(unit, "1 " + unit)}"`.'
        )
    kind = "a string" if name in STRING_ATTRIBUTES else "a value"
    return f"`{name}`: reported by the NVIDIA device plugin as {kind}."


def device_doc(name: str) -> str | None:
    """The model a `nvidia/gpu/<model>` name asks for."""
    model = name.split("/", 2)[2] if name.count("/") == 2 else None
    return None if model is None else f"An NVIDIA GPU whose `${{device.model}}` is `{model}`."


def argument(model: type[Node], name: str, assigned: bool) -> Candidate:
    """An argument: its name and `=`, unless the `=` is already written."""
    text = name if assigned else f"{name} = "
    return Candidate(name, Kind.Property, "argument", text, describe_attribute(model, name), filter=name)


def block(name: str, model: type[Node] | None, labels: int, bare: bool) -> Candidate:
    """A block: its name, and with snippets its labels and braces (not where the line
    already goes on after the name)."""
    described = model_for(["job"]) if name == "job" else model
    doc = describe_block(described, name) if described is not None else None
    snippet = None if bare else SNIPPETS.get(name, _generic_snippet(name, labels))
    return Candidate(name, Kind.Struct, "block", name, doc, snippet)


def _generic_snippet(name: str, labels: int) -> str:
    """A block with a tab stop for each label and the cursor left inside its braces."""
    quoted = "".join(f' "${i}"' for i in range(1, labels + 1))
    return f"{name}{quoted} {{\n  $0\n}}"
