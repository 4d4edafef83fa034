"""What hover says about a block or an argument: the schema's facts (what it decodes to, its
type, the blocks and arguments it takes) and, for the fields GPU jobs live on, a sentence of
Nomad's meaning."""

from __future__ import annotations

import types as pytypes
import typing
from typing import Any

from hclgpu.ir.base import Node
from hclgpu.ir.schema import FieldSpec, schema_of

NOTES = {
    "job": "The unit Nomad schedules: one or more groups, placed and updated together.",
    "group": "Tasks placed together on one node; `count` copies of it run.",
    "task": "One process (a container with the docker driver) inside a group.",
    "resources": "What the task reserves on its node: `cpu` MHz, `memory` MiB, devices.",
    "device": "A request for `count` devices whose `vendor/type/model` name matches; its constraints "
    "and affinities test each device's attributes (`${device.attr.memory}`, `${device.model}`).",
    "constraint": "A test every placement must pass: `attribute operator value`.",
    "affinity": "A preference: nodes (or devices) passing the test score `weight` (-100..100).",
    "spread": "Spread allocations over the values of a node attribute.",
    "count": "How many: group copies, or devices of this kind (default 1).",
    "attribute": "The left side of the test: a target such as `${device.attr.memory}` or "
    "`${attr.kernel.name}`.",
    "value": 'The right side: a literal, with a unit where the attribute has one (`"4 GiB"`).',
    "operator": "`=`, `!=`, `<`, `<=`, `>`, `>=`, `regexp`, `version`, `semver`, `set_contains`, "
    "`set_contains_any`, `set_contains_all`, `is_set`, `is_not_set`, `distinct_hosts`, `distinct_property`.",
    "weight": "How much a matching node or device is preferred: -100..100 (stored in 8 bits), not 0.",
    "driver": "What runs the task: `docker`, `podman`, `exec`, `raw_exec`, `java`, `qemu`...",
    "config": "The driver's own settings (schemaless: the driver checks them).",
    "network": "The group's network namespace and the ports it asks for.",
    "port": "A port label: `static` reserves a host port, `to` is the port inside the container.",
    "service": "A service registered for discovery (Consul or Nomad), with health checks.",
    "check": "A health check of the service: http, tcp, grpc or script.",
    "cpu": "CPU to reserve, in MHz.",
    "memory": "Memory to reserve, in MiB (also the limit unless `memory_max` is set).",
    "memory_max": "The memory limit in MiB, above the reservation (oversubscription).",
    "cores": "Whole CPU cores to reserve exclusively (instead of `cpu`).",
    "template": "A file rendered by the client (Go template, Consul/Vault/Nomad data).",
    "update": "How a new version of the job replaces running allocations.",
    "restart": "How the client restarts a failed task in place.",
    "lifecycle": "When the task runs relative to the main tasks: prestart, poststart, poststop.",
}


def describe_block(model: type[Node] | None, name: str) -> str:
    lines = [f"**block `{name}`**"]
    if name in NOTES:
        lines.append(NOTES[name])
    if model is not None:
        schema = schema_of(model)
        doc = (model.__doc__ or "").strip().splitlines()
        if doc:
            lines.append(doc[0])
        if schema.attributes:
            lines.append("Arguments: " + ", ".join(f"`{a}`" for a in schema.attributes))
        if schema.blocks:
            lines.append("Blocks: " + ", ".join(f"`{b}`" for b in schema.blocks))
    return "\n\n".join(lines)


def describe_attribute(model: type[Node] | None, name: str) -> str | None:
    spec = schema_of(model).attributes.get(name) if model is not None else None
    if spec is None and name not in NOTES:
        return None
    lines = [f"**`{name}`**" + (f": {type_text(spec)}" if spec is not None else "")]
    if name in NOTES:
        lines.append(NOTES[name])
    if spec is not None:
        required = "required" if spec.hcl.required else "optional"
        lines.append(f"{required}; API field `{spec.alias}`" + (f" of `{model.__name__}`" if model else ""))
    return "\n\n".join(lines)


def type_text(spec: FieldSpec) -> str:
    if spec.hcl.go == "duration":
        return 'duration (`"30s"`, `"5m"`)'
    if spec.hcl.go == "any":
        return "any value"
    return _annotation(spec.annotation)


def _annotation(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin in (typing.Union, pytypes.UnionType) and len(args) == 1:
        return _annotation(args[0])
    if origin is typing.Annotated:
        return _annotation(args[0])
    if origin in (list, tuple):
        return f"list of {_annotation(args[0])}" if args else "list"
    if origin is dict:
        return f"map of {_annotation(args[1])}" if len(args) == 2 else "map"
    names = {str: "string", int: "number", float: "number", bool: "bool"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))
