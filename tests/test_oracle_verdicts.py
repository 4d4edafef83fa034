"""What Nomad's own parser and validator said of every job file of the suite, held on any
machine without them.

tests/data/oracle/<group>.json keeps, for each file of the conformance fixtures, the wild
corpus, the samples, the case files, the probes and the server-check cases, what
`make oracle ORACLE_ARGS=--record` recorded from Nomad's programs (tests/differential): the
parse error and its places, the validation errors and warnings in Nomad's words, and a
digest of the API JSON. Each file must give the same decision, the same JSON and the same
words (tests/differential/compare.py says how they are compared); a difference Nomad's
source shows to be a server rule the offline validator skips, or one of hclgpu's limits,
is excused by the same list `make oracle` uses, and no other.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.differential.compare import differences, excuse, run_ours
from tests.differential.oracle import NomadVerdict
from tests.differential.run import RECORDS, Corpus, corpus, text_digest

GROUPS = sorted(path.stem for path in RECORDS.glob("*.json"))
RERECORD = "make oracle ORACLE_ARGS=--record"


def _recorded(group: str) -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads((RECORDS / f"{group}.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Corpus]:
    """Every corpus file by (group, name), the server-check cases written out once."""
    return {(entry.group, entry.name): entry for entry in corpus(tmp_path_factory.mktemp("oracle"))}


def test_every_group_is_recorded() -> None:
    assert GROUPS == ["cases", "conformance", "probes", "samples", "server_cases", "wild"]


def test_every_file_of_the_suite_has_a_recorded_verdict(files: dict[tuple[str, str], Corpus]) -> None:
    recorded = {(group, name) for group in GROUPS for name in _recorded(group)}
    assert sorted(set(files) - recorded) == [], RERECORD
    assert sorted(recorded - set(files)) == []


@pytest.mark.parametrize("group", GROUPS)
def test_hclgpu_says_what_nomad_said(group: str, files: dict[tuple[str, str], Corpus]) -> None:
    found: list[str] = []
    for name, record in _recorded(group).items():
        entry = files[(group, name)]
        if record["text"] != text_digest(entry.path):
            found.append(f"{group}/{name}: changed since Nomad's verdict was recorded ({RERECORD})")
            continue
        assert tuple(record.get("args", ())) == entry.args  # type: ignore[arg-type]
        ours = run_ours(entry.path, entry.args)
        text = entry.path.read_bytes().decode("utf-8", "replace")
        found += [
            f"{group}/{name}: {line}"
            for line in differences(NomadVerdict.from_record(record), ours)
            if not excuse(line, text, ours)
        ]
    assert found == []


def test_the_records_say_what_they_should() -> None:
    """Spot checks of the records themselves, written from the programs' own output."""
    wild = _recorded("wild")
    quirk = wild["ai4os__ai4-papi__etc__modules__job.nomad"]
    assert quirk["errors"] == ['Operator "=" requires an RTarget']
    assert 'group "usergroup" defines services' in " ".join(quirk["warnings"])  # type: ignore[arg-type]
    templated = wild["ai4os__ai4-papi__etc__modules__nomad.hcl"]
    assert templated["places"][0] == [153, 14]  # type: ignore[index]
    assert "Invalid character" in str(templated["parse_error"])
    accepted = _recorded("samples")["tensorrt.nomad.hcl"]
    assert set(accepted) == {"text", "api"} or set(accepted) == {"text", "api", "warnings"}


def test_a_changed_record_would_fail(files: dict[tuple[str, str], Corpus], tmp_path: Path) -> None:
    """The comparison is not vacuous: a verdict with another message, or another JSON,
    is a difference."""
    entry = files[("wild", "ai4os__ai4-papi__etc__modules__job.nomad")]
    record = dict(_recorded("wild")[entry.name])
    ours = run_ours(entry.path, entry.args)
    assert differences(NomadVerdict.from_record(record), ours) == []
    record["errors"] = ['Operator "=" needs an RTarget']
    assert differences(NomadVerdict.from_record(record), ours) != []
    sample = files[("samples", "tensorrt.nomad.hcl")]
    changed = dict(_recorded("samples")["tensorrt.nomad.hcl"], api="0" * 64)
    assert differences(NomadVerdict.from_record(changed), run_ours(sample.path)) != []
