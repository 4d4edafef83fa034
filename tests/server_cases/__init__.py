"""Cases for Nomad's server checks, one module per block family beyond those in
tests/test_server_rules.py: each module has ``CASES`` (condition id -> a job that trips only
that check, and its valid twin) and ``ALSO`` (the checks the same wrong value trips too)."""

from __future__ import annotations

from tests.server_cases import connect, constraints, groups, hooks, jobs, networks, services, tasks

MODULES = (connect, constraints, groups, hooks, jobs, networks, services, tasks)


def _merge(tables: list[dict[str, object]]) -> dict[str, object]:
    merged: dict[str, object] = {}
    for table in tables:
        twice = set(merged) & set(table)
        if twice:
            raise ValueError(f"cases given twice: {sorted(twice)}")
        merged.update(table)
    return merged


EXTRA_CASES: dict[str, tuple[str, str]] = _merge([m.CASES for m in MODULES])  # type: ignore[assignment]
EXTRA_ALSO: dict[str, set[str]] = _merge([m.ALSO for m in MODULES])  # type: ignore[assignment]
