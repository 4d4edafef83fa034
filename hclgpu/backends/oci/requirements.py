"""Nomad constraints on ``${device.attr.driver_version}`` as NVIDIA requirement terms.

The NVIDIA hook passes every ``NVIDIA_REQUIRE_*`` variable to ``nvidia-container-cli
--require``, which refuses to start the container on a host that does not satisfy it.
Its language (libnvidia-container ``dsl.c``): terms ``driver<op><version>`` with ``op`` in
``= != < <= > >=`` and a version of digits and dots; inside one value a **comma means
AND** and a **space means OR**; separate ``NVIDIA_REQUIRE_*`` variables are ANDed.
NVIDIA's own ``NVIDIA_REQUIRE_CUDA="cuda>=11.0 driver>=450"`` is therefore an OR.

Nomad ANDs a device's constraints, and a ``version`` constraint ANDs its comma-separated
parts (hashicorp/go-version), so every term here is joined with commas into one value.
``~> X.Y`` (pessimistic) expands to ``>=X.Y,<X+1``; ``~> X.Y.Z`` to ``>=X.Y.Z,<X.Y+1``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DRIVER_VERSION = "${device.attr.driver_version}"

_ALIASES = {"==": "=", "is": "=", "not": "!="}
_ORDER = ("<", "<=", ">", ">=")
_VERSION = re.compile(r"\d+(\.\d+)*")
_TERM = re.compile(r"(>=|<=|!=|~>|==|=|>|<)?\s*v?(\d+(?:\.\d+)*)")


@dataclass(frozen=True, slots=True)
class Requirement:
    """The terms one constraint becomes (ANDed), and whether Nomad would compare differently."""

    terms: tuple[str, ...]
    lexical: bool = False
    """Nomad compares ``<``/``>``... on a string attribute as strings; the hook, as versions."""


def driver_requirement(operand: str, value: str) -> Requirement | str:
    """The requirement for ``driver_version <operand> value``, or why there is none."""
    op = _ALIASES.get(operand, operand)
    if op in ("version", "semver"):
        terms: list[str] = []
        for part in value.split(","):
            expanded = _version_term(part.strip())
            if isinstance(expanded, str):
                return expanded
            terms.extend(expanded)
        return Requirement(tuple(terms)) if terms else f'"{value}" is an empty version constraint'
    if op in ("=", "!=", *_ORDER):
        text = value.strip().removeprefix("v")
        if not _VERSION.fullmatch(text):
            return f'"{value}" is not a version of digits and dots, which is all the hook compares'
        return Requirement((f"driver{op}{text}",), lexical=op in _ORDER)
    return f"the operator `{operand}` has no NVIDIA requirement equivalent (= != < <= > >= version semver)"


def _version_term(part: str) -> list[str] | str:
    match = _TERM.fullmatch(part)
    if match is None:
        return f'"{part}" is not a version constraint of digits and dots (pre-releases are not compared)'
    op, version = match[1] or "=", match[2]
    if op == "==":
        op = "="
    if op != "~>":
        return [f"driver{op}{version}"]
    segments = [int(s) for s in version.split(".")]
    if len(segments) < 2:
        return f'"{part}": `~>` needs at least two version segments'
    upper = [*segments[:-2], segments[-2] + 1]
    return [f"driver>={version}", "driver<" + ".".join(map(str, upper))]
