"""hclgpu: a compiler and validator for Nomad job files that request accelerators."""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from hclgpu.pipeline import Result


def loads(text: str, path: str = "<string>") -> Result:
    """Check HCL text; returns a Result with the syntax tree and the diagnostics."""
    from hclgpu.pipeline import loads as _loads

    return _loads(text, path)


def load(path: str) -> Result:
    """Check a job file read from ``path`` (UTF-8)."""
    from pathlib import Path

    return loads(Path(path).read_text(encoding="utf-8"), path)


__all__ = ["__version__", "load", "loads"]
