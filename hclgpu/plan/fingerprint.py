"""This machine's GPUs as Nomad's NVIDIA device plugin fingerprints them (`hclgpu fingerprint`).

We read `nvidia-smi` output rather than NVML so that the command works from a saved file on
a laptop without a GPU or a driver. The live mode runs `nvidia-smi -q -x`, the only output
with every attribute (BAR1 has no `--query-gpu` field). Semantics follow
hashicorp/nomad-device-nvidia at commit 05e83c36891df39abe3dd989669403dbe974f701
(`nvml/driver_linux.go` `DeviceInfoByUUID`, `fingerprint.go`, `nvml/client.go`):

================  ====  =====================================================  ======================
attribute         unit  nvidia-smi source (XML / CSV)                          plugin
================  ====  =====================================================  ======================
memory            MiB   `fb_memory_usage/total` / `memory.total`               driver_linux.go:146-147
bar1              MiB   `bar1_memory_usage/total` / (none)                     driver_linux.go:173-183
power             W     `*power_readings/(average_)power_draw` / `power.draw`  driver_linux.go:163-171
                        (truncated; 0 when not supported)                       SAMPLED
cores_clock       MHz   `clocks/graphics_clock` / `clocks.gr`                  driver_linux.go:223-227
                                                                                SAMPLED
memory_clock      MHz   `clocks/mem_clock` / `clocks.mem`                      driver_linux.go:229-239
                                                                                SAMPLED
pci_bandwidth     MB/s  max PCIe generation x max width, see pci_bandwidth     driver_linux.go:190-219
driver_version    —     `driver_version` (every group)                         fingerprint.go:74-78
display_state     —     `display_mode`, else `display_attached`: "1"/"0"       driver_linux.go:241-261
persistence_mode  —     `persistence_mode`: "1"/"0"                            driver_linux.go:246-262
================  ====  =====================================================  ======================

The plugin reads the current power draw (`DeviceGetPowerUsage`) and the current graphics and
memory clocks (`DeviceGetClockInfo`), not the limit or the maximum (its `nvml/client.go:90-94`
comment still says `PowerManagementLimit`/`MaxClockInfo`; the code does not), so those three
attributes are :data:`SAMPLED`: they change between fingerprints. The two states are NVML
`EnableState` values formatted with `%v` (driver_linux.go:261-262); go-nvml's EnableState is
a bare int32 with no String method (NVIDIA/go-nvml `pkg/nvml/const.go:1499-1504`), so Nomad
shows `"1"` and `"0"`, not `Enabled`. Driver 580's nvidia-smi prints "Requested functionality
has been deprecated" for Display Mode; NVML's display mode is then its `display_attached`.

Values nvidia-smi reports as `[N/A]` or `[Not Supported]` are left out, as the plugin leaves
out attributes NVML does not support (except power, which it reports as 0 W, and
pci_bandwidth, which it always reports). GPUs are grouped by model (fingerprint.go:80-92;
"N/A" for an unknown name, device.go:34), instances sorted by UUID (client.go:141-143) and the
group takes the attributes of its first instance (fingerprint.go:170). CUDA's version is not
an attribute: the plugin sets none.

MIG (plugin 1.1.0 and later): a GPU in MIG mode is not a device; each of its MIG instances is
(client.go:118-121 skips the parent, driver_linux.go:85-100 lists the instances). An instance
is named `<parent> MIG <profile>` by NVML, its `memory` is its own (driver_linux.go:141-147,
read before the handle is swapped) and every other attribute is its parent's
(driver_linux.go:149-160 swaps the handle to the parent first). `nvidia-smi -q -x` gives an
instance's memory under `<mig_device>` but, on most drivers, neither its UUID nor its
profile: those come from `nvidia-smi -L` (:func:`parse_mig_listing`), matched by the parent's
UUID and the instance's index.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from hclgpu.plan.model import DeviceGroup, Instance, Inventory, Node

__all__ = [
    "QUERY_FIELDS",
    "SAMPLED",
    "fingerprint_csv",
    "fingerprint_xml",
    "has_mig_instances",
    "nvidia_smi_command",
    "nvidia_smi_list_command",
    "nvidia_smi_xml_command",
    "parse_mig_listing",
    "pci_bandwidth",
    "run_nvidia_smi",
]

QUERY_FIELDS: tuple[str, ...] = (
    "uuid",
    "name",
    "memory.total",
    "power.draw",
    "clocks.gr",
    "clocks.mem",
    "pci.bus_id",
    "driver_version",
    "display_mode",
    "persistence_mode",
    "pcie.link.gen.max",
    "pcie.link.width.max",
)
"""The `nvidia-smi --query-gpu` fields :func:`fingerprint_csv` reads, in this order.

The full command is :func:`nvidia_smi_command`::

    nvidia-smi --query-gpu=uuid,name,memory.total,power.draw,clocks.gr,clocks.mem,\\
pci.bus_id,driver_version,display_mode,persistence_mode,pcie.link.gen.max,pcie.link.width.max \\
        --format=csv,noheader,nounits
"""

SAMPLED: tuple[str, ...] = ("power", "cores_clock", "memory_clock")
"""Attributes the plugin samples at each fingerprint (current draw and clocks): they change
from second to second, so a constraint on them matches what the GPU did at that moment."""

_MISSING = {
    "",
    "[n/a]",
    "n/a",
    "[not supported]",
    "not supported",
    "[unknown error]",
    "[insufficient permissions]",
}

# MB/s per lane, as nomad-device-nvidia's nvml/driver_linux.go:209-219 computes pci_bandwidth;
# generations 1 and 2 (and unknown ones) give 0 there, and so here.
_LANE_MB_PER_S = {3: 1 << 10, 4: 2 << 10, 5: 3 << 10, 6: 4 << 10}

# NVML EnableState printed with %v (driver_linux.go:261-262): 1 enabled, 0 disabled.
_STATE = {"enabled": "1", "disabled": "0", "yes": "1", "no": "0"}


def nvidia_smi_command() -> list[str]:
    """The CSV argv (shown to users who want to save a file for `--from`)."""
    return ["nvidia-smi", f"--query-gpu={','.join(QUERY_FIELDS)}", "--format=csv,noheader,nounits"]


def nvidia_smi_xml_command() -> list[str]:
    """The argv the live mode runs: `-q -x` has BAR1 and Display Attached, the CSV has not."""
    return ["nvidia-smi", "-q", "-x"]


def nvidia_smi_list_command() -> list[str]:
    """The argv that names MIG instances: `-L` lists each one's profile and UUID."""
    return ["nvidia-smi", "-L"]


def pci_bandwidth(generation: int | None, width: int | None) -> int:
    """PCIe bandwidth in MB/s the way the NVIDIA Nomad plugin computes it: width × per-lane rate.

    The plugin uses 1024 MB/s per lane for Gen3, 2048 for Gen4, 3072 for Gen5 and 4096 for
    Gen6, and 0 for anything else (driver_linux.go:209-219). An unsupported width or
    generation is 0 there (driver_linux.go:190-206) and the attribute is always reported
    (driver_linux.go:257, fingerprint.go:224-229), so unknown inputs give 0, not None.
    """
    if generation is None or width is None:
        return 0
    return width * _LANE_MB_PER_S.get(generation, 0)


def run_nvidia_smi(timeout: float = 30.0, command: list[str] | None = None) -> str:
    """Run `command` (default :func:`nvidia_smi_xml_command`) and return its output;
    OSError with a clear message when nvidia-smi is missing, slow or fails."""
    argv = command or nvidia_smi_xml_command()
    executable = shutil.which("nvidia-smi")
    if executable is None:
        raise OSError(
            "nvidia-smi not found on PATH: install the NVIDIA driver, or run "
            f"`{' '.join(argv)}` on a GPU node and pass the saved file with --from"
        )
    try:
        done = subprocess.run(
            [executable, *argv[1:]], capture_output=True, text=True, timeout=timeout, check=False
        )
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
    return _inventory([_csv_gpu(gpu) for gpu in gpus], node_name)


def _csv_gpu(gpu: dict[str, str]) -> _Gpu:
    """One CSV row as the plugin would report that GPU (the CSV has no BAR1 field)."""
    where = f"nvidia-smi CSV, GPU {gpu['uuid'] or gpu['pci.bus_id']}"
    return _Gpu(
        uuid=gpu["uuid"],
        name=gpu["name"],
        memory=_number(gpu["memory.total"], where),
        bar1=None,
        power=_watts(gpu["power.draw"], where),
        cores_clock=_number(gpu["clocks.gr"], where),
        memory_clock=_number(gpu["clocks.mem"], where),
        pci_bandwidth=pci_bandwidth(
            _number(gpu["pcie.link.gen.max"], where), _number(gpu["pcie.link.width.max"], where)
        ),
        driver_version=_present(gpu["driver_version"]),
        display_state=_state(gpu["display_mode"]),
        persistence_mode=_state(gpu["persistence_mode"]),
    )


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


# Where `nvidia-smi -q -x` keeps the draw DeviceGetPowerUsage returns (driver_linux.go:163):
# `power_draw` before driver 535 and on pre-Ampere GPUs, `average_power_draw` after (NVML
# averages over 1 s on Ampere and newer, which is what nvidia-smi's average shows).
_POWER_DRAW_PATHS = (
    "gpu_power_readings/power_draw",
    "gpu_power_readings/average_power_draw",
    "power_readings/power_draw",
    "power_readings/average_power_draw",
)


def fingerprint_xml(text: str, node_name: str, listing: str | None = None) -> Inventory:
    """A one-node inventory from `nvidia-smi -q -x`, the live mode's source.

    Reads both the pre-535 (`power_readings`) and newer (`gpu_power_readings`) layouts.
    ``listing`` is `nvidia-smi -L` output, which names the MIG instances of GPUs in MIG mode
    (their profiles are in no XML field): needed when the XML lists MIG instances. Raises
    ValueError on malformed XML and on MIG instances that nothing names.
    """
    root = _xml_root(text)
    driver = _present(root.findtext("driver_version", ""))
    names = parse_mig_listing(listing) if listing is not None else {}
    elements = root.findall("gpu")
    if not elements:
        raise ValueError("nvidia-smi XML lists no <gpu>")
    devices: list[_Gpu] = []
    for element in elements:
        gpu = _xml_gpu(element, driver)
        if _in_mig_mode(element):
            devices.extend(_mig_instances(element, gpu, names, listing is not None))
        else:
            devices.append(gpu)
    return _inventory(devices, node_name)


def has_mig_instances(text: str) -> bool:
    """Whether `nvidia-smi -q -x` output lists MIG instances (then `-L` must name them)."""
    root = _xml_root(text)
    return any(_in_mig_mode(gpu) and gpu.findall("mig_devices/mig_device") for gpu in root.findall("gpu"))


def _xml_root(text: str) -> ET.Element:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise ValueError(f"nvidia-smi XML is not well-formed: {error}") from None
    if root.tag != "nvidia_smi_log":
        raise ValueError(
            f"not `nvidia-smi -q -x` output: root element <{root.tag}>, expected <nvidia_smi_log>"
        )
    return root


# `nvidia-smi -L`: "GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-…)", then one line per MIG
# instance, "  MIG 1g.5gb     Device  0: (UUID: MIG-…)" (R470 and later; R450 wrote
# "MIG-GPU-<parent>/<gi>/<ci>" as the UUID, which NVML also accepts).
_LISTED_GPU = re.compile(r"^GPU \d+: .* \(UUID: (?P<uuid>[^)\s]+)\)\s*$")
_LISTED_MIG = re.compile(
    r"^\s+MIG (?P<profile>\S+)\s+Device\s+(?P<index>\d+): \(UUID: (?P<uuid>[^)\s]+)\)\s*$"
)


def parse_mig_listing(text: str) -> dict[tuple[str, int], tuple[str, str]]:
    """`nvidia-smi -L` as ``(parent UUID, MIG device index) → (profile, MIG UUID)``.

    Raises ValueError for a MIG line before any GPU line; other lines are ignored.
    """
    names: dict[tuple[str, int], tuple[str, str]] = {}
    parent: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if gpu := _LISTED_GPU.match(line):
            parent = gpu["uuid"]
        elif mig := _LISTED_MIG.match(line):
            if parent is None:
                raise ValueError(f"nvidia-smi -L line {number}: a MIG device before any GPU")
            names[(parent, int(mig["index"]))] = (mig["profile"], mig["uuid"])
    return names


def _in_mig_mode(gpu: ET.Element) -> bool:
    return (gpu.findtext("mig_mode/current_mig") or "").strip().lower() == "enabled"


def _xml_gpu(gpu: ET.Element, driver: str | None) -> _Gpu:
    """One `<gpu>` element as the plugin would report that GPU."""
    uuid = (gpu.findtext("uuid") or "").strip()
    where = f"nvidia-smi XML, GPU {uuid or gpu.get('id', '?')}"
    if not uuid:
        raise ValueError(f"{where}: no <uuid>")
    draw = next((v for v in (gpu.findtext(p, "") for p in _POWER_DRAW_PATHS) if _present(v)), "")
    display = _state(gpu.findtext("display_mode", "")) or _state(gpu.findtext("display_attached", ""))
    return _Gpu(
        uuid=uuid,
        name=(gpu.findtext("product_name") or "").strip(),
        memory=_number(gpu.findtext("fb_memory_usage/total", ""), where),
        bar1=_number(gpu.findtext("bar1_memory_usage/total", ""), where),
        power=_watts(draw, where),
        cores_clock=_number(gpu.findtext("clocks/graphics_clock", ""), where),
        memory_clock=_number(gpu.findtext("clocks/mem_clock", ""), where),
        pci_bandwidth=pci_bandwidth(
            _number(gpu.findtext("pci/pci_gpu_link_info/pcie_gen/max_link_gen", ""), where),
            _number(gpu.findtext("pci/pci_gpu_link_info/link_widths/max_link_width", ""), where),
        ),
        driver_version=driver,
        display_state=display,
        persistence_mode=_state(gpu.findtext("persistence_mode", "")),
    )


def _mig_instances(
    element: ET.Element, parent: _Gpu, names: dict[tuple[str, int], tuple[str, str]], listed: bool
) -> list[_Gpu]:
    """A MIG-mode GPU's instances as the plugin reports them: the instance's name, UUID and
    memory, the parent's other attributes; the parent itself is not a device."""
    instances = []
    for mig in element.findall("mig_devices/mig_device"):
        index = _number(mig.findtext("index", ""), f"nvidia-smi XML, GPU {parent.uuid} MIG device")
        where = f"nvidia-smi XML, GPU {parent.uuid} MIG device {index}"
        listed_name = names.get((parent.uuid, index)) if index is not None else None
        if listed_name is None:
            hint = "its line is missing from the `nvidia-smi -L` output" if listed else (
                "run `nvidia-smi -L` on that node too and pass its output with --mig-list"
            )  # fmt: skip
            raise ValueError(f"{where}: the XML names neither its profile nor its UUID; {hint}")
        profile, uuid = listed_name
        own_uuid = _present(mig.findtext("uuid", "") or "")
        memory = _number(mig.findtext("fb_memory_usage/total", ""), where)
        instance = parent.mig_instance(own_uuid or uuid, profile, memory)
        instances.append(instance)
    return instances


class _Gpu:
    """One GPU's fingerprint, whichever nvidia-smi format it came from."""

    def __init__(
        self,
        *,
        uuid: str,
        name: str,
        memory: int | None,
        bar1: int | None,
        power: int,
        cores_clock: int | None,
        memory_clock: int | None,
        pci_bandwidth: int,
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

    def mig_instance(self, uuid: str, profile: str, memory: int | None) -> _Gpu:
        """One of this GPU's MIG instances: its own UUID, name and memory, the rest this GPU's."""
        instance = _Gpu.__new__(_Gpu)
        instance.uuid = uuid
        instance.name = f"{self.name} MIG {profile}"
        instance.attributes = dict(self.attributes)
        if memory is None:
            instance.attributes.pop("memory", None)
        else:
            instance.attributes["memory"] = f"{memory} MiB"
        return instance


def _inventory(gpus: list[_Gpu], node_name: str) -> Inventory:
    """Group GPUs by model, groups in first-seen order; instances sorted by UUID and the
    group carrying its first instance's attributes, as client.go:141-143 and
    fingerprint.go:150-170 do (the plugin's group order is a Go map's, i.e. none)."""
    by_model: dict[str, list[_Gpu]] = {}
    for gpu in gpus:
        by_model.setdefault(gpu.name or "N/A", []).append(gpu)  # device.go:34, fingerprint.go:83-89
    groups = []
    for model, members in by_model.items():
        members = sorted(members, key=lambda gpu: gpu.uuid)
        instances = [Instance(id=gpu.uuid, healthy=True) for gpu in members]
        groups.append(
            DeviceGroup(
                vendor="nvidia",
                type="gpu",
                model=model,
                instances=instances,
                attributes=dict(members[0].attributes),
            )
        )
    node = Node.model_validate(
        {"name": node_name, "attributes": {"unique.hostname": node_name}, "devices": groups}
    )
    return Inventory(version=1, nodes=[node])


def _present(text: str) -> str | None:
    value = text.strip()
    return None if value.lower() in _MISSING else value


def _state(text: str) -> str | None:
    """nvidia-smi's Enabled/Disabled (Yes/No) as the plugin's `%v` of NVML's EnableState;
    None for anything else (driver 580's "Requested functionality has been deprecated")."""
    return _STATE.get(text.strip().strip("[]").lower())


def _watts(text: str, where: str) -> int:
    """Power draw in whole watts, truncated as `uint(mW) / 1000` is (driver_linux.go:171);
    0 when not supported, as driver_linux.go:165-166 reports it."""
    value = _present(text)
    if value is None:
        return 0
    try:
        return int(float(value.split()[0]))
    except (ValueError, OverflowError):
        raise ValueError(f"{where}: {value!r} is not a number") from None


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
