"""The files packaged with hclgpu: the HCL grammar and the built-in templates.

An installed wheel carries them inside the package (``hclgpu/_grammar``,
``hclgpu/_templates``); a source checkout keeps them at the top level. Both layouts
are supported so that tests run against the checkout and users against the wheel.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _first_existing(*candidates: Path) -> Path:
    for candidate in candidates:
        if candidate.exists():
            return candidate
    return candidates[-1]


def grammar_dir() -> Path:
    return _first_existing(_PACKAGE / "_grammar", _PACKAGE.parent / "grammar")


def templates_dir() -> Path:
    return _first_existing(_PACKAGE / "_templates", _PACKAGE.parent / "templates")


def grammar_path() -> Path:
    return grammar_dir() / "hcl.lark"
