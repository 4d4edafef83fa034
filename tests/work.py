"""Work, counted: how tests bound the cost of the code under test without a clock.

A test that asserts seconds fails on a loaded machine; a count of function calls (Python
and built-in, as ``sys.setprofile`` sees them) is the same on every machine. Tests use it
two ways: as a ceiling that stops a runaway input at once (instead of hanging the suite),
and as a ratio (twice the input, about twice the calls) that tells linear from quadratic.
For other processes, the processor time they used (from /proc, and for reaped children
from ``getrusage``) is the measure: a busy machine slows a process, it does not make it
use more processor time.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

UNLIMITED = sys.maxsize


class TooMuchWork(BaseException):
    """Raised inside the code under test, once, when it passes its limit of calls (a
    BaseException: no ``except Exception`` of the tool turns it into a diagnostic)."""


def work_of(run: Callable[[], T], limit: int = UNLIMITED) -> tuple[T, int]:
    """What ``run`` returns and the function calls it made. Past ``limit`` it is stopped,
    and the test fails with an AssertionError (an ordinary failure, so that hypothesis
    shrinks the input and prints it)."""
    calls = 0

    def counted(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call" or event == "c_call":
            calls += 1
            if calls == limit + 1:
                raise TooMuchWork

    previous = sys.getprofile()
    sys.setprofile(counted)
    try:
        value = run()
    except TooMuchWork:
        pass
    finally:
        sys.setprofile(previous)
    if calls > limit:
        raise AssertionError(f"more than {limit:,} function calls: stopped there")
    return value, calls


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (Linux: /proc)."""
    with open(f"/proc/{pid}/task/{pid}/children") as handle:
        return [int(child) for child in handle.read().split()]


def cpu_seconds(pid: int) -> float:
    """The processor time ``pid`` has used so far (user and system), from /proc."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reaped_cpu_seconds() -> float:
    """The processor time of this process's children that have been waited for (and of
    theirs that they waited for)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
