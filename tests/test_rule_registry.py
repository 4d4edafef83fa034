"""One home per rule, and every check addressable by name (docs/ARCHITECTURE.md, "Adding a rule").

A code is a constant declared once, in the rule module that reports it (or in hclgpu.codes
for the stages that are not rules); the index lists it; each finding names the check that
found it, `ignore` takes that name and silences exactly those findings, and `explain` lists
every check of a code.
"""

from __future__ import annotations

import io
import json
import re
import tokenize
from importlib import import_module
from pathlib import Path

import pytest

from hclgpu.checks import RULE_MODULES, RULES, load_rules
from hclgpu.checks.registry import checks_of, every_code
from hclgpu.cli import main
from hclgpu.codes import CHECKS, CODES, Entry
from hclgpu.settings.selectors import can_hide
from tests.conftest import ROOT
from tests.server_cases.tasks import ENTERPRISE_ONLY
from tests.test_server_rules import CASES, _case_release

CASE_FILES = sorted((ROOT / "tests" / "cases").glob("HG*.hcl"))
NOT_RULES = ("hclgpu.codes.",)
"""The homes of codes that no rule reports: syntax, evaluation, suppression comments,
targets and team policies."""


def test_every_code_is_declared_once_in_its_home_and_the_index_lists_it() -> None:
    codes = every_code()
    assert sorted(codes) == sorted(CODES)
    for ident, code in codes.items():
        assert CODES[ident] == Entry(ident, code.name, code.severity, code.home, code.summary, code.fatal)
        assert getattr(import_module(code.home), ident) is code, "a code's constant is named by its id"
        assert all(part in code.doc for part in ("What:", "Why:", "Example:", "Fix:")), ident
        if not code.home.startswith(NOT_RULES):
            # a family's rule module, or the one of its modules the others import (the
            # checks of task blocks and gateways, which the task and Connect rules call)
            assert code.home.removeprefix("hclgpu.checks.") in RULE_MODULES, ident
            assert RULES[ident], f"{ident} has no rule"


def test_every_rule_reports_a_code_declared_in_the_rule_modules() -> None:
    load_rules()
    for ident, functions in RULES.items():
        assert not CODES[ident].home.startswith(NOT_RULES), ident
        assert functions


def test_codes_are_constants_not_strings() -> None:
    """A code is written as its constant (``HG272``), never as a string a typo would keep
    valid: only its declaration and the generated index spell it."""
    literal = re.compile(r"""^[rbuRBU]*(["'])HG\d{3}\1$""")
    found = []
    for path in sorted((ROOT / "hclgpu").rglob("*.py")):
        if path.name == "index.py" and path.parent.name == "codes":
            continue
        text = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.STRING and literal.match(token.string):
                line = token.line.strip()
                if not re.match(r"HG\d{3} = Code\(|\"HG\d{3}\",$", line):
                    found.append(f"{path.relative_to(ROOT)}:{token.start[0]}: {line}")
    assert found == []


def test_a_check_name_is_never_a_code_name_and_names_one_code() -> None:
    names = {entry.name for entry in CODES.values()}
    assert not set(CHECKS) & names
    assert all(code in CODES for code in CHECKS.values())


@pytest.mark.parametrize("ident", sorted(CODES))
def test_explain_lists_every_check_of_the_code(ident: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", ident]) == 0
    out = capsys.readouterr().out
    named = [check.id for check in checks_of(ident)]
    if not named:
        assert f"Check: `{CODES[ident].name}`, the only one" in out
        return
    listed = out.split("\nChecks (", 1)[1].splitlines()[1:]
    assert [line.split()[0] for line in listed] == named
    # every check a finding can name is among them
    assert {name for name, code in CHECKS.items() if code == ident} <= set(named)


def _check_json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    main(["check", "--no-cache", "-j", "1", "--format", "json", *args])
    return json.loads(capsys.readouterr().out)["diagnostics"]  # type: ignore[no-any-return]


def _written(folder: Path) -> list[str]:
    """Every server case's job that trips its check, one file each."""
    paths = []
    for ident, (bad, _) in sorted(CASES.items()):
        path = folder / f"{ident}.nomad.hcl"
        path.write_text(bad, encoding="utf-8")
        paths.append(str(path))
    return paths


def test_every_finding_names_a_check_of_its_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """On the case files, every server case and the corpus: a code with named checks names
    one of them, a code with one check names the code."""
    corpus = sorted(str(p) for p in (ROOT / "tests" / "data" / "conformance" / "nomad").rglob("*.nomad*"))
    found = _check_json(capsys, *map(str, CASE_FILES), *_written(tmp_path), *corpus)
    assert len(found) > 500
    named = set(CHECKS.values())
    for finding in found:
        check, code = finding["check"], finding["code"]
        assert isinstance(check, str) and isinstance(code, str)
        if code in named:
            assert CHECKS.get(check) == code, finding
        else:
            assert check == CODES[code].name, finding


@pytest.mark.parametrize("ident", sorted(CASES))
def test_ignore_silences_exactly_the_check_it_names(
    ident: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "job.nomad.hcl"
    path.write_text(CASES[ident][0], encoding="utf-8")
    release = ".".join(map(str, _case_release(ident)))
    edition = "--enterprise" if ident in ENTERPRISE_ONLY else "--no-enterprise"
    cluster = ("--nomad-version", release, edition, "--no-memory-oversubscription")
    every = _check_json(capsys, *cluster, str(path))
    assert any(f["check"] == ident for f in every)
    if not can_hide(CHECKS[ident]):  # a syntax or evaluation error is always reported
        with pytest.raises(SystemExit) as refused:
            main(["check", *cluster, "--ignore", ident, str(path)])
        assert refused.value.code == 2
        return
    rest = _check_json(capsys, *cluster, "--ignore", ident, str(path))
    assert rest == [f for f in every if f["check"] != ident]


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.stem)
def test_ignore_silences_exactly_the_checks_of_a_case_file(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A code with one check is ignored by the code's name, the check it names."""
    every = _check_json(capsys, str(path))
    for check in sorted({str(f["check"]) for f in every if can_hide(str(f["code"]))}):
        assert _check_json(capsys, "--ignore", check, str(path)) == [f for f in every if f["check"] != check]


def test_a_nomad_check_is_reported_one_way() -> None:
    """`ctx.report(..., check=X.id)` names one of hclgpu's own checks; one of Nomad's (a
    Condition) goes through `reject`, which words it from the condition and leaves it out for
    the releases and clusters without it."""
    import ast

    from hclgpu.checks.server import Check

    load_rules()
    found = []
    for name in RULE_MODULES:
        module = import_module(f"hclgpu.checks.{name}")
        tree = ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and ast.unparse(call.func) == "ctx.report"):
                continue
            for keyword in call.keywords:
                if keyword.arg == "check":
                    named = ast.unparse(keyword.value).removesuffix(".id")
                    if not isinstance(getattr(module, named, None), Check):
                        found.append(f"{name}:{call.lineno}: check={ast.unparse(keyword.value)}")
    assert found == []
