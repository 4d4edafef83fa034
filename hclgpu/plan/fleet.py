"""The device groups of an inventory, summarised for `check` (the profile's `nodes`).

`check` needs only, per device group, the most healthy instances one node offers: Nomad
gives a device request all its instances from one group of one node (scheduler/device.go
`createOffer`, lines 121-138 at v1.10.0: a group with fewer assignable instances than the
request's count is skipped), so a count above that is never placed on this fleet.

That summary is a few lines for any fleet, while reading the inventory (YAML or JSON,
validated into pydantic models) costs a cold `check` more than the job file does. So it is
kept, per inventory file, in ``$XDG_CACHE_HOME/hclgpu/fleet/`` (``~/.cache`` without it),
keyed by the file's size, modification and change times, inode and device and by the
modules that read and summarise it (as installed: an upgrade replaces them), and read back
with one small read while the file is unchanged. A file modified within the last two
seconds is not recorded (another write in the same tick would look unchanged), and a
summary that cannot be read or written is only recomputed. Like the parser's tables, it is
not a check result: ``--no-cache`` does not discard it.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hclgpu.plan.model import Inventory

__all__ = ["FleetGroup", "fleet_groups", "largest_group", "load_fleet"]

FleetGroup = tuple[str, str, str, int, str]
"""(vendor, type, model, most healthy instances of that group on one node, that node)."""


def fleet_groups(inventory: Inventory) -> tuple[FleetGroup, ...]:
    """Each distinct device group of the inventory with its largest healthy count on one node
    (the first node that has it, in inventory order), sorted by name."""
    most: dict[tuple[str, str, str], tuple[int, str]] = {}
    for node in inventory.nodes:
        for group in node.devices:
            healthy = sum(1 for instance in group.instances if instance.healthy)
            key = (group.vendor, group.type, group.model)
            if key not in most or healthy > most[key][0]:
                most[key] = (healthy, node.name)
    return tuple((*key, count, node) for key, (count, node) in sorted(most.items()))


@lru_cache(maxsize=1024)
def device_id(name: str) -> tuple[str, str, str]:
    """`RequestedDevice.ID()`: `strings.SplitN(name, "/", 3)` read as type, vendor/type or
    vendor/type/model."""
    parts = name.split("/", 2)
    if len(parts) == 1:
        return "", parts[0], ""
    if len(parts) == 2:
        return parts[0], parts[1], ""
    return parts[0], parts[1], parts[2]


def largest_group(name: str, fleet: tuple[FleetGroup, ...]) -> FleetGroup | None:
    """The group with the most healthy instances on one node among those a request named
    ``name`` matches (`DeviceIdTuple.Matches`: each part the name gives equals the group's)."""
    vendor, kind, model = device_id(name)
    matching = [
        group
        for group in fleet
        if (not vendor or vendor == group[0])
        and (not kind or kind == group[1])
        and (not model or model == group[2])
    ]
    return max(matching, key=lambda group: group[3], default=None)


def load_fleet(nodes: tuple[str, int, int]) -> tuple[FleetGroup, ...]:
    """The fleet of the profile's inventory file ``(path, mtime, size)``; ValueError saying
    why it cannot be read. Cached by the file's modification time and size: an editor asks on
    every keystroke, and a changed file is read again."""
    path, mtime, size = nodes
    if mtime < 0:
        raise ValueError(f"{path}: cannot read it")
    return _load(path, mtime, size)


@lru_cache(maxsize=8)
def _load(path: str, _mtime: int, _size: int) -> tuple[FleetGroup, ...]:
    stat = os.stat(path)
    signature = [stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size, stat.st_ino, stat.st_dev, *_readers()]
    entry = _summary_path(path)
    recorded = _recorded(entry, signature)
    if recorded is not None:
        groups, error = recorded
        if error:
            raise ValueError(error)
        return groups
    from hclgpu.plan.inventory import InventoryError, load_inventory

    try:
        inventory, _ = load_inventory(Path(path))  # the devices do not depend on the CPU's price
    except InventoryError as error:
        _record(entry, signature, (), str(error))
        raise ValueError(str(error)) from None
    groups = fleet_groups(inventory)
    _record(entry, signature, groups, "")
    return groups


def _summary_path(path: str) -> str:
    import hashlib

    from hclgpu.io.records import cache_dir

    name = hashlib.sha256(os.path.abspath(path).encode()).hexdigest()[:32]
    return os.path.join(cache_dir(), "fleet", f"{name}.json")


def _readers() -> list[int]:
    """The modification times of the modules that read an inventory and summarise it."""
    here = os.path.dirname(os.path.abspath(__file__))
    return [
        os.stat(os.path.join(here, name)).st_mtime_ns for name in ("fleet.py", "inventory.py", "model.py")
    ]


def _recorded(entry: str, signature: list[int]) -> tuple[tuple[FleetGroup, ...], str] | None:
    """The summary (or the error) recorded for the file as it is now, else None."""
    try:
        with open(entry, encoding="utf-8") as handle:
            data = json.load(handle)
        if data["signature"] != signature:
            return None
        groups = tuple((str(v), str(t), str(m), int(n), str(node)) for v, t, m, n, node in data["groups"])
        return groups, str(data["error"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _record(entry: str, signature: list[int], groups: tuple[FleetGroup, ...], error: str) -> None:
    """Write the summary atomically; a file modified just now, or a cache that cannot be
    written, is left unrecorded (it only costs speed)."""
    import time

    from hclgpu.cli.clean_index import RACY_NS
    from hclgpu.io.files import remove_quietly

    if time.time_ns() - signature[0] < RACY_NS:
        return
    temporary = f"{entry}.{os.getpid()}.tmp"
    try:
        data = {"signature": signature, "groups": groups, "error": error}
        os.makedirs(os.path.dirname(entry), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as handle:
            json.dump(data, handle)
        os.replace(temporary, entry)
    except OSError:
        pass
    finally:
        remove_quietly(temporary)
