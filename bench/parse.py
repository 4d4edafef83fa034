"""Benchmark hclgpu's parser against python-hcl2 and json.loads.

What it measures, for three inputs -- a realistic ~2.5 KB GPU job, and one job with 50 and 500 copies of
its group (~100 KB and ~1 MB, like ``groups_50`` / ``groups_500`` in
``shared/reference/peer-parsers.md`` section 1):

* in-process parse time of ``hclgpu.syntax.parser.parse`` (text -> AST with spans) and of
  ``hcl2.loads`` (text -> dict): best of N after a warm-up, ``gc.collect()`` before each run,
  N = 7 / 5 / 3 (python-hcl2 at 1 MB: N = 2, it takes several seconds per run);
* ``json.loads`` of the same data as JSON, the practical upper limit for a Python loader;
* peak memory: the increase of the process's peak RSS across one parse, in a fresh subprocess per
  (parser, input), after the parser was warmed on a tiny input so that loading its tables is not
  counted, with the result kept alive until measured. The peak RSS is ``VmHWM`` from
  ``/proc/self/status``, not ``ru_maxrss``: Linux carries the parent's ``ru_maxrss`` over fork + exec,
  so a child smaller than this (large) parent would read an increase of 0. ``ru_maxrss`` is the
  fallback where ``/proc`` is missing;
* cold start of ``hclgpu check --no-cache`` against ``import hcl2`` + one ``loads`` (wall clock,
  subprocess, best of 7), when ``.venv/bin/hclgpu`` and ``samples/tensorrt.nomad.hcl`` exist.

Why: hclgpu's targets are >= 3x python-hcl2's speed on a typical job, >= 10x at 1 MB, at most a
quarter of its peak memory at 1 MB, near-linear scaling (1 MB time <= 12x the 100 KB time), and
a cold `check` that starts and finishes no later than python-hcl2 imports and parses the file.
The script prints the table, the scaling check and PASS/FAIL for each target.

Run from the project root: ``.venv/bin/python bench/parse.py [--quick]``. ``--quick`` skips
python-hcl2 on the 1 MB input (time and memory are then printed as n/a).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import hcl2  # noqa: E402
from hcl2 import SerializationOptions  # noqa: E402

from hclgpu.diagnostics import Sink  # noqa: E402
from hclgpu.source import SourceFile  # noqa: E402
from hclgpu.syntax.parser import parse  # noqa: E402

JOB_HEADER = """\
# Realistic GPU inference job: the fixed ~2.5 KB input of this benchmark.
job "trt-inference" {
  datacenters = ["dc1", "dc2"]
  type        = "service"
  priority    = 70

  meta {
    team    = "ml-platform"
    version = "2024.11.3"
  }

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  update {
    max_parallel     = 1
    min_healthy_time = "30s"
    healthy_deadline = "5m"
    auto_revert      = true
  }
"""

GROUP_TEMPLATE = """
  group "@NAME@" {
    count = 2

    network {
      mode = "bridge"
      port "http" {
        to = 8000
      }
      port "metrics" {}
    }

    restart {
      attempts = 3
      interval = "10m"
      delay    = "15s"
      mode     = "delay"
    }

    affinity {
      attribute = "${node.datacenter}"
      value     = "dc1"
      weight    = 50
    }

    service {
      name = "@NAME@-http"
      port = "http"
      tags = ["inference", "gpu", "v${NOMAD_META_version}"]

      check {
        type     = "http"
        path     = "/v2/health/ready"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "server" {
      driver = "docker"

      config {
        image   = "nvcr.io/nvidia/tritonserver:24.10-py3"
        ports   = ["http", "metrics"]
        command = "tritonserver"
        args    = ["--model-repository=/models", "--strict-model-config=false", "--log-verbose=0"]
      }

      // Pinned to the first visible device by Nomad's device plugin.
      env {
        MODEL_NAME  = "resnet50_trt"
        BATCH_SIZE  = 32
        MAX_WORKERS = 4
        LOG_LEVEL   = "info"
      }

      resources {
        cpu    = 4000
        memory = 16384

        device "nvidia/gpu" {
          count = 1

          constraint {
            attribute = "${device.attr.memory}"
            operator  = ">="
            value     = "16 GiB"
          }

          affinity {
            attribute = "${device.model}"
            value     = "NVIDIA A100-SXM4-40GB"
            weight    = 75
          }
        }
      }

      /*
       * Triton reads this file at start-up; Nomad re-renders it when the
       * key in Consul changes and restarts the task.
       */
      template {
        destination = "local/triton.env"
        change_mode = "restart"
        data        = <<EOF
MODEL_REPOSITORY=/models
TRITON_SERVER_PORT={{ env "NOMAD_PORT_http" }}
CUDA_VISIBLE_DEVICES={{ env "NVIDIA_VISIBLE_DEVICES" }}
EOF
      }

      logs {
        max_files     = 5
        max_file_size = 20
      }
    }
  }
"""

JOB_FOOTER = "}\n"

SMALL_GROUPS = 1
MEDIUM_GROUPS = 50
LARGE_GROUPS = 500

JSON_OPTIONS = SerializationOptions(
    strip_string_quotes=True, explicit_blocks=False, with_comments=False, preserve_heredocs=False
)
"""The plain data model the reference used for its ``*.json`` files."""

SAMPLE = ROOT / "samples" / "tensorrt.nomad.hcl"
CLI = ROOT / ".venv" / "bin" / "hclgpu"

TARGET_SMALL_SPEEDUP = 3.0
TARGET_LARGE_SPEEDUP = 10.0
TARGET_MEMORY_FRACTION = 0.25
TARGET_SCALING = 12.0
MIN_MEMORY_MB = 1.0


@dataclass
class Input:
    name: str
    groups: int
    text: str
    json_text: str
    runs: int
    hcl2_runs: int


class Check(NamedTuple):
    label: str
    value: float | None
    target: float
    at_least: bool


@dataclass
class Result:
    ours_ms: float
    hcl2_ms: float | None
    json_ms: float
    ours_mb: float
    hcl2_mb: float | None


def group_name(index: int, groups: int) -> str:
    return "triton" if groups == 1 else f"triton-{index:04d}"


def job_text(groups: int) -> str:
    """One job holding ``groups`` renamed copies of the group template."""
    body = "".join(GROUP_TEMPLATE.replace("@NAME@", group_name(i, groups)) for i in range(groups))
    return JOB_HEADER + body + JOB_FOOTER


def job_json(groups: int) -> str:
    """The data of ``job_text(groups)`` as JSON, by replicating the parsed group template.

    This avoids running python-hcl2 on the 1 MB input just to get its JSON; ``check_json``
    confirms the result is what python-hcl2 itself produces on the 2.5 KB and 100 KB inputs.
    """
    placeholder = JOB_HEADER + GROUP_TEMPLATE + JOB_FOOTER
    data = hcl2.loads(placeholder, serialization_options=JSON_OPTIONS)
    job = data["job"][0]["trt-inference"]
    (template,) = job["group"]
    body = json.dumps(template["@NAME@"])
    copies = []
    for i in range(groups):
        name = group_name(i, groups)
        copies.append({name: json.loads(body.replace("@NAME@", name))})
    job["group"] = copies
    return json.dumps(data)


def check_json(item: Input) -> None:
    expected = hcl2.loads(item.text, serialization_options=JSON_OPTIONS)
    if json.loads(item.json_text) != expected:
        raise SystemExit(f"{item.name}: replicated JSON differs from python-hcl2's output")


def parse_ours(text: str) -> Any:
    sink = Sink()
    tree = parse(SourceFile("bench.nomad.hcl", text), sink)
    if tree is None or len(sink):
        messages = "; ".join(d.message for d in sink)
        raise SystemExit(f"hclgpu rejected the benchmark input: {messages}")
    return tree


def parse_hcl2(text: str) -> Any:
    return hcl2.loads(text)


def best_ms(function: Callable[[str], Any], text: str, runs: int, warm_up: bool = True) -> float:
    """Best wall time of ``runs`` calls, in ms, each after ``gc.collect()``.

    The result is freed only after the clock stops, so tearing the tree down is not counted.
    """
    if warm_up:
        function(text)
    best = float("inf")
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        result = function(text)
        best = min(best, time.perf_counter() - start)
        del result
    return best * 1000


CHILD = """
import gc, resource, sys
sys.path.insert(0, sys.argv[3])
kind, path = sys.argv[1], sys.argv[2]


def peak_kib():
    # VmHWM belongs to this process's address space, which exec made fresh; ru_maxrss is not
    # used on Linux because the kernel carries the parent's high-water mark across fork + exec.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


tiny = 'job "w" {\\n  group "g" {\\n    count = 1\\n  }\\n}\\n'
if kind == "ours":
    from hclgpu.diagnostics import Sink
    from hclgpu.source import SourceFile
    from hclgpu.syntax.parser import parse

    def run(text):
        return parse(SourceFile("m.nomad.hcl", text), Sink())
else:
    import hcl2

    run = hcl2.loads
run(tiny)
text = open(path, encoding="utf-8").read()
gc.collect()
before = peak_kib()
result = run(text)
after = peak_kib()
assert result is not None
print(after - before)
"""


def peak_mb(kind: str, text: str) -> float:
    """Increase of the peak RSS (MB) over one parse in a fresh subprocess; the child reports KiB."""
    with tempfile.NamedTemporaryFile("w", suffix=".nomad.hcl", encoding="utf-8", delete=False) as handle:
        handle.write(text)
        path = Path(handle.name)
    try:
        output = subprocess.run(
            [sys.executable, "-c", CHILD, kind, str(path), str(ROOT)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    finally:
        path.unlink()
    return int(output.strip()) * 1024 / 1e6


def build_inputs(quick: bool) -> list[Input]:
    sizes = [("2.5 KB", SMALL_GROUPS, 7, 7), ("100 KB", MEDIUM_GROUPS, 5, 5), ("1 MB", LARGE_GROUPS, 3, 2)]
    items = []
    for name, groups, runs, hcl2_runs in sizes:
        if quick and groups == LARGE_GROUPS:
            hcl2_runs = 0
        items.append(Input(name, groups, job_text(groups), job_json(groups), runs, hcl2_runs))
    return items


def measure(item: Input) -> Result:
    ours_ms = best_ms(parse_ours, item.text, item.runs)
    hcl2_ms = None
    if item.hcl2_runs:
        # At 1 MB one python-hcl2 run takes seconds; the parser is already warm from smaller inputs.
        hcl2_ms = best_ms(parse_hcl2, item.text, item.hcl2_runs, warm_up=item.groups != LARGE_GROUPS)
    json_ms = best_ms(json.loads, item.json_text, item.runs)
    ours_mb = peak_mb("ours", item.text)
    hcl2_mb = peak_mb("hcl2", item.text) if item.hcl2_runs else None
    return Result(ours_ms, hcl2_ms, json_ms, ours_mb, hcl2_mb)


def fmt(value: float | None, spec: str, suffix: str = "") -> str:
    return "n/a" if value is None else f"{value:{spec}}{suffix}"


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def memory_ratio(res: Result) -> float | None:
    """ours/hcl2 peak memory; None when python-hcl2's increase is too small (page noise) to divide by."""
    if res.hcl2_mb is None or res.hcl2_mb < MIN_MEMORY_MB:
        return None
    return res.ours_mb / res.hcl2_mb


def print_table(items: list[Input], results: list[Result]) -> None:
    header = (
        f"{'input':>7} {'HCL bytes':>10} {'JSON bytes':>10} {'ours ms':>9} {'hcl2 ms':>9} {'json ms':>8} "
        f"{'hcl2/ours':>9} {'ours/json':>9} {'ours MB':>8} {'hcl2 MB':>8} {'ours/hcl2 mem':>13}"
    )
    print(header)
    print("-" * len(header))
    for item, res in zip(items, results, strict=True):
        print(
            f"{item.name:>7} {len(item.text.encode()):>10,} {len(item.json_text.encode()):>10,} "
            f"{res.ours_ms:>9.2f} {fmt(res.hcl2_ms, '.1f'):>9} {res.json_ms:>8.3f} "
            f"{fmt(ratio(res.hcl2_ms, res.ours_ms), '.1f', 'x'):>9} "
            f"{fmt(ratio(res.ours_ms, res.json_ms), '.0f', 'x'):>9} "
            f"{res.ours_mb:>8.2f} {fmt(res.hcl2_mb, '.2f'):>8} "
            f"{fmt(memory_ratio(res), '.3f'):>13}"
        )
    print(
        "(times: best of N, gc.collect() before each run; memory: peak RSS (VmHWM) increase over one parse "
        "in a fresh subprocess, MB = 10^6 bytes; "
        f"memory ratio n/a below {MIN_MEMORY_MB:g} MB for python-hcl2)"
    )


def verdict(value: float | None, target: float, at_least: bool) -> str:
    if value is None:
        return "n/a (not measured)"
    passed = value >= target if at_least else value <= target
    return "PASS" if passed else "FAIL"


def print_targets(results: list[Result]) -> None:
    small, medium, large = results
    scaling = large.ours_ms / medium.ours_ms
    growth = LARGE_GROUPS / MEDIUM_GROUPS
    print(f"\nScaling: ours(1 MB) / ours(100 KB) = {scaling:.2f}x (input grows {growth:.0f}x)")
    checks = [
        Check(
            "speed vs python-hcl2 at 2.5 KB", ratio(small.hcl2_ms, small.ours_ms), TARGET_SMALL_SPEEDUP, True
        ),
        Check(
            "speed vs python-hcl2 at 1 MB", ratio(large.hcl2_ms, large.ours_ms), TARGET_LARGE_SPEEDUP, True
        ),
        Check(
            "peak memory ours/hcl2 at 1 MB",
            memory_ratio(large),
            TARGET_MEMORY_FRACTION,
            False,
        ),
        Check("time 1 MB / time 100 KB", scaling, TARGET_SCALING, False),
    ]
    print("\nTargets:")
    for check in checks:
        sign = ">=" if check.at_least else "<="
        shown = fmt(check.value, ".2f")
        result = verdict(check.value, check.target, check.at_least)
        print(f"  {check.label:<32} {sign} {check.target:<5g} measured {shown:>7}  {result}")


def cold_ms(command: list[str], runs: int = 7) -> tuple[float, float, int]:
    """Best and median wall time (ms) of ``command`` in a subprocess, and its last exit status."""
    times = []
    status = 0
    for _ in range(runs):
        start = time.perf_counter()
        status = subprocess.run(command, cwd=ROOT, capture_output=True).returncode
        times.append((time.perf_counter() - start) * 1000)
    return min(times), statistics.median(times), status


TARGET_COLD_RATIO = 1.0
"""A cold `hclgpu check` of the sample (no result cache) against python-hcl2's import and one
parse of the same file: pre-commit hooks and format-on-save start the command once per run."""


def print_cold_start() -> None:
    """The cold start of `hclgpu check` (no result cache: ``HCLGPU_NO_CACHE``) against
    ``import hcl2`` + one ``loads``, with the ratio of the best times and its verdict."""
    print("\nCold start (wall clock around subprocess.run, best of 7):")
    missing = [str(path.relative_to(ROOT)) for path in (CLI, SAMPLE) if not path.exists()]
    if missing:
        print(f"  skipped: {', '.join(missing)} not found")
        return
    sample = str(SAMPLE.relative_to(ROOT))
    python = str(ROOT / ".venv" / "bin" / "python")
    commands = [
        (f".venv/bin/hclgpu check --no-cache {sample}", [str(CLI), "check", "--no-cache", sample]),
        (
            "python -c 'import hcl2; hcl2.loads(...)'",
            [python, "-c", f"import hcl2; hcl2.loads(open({sample!r}).read())"],
        ),
    ]
    best = []
    for label, command in commands:
        cold_ms(command, runs=1)  # byte-code written, files in the page cache
        fastest, median, status = cold_ms(command)
        best.append(fastest)
        print(f"  {label:<52} best {fastest:7.1f} ms  median {median:7.1f} ms  exit {status}")
    measured = best[0] / best[1]
    print(
        f"  cold check / python-hcl2 import+parse  <= {TARGET_COLD_RATIO:g}x  measured {measured:5.2f}x  "
        f"{verdict(measured, TARGET_COLD_RATIO, False)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip python-hcl2 on the 1 MB input")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, python-hcl2 {getattr(hcl2, '__version__', '?')}")
    items = build_inputs(args.quick)
    for item in items[:2]:
        check_json(item)
    parse_ours(items[0].text)
    parse_hcl2(items[0].text)
    results = [measure(item) for item in items]
    print()
    print_table(items, results)
    print_targets(results)
    print_cold_start()


if __name__ == "__main__":
    main()
