"""The shell word splitter behind the docker parse-back: shlex's results, in linear time."""

from __future__ import annotations

import random
import shlex
import time

import pytest

from hclgpu.backends.docker import render_line
from hclgpu.backends.docker.shell import split


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


def _render_seconds(size: int) -> float:
    """Best of five: ``render_line`` with one word of ``size`` characters that must be quoted."""
    argv = ["docker", "run", "--label", "a=" + "ab c'd" * (size // 6), "x"]
    best = float("inf")
    for _ in range(5):
        started = time.perf_counter()
        assert render_line(argv, None, "job.nomad.hcl").count("\n") == 1
        best = min(best, time.perf_counter() - started)
    return best


def test_the_parse_back_grows_with_the_line_not_its_square() -> None:
    """8x the length: about 8x the time when linear; with shlex.split it was about 30x."""
    small, large = _render_seconds(50_000), _render_seconds(400_000)
    assert large < 16 * small, (small, large)
