"""Benchmark the docker parse-back's shell splitter: time against the line's length.

``render --target docker`` splits every line it prints back into words, as a POSIX shell
would, to prove the quoting. ``shlex.split`` gives the same words but copies each token as
it grows it, so its time grows with the square of a long word; hclgpu's splitter
(``hclgpu/backends/docker/shell.py``) is linear. Input: one ``docker run`` line with a label
of 50,000 and of 400,000 characters that must be quoted (8x the length). Best of five wall
times each (after a warm-up), both splitters measured in the same run.

Target: 8x the length costs hclgpu's splitter under 16x the time (linear, with room for
the machine's noise); shlex.split is printed for comparison (about 30x).

Run from the project root: ``.venv/bin/python bench/shell.py``.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from parse import best_ms  # noqa: E402

from hclgpu.backends.docker.shell import split  # noqa: E402

SIZES = (50_000, 400_000)
TARGET_GROWTH = 16.0


def line(size: int) -> str:
    word = "a=" + "ab c'd" * (size // 6)
    return " ".join(shlex.quote(part) for part in ["docker", "run", "--label", word, "x"])


def main() -> None:
    small, large = (line(size) for size in SIZES)
    assert split(large) == shlex.split(large, comments=True)
    print(f"one docker line, a label of {SIZES[0]:,} and {SIZES[1]:,} characters, best of 5")
    growth = 0.0
    for name, splitter in (("hclgpu", split), ("shlex.split", lambda text: shlex.split(text, comments=True))):
        short, long = best_ms(splitter, small, 5), best_ms(splitter, large, 5)
        print(f"  {name:12s} {short:8.2f} ms {long:9.2f} ms   {long / short:5.1f}x")
        if name == "hclgpu":
            growth = long / short
    verdict = "PASS" if growth < TARGET_GROWTH else "FAIL"
    print(f"hclgpu: 8x the length, {growth:.1f}x the time (target < {TARGET_GROWTH:g}x) {verdict}")


if __name__ == "__main__":
    main()
