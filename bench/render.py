"""Benchmark `hclgpu render --target nomad` against python-hcl2's parse of the same file.

Input: one job with 500 copies of a realistic GPU group (~1 MB, the ``groups_500`` input of
``bench/parse.py``). hclgpu's time covers everything ``render`` does in process: parse,
variables and locals, decoding to the typed IR with every check, normalisation and
printing Nomad's API JSON. python-hcl2's time is only ``hcl2.loads`` (text -> dict): it does
no evaluation, no decoding and no output. Both are best-of-N wall times measured in the same
run, after one warm-up, with ``gc.collect()`` before each run.

Targets: render at least 10x faster than python-hcl2 parses; and the end-to-end CLI (a
subprocess: interpreter start, imports, reading the file, every check, writing JSON to a pipe) no
slower than Nomad's own parser printing the same job's API JSON as a whole process
(``../shared/oracle/jobspec2-oracle``, ``nomad job run -output``), where that program exists.

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
TARGET_ORACLE_RATIO = 1.0
CLI = ROOT / ".venv" / "bin" / "hclgpu"
ORACLE = ROOT.parent / "shared" / "oracle" / "jobspec2-oracle"


def render_ours(text: str) -> str:
    result = compile_source(SourceFile("bench.nomad.hcl", text))
    if result.job is None:
        messages = "; ".join(d.message for d in result.diagnostics)
        raise SystemExit(f"hclgpu rejected the benchmark input: {messages}")
    return registry.render(result.job, "nomad", Lowering("nomad", result.source, Sink()))[0].text


def best_process_ms(command: list[str], cwd: Path, runs: int) -> float:
    """The best wall time of ``command`` as a subprocess, output to a pipe; exit status 0."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=cwd, capture_output=True)
        best = min(best, time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(done.stderr.decode())
    return best * 1000


def against_nomad(text: str, runs: int = 7) -> tuple[float, float | None]:
    """``hclgpu render --target nomad`` and (where it exists) Nomad's parser on the same file,
    each a whole process, best of ``runs`` after one warm-up; the two run in turn, so that a
    slower spell of the machine weighs on both alike."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.nomad.hcl"
        path.write_text(text, encoding="utf-8")
        ours = [str(CLI), "render", path.name, "--target", "nomad"]
        best_process_ms(ours, path.parent, 1)
        if not ORACLE.exists():
            return best_process_ms(ours, path.parent, runs), None
        nomad = [str(ORACLE), path.name]
        best_process_ms(nomad, path.parent, 1)
        cli = theirs = float("inf")
        for _ in range(runs):
            cli = min(cli, best_process_ms(ours, path.parent, 1))
            theirs = min(theirs, best_process_ms(nomad, path.parent, 1))
        return cli, theirs


def print_against_nomad(text: str) -> None:
    if not CLI.exists():
        print(f"1 MB render against Nomad's parser: skipped, {CLI.relative_to(ROOT)} not found")
        return
    cli, nomad = against_nomad(text)
    print(f"hclgpu render (CLI, end to end)          {cli:9.1f} ms")
    if nomad is None:
        print(f"1 MB render against Nomad's parser: skipped, {ORACLE} not found")
        return
    measured = cli / nomad
    verdict = "PASS" if measured <= TARGET_ORACLE_RATIO else "FAIL"
    print(f"Nomad's parser (jobspec2-oracle, process) {nomad:8.1f} ms")
    print(f"render CLI / Nomad's parser: {measured:.2f}x (target <= {TARGET_ORACLE_RATIO:g}x) {verdict}")


def main() -> None:
    text = job_text(LARGE_GROUPS)
    print(f"input: one job, {LARGE_GROUPS} groups, {len(text.encode()) / 1e6:.2f} MB")
    ours = best_ms(render_ours, text, runs=5)
    theirs = best_ms(parse_hcl2, text, runs=2)
    ratio = theirs / ours
    print(f"hclgpu render --target nomad (in process) {ours:9.1f} ms")
    print(f"python-hcl2 loads (parse only)           {theirs:9.1f} ms")
    verdict = "PASS" if ratio >= TARGET_SPEEDUP else "FAIL"
    print(f"render vs python-hcl2 parse: {ratio:.1f}x (target >= {TARGET_SPEEDUP:.0f}x) {verdict}")
    print_against_nomad(text)


if __name__ == "__main__":
    main()
