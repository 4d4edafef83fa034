"""This machine's GPUs as Nomad's NVIDIA device plugin would fingerprint them (`hclgpu fingerprint`).

We read `nvidia-smi` output rather than NVML so that the command works from a saved file on
a laptop without a GPU or a driver. The result is a one-node :class:`Inventory` whose device
groups use the plugin's names and units:

=================  ====  ==================================================================
attribute          unit  source
=================  ====  ==================================================================
memory             MiB   `memory.total` / `fb_memory_usage/total`
bar1               MiB   XML only: `bar1_memory_usage/total` (`--query-gpu` has no field)
power              W     `power.limit` / `*power_readings/(current_)power_limit` (rounded)
cores_clock        MHz   `clocks.max.sm` / `max_clocks/sm_clock`
memory_clock       MHz   `clocks.max.mem` / `max_clocks/mem_clock`
pci_bandwidth      MB/s  from the maximum PCIe generation and width, see :func:`pci_bandwidth`
driver_version     —     `driver_version`
display_state      —     `display_mode` ("Enabled"/"Disabled")
persistence_mode   —     `persistence_mode` ("Enabled"/"Disabled")
=================  ====  ==================================================================

Values nvidia-smi reports as `[N/A]` or `[Not Supported]` are left out, as the plugin
leaves out attributes NVML does not support. Like the plugin, GPUs are grouped by model
(vendor `nvidia`, type `gpu`, model = NVML product name) and the group takes the
attributes of its first GPU.

Two deliberate differences from the current plugin (nomad-device-nvidia, `nvml/driver_linux.go`):
it samples the *current* power draw and graphics clock, which change from second to second;
we use the power-management limit and the maximum SM clock, which are what Nomad 0.9's
plugin reported (the seed article's V100: `power 300 W`, `cores_clock 1530 MHz`) and are
what a constraint like `${device.attr.power} >= 250 W` means.
"""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from hclgpu.plan.model import DeviceGroup, Instance, Inventory, Node

__all__ = [
    "QUERY_FIELDS",
    "fingerprint_csv",
    "fingerprint_xml",
    "nvidia_smi_command",
    "pci_bandwidth",
    "run_nvidia_smi",
]

QUERY_FIELDS: tuple[str, ...] = (
    "uuid",
    "name",
    "memory.total",
    "power.limit",
    "clocks.max.sm",
    "clocks.max.mem",
    "pci.bus_id",
    "driver_version",
    "display_mode",
    "persistence_mode",
    "pcie.link.gen.max",
    "pcie.link.width.max",
)
"""The `nvidia-smi --query-gpu` fields :func:`fingerprint_csv` reads, in this order.

The full command is :func:`nvidia_smi_command`::

    nvidia-smi --query-gpu=uuid,name,memory.total,power.limit,clocks.max.sm,clocks.max.mem,\\
pci.bus_id,driver_version,display_mode,persistence_mode,pcie.link.gen.max,pcie.link.width.max \\
        --format=csv,noheader,nounits
"""

_MISSING = {
    "",
    "[n/a]",
    "n/a",
    "[not supported]",
    "not supported",
    "[unknown error]",
    "[insufficient permissions]",
}

# MB/s per lane, as nomad-device-nvidia's nvml/driver_linux.go computes pci_bandwidth;
# generations 1 and 2 (and unknown ones) give 0 there, and so here.
_LANE_MB_PER_S = {3: 1 << 10, 4: 2 << 10, 5: 3 << 10, 6: 4 << 10}


def nvidia_smi_command() -> list[str]:
    """The argv :func:`run_nvidia_smi` runs (also shown to users who want to save the output)."""
    return ["nvidia-smi", f"--query-gpu={','.join(QUERY_FIELDS)}", "--format=csv,noheader,nounits"]


def pci_bandwidth(generation: int | None, width: int | None) -> int | None:
    """PCIe bandwidth in MB/s the way the NVIDIA Nomad plugin computes it: width × per-lane rate.

    The plugin uses 1024 MB/s per lane for Gen3, 2048 for Gen4, 3072 for Gen5 and 4096 for
    Gen6, and 0 for anything else. (Nomad 0.9's plugin used 985 MB/s per Gen3 lane, hence
    the seed article's `15760 MB/s` for a Gen3 x16 V100; the current plugin gives 16384.)
    None when either input is unknown, so the attribute is left out instead of invented.
    """
    if generation is None or width is None:
        return None
    return width * _LANE_MB_PER_S.get(generation, 0)


def run_nvidia_smi(timeout: float = 30.0) -> str:
    """Run :func:`nvidia_smi_command` and return its CSV; ValueError/OSError with a clear message."""
    executable = shutil.which("nvidia-smi")
    if executable is None:
        raise OSError(
            "nvidia-smi not found on PATH: install the NVIDIA driver, or run "
            f"`{' '.join(nvidia_smi_command())}` on a GPU node and pass the saved file with --from"
        )
    command = [executable, *nvidia_smi_command()[1:]]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise OSError(f"nvidia-smi did not answer within {timeout:g} s") from None
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise OSError(f"nvidia-smi failed (exit {done.returncode}): {detail[0] if detail else 'no output'}")
    return done.stdout


def fingerprint_csv(text: str, node_name: str) -> Inventory:
    """A one-node inventory from `nvidia-smi --query-gpu=<QUERY_FIELDS> --format=csv,noheader,nounits`.

    A header line (from `--format=csv` without `noheader`) is skipped; unit suffixes such
    as `MiB` (without `nounits`) are tolerated. Raises ValueError naming the bad line.
    """
    gpus: list[dict[str, str]] = []
    for number, row in enumerate(_csv_rows(text), start=1):
        if not row or all(not cell.strip() for cell in row):
            continue
        if row[0].strip().lower() == "uuid":
            continue  # header
        if len(row) != len(QUERY_FIELDS):
            raise ValueError(
                f"nvidia-smi CSV line {number}: {len(row)} fields, expected {len(QUERY_FIELDS)} "
                f"({','.join(QUERY_FIELDS)})"
            )
        gpus.append({field: cell.strip() for field, cell in zip(QUERY_FIELDS, row, strict=True)})
    if not gpus:
        raise ValueError("nvidia-smi CSV has no GPU lines")
    devices: list[_Gpu] = []
    for gpu in gpus:
        where = f"nvidia-smi CSV, GPU {gpu['uuid'] or gpu['pci.bus_id']}"
        devices.append(
            _Gpu(
                uuid=gpu["uuid"],
                name=gpu["name"],
                memory=_number(gpu["memory.total"], where),
                bar1=None,
                power=_number(gpu["power.limit"], where),
                cores_clock=_number(gpu["clocks.max.sm"], where),
                memory_clock=_number(gpu["clocks.max.mem"], where),
                pci_bandwidth=pci_bandwidth(
                    _number(gpu["pcie.link.gen.max"], where), _number(gpu["pcie.link.width.max"], where)
                ),
                driver_version=_present(gpu["driver_version"]),
                display_state=_present(gpu["display_mode"]),
                persistence_mode=_present(gpu["persistence_mode"]),
            )
        )
    return _inventory(devices, node_name)


def _csv_rows(text: str) -> Iterator[list[str]]:
    """The CSV's rows; the csv module's own errors (a field over its 128 KiB limit, a NUL)
    become a ValueError naming the line, as every other problem with the file is."""
    reader = csv.reader(io.StringIO(text), skipinitialspace=True)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise ValueError(f"nvidia-smi CSV line {reader.line_num}: {error}") from None
        yield row


def fingerprint_xml(text: str, node_name: str) -> Inventory:
    """A one-node inventory from `nvidia-smi -q -x` (which, unlike the CSV, includes BAR1 size).

    Reads both the pre-535 (`power_readings/power_limit`) and newer
    (`gpu_power_readings/current_power_limit`) layouts. Raises ValueError on malformed XML.
    """
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise ValueError(f"nvidia-smi XML is not well-formed: {error}") from None
    if root.tag != "nvidia_smi_log":
        raise ValueError(
            f"not `nvidia-smi -q -x` output: root element <{root.tag}>, expected <nvidia_smi_log>"
        )
    driver = _present(root.findtext("driver_version", ""))
    devices: list[_Gpu] = []
    for gpu in root.findall("gpu"):
        uuid = (gpu.findtext("uuid") or "").strip()
        where = f"nvidia-smi XML, GPU {uuid or gpu.get('id', '?')}"
        if not uuid:
            raise ValueError(f"{where}: no <uuid>")
        power = None
        for path in (
            "gpu_power_readings/current_power_limit",
            "gpu_power_readings/power_limit",
            "power_readings/current_power_limit",
            "power_readings/power_limit",
            "power_readings/enforced_power_limit",
        ):
            power = _number(gpu.findtext(path, ""), where)
            if power is not None:
                break
        devices.append(
            _Gpu(
                uuid=uuid,
                name=(gpu.findtext("product_name") or "").strip(),
                memory=_number(gpu.findtext("fb_memory_usage/total", ""), where),
                bar1=_number(gpu.findtext("bar1_memory_usage/total", ""), where),
                power=power,
                cores_clock=_number(gpu.findtext("max_clocks/sm_clock", ""), where),
                memory_clock=_number(gpu.findtext("max_clocks/mem_clock", ""), where),
                pci_bandwidth=pci_bandwidth(
                    _number(gpu.findtext("pci/pci_gpu_link_info/pcie_gen/max_link_gen", ""), where),
                    _number(gpu.findtext("pci/pci_gpu_link_info/link_widths/max_link_width", ""), where),
                ),
                driver_version=driver,
                display_state=_present(gpu.findtext("display_mode", "")),
                persistence_mode=_present(gpu.findtext("persistence_mode", "")),
            )
        )
    if not devices:
        raise ValueError("nvidia-smi XML lists no <gpu>")
    return _inventory(devices, node_name)


class _Gpu:
    """One GPU's fingerprint, whichever nvidia-smi format it came from."""

    def __init__(
        self,
        *,
        uuid: str,
        name: str,
        memory: int | None,
        bar1: int | None,
        power: int | None,
        cores_clock: int | None,
        memory_clock: int | None,
        pci_bandwidth: int | None,
        driver_version: str | None,
        display_state: str | None,
        persistence_mode: str | None,
    ) -> None:
        self.uuid = uuid
        self.name = name
        self.attributes: dict[str, str] = {}
        for key, value, unit in (
            ("memory", memory, "MiB"),
            ("bar1", bar1, "MiB"),
            ("power", power, "W"),
            ("cores_clock", cores_clock, "MHz"),
            ("memory_clock", memory_clock, "MHz"),
            ("pci_bandwidth", pci_bandwidth, "MB/s"),
        ):
            if value is not None:
                self.attributes[key] = f"{value} {unit}"
        for key, text in (
            ("driver_version", driver_version),
            ("display_state", display_state),
            ("persistence_mode", persistence_mode),
        ):
            if text is not None:
                self.attributes[key] = text


def _inventory(gpus: list[_Gpu], node_name: str) -> Inventory:
    """Group GPUs by model in first-seen order; a group carries its first GPU's attributes (as Nomad)."""
    groups: dict[str, DeviceGroup] = {}
    for gpu in gpus:
        model = gpu.name or "N/A"  # the plugin's name for an unknown model
        group = groups.get(model)
        if group is None:
            group = groups[model] = DeviceGroup(
                vendor="nvidia", type="gpu", model=model, attributes=dict(gpu.attributes)
            )
        group.instances.append(Instance(id=gpu.uuid, healthy=True))
    node = Node.model_validate(
        {"name": node_name, "attributes": {"unique.hostname": node_name}, "devices": list(groups.values())}
    )
    return Inventory(version=1, nodes=[node])


def _present(text: str) -> str | None:
    value = text.strip()
    return None if value.lower() in _MISSING else value


def _number(text: str, where: str) -> int | None:
    """`15360`, `15360 MiB`, `70.00 W`, `16x` → an int (rounded); None for `[N/A]` and the like."""
    value = _present(text)
    if value is None:
        return None
    head = value.split()[0].rstrip("x")
    try:
        return round(float(head))
    except (ValueError, OverflowError):
        raise ValueError(f"{where}: {value!r} is not a number") from None
