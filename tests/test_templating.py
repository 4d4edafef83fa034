"""The YAML parse-back: libyaml when PyYAML has it, the pure-Python parser's verdict otherwise."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from hclgpu.backends.templating import TemplateError, _parse_yaml, render_yaml

needs_libyaml = pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML without libyaml")


class _Refused(yaml.SafeLoader):
    def __init__(self, stream: Any) -> None:
        raise AssertionError("the pure-Python parser was used")


@needs_libyaml
def test_a_document_that_reads_back_is_parsed_by_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    """With YAML 1.1's scalars, as ``yaml.safe_load`` reads them."""
    monkeypatch.setattr(yaml, "SafeLoader", _Refused)
    text = 'a: ["1", 2, true, null, 1.5]\nb: {"c": "yes"}\nc: [yes, 0o17, 017, 1:30, 2024-01-02, .inf, ~]\n'
    data = {
        "a": ["1", 2, True, None, 1.5],
        "b": {"c": "yes"},
        "c": [True, "0o17", 15, 90, date(2024, 1, 2), float("inf"), None],
    }
    assert _parse_yaml(text, data) == data


def test_what_libyaml_refuses_is_decided_by_the_pure_python_parser() -> None:
    """libyaml refuses a surrogate escape that PyYAML's own parser reads."""
    assert _parse_yaml('a: "\\ud800"\n', {"a": "\ud800"}) == {"a": "\ud800"}


def test_invalid_yaml_keeps_the_pure_python_message(tmp_path: Path) -> None:
    (tmp_path / "compose").mkdir()
    (tmp_path / "compose" / "x.yaml.j2").write_text("a: [\n")
    with pytest.raises(TemplateError, match="expected the node content, but found '<stream end>'"):
        render_yaml("compose", ["x.yaml.j2"], {"a": []}, str(tmp_path))
