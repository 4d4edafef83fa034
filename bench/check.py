"""Benchmark the semantic rules: how much `check` adds to parse + decode on a 1 MB job.

Input: one job with 500 copies of a realistic GPU group (~1 MB, the ``groups_500`` input of
``bench/parse.py``), each with a device request, constraints, an affinity, a service and
ports. Measured in process, with ``gc.collect()`` before each run: compiling to the typed job
without the rules (``checks=False``) and with every rule, the best of 7 runs each, the two
taken in turn so that a slower spell of the machine weighs on both alike. Target: the rules
add at most 30%.

Run from the project root: ``.venv/bin/python bench/check.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from parse import LARGE_GROUPS, best_ms, job_text  # noqa: E402

from hclgpu.pipeline import compile_source  # noqa: E402
from hclgpu.source import SourceFile  # noqa: E402

TARGET_OVERHEAD = 0.30
ROUNDS = 7


def compile_with(checks: bool) -> object:
    def run(text: str) -> object:
        result = compile_source(SourceFile("bench.nomad.hcl", text), checks=checks)
        if result.job is None:
            messages = "; ".join(f"{d.code} {d.message}" for d in result.diagnostics[:3])
            raise SystemExit(f"hclgpu rejected the benchmark input: {messages}")
        return result

    return run


def main() -> None:
    text = job_text(LARGE_GROUPS)
    print(f"input: one job, {LARGE_GROUPS} groups, {len(text.encode()) / 1e6:.2f} MB")
    plain_run, checked_run = compile_with(False), compile_with(True)
    plain_run(text)  # warm-up: imports, the parser's tables, the rules
    checked_run(text)
    plain = checked = float("inf")
    for _ in range(ROUNDS):
        plain = min(plain, best_ms(plain_run, text, runs=1, warm_up=False))
        checked = min(checked, best_ms(checked_run, text, runs=1, warm_up=False))
    overhead = (checked - plain) / plain
    print(f"parse + evaluate + decode           {plain:9.1f} ms")
    print(f"parse + evaluate + decode + rules   {checked:9.1f} ms")
    verdict = "PASS" if overhead <= TARGET_OVERHEAD else "FAIL"
    print(f"the rules add {overhead:.1%} (target <= {TARGET_OVERHEAD:.0%}) {verdict}")


if __name__ == "__main__":
    main()
