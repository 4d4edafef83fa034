"""The real-world corpus (tests/data/wild/): what `hclgpu check` finds in it, and how long
checking it all takes, cold (no cache) and warm (every file unchanged since a clean check).

Counts, over the Nomad job files: files, clean (no finding), warnings only, with errors,
crashes (an HG9xx, or an exception escaping), and the false alarms fixed because of the
corpus (tests/data/wild/FIXED.tsv: one rule per line, with the file that showed it); then
the findings per code and per check, with their share of all findings, and every finding
that depends on a fact of the cluster the default profile does not state (a condition of
a cluster fact or of the cluster's configuration, a finding about one translation target).
The two timings run the real command line in a child process, best of N.

Run from the project root: ``.venv/bin/python bench/corpus.py``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WILD = ROOT / "tests" / "data" / "wild"
sys.path.insert(0, str(ROOT))

from hclgpu.codes import Severity  # noqa: E402
from hclgpu.diagnostics import Diagnostic, Sink  # noqa: E402
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


def kind_of(path: Path, args: list[str], findings: list[Diagnostic]) -> str:
    """clean, warnings, errors or crash: what checking the file finds (its findings are
    added to ``findings``)."""
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
    findings.extend(found)
    if any(d.code.startswith("HG9") for d in found):
        return "crash"
    if any(d.severity is Severity.ERROR for d in found):
        return "errors"
    return "warnings" if any(d.severity is Severity.WARNING for d in found) else "clean"


def shares(findings: list[Diagnostic]) -> None:
    """The findings per code, then per check, each with its share of all findings."""
    total = len(findings)
    for title, key in (("code", lambda d: d.code), ("check", lambda d: f"{d.code} {d.check_name}")):
        print(f"findings per {title} ({total} in all):")
        for name, count in Counter(key(d) for d in findings).most_common():
            print(f"  {count:4d}  {100 * count / total:5.1f}%  {name}")


def cluster_dependent(findings: list[Diagnostic]) -> list[Diagnostic]:
    """The findings that depend on a fact of the cluster the default profile does not state:
    a server check of a cluster fact (`fact`) or of the cluster's configuration (`needs`),
    or a finding about one translation target. There should be none."""
    from hclgpu.checks import TARGET_RULES, load_rules
    from hclgpu.checks.server import CONDITIONS

    load_rules()
    found = []
    for d in findings:
        condition = CONDITIONS.get(d.check or "")
        if d.code in TARGET_RULES or (condition is not None and (condition.fact or condition.needs)):
            found.append(d)
    return found


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
    findings: list[Diagnostic] = []
    for path in files:
        counts[kind_of(path, given.get(path.name, []), findings)] += 1
    fixed_list = WILD / "FIXED.tsv"
    fixed = len(fixed_list.read_text().splitlines()) if fixed_list.exists() else 0
    print(
        f"corpus: {len(files)} job files, {counts['clean']} clean, {counts['warnings']} warnings only, "
        f"{counts['errors']} with errors, {counts['crash']} crashes, {fixed} false alarms fixed"
    )
    shares(findings)
    dependent = cluster_dependent(findings)
    print(f"findings that depend on a cluster fact the default profile does not state: {len(dependent)}")
    for d in dependent:
        line = d.source.position(d.span.start).line if d.span else 0
        print(f"  {d.path}:{line}: {d.code} {d.check_name}")
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
