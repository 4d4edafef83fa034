"""Constraint shortcuts written as attributes, decided as Nomad's validator decides them.

tests/data/shortcuts/NAME.oracle.json is what Nomad's offline validator said of
NAME.nomad.hcl (see that folder's README). A shortcut attribute is dropped by Nomad's parser,
which leaves an `=` comparison with no value: refused at registration, so an error here too
(HG224), with HG226 saying why the value is missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hclgpu
from tests.conftest import ROOT

PROBES = sorted((ROOT / "tests" / "data" / "shortcuts").glob("*.nomad.hcl"))


def _name(probe: Path) -> str:
    return probe.name.removesuffix(".nomad.hcl")


@pytest.mark.parametrize("probe", PROBES, ids=_name)
def test_the_job_is_refused_exactly_where_nomad_refuses_it(probe: Path) -> None:
    said = json.loads(probe.with_name(_name(probe) + ".oracle.json").read_text(encoding="utf-8"))
    refused = bool(said.get("ParseError") or said.get("ValidationErrors"))
    result = hclgpu.loads(probe.read_text(encoding="utf-8"), str(probe))
    errors = [d.code for d in result.diagnostics if d.severity == "error"]
    assert bool(errors) == refused, (errors, said)
    if refused:
        assert 'Operator "=" requires an RTarget' in said["ValidationErrors"][0]
        assert errors == ["HG224"]
        assert "HG226" in [d.code for d in result.diagnostics]


def test_every_shortcut_is_probed_with_and_without_a_value() -> None:
    names = {_name(probe) for probe in PROBES}
    for shortcut in ("set_contains_any", "set_contains_all", "is_set", "is_not_set"):
        assert {shortcut, f"{shortcut}-with-value"} <= names
