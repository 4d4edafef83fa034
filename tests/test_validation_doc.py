"""docs/validation.md is the registry of Nomad's server checks (hclgpu.checks.server), row for row.

Each row: the Nomad function, when it fails, Nomad's message, the hclgpu code, the file:line
of the check in hashicorp/nomad and the releases that have it. Rewrite the table after a
change to the registry with ``.venv/bin/python -m tests.test_validation_doc``.
"""

from __future__ import annotations

import sys

from hclgpu.checks import load_rules
from hclgpu.checks.server import CONDITIONS, NOMAD_COMMIT, Condition
from hclgpu.codes import CODES, Severity
from tests.conftest import ROOT

DOC = ROOT / "docs" / "validation.md"
START, END = "<!-- table: start -->", "<!-- table: end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _row(condition: Condition) -> str:
    cells = (
        f"`{condition.nomad}`",
        condition.condition,
        f"`{condition.message}`",
        condition.code,
        f"`{condition.id}`",
        f"{condition.source}",
        condition.releases,
    )
    return "| " + " | ".join(_cell(cell) for cell in cells) + " |"


def table() -> str:
    load_rules()
    head = "| Nomad function | fails when | Nomad's message | code | condition | source | releases |"
    rule = "|---|---|---|---|---|---|---|"
    rows = sorted(CONDITIONS.values(), key=lambda c: (c.code, c.source, c.id))
    return "\n".join([head, rule, *(_row(c) for c in rows)])


def _documented() -> str:
    text = DOC.read_text(encoding="utf-8")
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def test_the_doc_table_is_the_registry_row_for_row() -> None:
    assert _documented().splitlines() == table().splitlines()


def test_the_doc_names_the_commit_every_line_is_read_at() -> None:
    assert NOMAD_COMMIT in DOC.read_text(encoding="utf-8")


def test_every_condition_reports_a_registered_error_code() -> None:
    load_rules()
    for condition in CONDITIONS.values():
        assert condition.code in CODES, condition.id
        assert CODES[condition.code].severity is Severity.ERROR, condition.id
        path, _, line = condition.source.rpartition(":")
        assert path.startswith("nomad/") and line.isdigit(), condition.source


def test_every_new_server_code_has_its_conditions() -> None:
    """HG205 and HG268-HG289 exist for the server's checks: none may be left without a row."""
    load_rules()
    documented = {condition.code for condition in CONDITIONS.values()}
    server = {code for code in CODES if code == "HG205" or "HG268" <= code <= "HG289"}
    assert server <= documented


if __name__ == "__main__":  # rewrite the table in docs/validation.md
    text = DOC.read_text(encoding="utf-8")
    before, rest = text.split(START, 1)
    after = rest.split(END, 1)[1]
    DOC.write_text(f"{before}{START}\n{table()}\n{END}{after}", encoding="utf-8")
    sys.stdout.write(f"{DOC}: {len(CONDITIONS)} conditions\n")
