"""GPU reservations (`deploy.resources.reservations.devices`, `gpus`) and device nodes
(`devices`) as Nomad device requests and docker driver device mappings.

The compose back end writes an NVIDIA request as `count: N`, or as the `device_ids` a node
inventory's plan chose (``render --nodes``). Docker turns a count of N into the indexes
0..N-1, so those ids are the same request as `count = N`. Other indexes cannot be kept:
Nomad names GPUs by UUID (HG302); UUIDs are kept as a `${device.ids}` constraint, which
selects exactly those GPUs.
"""

from __future__ import annotations

import re
from typing import Any

from hclgpu.importers.common import whole_number
from hclgpu.importers.compose.draft import Draft
from hclgpu.importers.compose.findings import Findings, Path
from hclgpu.importers.compose.values import scalar_text, string_list

_NEURON = re.compile(r"/dev/neuron(\d{1,9})")
_UUID = re.compile(r"(GPU|MIG)-[0-9A-Za-z/-]+")
_REQUEST_KEYS = ("driver", "count", "device_ids", "capabilities")
NVIDIA = "nvidia/gpu"


def device_requests(draft: Draft, value: Any, where: Path, findings: Findings) -> None:
    if not isinstance(value, list):
        findings.left_out(where, "device reservations must be a list; left out")
        return
    for index, item in enumerate(value):
        _request(draft, item, (*where, index), findings, implicit_gpu=False)


def gpus(draft: Draft, value: Any, findings: Findings) -> None:
    """`gpus: all`, or a list of requests like `deploy`'s (capabilities implied)."""
    if value == "all":
        _add(draft, 1, None, draft.at("gpus"), findings)
        findings.approximated(draft.at("gpus"), _ALL)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _request(draft, item, draft.at("gpus", index), findings, implicit_gpu=True)
    else:
        findings.left_out(draft.at("gpus"), "`gpus` is neither `all` nor a list; left out")


_ALL = "all GPUs: Nomad has no `all`, so count = 1 is asked; set the number your nodes have"


def _request(draft: Draft, item: Any, where: Path, findings: Findings, implicit_gpu: bool) -> None:
    if not isinstance(item, dict):
        findings.left_out(where, "a device request must be a mapping; left out")
        return
    capabilities = string_list(item.get("capabilities") or []) or []
    driver = item.get("driver")
    gpu = "gpu" in capabilities or implicit_gpu
    if driver not in (None, "nvidia") or not (gpu or driver == "nvidia"):
        findings.left_out(
            where, f"a `{driver or ','.join(capabilities)}` device request: only NVIDIA GPUs have a form here"
        )
        return
    for key in sorted(str(k) for k in item if k not in _REQUEST_KEYS):
        findings.left_out((*where, key), f"`{key}` of a device request is left out")
    for cap in (c for c in capabilities if c != "gpu"):
        findings.left_out(
            (*where, "capabilities"),
            f"capability `{cap}` is left out: the image's NVIDIA_DRIVER_CAPABILITIES decide",
        )
    count, constraint = _count(draft, item, where, findings)
    if count:
        _add(draft, count, constraint, where, findings)


def _count(
    draft: Draft, item: dict[str, Any], where: Path, findings: Findings
) -> tuple[int, dict[str, str] | None]:
    """How many GPUs, and the constraint that names them (GPU UUIDs only)."""
    if "device_ids" in item:
        if "count" in item:
            findings.left_out((*where, "count"), "`count` and `device_ids` exclude each other; ids are used")
        found, constraint = _ids(item["device_ids"], (*where, "device_ids"), findings)
        if found and string_list(item["device_ids"]) == [str(i) for i in range(found)]:
            draft.first_gpus.append((*where, "device_ids"))
        return found, constraint
    count = item.get("count")
    if count in ("all", -1) or "count" not in item:
        findings.approximated(where, _ALL)
        return 1, None
    number = whole_number(count, 1)
    if number is not None:
        return number, None
    findings.left_out((*where, "count"), f"`{count}` is not a number of GPUs; the request is left out")
    return 0, None


def _ids(value: Any, where: Path, findings: Findings) -> tuple[int, dict[str, str] | None]:
    ids = string_list(value) if isinstance(value, list) else None
    if not ids:
        findings.left_out(where, "`device_ids` must be a non-empty list; the request is left out")
        return 0, None
    if ids == [str(i) for i in range(len(ids))]:
        return len(ids), None
    if all(_UUID.fullmatch(i) for i in ids):
        return len(ids), {"LTarget": "${device.ids}", "RTarget": ",".join(ids), "Operand": "set_contains_any"}
    findings.approximated(
        where,
        f"GPU indexes {','.join(ids)} → count = {len(ids)}: Nomad picks which GPUs (it names them by UUID; "
        "a ${device.ids} constraint with UUIDs would pin them)",
    )
    return len(ids), None


def _add(
    draft: Draft, count: int, constraint: dict[str, str] | None, where: Path, findings: Findings
) -> None:
    """One `device "nvidia/gpu"` block per task: several requests add up."""
    devices: list[dict[str, Any]] = draft.resources.setdefault("Devices", [])
    block = next((d for d in devices if d["Name"] == NVIDIA), None)
    if block is None:
        block = {"Name": NVIDIA, "Count": 0}
        devices.append(block)
    elif block["Count"]:
        findings.approximated(where, "several GPU requests → one device block asking for all of them")
    block["Count"] += count
    if constraint is not None:
        block.setdefault("Constraints", []).append(constraint)


def devices(draft: Draft, value: Any, findings: Findings) -> None:
    """Device nodes: /dev/neuron0..N-1 (what the back end writes for `device "aws/neuron"`)
    become that request; any other mapping is the docker driver's `devices` entry."""
    if not isinstance(value, list):
        findings.left_out(draft.at("devices"), "`devices` is not a list; left out")
        return
    mappings: list[tuple[int, dict[str, str]]] = []
    for index, item in enumerate(value):
        mapping = _mapping(item)
        if mapping is None:
            findings.left_out(draft.at("devices", index), "not a device mapping; left out")
        else:
            mappings.append((index, mapping))
    indexes = {i: _neuron_index(m) for i, m in mappings}
    neuron = [(i, m) for i, m in mappings if indexes[i] is not None]
    if neuron and sorted(indexes[i] or 0 for i, _ in neuron) == list(range(len(neuron))):
        draft.resources.setdefault("Devices", []).append({"Name": "aws/neuron", "Count": len(neuron)})
        findings.approximated(
            draft.at("devices", neuron[0][0]),
            f'Neuron device nodes → device "aws/neuron" with count = {len(neuron)}: Nomad picks which',
        )
        mappings = [(i, m) for i, m in mappings if (i, m) not in neuron]
    if mappings:
        draft.config["devices"] = [m for _, m in mappings]


def _mapping(item: Any) -> dict[str, str] | None:
    if isinstance(item, dict):
        host, container, permissions = item.get("source"), item.get("target"), item.get("permissions")
    else:
        text = scalar_text(item)
        if text is None:
            return None
        host, container, permissions, *_ = [*text.split(":"), None, None][:3]
    if not isinstance(host, str) or not host:
        return None
    out = {"host_path": host}
    if isinstance(container, str) and container and container != host:
        out["container_path"] = container
    if isinstance(permissions, str) and permissions:
        out["cgroup_permissions"] = permissions
    return out


def _neuron_index(mapping: dict[str, str]) -> int | None:
    match = _NEURON.fullmatch(mapping["host_path"])
    if match is None or set(mapping) != {"host_path"}:
        return None
    return int(match.group(1))
