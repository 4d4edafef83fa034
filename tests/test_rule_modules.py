"""The rule modules are found, all of them, or the run fails: none is left out in silence."""

from __future__ import annotations

import re

import pytest

import hclgpu.checks as checks
from tests.conftest import ROOT

CHECKS = ROOT / "hclgpu" / "checks"


def _declaring_modules() -> set[str]:
    """The modules of hclgpu/checks that register a rule or declare a server check (not
    server.py, which defines what a check is)."""
    found = set()
    for path in CHECKS.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.stem != "server" and re.search(r"^@rule\(|\bCondition\(", text, re.MULTILINE):
            found.add(path.stem)
    return found


def test_every_module_that_declares_rules_is_loaded() -> None:
    assert _declaring_modules() - set(checks.RULE_MODULES) == set()
    assert set(checks.RULE_MODULES) - _declaring_modules() == set()


def test_a_misspelt_rule_module_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checks, "RULE_MODULES", (*checks.RULE_MODULES, "devicse"))
    with pytest.raises(ModuleNotFoundError, match="devicse"):
        checks.load_rules()
