"""One Kubernetes object of the input, and which of its fields the import has used.

Every read goes through :meth:`Manifest.take`, which marks the path as used; once the job is
built, :meth:`Manifest.leftovers` lists every field nobody read, so each one is reported
(HG301) rather than dropped silently. Findings point into the input with a JSON pointer
and the index of the YAML document that holds the object.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from hclgpu.codes.targets import HG301, HG302
from hclgpu.importers.common import pointer
from hclgpu.importers.hcl_writer import Dropped

Path = tuple[str | int, ...]


@dataclass(slots=True)
class Findings:
    """What the import leaves out (HG301) or bends (HG302), in the order found."""

    items: list[Dropped] = field(default_factory=list)
    _seen: set[tuple[str, str, str, int]] = field(default_factory=set)

    def left_out(self, where: Manifest, path: Path, message: str) -> None:
        self._add(Dropped(where.pointer(path), message, HG301, where.document))

    def approximated(self, where: Manifest, path: Path, message: str) -> None:
        self._add(Dropped(where.pointer(path), message, HG302, where.document))

    def _add(self, item: Dropped) -> None:
        """Once: an object several pods refer to (a shared ResourceClaim) is read for each."""
        key = (item.pointer, item.message, item.code, item.document)
        if key not in self._seen:
            self._seen.add(key)
            self.items.append(item)


@dataclass(slots=True)
class Manifest:
    """A Kubernetes object: its data, where it is in the input, and the paths read from it."""

    data: dict[str, Any]
    document: int
    base: Path = ()
    """The object's own pointer inside its document (``/items/3`` in a List)."""
    used: set[Path] = field(default_factory=set)

    @property
    def kind(self) -> str:
        return str(self.data.get("kind") or "")

    @property
    def name(self) -> str:
        metadata = self.data.get("metadata")
        return str(metadata.get("name") or "") if isinstance(metadata, dict) else ""

    def pointer(self, path: Path) -> str:
        return pointer(*self.base, *path)

    def peek(self, *path: str | int) -> Any:
        """The value at ``path`` (None when absent or of the wrong shape), not marked used."""
        value: Any = self.data
        for part in path:
            if isinstance(part, int) and isinstance(value, list) and 0 <= part < len(value):
                value = value[part]
            elif isinstance(part, str) and isinstance(value, dict):
                value = value.get(part)
            else:
                return None
        return value

    def take(self, *path: str | int) -> Any:
        """The value at ``path``, marked used (with everything below it)."""
        self.used.add(path)
        return self.peek(*path)

    def mapping(self, *path: str | int) -> dict[str, Any]:
        """The mapping at ``path``, marked used only as a container (its keys are not)."""
        value = self.peek(*path)
        self.used.add((*path, "\0"))
        return value if isinstance(value, dict) else {}

    def items(self, *path: str | int) -> list[Any]:
        """The list at ``path`` (empty when absent), marked used only as a container."""
        value = self.peek(*path)
        self.used.add((*path, "\0"))
        return value if isinstance(value, list) else []

    def leftovers(self) -> Iterator[Path]:
        """The highest paths that hold a value and were never read, nor anything below them."""
        yield from _unused(self.data, (), self.used, _prefixes(self.used))


def _prefixes(used: set[Path]) -> set[Path]:
    out: set[Path] = set()
    for path in used:
        for end in range(len(path)):
            out.add(path[:end])
    return out


def _unused(value: Any, path: Path, used: set[Path], inside: set[Path]) -> Iterator[Path]:
    if path in used or value in (None, {}, [], ""):
        return
    if path not in inside:
        yield path
        return
    children = (
        value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    )
    for key, child in children:
        yield from _unused(child, (*path, key), used, inside)


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` when it is a mapping, else an empty one: a field of the wrong shape reads as absent
    (and, being unread, is reported)."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
