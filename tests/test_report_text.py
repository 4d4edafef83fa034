"""The text report without colour is written directly, byte for byte what rich would write."""

from __future__ import annotations

import io

import pytest

from hclgpu.codes import Severity
from hclgpu.diagnostics import Diagnostic, Related
from hclgpu.report import text as report
from hclgpu.source import SourceFile, Span
from tests.work import work_of

SOURCE = SourceFile(
    "odd.nomad.hcl",
    'job "x" {\n'
    '\tmeta = { a = "tab\there" }\n'
    '  bell = "\x07\x1b[31m\r"   \n'
    '  wide = "漢字漢字 emoji 🎉"\n'
    f'  long = "{"y" * 200}"{" " * 30}\n'
    "  [bracket] = 1\n"
    "}\n",
)


def _at(line: int, column: int, length: int) -> Span:
    start = sum(len(text) + 1 for text in SOURCE.text.split("\n")[: line - 1]) + column - 1
    return Span(start, start + length)


DIAGNOSTICS = [
    Diagnostic("HG101", Severity.ERROR, "tab\tin message", SOURCE, _at(2, 2, 4), help="a\thelp"),
    Diagnostic("HG101", Severity.WARNING, "control \x07\x08\x0b\x0c\r\x1b[1m codes", SOURCE, _at(3, 3, 4)),
    Diagnostic("HG101", Severity.INFO, "two\nlines [bold]not markup[/bold]", SOURCE, _at(4, 10, 4)),
    Diagnostic("HG101", Severity.ERROR, "long line " + "z" * 100 + "   ", SOURCE, _at(5, 150, 20)),
    Diagnostic("HG101", Severity.ERROR, "related", SOURCE, _at(6, 3, 9), help="h " * 60 + " ",
               related=(Related(_at(1, 1, 3), "opened\there"), Related(_at(7, 1, 1), "closed"))),
    Diagnostic("HG101", Severity.WARNING, "no span", SOURCE, None, help="help\ttab"),
    Diagnostic("HG101", Severity.ERROR, "no tabs at all: the direct path", SOURCE, _at(4, 3, 4)),
]  # fmt: skip


def _report(color: str, diagnostics: list[Diagnostic]) -> str:
    out = io.StringIO()
    report.render_text(diagnostics, 1, out, color=color)
    return out.getvalue()


@pytest.mark.parametrize("color", ["never", "auto"])
@pytest.mark.parametrize("columns", ["80", "20"])
def test_the_direct_text_is_rich_s_text(color: str, columns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for diagnostic in DIAGNOSTICS:
        direct = _report(color, [diagnostic])
        with monkeypatch.context() as patch:
            patch.setattr(report, "_colourless", lambda console: False)
            assert direct == _report(color, [diagnostic]), diagnostic.message
    assert "\x1b[0m" not in _report(color, DIAGNOSTICS)  # no style was written


def test_colour_still_goes_through_rich() -> None:
    assert "\x1b[1;31merror[HG101]\x1b[0m" in _report("always", DIAGNOSTICS[-1:])


def _calls(count: int) -> int:
    diagnostics = [DIAGNOSTICS[-1]] * count
    return work_of(lambda: _report("never", diagnostics))[1]


def test_a_diagnostic_costs_less_than_rich_s_rendering_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted in function calls in the same run: the direct path does several times less."""
    direct = _calls(100)
    monkeypatch.setattr(report, "_colourless", lambda console: False)
    through_rich = _calls(100)
    assert direct * 3 < through_rich, (direct, through_rich)
