"""The real-world corpus (tests/data/wild/): what `hclgpu check` finds in it, and how long
checking it all takes, cold (no cache) and warm (every file unchanged since a clean check).

Counts, over the Nomad job files: files, clean (no finding), warnings only, with errors,
crashes (an HG9xx, or an exception escaping), and the false alarms fixed because of the
corpus (tests/data/wild/FIXED.tsv: one rule per line, with the file that showed it). The two
timings run the real command line in a child process, best of N.

Run from the project root: ``.venv/bin/python bench/corpus.py``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WILD = ROOT / "tests" / "data" / "wild"
sys.path.insert(0, str(ROOT))

from hclgpu.codes import Severity  # noqa: E402
from hclgpu.diagnostics import Sink  # noqa: E402
from hclgpu.eval.program import EvalOptions  # noqa: E402
from hclgpu.eval.variables import VariableInputs  # noqa: E402
from hclgpu.io.inputs import Input, decode  # noqa: E402
from hclgpu.pipeline import compile_source  # noqa: E402

JOB_SUFFIXES = (".nomad", ".hcl")


def job_files() -> list[Path]:
    return sorted(p for p in WILD.iterdir() if p.name.endswith(JOB_SUFFIXES))


def variables() -> dict[str, list[str]]:
    """The ``-var`` values of the files that need some (ARGS.tsv)."""
    rows = [line.split("\t") for line in (WILD / "ARGS.tsv").read_text().splitlines() if line]
    return {name: shlex.split(values) for name, values in rows}


def kind_of(path: Path, args: list[str]) -> str:
    """clean, warnings, errors or crash: what checking the file finds."""
    sink = Sink()
    try:
        source = decode(Input(path.name, path.read_bytes(), str(path)), sink)
        if source is None:
            return "errors"
        options = EvalOptions(VariableInputs(args=args, env={}), base_dir=path.parent)
        result = compile_source(source, options)
    except Exception:
        return "crash"
    found = result.diagnostics
    if any(d.code.startswith("HG9") for d in found):
        return "crash"
    if any(d.severity is Severity.ERROR for d in found):
        return "errors"
    return "warnings" if any(d.severity is Severity.WARNING for d in found) else "clean"


def best_seconds(command: list[str], env: dict[str, str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, check=False)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    files = job_files()
    counts = {"clean": 0, "warnings": 0, "errors": 0, "crash": 0}
    given = variables()
    for path in files:
        counts[kind_of(path, given.get(path.name, []))] += 1
    fixed_list = WILD / "FIXED.tsv"
    fixed = len(fixed_list.read_text().splitlines()) if fixed_list.exists() else 0
    print(
        f"corpus: {len(files)} job files, {counts['clean']} clean, {counts['warnings']} warnings only, "
        f"{counts['errors']} with errors, {counts['crash']} crashes, {fixed} false alarms fixed"
    )
    command = [sys.executable, "-m", "hclgpu", "check", "--jobs", "1", *map(str, files)]  # no -var:
    # the two files that need values report them missing, which costs the same
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        cold = best_seconds([*command, "--no-cache"], env, 3)
        subprocess.run(command, env=env, capture_output=True, check=False)  # fills the cache
        warm = best_seconds(command, env, 5)
    print(f"check of the whole corpus: cold {cold * 1000:.0f} ms, warm {warm * 1000:.0f} ms")


if __name__ == "__main__":
    main()
