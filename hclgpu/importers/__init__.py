"""Importers: other job formats turned into HCL job files (``hclgpu import``).

They sit beside the back ends (layer 5): they read the IR models and write HCL text,
the inverse of the decoder, so a job kept as API JSON can move back to a job file.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hclgpu.importers.common import Imported, ImportOptions

Importer = Callable[[str, "ImportOptions | None"], "Imported"]

IMPORTERS = {
    "nomad-json": ("hclgpu.importers.nomad_json", "import_nomad_json"),
    "kubernetes": ("hclgpu.importers.kubernetes", "import_kubernetes"),
    "compose": ("hclgpu.importers.compose", "import_compose"),
}
"""Each format's importer, ``(module, function)``: a function from the input text and the
options to an :class:`~hclgpu.importers.common.Imported`, imported only when that format is
asked for."""


def importer_for(name: str) -> Importer:
    module, function = IMPORTERS[name]
    found: Importer = getattr(import_module(module), function)
    return found
