"""Kill ``render --out`` and ``fmt`` with SIGKILL at random moments, and check what they leave.

A CI runner's timeout, the OOM killer or a cancelled job ends a process with SIGKILL, which
no clean-up sees. The writers promise that this never leaves a mix: after any kill, the
output directory holds exactly the old files or exactly the new ones (the user's own file
too, in both), each formatted file is exactly its old or its new text, and the next normal
run leaves no temporary file anywhere. This script holds them to it, in four scenarios:

* ``render-swap``: ``--out DIR`` over an earlier rendering (the directory is swapped whole);
* ``render-new``: ``--out DIR`` where DIR does not exist yet (nothing, or every file);
* ``render-in-place``: ``--out .`` from inside DIR (the working directory is never swapped:
  written in place with a journal; a kill in its commit may leave a mix that the next run
  undoes, so it is judged after :func:`hclgpu.io.output.recover`);
* ``fmt``: a folder of unformatted job files (each file old or new; fmt promises no more
  across files).

Half the kills come after a delay drawn uniformly over a run's typical duration; the other
half when the run's first change on disk appears (polled), plus a delay drawn log-uniformly
up to the write's typical duration, so that many land inside the write itself. Not a test (it runs
hundreds of processes): ``make fuzz`` runs it. Exit status 1 on any violation.

    .venv/bin/python bench/kill_loop.py --runs 240 [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "mixed-service.nomad.hcl"
HCLGPU = [sys.executable, "-m", "hclgpu"]
ENVIRONMENT = {**os.environ, "HCLGPU_NO_CACHE": "1", "PYTHONPATH": str(ROOT)}
MINE = {"notes.txt": "the user's own file\n"}
UGLY = (
    'job "j{n}" {{\ntype="batch"\n  group "g" {{\n    task "t" {{\n'
    + '      driver = "docker"\n    }}\n  }}\n}}\n'
)
FMT_FILES = 12

Files = dict[str, str]


def files_below(folder: Path) -> Files:
    """Every visible file below ``folder`` (temporary names of any writer are hidden ones),
    by relative name."""
    found: Files = {}
    for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
        name = path.relative_to(folder).as_posix()
        if not any(part.startswith(".") for part in name.split("/")) and path.is_file():
            found[name] = path.read_text(encoding="utf-8", errors="replace")
    return found


def paths_below(folder: Path) -> set[str]:
    """Every name below ``folder``, hidden ones too (what a clean run leaves is compared with
    this: anything more is a leftover, whatever the writer calls its temporary files)."""
    found: set[str] = set()
    for top, folders, files in os.walk(folder):
        inner = os.path.relpath(top, folder)
        found.update(os.path.normpath(os.path.join(inner, name)) for name in folders + files)
    return found


def run(argv: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(argv, cwd=cwd, env=ENVIRONMENT, capture_output=True, check=False)


@dataclass
class Scenario:
    """One way of writing: how to reset it, start the run, and what old and new look like."""

    name: str
    root: Path
    """Everything the scenario touches lies below this folder."""
    reset: Callable[[], None]
    argv: list[str]
    cwd: Path | None
    out: Path
    """The output directory (or the folder formatted)."""
    judge: Callable[[], str]
    """"old", "new", "partial" (fmt: some files each) or "mix"."""
    recovered_first: bool = False
    """Judged after recovery (in place: a kill in the commit is undone by the next run)."""
    clean: set[str] = field(default_factory=set)
    """What ``root`` holds after a run that was not killed."""
    counts: Counter[str] = field(default_factory=Counter)


def render_scenarios(work: Path) -> list[Scenario]:
    """The three ``render --out`` scenarios, with the old and new renderings made once."""
    new_job = work / "new.nomad.hcl"
    new_job.write_text(SAMPLE.read_text().replace('job "search"', 'job "search-v2"'))
    reference = work / "reference"
    for version, job in (("old", SAMPLE), ("new", new_job)):
        done = run([*HCLGPU, "render", str(job), "--target", "oci", "--out", str(reference / version)])
        assert done.returncode == 0, done.stderr.decode()
        (reference / version / "notes.txt").write_text(MINE["notes.txt"])
    old, new = files_below(reference / "old"), files_below(reference / "new")
    assert old.keys() == new.keys() and all(old[n] != new[n] for n in old if n not in MINE), "versions differ"
    argv = [*HCLGPU, "render", str(new_job), "--target", "oci", "--out"]

    def scenario(name: str, out: Path, start: Files, *, here: bool = False) -> Scenario:
        def reset() -> None:
            shutil.rmtree(out.parent, ignore_errors=True)
            out.parent.mkdir(parents=True)
            if start:
                shutil.copytree(reference / "old", out)

        end = new if start else {n: text for n, text in new.items() if n not in MINE}

        def judge() -> str:
            found = files_below(out)
            return "old" if found == start else "new" if found == end else "mix"

        target = ["."] if here else [str(out)]
        return Scenario(name, out.parent, reset, argv + target, out if here else None, out, judge,
                        recovered_first=here)  # fmt: skip

    return [
        scenario("render-swap", work / "swap" / "out", old),
        scenario("render-new", work / "new" / "out", {}),
        scenario("render-in-place", work / "in-place" / "out", old, here=True),
    ]


def fmt_scenario(work: Path) -> Scenario:
    folder = work / "fmt" / "jobs"
    ugly = {f"j{n:02}.nomad.hcl": UGLY.format(n=n) for n in range(FMT_FILES)}
    folder.mkdir(parents=True)
    for name, text in ugly.items():
        (folder / name).write_text(text)
    done = run([*HCLGPU, "fmt", str(folder)])
    assert done.returncode == 0, done.stderr.decode()
    pretty = files_below(folder)
    assert all(pretty[n] != ugly[n] for n in ugly)

    def reset() -> None:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for name, text in ugly.items():
            (folder / name).write_text(text)

    def judge() -> str:
        found = files_below(folder)
        if found.keys() != ugly.keys() or any(found[n] not in (ugly[n], pretty[n]) for n in ugly):
            return "mix"
        done = sum(found[n] == pretty[n] for n in ugly)
        return "old" if done == 0 else "new" if done == len(ugly) else "partial"

    return Scenario("fmt", folder.parent, reset, [*HCLGPU, "fmt", str(folder)], None, folder, judge)


@dataclass
class Timing:
    """How long a run takes, and how long its write (from its first change on disk to its end)."""

    run: float
    write: float


def timing(scenario: Scenario) -> Timing:
    runs, writes = [], []
    for _ in range(5):
        scenario.reset()
        started = time.monotonic()
        process = subprocess.Popen(scenario.argv, cwd=scenario.cwd, env=ENVIRONMENT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        _wait_for_write(process, scenario.root, deadline=started + 60)
        writing = time.monotonic()
        assert process.wait() == 0, f"{scenario.name} fails without a kill"
        runs.append(time.monotonic() - started)
        writes.append(time.monotonic() - writing)
        scenario.clean = paths_below(scenario.root)
    return Timing(statistics.median(runs), statistics.median(writes))


def kill_once(scenario: Scenario, typical: Timing, rng: random.Random) -> list[str]:
    """Start the run, SIGKILL it at a random moment, judge what it left, then run it again
    normally; the violations found."""
    scenario.reset()
    scenario.counts["runs"] += 1
    _kill_at_random(scenario, typical, rng)
    state = _judge_after_kill(scenario)
    problems = ["a mix of old and new files"] if state == "mix" else []
    done = run(scenario.argv, scenario.cwd)
    if done.returncode != 0 or scenario.judge() != "new":
        scenario.counts["next run failed"] += 1
        problems.append("the next run failed")
    left = sorted(paths_below(scenario.root) - scenario.clean)
    if left:
        scenario.counts["leftovers"] += 1
        problems.append(f"left after the next run: {left}")
    return problems


def _kill_at_random(scenario: Scenario, typical: Timing, rng: random.Random) -> None:
    """Half the time after a delay over the whole run, half once it has begun to write."""
    process = subprocess.Popen(scenario.argv, cwd=scenario.cwd, env=ENVIRONMENT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    at_write = rng.random() < 0.5
    if at_write:
        _wait_for_write(process, scenario.root, deadline=time.monotonic() + 10 * typical.run)
        time.sleep(typical.write * 10 ** rng.uniform(-4, 0))  # log-uniform: most in the first ms
    else:
        time.sleep(rng.uniform(0, 1.1 * typical.run))
    process.send_signal(signal.SIGKILL)
    process.wait()
    scenario.counts["killed at the write" if at_write else "killed at random"] += 1
    if process.returncode != -signal.SIGKILL:
        scenario.counts["finished before the kill"] += 1


def _judge_after_kill(scenario: Scenario) -> str:
    """ "old", "new", "partial" or "mix" (in place: after recovering, as the next run would)."""
    if any(name.startswith(".") or "/." in name for name in paths_below(scenario.root) - scenario.clean):
        scenario.counts["temporaries right after the kill"] += 1
    if scenario.recovered_first:
        scenario.counts[f"{scenario.judge()} before recovery"] += 1
        code = f"from hclgpu.io.output import recover; recover({str(scenario.out)!r})"
        recovered = run([sys.executable, "-c", code])
        assert recovered.returncode == 0, recovered.stderr.decode()
    state = scenario.judge()
    scenario.counts[state] += 1
    return state


def _wait_for_write(process: subprocess.Popen[bytes], root: Path, deadline: float) -> None:
    """Return as soon as a name below ``root`` appears or goes (the run's first step on disk,
    whatever it calls its files), or when the run ends."""
    before = paths_below(root)
    while process.poll() is None and time.monotonic() < deadline:
        if paths_below(root) != before:
            return


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=240, help="kills in all, shared by the scenarios")
    parser.add_argument("--seed", type=int, default=None, help="for a repeatable sequence of delays")
    parser.add_argument("--only", action="append", metavar="SCENARIO", help="run only these scenarios")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    rng = random.Random(seed)
    violations: list[str] = []
    with tempfile.TemporaryDirectory(prefix="hclgpu-kill-") as directory:
        work = Path(directory)
        every = [*render_scenarios(work), fmt_scenario(work)]
        scenarios = [s for s in every if not args.only or s.name in args.only]
        typical = {s.name: timing(s) for s in scenarios}
        for index in range(args.runs):
            scenario = scenarios[index % len(scenarios)]
            for problem in kill_once(scenario, typical[scenario.name], rng):
                violations.append(f"{scenario.name} run {scenario.counts['runs']}: {problem}")
    report(scenarios, typical, seed, violations)
    return 1 if violations else 0


def report(scenarios: list[Scenario], typical: dict[str, Timing], seed: int, violations: list[str]) -> None:
    keys = ["runs", "old", "new", "partial", "mix", "leftovers", "next run failed"]
    print(f"kill loop (seed {seed}): SIGKILL at a random moment, then one normal run")
    print(f"{'scenario':<16}" + "".join(f"{key:>17}" for key in keys) + "   typical run (write)")
    total: Counter[str] = Counter()
    for scenario in scenarios:
        total.update(scenario.counts)
        cells = "".join(f"{scenario.counts[key]:>17}" for key in keys)
        times = typical[scenario.name]
        print(f"{scenario.name:<16}{cells}   {times.run * 1000:.0f} ms ({times.write * 1000:.1f} ms)")
    print(f"{'all':<16}" + "".join(f"{total[key]:>17}" for key in keys))
    for scenario in scenarios:
        extra = {k: v for k, v in scenario.counts.items() if k not in keys}
        print(f"  {scenario.name}: " + ", ".join(f"{k} {v}" for k, v in sorted(extra.items())))
    print("violations: " + ("none" if not violations else str(len(violations))))
    for violation in violations[:20]:
        print(f"  {violation}")


if __name__ == "__main__":
    sys.exit(main())
