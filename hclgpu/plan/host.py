"""The node's CPU, memory and disk as Nomad's client fingerprints them (`hclgpu fingerprint`).

Without these a fingerprinted node has no capacity, and `hclgpu plan` cannot refuse a job
that asks for more CPU or memory than the machine has. The rules follow hashicorp/nomad at
commit aa026cc99cfb74a77e519a1c1f0c78ba1b452705:

- CPU (`client/fingerprint/cpu.go`, `client/lib/numalib`): one entry per online logical CPU
  (`detect_linux.go:123-142`); a core's speed is its base frequency, else its maximum
  (`topology.go:124-132`), read from sysfs as `detect_linux.go:172-191` does; the node's
  compute is their sum (`topology.go:218-231`, `cpu.go:160-170`). When sysfs gives no speed
  the topology is "broken" and Nomad falls back to the logical CPU count x the `cpu MHz` of
  the first CPU in /proc/cpuinfo (`detect_linux.go:276-306`, `detect_generic.go:32-46`).
  Nomad's dmidecode guess (`detect_smbios.go`) needs root and is not reproduced.
- Memory (`client/fingerprint/memory.go:30-57`): MemTotal in bytes, and MB = bytes / 2^20.
- Disk (`client/fingerprint/storage.go:29-62`, `storage_unix.go:19-60`): the size (not the
  free space) of the volume holding the alloc dir, in bytes and bytes / 2^20; the current
  directory when no alloc dir is given, as Nomad does when `AllocDir` is unset.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Host", "from_capture", "live", "node_fields"]

_MIB = 1 << 20
_SYS_CPU = "/sys/devices/system/cpu"


@dataclass(frozen=True)
class Host:
    """What Nomad's cpu, memory and storage fingerprinters read from one machine."""

    core_mhz: tuple[int, ...]
    """Each logical CPU's speed in MHz, as numalib counts it (base, else max, else cpuinfo)."""
    model: str
    memory_bytes: int
    disk_bytes: int | None


def node_fields(host: Host) -> tuple[dict[str, int], dict[str, str]]:
    """The node's `resources` and the `${attr.*}` values Nomad's client sets from `host`.

    Attribute names as in cpu.go:98-170 (`cpu.modelname`, `cpu.frequency` (the last core's
    speed, topology.go:300-311), `cpu.numcores`, `cpu.reservablecores`, `cpu.totalcompute`),
    memory.go:47 and storage.go:52.
    """
    total = sum(host.core_mhz)
    cores = len(host.core_mhz)
    resources = {"cpu": total, "memory": host.memory_bytes // _MIB, "cores": cores}
    attributes = {
        "cpu.numcores": str(cores),
        "cpu.reservablecores": str(cores),
        "cpu.totalcompute": str(total),
        "memory.totalbytes": str(host.memory_bytes),
    }
    if host.core_mhz and host.core_mhz[-1] > 0:
        attributes["cpu.frequency"] = str(host.core_mhz[-1])
    if host.model:
        attributes["cpu.modelname"] = host.model
    if host.disk_bytes is not None:
        resources["disk"] = host.disk_bytes // _MIB
        attributes["unique.storage.bytestotal"] = str(host.disk_bytes)
    return resources, attributes


def live(alloc_dir: str | None = None) -> Host:
    """This machine's facts (Linux: /proc and /sys); OSError where they cannot be read."""
    cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    meminfo = Path("/proc/meminfo").read_text(encoding="utf-8", errors="replace")
    fallback = _cpuinfo_value(cpuinfo, "cpu MHz")
    speeds = tuple(_sysfs_mhz(core) for core in _online_cpus())
    if not speeds or not all(speeds):
        count = len(speeds) or os.cpu_count() or 0
        speeds = tuple(int(float(fallback or 0)) for _ in range(count))
    stat = os.statvfs(alloc_dir or os.getcwd())
    return Host(
        core_mhz=speeds,
        model=_cpuinfo_value(cpuinfo, "model name") or "",
        memory_bytes=_meminfo_total(meminfo),
        disk_bytes=stat.f_blocks * stat.f_frsize,
    )


def from_capture(text: str) -> Host:
    """Facts from a saved host capture: sections headed `== lscpu`, `== cpuinfo ...`,
    `== cpufreq max` (kHz), `== meminfo` and `== df /` (`df -k`), as in the reference
    captures; ValueError when CPU count or memory is missing."""
    sections = _sections(text)
    lscpu, cpuinfo = sections.get("lscpu", ""), sections.get("cpuinfo", "")
    count = _cpuinfo_value(lscpu, "CPU(s)") or _cpuinfo_value(cpuinfo, "siblings")
    if not count or not count.isdigit():
        raise ValueError("host capture: no CPU count (`CPU(s):` in lscpu)")
    max_khz = sections.get("cpufreq", "").strip()
    mhz = int(max_khz) // 1000 if max_khz.isdigit() else int(float(_cpuinfo_value(cpuinfo, "cpu MHz") or 0))
    return Host(
        core_mhz=(mhz,) * int(count),
        model=_cpuinfo_value(cpuinfo, "model name") or "",
        memory_bytes=_meminfo_total(sections.get("meminfo", "")),
        disk_bytes=_df_total(sections.get("df", "")),
    )


def _sections(text: str) -> dict[str, str]:
    """`== name rest` headers → {name: body}; the first word names the section."""
    sections: dict[str, list[str]] = {}
    current: list[str] = []
    for line in text.splitlines():
        if line.startswith("== "):
            current = sections.setdefault((line[3:].split() or [""])[0], [])
        else:
            current.append(line)
    return {name: "\n".join(lines) for name, lines in sections.items()}


def _cpuinfo_value(text: str, key: str) -> str | None:
    """The first `key : value` (cpuinfo) or `key: value` (lscpu) line's value."""
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep and name.strip() == key:
            return value.strip()
    return None


def _meminfo_total(text: str) -> int:
    """MemTotal in bytes (gopsutil's `VirtualMemory().Total`, which memory.go reads)."""
    value = _cpuinfo_value(text, "MemTotal")
    if not value or not value.split()[0].isdigit():
        raise ValueError("no MemTotal in meminfo")
    return int(value.split()[0]) * 1024


def _df_total(text: str) -> int | None:
    """`df -k`'s size column in bytes, as storage_unix.go:46-57 reads it; None if absent."""
    lines = [line for line in text.splitlines() if line.strip()]
    fields = lines[1].split() if len(lines) > 1 else []
    return int(fields[1]) * 1024 if len(fields) > 1 and fields[1].isdigit() else None


def _online_cpus() -> list[int]:
    """The CPU IDs in /sys/devices/system/cpu/online (`0-15,32-47`); empty when unreadable."""
    try:
        text = Path(_SYS_CPU, "online").read_text(encoding="ascii").strip()
    except OSError:
        return []
    ids: list[int] = []
    for part in filter(None, text.split(",")):
        low, _, high = part.partition("-")
        ids.extend(range(int(low), int(high or low) + 1))
    return ids


def _sysfs_mhz(core: int) -> int:
    """One core's base speed, else its maximum, in MHz (detect_linux.go:172-191); 0: unknown."""
    cpufreq = Path(_SYS_CPU, f"cpu{core}", "cpufreq")
    if _read_text(cpufreq / "scaling_driver") == "acpi-cpufreq":
        base = _read_int(Path(_SYS_CPU, f"cpu{core}", "acpi_cppc", "nominal_freq")) or 0  # MHz
    else:
        base = (_read_int(cpufreq / "base_frequency") or 0) // 1000  # kHz
    return base or (_read_int(cpufreq / "cpuinfo_max_freq") or 0) // 1000


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""


def _read_int(path: Path) -> int | None:
    text = _read_text(path)
    return int(text) if text.isdigit() else None
