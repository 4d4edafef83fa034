"""The shell word splitter behind the docker parse-back: shlex's results, in linear work."""

from __future__ import annotations

import random
import shlex

import pytest

from hclgpu.backends.docker import render_line
from hclgpu.backends.docker.shell import split
from tests.work import work_of


def _shlex(text: str) -> list[str] | str:
    """``shlex.split``'s words, or its error message."""
    try:
        return shlex.split(text, comments=True)
    except ValueError as error:
        return str(error)


def _ours(text: str) -> list[str] | str:
    try:
        return split(text)
    except ValueError as error:
        return str(error)


@pytest.mark.parametrize(
    "text",
    ["", "  \t\r\n", "a b", "''", "a'' b", '""', "'a b'c", '"a\\"b"', '"a\\$b\\\\"', "a\\ b",
     "\\\n", "a#b c", "a #b\nc", "# all\n", "x'#'y", '"#"', "'", '"', '"a\\', "a\\", "'a\\'",
     "é\u00a0x", "a\fb", "'it'\"'\"'s'"],
)  # fmt: skip
def test_the_words_and_errors_are_shlex_s(text: str) -> None:
    assert _ours(text) == _shlex(text)


def test_random_lines_split_as_shlex_splits_them() -> None:
    """Every character the splitter treats specially, in random order."""
    rng = random.Random(20240)
    alphabet = " \t\r\n#'\"\\a$`é\u00a0"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        assert _ours(text) == _shlex(text), repr(text)


def test_quoted_words_split_back() -> None:
    rng = random.Random(7)
    alphabet = " \t\n#'\"\\a$`é"
    for _ in range(2_000):
        argv = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(4)]
        assert split(" ".join(shlex.quote(word) for word in argv)) == argv


def _render_calls(size: int) -> int:
    """The function calls ``render_line`` makes for one word of ``size`` characters that
    must be quoted."""
    argv = ["docker", "run", "--label", "a=" + "ab c'd" * (size // 6), "x"]
    line, calls = work_of(lambda: render_line(argv, None, "job.nomad.hcl"))
    assert line.startswith("#!/bin/sh\n") and line.count("\n") == 3  # shebang, comment, the line
    return calls


def test_the_parse_back_grows_with_the_line_not_its_square() -> None:
    """8x the length, 8x the function calls (within 10%). Counting calls cannot see a
    token copied as it grows, as shlex.split does (its time grows with the square):
    ``bench/shell.py`` times the two."""
    _render_calls(5_000)  # imports and caches warmed: not counted below
    small, large = _render_calls(5_000), _render_calls(40_000)
    assert large < 8 * 1.1 * small, (small, large)
