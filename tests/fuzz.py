"""`make fuzz`: the properties of tests/test_fuzz.py in rounds, for a given time.

Each round runs every property with ``--per-round`` fresh random examples; rounds go on
until the time is up. A failure stops the run with Hypothesis's report of the smallest
failing input (and the seed to replay it), and exit status 1. The closing line says how
many examples each property ran.

    python -m tests.fuzz --minutes 30
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="how long to fuzz (default 30)")
    parser.add_argument("--per-round", type=int, default=200, help="examples per property per round")
    args = parser.parse_args(argv)
    os.environ["HCLGPU_FUZZ_EXAMPLES"] = str(args.per_round)  # read when test_fuzz is imported
    from tests import test_fuzz

    properties = [value for name, value in vars(test_fuzz).items() if name.startswith("test_")]
    started = time.monotonic()
    deadline = started + args.minutes * 60
    rounds = 0
    while time.monotonic() < deadline:
        for prop in properties:
            try:
                prop()
            except Exception:  # a property failed: Hypothesis has printed the minimal example
                traceback.print_exc()
                _report(test_fuzz.EXAMPLES_RUN, rounds, started, failed=prop.__name__)
                return 1
        rounds += 1
        _report(test_fuzz.EXAMPLES_RUN, rounds, started)
    return 0


def _report(counts: dict[str, int], rounds: int, started: float, failed: str | None = None) -> None:
    minutes = (time.monotonic() - started) / 60
    parts = ", ".join(f"{name}: {count:,}" for name, count in counts.items())
    status = f"FAILED in {failed}" if failed else "no failure"
    total = sum(v for k, v in counts.items() if "rendered" not in k)
    print(f"fuzz: {rounds} rounds, {minutes:.1f} min, {total:,} examples ({parts}); {status}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
