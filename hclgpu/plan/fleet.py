"""The device groups of an inventory, summarised for `check` (the profile's `nodes`).

`check` needs only, per device group, the most healthy instances one node offers: Nomad
gives a device request all its instances from one group of one node (scheduler/device.go
`createOffer`, lines 121-138 at v1.10.0: a group with fewer assignable instances than the
request's count is skipped), so a count above that is never placed on this fleet.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from hclgpu.plan.inventory import InventoryError, load_inventory
from hclgpu.plan.model import Inventory
from hclgpu.plan.offers import device_id

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
    try:
        inventory, _ = load_inventory(Path(path))  # the devices do not depend on the CPU's price
    except InventoryError as error:
        raise ValueError(str(error)) from None
    return fleet_groups(inventory)
