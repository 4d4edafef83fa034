"""Load a node inventory from hclgpu's own format, Nomad's node JSON or `kubectl get nodes -o json`.

`hclgpu plan` needs the nodes a job could land on. Operators already have them in one of
three shapes, so we read all three instead of asking for a hand-written file:

* **hclgpu** (YAML or JSON, a mapping with `nodes:`): :class:`~hclgpu.plan.model.Inventory`
  as is; nothing is lost.
* **Nomad** (`curl $NOMAD_ADDR/v1/node/<id>`, one node object; a list of them; or
  `{"Nodes": [...]}`): typed device attributes (`{"Int": 16130, "Unit": "MiB"}`) are written
  back as the strings Nomad's scheduler parses (`"16130 MiB"`). Nodes that are down,
  draining or ineligible are left out, because Nomad would not place anything on them.
* **Kubernetes** (`kubectl get nodes -o json`, a `List`/`NodeList` or one `Node`): GPU
  Feature Discovery labels and device-plugin capacities are mapped to Nomad-like device
  groups. This is lossy (no GPU UUIDs, sanitised model names, only memory and driver
  version), and every loss is reported as a human note instead of being hidden.

Every failure is an :class:`InventoryError` with a one-line message, so the CLI can print
it without a traceback.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from hclgpu.io.documents import MAX_DIGITS, DocumentError, load_json, load_yaml_document
from hclgpu.io.files import NotUtf8, read_text
from hclgpu.plan.model import MAX_DEVICE_INSTANCES, DeviceGroup, Instance, Inventory, Node
from hclgpu.units.gpu_names import LABELS, gfd_product, models_of
from hclgpu.units.mig import MIG_PROFILES, gfd_mig_product, profile_from_plugin
from hclgpu.units.quantities import MIB, quantity

__all__ = ["FORMATS", "InventoryError", "convert", "detect_format", "inventory_schema", "load_inventory"]

FORMATS = ("hclgpu", "nomad", "kubernetes")
DEFAULT_MHZ_PER_CORE = 1000
"""MHz per Kubernetes CPU core, as the importers and the Kubernetes back end count them."""
"""The inventory formats :func:`load_inventory` reads (the CLI's `--nodes-format` choices)."""


class InventoryError(Exception):
    """An inventory file that cannot be read, parsed or converted; the message is for people."""


def inventory_schema() -> dict[str, Any]:
    """The JSON Schema of hclgpu's inventory format (`hclgpu schema inventory`), for editors and CI."""
    schema = Inventory.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema.setdefault("title", "hclgpu node inventory")
    return schema


def load_inventory(
    path: Path, format: str | None = None, cpu_mhz_per_core: int = DEFAULT_MHZ_PER_CORE
) -> tuple[Inventory, list[str]]:
    """Read `path` as an inventory; return it with notes on anything lost in conversion.

    `format` is one of :data:`FORMATS`, or None to detect it from the content (not the file
    name, since `kubectl ... > nodes.json` and Nomad's API output share an extension).
    A Kubernetes node's CPU cores are priced at `cpu_mhz_per_core` MHz each (Nomad counts MHz).
    """
    if format is not None and format not in FORMATS:
        raise InventoryError(f"unknown inventory format {format!r} (expected one of {', '.join(FORMATS)})")
    data = parse_inventory_text(read_inventory_text(path), path)
    try:
        return convert(data, format, cpu_mhz_per_core)
    except InventoryError as error:
        raise InventoryError(f"{path}: {error}") from None


def read_inventory_text(path: Path) -> str:
    """The text of an inventory or allocations file, or :class:`InventoryError` saying why not."""
    try:
        return read_text(path)  # a regular file of at most 16 MiB: never /dev/zero or a FIFO
    except FileNotFoundError:
        raise InventoryError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InventoryError(f"{path}: is a directory, not an inventory file") from None
    except NotUtf8 as error:
        raise InventoryError(f"{path}:{error.line}:{error.column}: not UTF-8 text ({error})") from None
    except OSError as error:
        raise InventoryError(f"{path}: cannot read ({error.strerror or error})") from None


def parse_inventory_text(text: str, path: Path | str) -> Any:
    """JSON first (exact error positions for the API dumps), then YAML (a superset)."""
    if not text.strip():
        raise InventoryError(f"{path}: empty file")
    try:
        try:
            return load_json(text)
        except json.JSONDecodeError:
            pass
        return load_yaml_document(text)
    except DocumentError as error:  # too deep, an integer out of range, an alias bomb
        where = f"{path}:{error.line}:{error.column}" if error.line else str(path)
        raise InventoryError(f"{where}: {error}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or "invalid syntax"
        raise InventoryError(f"{path}: not valid YAML or JSON{where}: {problem}") from None


def detect_format(data: Any) -> str:
    """Which of :data:`FORMATS` parsed `data` is, judged by the keys each producer always writes."""
    if isinstance(data, dict):
        kind = data.get("kind")
        if kind in ("List", "NodeList", "Node") or ("items" in data and "apiVersion" in data):
            return "kubernetes"
        if "nodes" in data:
            return "hclgpu"
        if "Nodes" in data or _looks_like_nomad_node(data):
            return "nomad"
    elif isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
        if all(_looks_like_nomad_node(item) for item in data):
            return "nomad"
        if all(item.get("kind") == "Node" for item in data):
            return "kubernetes"
    elif isinstance(data, list):
        raise InventoryError("an empty list holds no nodes")
    raise InventoryError(
        "unrecognised inventory: expected hclgpu's format (a mapping with `nodes:`), Nomad node JSON "
        "(objects with `Attributes`/`NodeResources`) or `kubectl get nodes -o json` output"
    )


def _looks_like_nomad_node(item: dict[str, Any]) -> bool:
    return "NodeResources" in item or "Attributes" in item or ("ID" in item and "Datacenter" in item)


def convert(
    data: Any, format: str | None = None, cpu_mhz_per_core: int = DEFAULT_MHZ_PER_CORE
) -> tuple[Inventory, list[str]]:
    """Convert already-parsed inventory data (see :func:`load_inventory`)."""
    chosen = format or detect_format(data)
    if chosen == "hclgpu":
        return _from_hclgpu(data), []
    if chosen == "nomad":
        return _from_nomad(data)
    if chosen == "kubernetes":
        return _from_kubernetes(data, cpu_mhz_per_core)
    raise InventoryError(f"unknown inventory format {chosen!r}")


# --- hclgpu's own format ------------------------------------------------------------------------


def _from_hclgpu(data: Any) -> Inventory:
    if not isinstance(data, dict):
        raise InventoryError("an hclgpu inventory is a mapping with `version` and `nodes`")
    version = data.get("version", 1)
    if version != 1:
        raise InventoryError(f"unsupported inventory version {version!r} (this hclgpu reads version 1)")
    try:
        inventory = Inventory.model_validate(data)
    except ValidationError as error:
        raise InventoryError(_validation_message(error)) from None
    return _checked(inventory.nodes).model_copy(update={"scheduler": inventory.scheduler})


def _validation_message(error: ValidationError) -> str:
    """The first few pydantic errors as `nodes.0.devices.1.model: Field required`, one line."""
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item["loc"]) or "(top level)"
        parts.append(f"{where}: {item['msg']}")
    more = len(error.errors()) - len(parts)
    suffix = f" (and {more} more)" if more > 0 else ""
    return "invalid inventory: " + "; ".join(parts) + suffix


# --- Nomad node JSON ----------------------------------------------------------------------------


def _from_nomad(data: Any) -> tuple[Inventory, list[str]]:
    if isinstance(data, dict) and "Nodes" in data:
        data = data["Nodes"]
    items = data if isinstance(data, list) else [data]
    notes: list[str] = []
    nodes: list[Node] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise InventoryError(f"node {index}: expected a Nomad node object, got {type(item).__name__}")
        node = _nomad_node(item, index, notes)
        if node is not None:
            nodes.append(node)
    return _checked(nodes), notes


def _nomad_node(item: dict[str, Any], index: int, notes: list[str]) -> Node | None:
    name = text_field(item.get("Name") or item.get("ID"), f"node {index}: Name")
    if not name:
        raise InventoryError(f"node {index}: has neither Name nor ID")
    status = item.get("Status")
    if not nomad_schedulable(item):
        why = f"status {status}" if status not in READY else "ineligible or draining"
        notes.append(f"node {name} left out: {why}, so Nomad would not place allocations on it")
        return None
    attributes = _string_map(item.get("Attributes"), f"node {name}: Attributes")
    meta = _string_map(item.get("Meta"), f"node {name}: Meta")
    resources = item.get("NodeResources")
    devices: list[DeviceGroup] = []
    capacity: dict[str, int | None] | None = None
    numa: list[dict[str, int]] = []
    if isinstance(resources, dict):
        buses = _bus_numa_nodes(resources, name)
        for group in resources.get("Devices") or []:
            devices.append(_nomad_device(group, name, buses))
        capacity = nomad_capacity(resources, f"node {name}: NodeResources")
        numa = _numa_nodes(resources, name)
    elif "NodeResources" not in item and "Attributes" not in item:
        notes.append(f"node {name}: no NodeResources/Attributes (a node list stub?); use `/v1/node/<id>`")
    return Node.model_validate(
        {
            "name": name,
            "id": text_field(item.get("ID"), f"node {name}: ID"),
            "datacenter": text_field(item.get("Datacenter"), f"node {name}: Datacenter") or "dc1",
            "node_pool": text_field(item.get("NodePool"), f"node {name}: NodePool") or "default",
            "class": text_field(item.get("NodeClass"), f"node {name}: NodeClass") or "",
            "attributes": attributes,
            "meta": meta,
            "devices": devices,
            "resources": capacity,
            "reserved": nomad_reserved(item.get("ReservedResources"), f"node {name}: ReservedResources"),
            "drivers": _nomad_drivers(item.get("Drivers"), attributes, name),
            "numa": numa,
        }
    )


READY = (None, "", "ready")
"""Node statuses the scheduler places on (a stub or hand-made dump may omit the field)."""


def nomad_schedulable(item: dict[str, Any]) -> bool:
    """Ready, eligible and not draining: a node Nomad's scheduler considers (`Node.Ready`)."""
    eligible = item.get("SchedulingEligibility") != "ineligible" and item.get("Drain") is not True
    return item.get("Status") in READY and eligible


def nomad_capacity(resources: dict[str, Any], where: str) -> dict[str, int | None] | None:
    """`NodeResources` as hclgpu's `resources`: CPU from `Cpu.CpuShares` (the node's total
    compute), the reservable cores, memory, disk and the dynamic port range."""
    cpu = _section(resources, "Cpu", where)
    if not cpu and not _section(resources, "Memory", where):
        return None
    cores = number_field(cpu.get("TotalCpuCores"), f"{where}: Cpu.TotalCpuCores")
    reservable = cpu.get("ReservableCpuCores")
    if isinstance(reservable, list) and reservable:
        cores = len(reservable)
    out: dict[str, int | None] = {
        "cpu": number_field(cpu.get("CpuShares"), f"{where}: Cpu.CpuShares"),
        "memory": number_field(
            _section(resources, "Memory", where).get("MemoryMB"), f"{where}: Memory.MemoryMB"
        ),
        "disk": _optional(_section(resources, "Disk", where).get("DiskMB"), f"{where}: Disk.DiskMB"),
        "cores": cores,
    }
    for key, field in (("MinDynamicPort", "min_dynamic_port"), ("MaxDynamicPort", "max_dynamic_port")):
        if resources.get(key):
            out[field] = number_field(resources[key], f"{where}: {key}")
    return out


def nomad_reserved(value: Any, where: str) -> dict[str, Any]:
    """`ReservedResources`: CPU, memory, disk, reserved cores and host ports."""
    if not isinstance(value, dict):
        return {}
    cpu = _section(value, "Cpu", where)
    cores = cpu.get("ReservedCpuCores")
    ports = _section(value, "Networks", where).get("ReservedHostPorts") or ""
    if not isinstance(ports, str):
        raise InventoryError(f"{where}: Networks.ReservedHostPorts is not a string")
    return {
        "cpu": number_field(cpu.get("CpuShares"), f"{where}: Cpu.CpuShares"),
        "memory": number_field(_section(value, "Memory", where).get("MemoryMB"), f"{where}: Memory.MemoryMB"),
        "disk": number_field(_section(value, "Disk", where).get("DiskMB"), f"{where}: Disk.DiskMB"),
        "cores": len(cores) if isinstance(cores, list) else 0,
        "ports": parse_port_ranges(ports, f"{where}: Networks.ReservedHostPorts"),
    }


def parse_port_ranges(spec: str, where: str) -> list[int]:
    """`structs.ParsePortRanges` (nomad/structs/funcs.go:491): `80,443,1000-2000`."""
    ports: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        low, _, high = part.partition("-")
        if not low.strip().isdigit() or (high and not high.strip().isdigit()):
            raise InventoryError(f"{where}: {part!r} is not a port or a port range")
        first, last = int(low), int(high) if high else int(low)
        if first > last or last > 65535:
            raise InventoryError(f"{where}: {part!r} is not a valid port range")
        ports.update(range(first, last + 1))
    return sorted(ports)


def _nomad_drivers(value: Any, attributes: dict[str, str], name: str) -> list[str] | None:
    """The drivers `DriverChecker.hasDrivers` accepts (feasible.go:802-840): detected and
    healthy in `Drivers`, else a true `driver.<name>` attribute. None when the node says
    nothing about drivers (a hand-made or trimmed dump), so nothing is checked."""
    drivers = value if isinstance(value, dict) else {}
    named = {key[len("driver.") :] for key in attributes if key.startswith("driver.") and key.count(".") == 1}
    if not drivers and not named:
        return None
    out = []
    for driver in sorted(set(drivers) | named):
        info = drivers.get(driver)
        if driver in drivers:
            if isinstance(info, dict) and info.get("Detected") is True and info.get("Healthy") is True:
                out.append(driver)
        elif attributes.get(f"driver.{driver}", "").lower() in ("1", "t", "true"):
            out.append(driver)
    return out


def _numa_nodes(resources: dict[str, Any], name: str) -> list[dict[str, int]]:
    """Usable cores per NUMA node from `Processors.Topology.Cores` (disabled cores left out)."""
    topology = _section(_section(resources, "Processors", f"node {name}"), "Topology", f"node {name}")
    counts: Counter[int] = Counter()
    for core in topology.get("Cores") or []:
        if isinstance(core, dict) and not core.get("Disable") and isinstance(core.get("NodeID"), int):
            counts[core["NodeID"]] += 1
    return [{"id": node, "cores": counts[node]} for node in sorted(counts)]


def _bus_numa_nodes(resources: dict[str, Any], name: str) -> dict[str, int]:
    """`Topology.BusAssociativity`, PCI bus ID → NUMA node, keyed without the domain's
    leading zeros as `equalBusID` compares them (device.go:52-60)."""
    topology = _section(_section(resources, "Processors", f"node {name}"), "Topology", f"node {name}")
    buses = topology.get("BusAssociativity") or {}
    if not isinstance(buses, dict):
        return {}
    return {str(bus).lstrip("0"): node for bus, node in buses.items() if isinstance(node, int)}


def _section(value: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    return object_field(value.get(key), f"{where}: {key}")


def object_field(value: Any, where: str) -> dict[str, Any]:
    """A JSON object field, {} when absent; anything else is an :class:`InventoryError`."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InventoryError(f"{where}: expected an object")
    return value


def _optional(value: Any, where: str) -> int | None:
    return None if value is None else number_field(value, where)


def number_field(value: Any, where: str) -> int:
    """A non-negative JSON integer field (MHz, MB, ports), 0 when absent."""
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise InventoryError(f"{where}: expected a non-negative integer")
    return value


def _nomad_device(group: Any, node: str, buses: dict[str, int] | None = None) -> DeviceGroup:
    if not isinstance(group, dict):
        raise InventoryError(f"node {node}: a device group is not an object")
    vendor = text_field(group.get("Vendor"), f"node {node}: device Vendor")
    kind = text_field(group.get("Type"), f"node {node}: device Type")
    model = text_field(group.get("Name"), f"node {node}: device Name")
    where = f"node {node}: device {vendor}/{kind}/{model}"
    instances = []
    for instance in group.get("Instances") or []:
        if not isinstance(instance, dict) or not isinstance(instance.get("ID"), str):
            raise InventoryError(f"{where}: an instance has no string ID")
        locality = instance.get("Locality")
        bus = locality.get("PciBusID") if isinstance(locality, dict) else None
        numa = (buses or {}).get(bus.lstrip("0")) if isinstance(bus, str) else None
        instances.append(
            Instance(id=instance["ID"], healthy=bool(instance.get("Healthy", True)), numa_node=numa)
        )
    raw = group.get("Attributes") or {}
    if not isinstance(raw, dict):
        raise InventoryError(f"{where}: Attributes is not an object")
    attributes = {
        key: nomad_attribute_string(value, f"{where}: attribute {key}") for key, value in raw.items()
    }
    return DeviceGroup(vendor=vendor, type=kind, model=model, instances=instances, attributes=attributes)


def nomad_attribute_string(value: Any, where: str = "attribute") -> str:
    """A typed Nomad attribute (`{"Int": 16130, "Unit": "MiB"}`) as Nomad writes it: `"16130 MiB"`.

    The planner parses these strings back the way Nomad's `ParseAttribute` does, so the
    round trip keeps the type: integers stay integral, floats keep a decimal point.
    Plain strings (some exporters flatten attributes) are taken as they are.
    """
    if isinstance(value, str):
        return value
    if not isinstance(value, dict):
        raise InventoryError(f"{where}: expected an object like {{'Int': 1, 'Unit': 'MiB'}}")
    unit = value.get("Unit") or ""
    if not isinstance(unit, str):
        raise InventoryError(f"{where}: Unit is not a string")
    if value.get("Int") is not None:
        number = value["Int"]
        if isinstance(number, bool) or not isinstance(number, int):
            raise InventoryError(f"{where}: Int is not an integer")
        text = str(number)
    elif value.get("Float") is not None:
        number = value["Float"]
        if isinstance(number, bool) or not isinstance(number, int | float) or not math.isfinite(number):
            raise InventoryError(f"{where}: Float is not a finite number")
        text = _float_text(float(number))
    elif value.get("Bool") is not None:
        if not isinstance(value["Bool"], bool):
            raise InventoryError(f"{where}: Bool is not true/false")
        return "true" if value["Bool"] else "false"
    elif value.get("String") is not None:
        if not isinstance(value["String"], str):
            raise InventoryError(f"{where}: String is not a string")
        return str(value["String"])
    else:
        raise InventoryError(f"{where}: none of Int, Float, Bool or String is set")
    return f"{text} {unit}" if unit else text


def _float_text(number: float) -> str:
    """Shortest decimal text that still reads as a float (`1.5`, `2.0`, never `1e+20`)."""
    text = repr(number)
    if "e" in text or "E" in text:
        text = f"{number:f}".rstrip("0")
        if text.endswith("."):
            text += "0"
    return text


# --- kubectl get nodes -o json ------------------------------------------------------------------

_GPU_RESOURCE = "nvidia.com/gpu"
_MIG_RESOURCE = "nvidia.com/mig-"
"""The device plugin's MIG resources under its mixed strategy, ``nvidia.com/mig-<profile>``."""
_NEURON_RESOURCES = ("aws.amazon.com/neuron", "aws.amazon.com/neurondevice")
_NEURON_CORES = "aws.amazon.com/neuroncore"
_AMD_RESOURCE = "amd.com/gpu"
_ZONE_LABELS = ("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone")
_NEURON_MODELS = (
    ("inf1.", "Inferentia"),
    ("inf2.", "Inferentia2"),
    ("trn1", "Trainium"),
    ("trn2", "Trainium2"),
)


def _from_kubernetes(data: Any, cpu_mhz_per_core: int = DEFAULT_MHZ_PER_CORE) -> tuple[Inventory, list[str]]:
    if isinstance(data, list):
        items = data
    elif isinstance(data, dict) and data.get("kind") == "Node":
        items = [data]
    elif isinstance(data, dict) and isinstance(data.get("items"), list):
        items = data["items"]
    else:
        raise InventoryError("expected `kubectl get nodes -o json` output (a List of Node objects)")
    notes: list[str] = []
    nodes: list[Node] = []
    counters = {"uuid": 0, "sanitised": 0, "mig": 0}
    for index, item in enumerate(items):
        if not isinstance(item, dict) or item.get("kind", "Node") != "Node":
            kind = item.get("kind") if isinstance(item, dict) else type(item).__name__
            raise InventoryError(f"item {index}: expected a Node, got {kind}")
        nodes.append(_kube_node(item, index, notes, counters, cpu_mhz_per_core))
    if counters["uuid"]:
        notes.append(
            "kubernetes: GPU UUIDs are not in node objects; instances are named gpu-0, gpu-1, … "
            "(constraints on ${device.ids} cannot be checked)"
        )
    if counters["sanitised"]:
        notes.append(
            "kubernetes: models not on record come from nvidia.com/gpu.product, which GPU Feature "
            "Discovery sanitises (spaces → '-', e.g. 'NVIDIA-A100-PCIE-40GB' for 'NVIDIA A100-PCIE-40GB'); "
            "they are kept as labelled, so exact ${device.model} matches against NVML names will fail, "
            "regexps usually not"
        )
    if counters["uuid"] or counters["sanitised"]:
        notes.append(
            "kubernetes: only the memory and driver_version device attributes are known "
            "(no bar1, power, clocks or pci_bandwidth)"
        )
    return _checked(nodes), notes


def _kube_node(
    item: dict[str, Any], index: int, notes: list[str], counters: dict[str, int], mhz_per_core: int
) -> Node:
    metadata = _object(item.get("metadata"))
    name = metadata.get("name")
    if not isinstance(name, str) or not name:
        raise InventoryError(f"item {index}: Node has no metadata.name")
    labels = _string_map(metadata.get("labels"), f"node {name}: metadata.labels")
    spec = _object(item.get("spec"))
    status = _object(item.get("status"))
    info = _object(status.get("nodeInfo"))

    datacenter = next((labels[key] for key in _ZONE_LABELS if labels.get(key)), "")
    if not datacenter:
        datacenter = "dc1"
        notes.append(f"node {name}: no topology.kubernetes.io/zone label; datacenter set to dc1")

    attributes: dict[str, str] = {}
    _put(attributes, "kernel.name", labels.get("kubernetes.io/os") or info.get("operatingSystem"))
    _put(attributes, "kernel.version", info.get("kernelVersion"))
    _put(attributes, "cpu.arch", labels.get("kubernetes.io/arch") or info.get("architecture"))
    _put(attributes, "unique.hostname", labels.get("kubernetes.io/hostname") or name)
    instance_type = labels.get("node.kubernetes.io/instance-type") or labels.get(
        "beta.kubernetes.io/instance-type"
    )
    provider = spec.get("providerID")
    if instance_type and isinstance(provider, str) and provider.startswith("aws://"):
        attributes["platform.aws.instance-type"] = instance_type
    meta = {key: value for key, value in labels.items() if "/" not in key}

    capacity = _quantities(status.get("capacity"), f"node {name}: status.capacity")
    allocatable = _quantities(status.get("allocatable"), f"node {name}: status.allocatable")
    devices: list[DeviceGroup] = []

    devices.extend(_kube_nvidia(labels, capacity, allocatable, name, notes, counters))

    for resource in _NEURON_RESOURCES:
        count = capacity.get(resource, 0)
        if not count:
            continue
        family = instance_type or ""
        model = next((m for prefix, m in _NEURON_MODELS if family.startswith(prefix)), "neuron")
        neuron_attributes: dict[str, str] = {}
        cores = capacity.get(_NEURON_CORES, 0)
        if cores and cores % count == 0:
            neuron_attributes["cores"] = str(cores // count)
        notes.append(f"node {name}: {resource} mapped to aws/neuron/{model} (model from the instance type)")
        devices.append(
            _kube_group(
                "aws", "neuron", model, "neuron", count, allocatable.get(resource, count),
                neuron_attributes, name, notes,
            )
        )  # fmt: skip
        break

    amd = capacity.get(_AMD_RESOURCE, 0)
    if amd:
        model = labels.get("amd.com/gpu.product-name") or labels.get("amd.com/gpu.family") or "N/A"
        devices.append(
            _kube_group(
                "amd", "gpu", model, "gpu-", amd, allocatable.get(_AMD_RESOURCE, amd), {}, name, notes
            )
        )
    return Node.model_validate(
        {
            "name": name,
            "datacenter": datacenter,
            "attributes": attributes,
            "meta": meta,
            "devices": devices,
            "resources": _kube_capacity(status.get("allocatable"), mhz_per_core, f"node {name}: allocatable"),
        }
    )


def _kube_nvidia(
    labels: dict[str, str],
    capacity: dict[str, int],
    allocatable: dict[str, int],
    node: str,
    notes: list[str],
    counters: dict[str, int],
) -> list[DeviceGroup]:
    """The NVIDIA device plugin's resources as device groups: ``nvidia.com/gpu`` (whole GPUs,
    or MIG instances under the single strategy) and, under the mixed strategy, one group per
    ``nvidia.com/mig-<profile>`` resource, each named and sized by GPU Feature Discovery's
    labels for that resource (``<resource>.product``, ``.memory``, ``.replicas``:
    k8s-device-plugin internal/lm/resource.go at 1b826ac)."""
    groups = []
    resources = [_GPU_RESOURCE] if capacity.get(_GPU_RESOURCE) else []
    resources += sorted(key for key in capacity if key.startswith(_MIG_RESOURCE) and capacity[key])
    for resource in resources:
        product = labels.get(f"{resource}.product")
        if product is None and resource == _GPU_RESOURCE:
            product = _cloud_model(labels, node, notes)
        count, healthy = _unshared(resource, labels, capacity[resource], allocatable, node, notes)
        model = _kube_model(resource, product, node, notes, counters)
        attributes: dict[str, str] = {}
        memory = labels.get(f"{resource}.memory")
        if memory and memory.isdigit():
            attributes["memory"] = f"{memory} MiB"
        _put(attributes, "driver_version", _driver_version(labels))
        counters["uuid"] += 1
        prefix = "gpu-" if resource == _GPU_RESOURCE else resource.removeprefix("nvidia.com/") + "-"
        groups.append(_kube_group("nvidia", "gpu", model, prefix, count, healthy, attributes, node, notes))
    return groups


def _cloud_model(labels: dict[str, str], node: str, notes: list[str]) -> str | None:
    """GFD's product of the model GKE's or Karpenter's GPU label names, where it names one
    model of :mod:`hclgpu.units.gpu_names` (a node without GPU Feature Discovery)."""
    for vocabulary in ("gke", "karpenter"):
        value = labels.get(LABELS[vocabulary])
        if value is None:
            continue
        models = models_of(value, vocabulary)
        if len(models) == 1:
            return gfd_product(models[0])
        notes.append(f"node {node}: {LABELS[vocabulary]}={value} names "
                     f"{' or '.join(models) if models else 'no model on record'}; model is N/A")  # fmt: skip
        return None
    return None


def _unshared(
    resource: str,
    labels: dict[str, str],
    capacity: int,
    allocatable: dict[str, int],
    node: str,
    notes: list[str],
) -> tuple[int, int]:
    """Devices and healthy devices of a resource: under time-slicing or MPS the plugin offers
    each device ``<resource>.replicas`` times, where Nomad offers it once."""
    replicas = labels.get(f"{resource}.replicas", "")
    shared = int(replicas) if replicas.isdigit() and int(replicas) > 1 else 1
    if shared == 1:
        return capacity, allocatable.get(resource, capacity)
    strategy = labels.get(f"{resource}.sharing-strategy", "shared")
    notes.append(
        f"node {node}: {resource} is shared ({strategy}, {shared} replicas per device); Nomad gives "
        f"each task whole devices, so {capacity} // {shared} are counted"
    )
    return capacity // shared, allocatable.get(resource, capacity) // shared


def _kube_model(
    resource: str, product: str | None, node: str, notes: list[str], counters: dict[str, int]
) -> str:
    """The plugin's model for a resource's GFD product label: a MIG product
    (``<parent>-MIG-<profile>``) whose parent is known as NVML's ``<parent> MIG <profile>``,
    a product of :mod:`hclgpu.units.gpu_names` as its NVML name, anything else as labelled (less
    GFD's ``-SHARED`` suffix)."""
    profile = resource.removeprefix(_MIG_RESOURCE) if resource.startswith(_MIG_RESOURCE) else None
    if not product:
        if profile is None:
            notes.append(f"node {node}: nvidia.com/gpu without a gpu.product label; model is N/A")
            return "N/A"
        parents = [p for p in MIG_PROFILES if profile_from_plugin(p, profile) in MIG_PROFILES[p]]
        if len(parents) != 1:
            notes.append(f"node {node}: {resource} without a product label; model is N/A MIG {profile}")
            return f"N/A MIG {profile}"
        notes.append(f"node {node}: {resource} without a product label; {parents[0]}, the only GPU "
                     f"with that profile, is assumed")  # fmt: skip
        return f"{parents[0]} MIG {profile_from_plugin(parents[0], profile)}"
    product = product.removesuffix("-SHARED")
    mig = gfd_mig_product(product)
    if mig is not None and mig[2]:
        return f"{mig[0]} MIG {mig[1]}"
    known = models_of(product, "gfd")
    if len(known) == 1:
        return known[0]
    counters["sanitised"] += 1
    return product


def _kube_capacity(value: Any, mhz_per_core: int, where: str) -> dict[str, int | None] | None:
    """`status.allocatable` (capacity less the kubelet's reservations, so nothing is reserved
    on top): cores at ``mhz_per_core`` MHz each, memory and ephemeral storage in MiB."""
    allocatable = _string_map(value, where)
    cpu, memory = quantity(allocatable.get("cpu")), quantity(allocatable.get("memory"))
    if cpu is None or memory is None:
        return None
    disk = quantity(allocatable.get("ephemeral-storage"))
    return {
        "cpu": int(cpu * mhz_per_core),
        "memory": int(memory / MIB),
        "disk": None if disk is None else int(disk / MIB),
        "cores": int(cpu),
    }


def _kube_group(
    vendor: str,
    kind: str,
    model: str,
    prefix: str,
    count: int,
    healthy: int,
    attributes: dict[str, str],
    node: str,
    notes: list[str],
) -> DeviceGroup:
    """`count` instances, the first `healthy` (the allocatable number) healthy.

    A device plugin withdraws unhealthy devices from `allocatable` but not from `capacity`,
    so the difference is the only health signal a Node object carries.
    """
    _check_instances(node, count)  # before one instance each is built
    healthy = max(0, min(healthy, count))
    if healthy < count:
        notes.append(
            f"node {node}: {count - healthy} of {count} {vendor}/{kind} not allocatable; marked unhealthy"
        )
    instances = [Instance(id=f"{prefix}{i}", healthy=i < healthy) for i in range(count)]
    return DeviceGroup(vendor=vendor, type=kind, model=model, instances=instances, attributes=attributes)


def _driver_version(labels: dict[str, str]) -> str | None:
    """The driver version GFD labels give: `.full`, else major.minor.revision (new or old names)."""
    full = labels.get("nvidia.com/cuda.driver-version.full")
    if full:
        return full
    for stem in ("nvidia.com/cuda.driver-version.", "nvidia.com/cuda.driver."):
        major, minor = labels.get(stem + "major"), labels.get(stem + "minor")
        revision = labels.get(stem + "revision") or labels.get(stem + "rev")
        if major and minor:
            return ".".join(part for part in (major, minor, revision) if part)
    return None


_QUANTITY = re.compile(r"^\d+$")
_INT64_DIGITS = 19
"""Kubernetes keeps quantities in 64 bits: a longer number is not one a cluster wrote."""


def _quantities(value: Any, where: str) -> dict[str, int]:
    """Integer resource quantities (`"8"`); cpu/memory and others with suffixes are ignored."""
    result: dict[str, int] = {}
    for key, raw in _string_map(value, where).items():
        if _QUANTITY.match(raw):
            if len(raw.lstrip("0")) > _INT64_DIGITS:
                raise InventoryError(f"{where}: `{key}` is out of range ({len(raw)} digits)")
            result[key] = int(raw)
    return result


# --- helpers ------------------------------------------------------------------------------------


def _checked(nodes: list[Node]) -> Inventory:
    """The nodes as an inventory, once their names are unique and no node has more device
    instances than :data:`~hclgpu.plan.model.MAX_DEVICE_INSTANCES`."""
    counts = Counter(node.name for node in nodes)  # linear: an inventory may list 10,000s of nodes
    duplicates = sorted(name for name, count in counts.items() if count > 1)
    if duplicates:
        raise InventoryError(f"duplicate node name(s): {', '.join(duplicates)}")
    for node in nodes:
        _check_instances(node.name, sum(len(group.instances) for group in node.devices))
        _check_numbers(node)
    return Inventory(version=1, nodes=nodes)


_HUGE_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")


def _check_numbers(node: Node) -> None:
    """Attributes and meta are compared as numbers where they look like one (`16130 MiB`,
    `${attr.cpu.numcores} > 8`): one Python cannot convert to an int is an error here,
    before the planner meets it."""
    values = [("attribute", node.attributes), ("meta", node.meta)]
    values += [(f"device {g.vendor}/{g.type}/{g.model} attribute", g.attributes) for g in node.devices]
    for kind, mapping in values:
        for key, value in mapping.items():
            if _HUGE_NUMBER.search(value):
                too_long = f"a number of more than {MAX_DIGITS} digits is out of range"
                raise InventoryError(f"node {node.name}: {kind} `{key}`: {too_long}")


def _check_instances(node: str, count: int) -> None:
    if count > MAX_DEVICE_INSTANCES:
        raise InventoryError(
            f"node {node}: {count} device instances; hclgpu models at most {MAX_DEVICE_INSTANCES} per node"
        )


def text_field(value: Any, where: str) -> str:
    """A JSON string field, "" when absent; anything else is an :class:`InventoryError`."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InventoryError(f"{where}: expected a string, got {type(value).__name__}")
    return value


def _string_map(value: Any, where: str) -> dict[str, str]:
    """A JSON object of scalars as strings (Nomad and Kubernetes both write string maps)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InventoryError(f"{where}: expected an object")
    result: dict[str, str] = {}
    for key, raw in value.items():
        if isinstance(raw, bool):
            result[str(key)] = "true" if raw else "false"
        elif isinstance(raw, str | int | float):
            result[str(key)] = str(raw)
        elif raw is not None:
            raise InventoryError(f"{where}: value of {key!r} is not a scalar")
    return result


def _object(value: Any) -> dict[str, Any]:
    """A JSON object, or {} for a missing or mistyped optional section (kubectl omits empty ones)."""
    return value if isinstance(value, dict) else {}


def _put(target: dict[str, str], key: str, value: Any) -> None:
    if isinstance(value, str) and value:
        target[key] = value
