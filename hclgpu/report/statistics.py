"""``check --statistics``: how many findings each code and check has, most first.

A code that bundles several of Nomad's checks (HG264: five different server warnings) is
counted per check, so a team sees which one it should look at, or ignore by name.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from hclgpu.diagnostics import Diagnostic


def counts(diagnostics: Sequence[Diagnostic]) -> list[tuple[int, str, str, str]]:
    """(count, code, check, severity), most first, then by code and check."""
    counted = Counter((d.code, d.check_name, str(d.severity)) for d in diagnostics)
    return sorted(((n, *key) for key, n in counted.items()), key=lambda row: (-row[0], row[1], row[2]))


def render_statistics(diagnostics: Sequence[Diagnostic], format: str) -> str:
    rows = counts(diagnostics)
    if format == "json":
        data = [{"code": c, "check": k, "severity": s, "count": n} for n, c, k, s in rows]
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if not rows:
        return "No findings.\n"
    width = len(str(rows[0][0]))
    lines = [f"{str(n).rjust(width)}  {c}  {s.ljust(7)}  {k}" for n, c, k, s in rows]
    total = sum(n for n, *_ in rows)
    lines.append(f"{total} finding{'s' if total != 1 else ''} in all.")
    return "\n".join(lines) + "\n"
