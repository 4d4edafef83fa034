"""Work, counted: how tests bound the cost of the code under test without a clock.

A test that asserts seconds fails on a loaded machine; a count of function calls (Python
and built-in, as ``sys.setprofile`` sees them) is the same on every machine. Tests use it
two ways: as a ceiling that stops a runaway input at once (instead of hanging the suite),
and as a ratio (twice the input, about twice the calls) that tells linear from quadratic.
"""

from __future__ import annotations

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
