"""`deploy` (replicas, CPU and memory limits, GPU reservations), the older service-level
`cpus`/`mem_limit`/`mem_reservation`/`scale`, `gpus`, and `devices`: the task's
`resources`, the group's `count` and the docker driver's `devices`.

The inverse of :mod:`hclgpu.backends.docker.resources`: CPUs are MHz at the back end's
factor (``--cpu-mhz-per-core``, the render option of the same name), a memory limit
above a reservation is `memory_max` over `memory`, an NVIDIA reservation is a
`device "nvidia/gpu"` (:mod:`~hclgpu.importers.compose.devices`).
"""

from __future__ import annotations

from typing import Any

from hclgpu.importers.common import whole_number
from hclgpu.importers.compose.devices import device_requests
from hclgpu.importers.compose.draft import Draft
from hclgpu.importers.compose.findings import Findings, Path
from hclgpu.importers.compose.values import mebibytes, scalar_text, size_bytes


def deploy(draft: Draft, value: Any, findings: Findings) -> None:
    if not isinstance(value, dict):
        findings.left_out(draft.at("deploy"), "`deploy` is not a mapping; left out")
        return
    for key, item in value.items():
        where = draft.at("deploy", str(key))
        if key == "replicas":
            _replicas(draft, item, where, findings)
        elif key == "resources" and isinstance(item, dict):
            _resources(draft, item, where, findings)
        elif key == "mode" and item == "replicated":
            continue
        else:
            hint = " (a system job runs one on every node)" if item == "global" else ""
            findings.left_out(where, f"deploy `{key}` has no Nomad job equivalent here; left out{hint}")


def scale(draft: Draft, value: Any, findings: Findings) -> None:
    _replicas(draft, value, draft.at("scale"), findings)


def _replicas(draft: Draft, value: Any, where: Path, findings: Findings) -> None:
    if whole_number(value) is not None:
        draft.replicas = value
    else:
        findings.left_out(where, "the number of replicas is not a whole number; left out")


def _resources(draft: Draft, value: dict[str, Any], where: Path, findings: Findings) -> None:
    for kind, block in value.items():
        here = (*where, str(kind))
        if kind not in ("limits", "reservations") or not isinstance(block, dict):
            findings.left_out(here, f"`{kind}` is left out")
            continue
        for key, item in block.items():
            _resource(draft, str(kind), str(key), item, (*here, str(key)), findings)


def _resource(draft: Draft, kind: str, key: str, value: Any, where: Path, findings: Findings) -> None:
    limit = kind == "limits"
    if key == "cpus" and (limit or "CPU" not in draft.resources):
        _cpus(draft, value, where, findings, reservation=not limit)
    elif key == "memory":
        _memory(draft, value, where, findings, reservation=not limit)
    elif key == "pids" and limit and isinstance(value, int) and not isinstance(value, bool):
        draft.config["pids_limit"] = value
    elif key == "devices" and not limit:
        device_requests(draft, value, where, findings)
    else:
        findings.left_out(where, f"{kind} `{key}` has no Nomad resources equivalent; left out")


def legacy_cpus(draft: Draft, value: Any, findings: Findings) -> None:
    _cpus(draft, value, draft.at("cpus"), findings, reservation=False)


def mem_limit(draft: Draft, value: Any, findings: Findings) -> None:
    _memory(draft, value, draft.at("mem_limit"), findings, reservation=False)


def mem_reservation(draft: Draft, value: Any, findings: Findings) -> None:
    _memory(draft, value, draft.at("mem_reservation"), findings, reservation=True)


def _cpus(draft: Draft, value: Any, where: Path, findings: Findings, reservation: bool) -> None:
    text = scalar_text(value)
    try:
        cores = float(text) if text is not None and not isinstance(value, bool) else -1.0
    except ValueError:
        cores = -1.0
    if not 0 < cores < 1e6:
        findings.left_out(where, f"`{value}` is not a number of CPUs; left out")
        return
    factor = findings.options.cpu_mhz_per_core
    draft.resources["CPU"] = max(1, round(cores * factor))
    what = "a CPU reservation" if reservation else "a hard limit"
    findings.approximated(
        where,
        f"cpus {text} → cpu = {draft.resources['CPU']} MHz at {factor} MHz per core: Nomad's cpu is a "
        f"share of the node's MHz, this was {what}",
    )


def _memory(draft: Draft, value: Any, where: Path, findings: Findings, reservation: bool) -> None:
    size = size_bytes(value)
    if not size:
        findings.left_out(where, f"`{value}` is not a memory size; left out")
        return
    mib, exact = mebibytes(size)
    if not exact:
        findings.approximated(where, f"{value} is rounded up to {mib} MiB")
    if reservation:
        draft.memory_reservation_mb = mib
    else:
        draft.memory_limit_mb = mib


def settle_memory(draft: Draft, findings: Findings) -> None:
    """`memory` (and `memory_max` when the limit is above a reservation), once both are read."""
    limit, reserve = draft.memory_limit_mb, draft.memory_reservation_mb
    if limit is not None and reserve is not None and limit > reserve:
        draft.resources["MemoryMB"], draft.resources["MemoryMaxMB"] = reserve, limit
    elif limit is not None:
        draft.resources["MemoryMB"] = limit
    elif reserve is not None:
        draft.resources["MemoryMB"] = reserve
        findings.approximated(
            draft.path, "a memory reservation with no limit: Nomad's `memory` is also the limit"
        )
    else:
        findings.approximated(
            draft.path, "no memory limit: Nomad gives a task 300 MiB (and enforces it) unless `memory` is set"
        )
