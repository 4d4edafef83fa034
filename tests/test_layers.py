"""A module imports only from its own layer or lower ones (see DESIGN.md)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "hclgpu"

LAYERS = {
    "hclgpu.source": 0, "hclgpu.assets": 0, "hclgpu.cli.clean_index": 0, "hclgpu.io": 0,
    "hclgpu.io.output": 0, "hclgpu.gc_pause": 0, "hclgpu.numbers": 0, "hclgpu.io.files": 0,
    "hclgpu.io.walk": 0,
    "hclgpu.diagnostics": 1, "hclgpu.io.inputs": 1, "hclgpu.codes": 1, "hclgpu.units": 1, "hclgpu.re2": 1,
    "hclgpu.syntax": 2, "hclgpu.io.documents": 2,
    "hclgpu.eval": 3, "hclgpu.ir": 3,
    "hclgpu.checks": 4, "hclgpu.plan": 4,
    "hclgpu.backends": 5, "hclgpu.importers": 5, "hclgpu.printer": 5,
    "hclgpu.report": 6,
    "hclgpu.pipeline": 7, "hclgpu.config": 7,
    "hclgpu.cli": 8, "hclgpu.lsp": 8, "hclgpu": 8, "hclgpu.__main__": 8,
}  # fmt: skip


def layer_of(module: str) -> int:
    parts = module.split(".")
    for size in range(len(parts), 0, -1):
        key = ".".join(parts[:size])
        if key in LAYERS:
            return LAYERS[key]
    raise AssertionError(f"{module} has no layer in tests/test_layers.py")


def module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hclgpu"):
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names if alias.name.startswith("hclgpu"))
    return found


def test_every_module_respects_the_layers() -> None:
    violations = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = module_name(path)
        own = layer_of(name)
        for imported in imported_modules(path):
            if imported == "hclgpu" and name.startswith("hclgpu.report"):
                continue  # the version string
            if layer_of(imported) > own:
                violations.append(f"{name} (L{own}) imports {imported} (L{layer_of(imported)})")
    assert violations == []
