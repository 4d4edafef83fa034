"""Where the compose importer keeps what it could not carry over, each at its place in the input.

Every finding is located by a JSON pointer into the compose document (``/services/web/build``),
which the CLI turns into a line and column. HG301: left out; HG302: carried approximately.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hclgpu.codes.targets import HG301, HG302
from hclgpu.importers.common import ImportOptions, pointer
from hclgpu.importers.hcl_writer import Dropped

Path = tuple[str | int, ...]
"""The reference tokens of a JSON pointer, e.g. ``("services", "web", "ports", 0)``."""


@dataclass(slots=True)
class Findings:
    """The findings of one import, in the order they were made, and the options it runs
    with (every reader that reports also converts, so both travel together)."""

    options: ImportOptions = field(default_factory=ImportOptions)
    items: list[Dropped] = field(default_factory=list)

    def left_out(self, path: Path, message: str) -> None:
        """HG301: the value at ``path`` is not in the job file."""
        self.items.append(Dropped(pointer(*path), message, code=HG301))

    def approximated(self, path: Path, message: str) -> None:
        """HG302: the value at ``path`` is in the job file, but means something slightly different."""
        self.items.append(Dropped(pointer(*path), message, code=HG302))
