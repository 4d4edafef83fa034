"""Every speed figure in one run, on the same generated corpora, against python-hcl2 and
json.loads: parse (``bench/parse.py``'s table and targets), check and render throughput at
2.5 KB, 100 KB and 1 MB, cold start, and ``hclgpu check`` of 1,000 job files (one process
and workers, cold and warm cache).

Targets: a cold ``check`` of one job no slower than python-hcl2's import and parse of it; the
1 MB render as a process no slower than Nomad's own parser (``../shared/oracle``, skipped with
a note where it is absent); 1,000 files checked cold in under 5x the time python-hcl2 needs only
to parse them; a warm-cache re-check at least 20x faster than the cold check. The parse targets are
printed by ``bench/parse.py``'s own table; ``bench/check.py``, ``bench/render.py``,
``bench/plan.py``, ``bench/lsp.py``, ``bench/policy.py`` and ``bench/shell.py`` keep their own
targets.

Run from the project root: ``.venv/bin/python bench/all.py [--quick]``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import hcl2  # noqa: E402
import parse as parse_bench  # noqa: E402
import render as render_bench  # noqa: E402

from hclgpu.backends import registry  # noqa: E402
from hclgpu.backends.target import Lowering  # noqa: E402
from hclgpu.diagnostics import Sink  # noqa: E402
from hclgpu.pipeline import compile_source  # noqa: E402
from hclgpu.source import SourceFile  # noqa: E402

FILES = 1000
COLD_RATIO = 5.0
WARM_SPEEDUP = 20.0


def best_ms(function: object, text: str, runs: int) -> float:
    return parse_bench.best_ms(function, text, runs)  # type: ignore[arg-type]


def check(text: str) -> object:
    result = compile_source(SourceFile("bench.nomad.hcl", text))
    assert result.job is not None
    return result


def render_nomad(text: str) -> object:
    result = compile_source(SourceFile("bench.nomad.hcl", text))
    assert result.job is not None
    ctx = Lowering("nomad", result.source, Sink())
    return registry.render(result.job, "nomad", ctx)


def throughput(items: list[parse_bench.Input]) -> None:
    print("\nThroughput (best of N, in process), MB/s:")
    print(f"  {'input':<18} {'json.loads':>10} {'hcl2 parse':>10} {'parse':>8} {'check':>8} {'render':>8}")
    for item in items:
        size = len(item.text.encode()) / 1e6
        runs = item.runs
        json_ms = best_ms(parse_bench.json.loads, item.json_text, runs)
        hcl2_ms = best_ms(parse_bench.parse_hcl2, item.text, item.hcl2_runs) if item.hcl2_runs else None
        ours = [best_ms(f, item.text, runs) for f in (parse_bench.parse_ours, check, render_nomad)]
        cells = [size / (ms / 1000) for ms in (json_ms, *([hcl2_ms] if hcl2_ms else []), *ours)]
        hcl2_cell = f"{cells[1]:10.2f}" if hcl2_ms else f"{'skipped':>10}"
        rest = cells[2:] if hcl2_ms else cells[1:]
        print(f"  {item.name:<18} {cells[0]:10.2f} {hcl2_cell} " + " ".join(f"{c:8.2f}" for c in rest))


def corpus(directory: Path) -> list[str]:
    """1,000 job files: the ~2.5 KB GPU job, each with its own name and count, last modified
    a minute ago (as files in a repository are; see ``clean_index.RACY_NS``). The group gets
    the `shutdown_delay` Nomad 2.0 warns about (HG264) without: a repository that lints clean
    is what the warm re-check's fast path is for (a file with findings is read again)."""
    texts = []
    base = parse_bench.job_text(1).replace(
        'group "triton" {', 'group "triton" {\n    shutdown_delay = "5s"', 1
    )
    for index in range(FILES):
        text = base.replace('job "trt-inference"', f'job "trt-{index:04d}"').replace(
            "count = 2", f"count = {index % 5 + 1}"
        )
        path = directory / f"job-{index:04d}.nomad.hcl"
        path.write_text(text)
        past = time.time() - 60
        os.utime(path, (past, past))
        texts.append(text)
    return texts


def timed(
    command: list[str], env: dict[str, str], runs: int = 1, fresh: Path | None = None
) -> tuple[float, int]:
    """The median wall clock of ``runs`` runs (each with an empty ``fresh`` directory)."""
    times, status = [], 0
    for _ in range(runs):
        if fresh is not None:
            shutil.rmtree(fresh, ignore_errors=True)
        start = time.perf_counter()
        status = subprocess.run(command, cwd=ROOT, env=env, capture_output=True).returncode
        times.append(time.perf_counter() - start)
    return statistics.median(times), status


def many_files() -> None:
    cli = str(ROOT / ".venv" / "bin" / "hclgpu")
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch) / "jobs"
        directory.mkdir()
        texts = corpus(directory)
        start = time.perf_counter()
        for text in texts:
            hcl2.loads(text)
        hcl2_s = time.perf_counter() - start
        # as a user runs it: byte-code cached, no cache switched off, a cache of its own
        env = {k: v for k, v in os.environ.items() if k not in ("HCLGPU_NO_CACHE", "PYTHONDONTWRITEBYTECODE")}
        xdg = Path(scratch) / "xdg"
        env["XDG_CACHE_HOME"] = str(xdg)
        cores = os.cpu_count() or 1
        check = [cli, "check", str(directory)]
        timed([*check, "--no-cache"], env)  # warm the byte-code and the parser tables
        one, _ = timed([*check, "--no-cache", "--jobs", "1"], env)
        workers, _ = timed([*check, "--no-cache", "--jobs", str(cores)], env)
        cold, status = timed(check, env, runs=3, fresh=xdg / "hclgpu" / "check")
        warm, warm_status = timed(check, env, runs=7)
        # without the clean-file index every file is read, hashed and answered from the
        # content cache (the index records only files that had no finding)
        (xdg / "hclgpu" / "check" / "index.json").unlink(missing_ok=True)
        content, _ = timed(check, env)  # every file read and hashed, none compiled
    megabytes = sum(map(len, texts)) / 1e6
    print(f"\n`hclgpu check` of {FILES} job files ({megabytes:.1f} MB), wall clock per command (median):")
    print(f"  python-hcl2 loads of every file (in process)  {hcl2_s:7.2f} s")
    print(f"  one process, no cache                         {one:7.2f} s")
    print(f"  {cores} workers, no cache                          {workers:7.2f} s")
    print(f"  cold cache (default --jobs)                   {cold:7.2f} s   exit {status}")
    print(f"  warm cache, unchanged files                   {warm:7.3f} s   exit {warm_status}")
    print(f"  warm cache, every file read and hashed        {content:7.3f} s")
    ratio, speedup = cold / hcl2_s, cold / warm
    print(f"  cold / python-hcl2 parse   target <  {COLD_RATIO:g}x  measured {ratio:5.2f}x  "
          f"{'PASS' if ratio < COLD_RATIO else 'FAIL'}")  # fmt: skip
    print(f"  cold / warm                target >= {WARM_SPEEDUP:g}x measured {speedup:5.1f}x  "
          f"{'PASS' if speedup >= WARM_SPEEDUP else 'FAIL'}")  # fmt: skip


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--quick", action="store_true", help="skip python-hcl2 on the 1 MB input")
    args = options.parse_args()
    # commands are timed as a user runs them: with byte-code cached (an installed package has it)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    version = getattr(hcl2, "__version__", "?")
    print(f"Python {sys.version.split()[0]}, python-hcl2 {version}, {os.cpu_count()} cores")
    items = parse_bench.build_inputs(args.quick)
    results = [parse_bench.measure(item) for item in items]
    print()
    parse_bench.print_table(items, results)
    parse_bench.print_targets(results)
    throughput(items)
    parse_bench.print_cold_start()
    print("\n1 MB render to Nomad's API JSON, whole process:")
    render_bench.print_against_nomad(items[-1].text)
    many_files()


if __name__ == "__main__":
    main()
