"""Benchmark `hclgpu check --policy`: how much ten Rego policies add to checking 1,000 job files.

Input: 1,000 job files in a temporary directory, the six ``samples/*.nomad.hcl`` copied round
robin (``j0001.nomad.hcl`` .. ``j1000.nomad.hcl``), and the ten policies of ``bench/policies``
(package ``main``: deny, warn and violation rules over the task groups, tasks, devices,
images, datacenters, meta and priority). The real command line runs in a child process,
``--no-cache`` (and ``HCLGPU_NO_CACHE=1``) with the default ``--jobs`` and byte-code cached
(one untimed warm-up run writes it), best of N, plain and policy runs alternating so that the
machine's load weighs on both alike: ``check`` without policies and ``check --policy
bench/policies``. Target: the policies make ``check`` at most 1.5x slower.

Policy style matters: rego-cpp (regopy's engine) iterates an ``input`` reference in a rule
body markedly slower than a local bound to it (in process, these ten policies take about
twice as long per job written that way), so docs/policies.md recommends binding first
(``groups := input.Job.TaskGroups`` then ``some group in groups``), as the policies of
``bench/policies`` do. The verdict is on that recommended style; the same ten policies
rewritten to iterate ``input.Job.TaskGroups`` (and ``input.Job.Datacenters``) directly are
timed too, for information.

Then, in process on the six samples, where a job's time goes: compiling it without and with
the policies, and inside the engine's worker the two parts of evaluating: handing the job to
rego-cpp (one C call per JSON value and object key, about a microsecond each) and the rules.

Run from the project root: ``.venv/bin/python bench/policy.py``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ROOT / "bench" / "policies"
SAMPLES = ROOT / "samples"

FILES = 1000
POLICY_COUNT = 10
TARGET_RATIO = 1.5
# `<indent>NAME := input.Job.FIELD` followed by `<indent>some ... in NAME`
BOUND_THEN_ITERATED = re.compile(
    r"^(?P<indent>[ \t]*)(?P<name>\w+) := (?P<ref>input\.Job\.\w+)\n"
    r"(?P=indent)(?P<some>some [^\n]*? in )(?P=name)$",
    re.MULTILINE,
)


def job_files(directory: Path) -> int:
    """The samples copied round robin into ``directory`` as FILES job files; how many samples."""
    samples = sorted(SAMPLES.glob("*.nomad.hcl"))
    assert len(samples) == 6, f"expected 6 samples, found {len(samples)}"
    for index in range(FILES):
        shutil.copyfile(samples[index % len(samples)], directory / f"j{index + 1:04d}.nomad.hcl")
    return len(samples)


def iterate_input(source: Path, target: Path) -> int:
    """The policies of ``source`` written to ``target`` with ``input`` iterated in the rules;
    how many of them the rewrite changed."""
    changed = 0
    for policy in sorted(source.glob("*.rego")):
        text = policy.read_text()
        direct = BOUND_THEN_ITERATED.sub(r"\g<indent>\g<some>\g<ref>", text)
        left = re.search(r"^\s*\w+ := input\.Job\.(TaskGroups|Datacenters)$", direct, re.MULTILINE)
        assert left is None, f"{policy.name}: not rewritten: {left.group().strip()}"
        (target / policy.name).write_text(direct)
        changed += direct != text
    assert changed, "the rewrite changed no policy"
    return changed


def command(jobs: Path, policies: Path | None) -> list[str]:
    policy = ["--policy", str(policies)] if policies is not None else []
    return [sys.executable, "-m", "hclgpu", "check", "--no-cache", *policy, str(jobs)]


def seconds(argv: list[str], env: dict[str, str], accepted: tuple[int, ...]) -> float:
    """The wall clock of one run; a run with another exit status ends the benchmark."""
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode not in accepted:
        tail = "\n".join(done.stderr.splitlines()[-20:])
        raise SystemExit(f"{' '.join(argv[2:])} exited {done.returncode}:\n{tail}")
    return elapsed


def child_env() -> dict[str, str]:
    """As a user runs it (byte-code cached: an installed package has it), no check cache."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return dict(env, HCLGPU_NO_CACHE="1")


def warm_up(env: dict[str, str]) -> None:
    """One untimed check of the six samples with the policies: byte-code written, files read."""
    samples = [str(p) for p in sorted(SAMPLES.glob("*.nomad.hcl"))]
    argv = [sys.executable, "-m", "hclgpu", "check", "--no-cache", "--policy", str(POLICIES), *samples]
    seconds(argv, env, (0, 1))


def best_alternating(
    argvs: list[list[str]], accepted: list[tuple[int, ...]], env: dict[str, str], runs: int
) -> list[float]:
    """Best of ``runs`` for each command, the commands taking turns in every round."""
    best = [float("inf")] * len(argvs)
    for _ in range(runs):
        for index, argv in enumerate(argvs):
            best[index] = min(best[index], seconds(argv, env, accepted[index]))
    return best


def per_job_ms() -> dict[str, float]:
    """Milliseconds per sample job, in process, best of 5 passes over the six samples."""
    import json
    import timeit

    sys.path.insert(0, str(ROOT))
    from hclgpu.backends.nomad.api import to_api
    from hclgpu.diagnostics import Sink
    from hclgpu.pipeline import compile_source
    from hclgpu.rego import worker
    from hclgpu.rego.policies import load_policies
    from hclgpu.source import SourceFile

    policies = load_policies([str(POLICIES)], ["main"], 60.0, Sink())
    assert policies is not None
    sources = [SourceFile(str(p), p.read_text()) for p in sorted(SAMPLES.glob("*.nomad.hcl"))]
    documents = []
    for source in sources:
        job = compile_source(source).job
        assert job is not None, source.path
        documents.append(json.loads(json.dumps({"Job": to_api(job), "file": source.path})))
    modules = [[m.path, m.text] for m in policies.modules]
    engine = worker._Engine({"modules": modules, "rules": [list(r) for r in policies.rules]})

    def best(run: object) -> float:
        return min(timeit.repeat(run, number=1, repeat=5)) * 1000 / len(sources)  # type: ignore[arg-type]

    def handing() -> None:
        for document in documents:
            engine.rego.set_input(worker._input(document))

    def evaluating() -> None:
        for document in documents:
            list(engine.evaluate(document, False))

    return {
        "compile": best(lambda: [compile_source(s) for s in sources]),
        "compile with policies": best(lambda: [compile_source(s, policies=policies) for s in sources]),
        "engine: the job handed to rego-cpp": best(handing),
        "engine: handed and every rule": best(evaluating),
    }


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=3, metavar="N", help="best of N runs (default 3)")
    args = options.parse_args()
    policies = sorted(POLICIES.glob("*.rego"))
    assert len(policies) == POLICY_COUNT, f"expected {POLICY_COUNT} policies, found {len(policies)}"
    with tempfile.TemporaryDirectory() as scratch:
        jobs, direct = Path(scratch) / "jobs", Path(scratch) / "policies"
        jobs.mkdir()
        direct.mkdir()
        samples = job_files(jobs)
        rewritten = iterate_input(POLICIES, direct)
        print(
            f"input: {FILES} job files ({samples} samples round-robin), "
            f"{len(policies)} policies ({POLICIES.relative_to(ROOT)})"
        )
        print(f"input iterated in rules: {rewritten} of the {len(policies)} policies rewritten")
        print(f"{os.cpu_count()} cores, `check` with its default --jobs, best of {args.runs}")
        argvs = [command(jobs, None), command(jobs, POLICIES.relative_to(ROOT)), command(jobs, direct)]
        env = child_env()
        warm_up(env)
        plain, recommended, iterated = best_alternating(argvs, [(0,), (0, 1), (0, 1)], env, args.runs)
    ratio, direct_ratio = recommended / plain, iterated / plain
    print(f"check, no policies                       {plain:6.2f} s")
    print(f"check --policy (recommended style)       {recommended:6.2f} s   {ratio:.2f}x")
    print(f"check --policy (input iterated in rules) {iterated:6.2f} s   {direct_ratio:.2f}x")
    verdict = "PASS" if ratio <= TARGET_RATIO else "FAIL"
    print(f"policies add {ratio - 1:.0%} with the recommended style (target <= {TARGET_RATIO:g}x) {verdict}")
    print("per sample job, in process:")
    for label, value in per_job_ms().items():
        print(f"  {label:40s} {value:6.2f} ms")


if __name__ == "__main__":
    main()
