"""HCL's newline rules, held to what Nomad's own parser said of each probe file.

tests/data/layout/NAME.oracle.txt is the recorded output of Nomad's parser for NAME.nomad.hcl
(see that folder's README): `accepted`, or its error, ``FILE:LINE,COLUMN-...: Summary; detail``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hclgpu.pipeline import check_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT

PROBES = sorted((ROOT / "tests" / "data" / "layout").glob("*.nomad.hcl"))
_NOMAD_ERROR = re.compile(r"[^:]+:(\d+),(\d+)-[^:]*: ([^;]+);")
WORDED_BY_THE_LEXER = {"two-arguments-comma", "two-arguments-space"}
"""Probes that hclgpu's lexer refuses before the layout is looked at, at the same place, in
its own words."""


def _name(probe: Path) -> str:
    return probe.name.removesuffix(".nomad.hcl")


@pytest.mark.parametrize("probe", PROBES, ids=_name)
def test_the_layout_is_judged_as_nomad_judges_it(probe: Path) -> None:
    said = probe.with_name(_name(probe) + ".oracle.txt").read_text(encoding="utf-8").strip()
    result = check_source(SourceFile(probe.name, probe.read_text(encoding="utf-8")))
    errors = [d for d in result.diagnostics if d.code == "HG001"]
    if said == "accepted":
        assert errors == [] and result.tree is not None
        return
    match = _NOMAD_ERROR.match(said)
    assert match is not None, said
    line, column, summary = int(match[1]), int(match[2]), match[3]
    assert errors, f"Nomad refuses it: {said}"
    # Nomad prints the first of its diagnostics, which is not always the first in the file
    at = [d for d in errors if d.span and _line_column(result.source, d.span.start) == (line, column)]
    assert at, [(result.source.position(d.span.start), d.message) for d in errors if d.span]
    if _name(probe) not in WORDED_BY_THE_LEXER:
        assert at[0].message == summary
        assert at[0].help is not None and at[0].help in said


def test_every_probe_has_what_nomad_said() -> None:
    assert len(PROBES) >= 15
    assert all(probe.with_name(_name(probe) + ".oracle.txt").is_file() for probe in PROBES)


def _line_column(source: SourceFile, offset: int) -> tuple[int, int]:
    where = source.position(offset)
    return where.line, where.column
