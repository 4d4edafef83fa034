"""docs/validation.md is the registry of Nomad's server checks (hclgpu.checks.server), row for row.

Each row: the Nomad function, when it fails, Nomad's message, the hclgpu code, the file:line
of the check in hashicorp/nomad and the releases that have it. Rewrite the table after a
change to the registry with ``.venv/bin/python -m tests.test_validation_doc``.
"""

from __future__ import annotations

import re
import sys

from hclgpu.checks import load_rules
from hclgpu.checks.server import CONDITIONS, NOMAD_COMMIT, Condition
from hclgpu.codes import CODES, Severity
from tests.conftest import ROOT

DOC = ROOT / "docs" / "validation.md"
START, END = "<!-- table: start -->", "<!-- table: end -->"
ADMISSION_START, ADMISSION_END = "<!-- admission: start -->", "<!-- admission: end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _row(condition: Condition) -> str:
    cells = (
        f"`{condition.nomad}`",
        condition.condition,
        f"`{condition.message}`",
        condition.code + (f" (`{condition.fact} = false`)" if condition.fact else "")
        if condition.code
        else f"— ({condition.needs})",
        f"`{condition.id}`",
        condition.location,
        condition.releases,
    )
    return "| " + " | ".join(_cell(cell) for cell in cells) + " |"


def table() -> str:
    load_rules()
    head = "| Nomad function | fails when | Nomad's message | code | condition | source | releases |"
    rule = "|---|---|---|---|---|---|---|"
    rows = sorted(CONDITIONS.values(), key=lambda c: (c.code or "", c.source, c.id))
    return "\n".join([head, rule, *(_row(c) for c in rows)])


def admission_table() -> str:
    """The server's admission changes (hclgpu.ir.admission), in the order it makes them."""
    from hclgpu.ir.admission import MUTATIONS

    head = "| change | Nomad mutator | what it does | source |"
    rows = [f"| `{m.id}` | `{m.hook}` | {_cell(m.what)} | {m.source} |" for m in MUTATIONS]
    return "\n".join([head, "|---|---|---|---|", *rows])


def _documented(start: str = START, end: str = END) -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split(start, 1)[1].split(end, 1)[0].strip()


def test_the_doc_table_is_the_registry_row_for_row() -> None:
    assert _documented().splitlines() == table().splitlines()


def test_the_doc_lists_every_admission_change() -> None:
    assert _documented(ADMISSION_START, ADMISSION_END).splitlines() == admission_table().splitlines()


def test_the_doc_names_the_commit_every_line_is_read_at() -> None:
    assert NOMAD_COMMIT in DOC.read_text(encoding="utf-8")


def test_every_condition_reports_a_registered_error_code() -> None:
    """An error, or HG264 for what the server accepts with a warning; none for a check
    of the cluster's configuration, which hclgpu cannot make offline."""
    load_rules()
    for condition in CONDITIONS.values():
        if condition.needs:
            assert condition.code is None, condition.id
        else:
            assert condition.code is not None and condition.code in CODES, condition.id
            # HG264: the server's warnings; HG258, the older rule that reports its `cron` one
            wanted = Severity.WARNING if condition.code in ("HG264", "HG258") else Severity.ERROR
            assert CODES[condition.code].severity is wanted, condition.id
        path, _, line = condition.source.rpartition(":")
        assert path.startswith("nomad/") and line.isdigit(), condition.source
        assert not condition.tag or re.fullmatch(r"v\d+\.\d+\.\d+", condition.tag), condition.tag


def test_every_new_server_code_has_its_conditions() -> None:
    """HG205, HG264, HG268-HG289 and HG292-HG294 exist for the server's checks: none may be
    left without a row."""
    load_rules()
    documented = {condition.code for condition in CONDITIONS.values()}
    server = {
        code
        for code in CODES
        if code in ("HG205", "HG264") or "HG268" <= code <= "HG289" or "HG292" <= code <= "HG294"
    }
    assert server <= documented


def _rewrite(text: str, start: str, end: str, body: str) -> str:
    before, rest = text.split(start, 1)
    return f"{before}{start}\n{body}\n{end}{rest.split(end, 1)[1]}"


if __name__ == "__main__":  # rewrite the tables in docs/validation.md
    text = _rewrite(DOC.read_text(encoding="utf-8"), START, END, table())
    DOC.write_text(_rewrite(text, ADMISSION_START, ADMISSION_END, admission_table()), encoding="utf-8")
    sys.stdout.write(f"{DOC}: {len(CONDITIONS)} conditions\n")
