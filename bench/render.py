"""Benchmark `hclgpu render --target nomad` against python-hcl2's parse of the same file.

Input: one job with 500 copies of a realistic GPU group (~1 MB, the ``groups_500`` input of
``bench/parse.py``). hclgpu's time covers everything ``render`` does in process: parse,
variables and locals, decoding to the typed IR with every check, normalisation and
printing Nomad's API JSON. python-hcl2's time is only ``hcl2.loads`` (text -> dict): it does
no evaluation, no decoding and no output. Both are best-of-N wall times measured in the same
run, after one warm-up, with ``gc.collect()`` before each run.

Target: render at least 10x faster than python-hcl2 parses. Also printed: the end-to-end CLI
time (a subprocess: interpreter start, imports, reading the file, writing JSON to a pipe).

Run from the project root: ``.venv/bin/python bench/render.py``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from parse import LARGE_GROUPS, best_ms, job_text, parse_hcl2  # noqa: E402

from hclgpu.backends import registry  # noqa: E402
from hclgpu.backends.target import Lowering  # noqa: E402
from hclgpu.diagnostics import Sink  # noqa: E402
from hclgpu.pipeline import compile_source  # noqa: E402
from hclgpu.source import SourceFile  # noqa: E402

TARGET_SPEEDUP = 10.0
CLI = ROOT / ".venv" / "bin" / "hclgpu"


def render_ours(text: str) -> str:
    result = compile_source(SourceFile("bench.nomad.hcl", text))
    if result.job is None:
        messages = "; ".join(d.message for d in result.diagnostics)
        raise SystemExit(f"hclgpu rejected the benchmark input: {messages}")
    return registry.render(result.job, "nomad", Lowering("nomad", result.source, Sink()))[0].text


def cli_ms(text: str, runs: int = 3) -> float | None:
    if not CLI.exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.nomad.hcl"
        path.write_text(text, encoding="utf-8")
        best = float("inf")
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run([str(CLI), "render", str(path), "--target", "nomad"], capture_output=True)
            best = min(best, time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(done.stderr.decode())
        return best * 1000


def main() -> None:
    text = job_text(LARGE_GROUPS)
    print(f"input: one job, {LARGE_GROUPS} groups, {len(text.encode()) / 1e6:.2f} MB")
    ours = best_ms(render_ours, text, runs=5)
    theirs = best_ms(parse_hcl2, text, runs=2)
    ratio = theirs / ours
    print(f"hclgpu render --target nomad (in process) {ours:9.1f} ms")
    print(f"python-hcl2 loads (parse only)           {theirs:9.1f} ms")
    cli = cli_ms(text)
    if cli is not None:
        print(f"hclgpu render (CLI, end to end)          {cli:9.1f} ms  ({theirs / cli:.1f}x)")
    verdict = "PASS" if ratio >= TARGET_SPEEDUP else "FAIL"
    print(f"render vs python-hcl2 parse: {ratio:.1f}x (target >= {TARGET_SPEEDUP:.0f}x) {verdict}")


if __name__ == "__main__":
    main()
