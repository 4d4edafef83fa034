"""How much evaluating one file may do: the loops it runs and the values it walks whole.

Nomad's parser has no such bounds, so a few lines can hold it for an hour: three nested
loops over ``range(1000)``, or locals that repeat one another (``l1 = [local.l0,
local.l0]`` ... ``l30``) and so stand for billions of elements while taking a few bytes.
hclgpu stops such a file at the expression that goes past a bound, with a located error.

File functions count their work as well: each pattern ``fileset`` expands its braces into,
each directory entry it tests and each file it looks at is a step, and the bytes ``file``
and ``filebase64`` read add up. A pattern of twenty ``{a,b}`` groups stands for a million
patterns, a ``**`` can stand for a whole disk, and ``file`` in a loop reads the same 16 MiB
again each time: all of it is counted before or as it is done.

A value is *measured* where it is walked whole (an attribute written out, a function's
argument, an operand of ``==``): its elements are counted, shared parts each time they
appear, stopping at the budget of a function's result. A large container once measured is
remembered, so a local passed to a function inside a loop is walked once, not each time.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field

from hclgpu.eval.functions.base import Measured, ResultTooLarge, TooMuchWork, measure
from hclgpu.eval.values import Value

__all__ = ["SPENDING", "Budget", "TooMuchWork", "spending"]

MAX_ITERATIONS = 1_000_000
"""The most elements the ``for`` expressions, template ``for`` directives and ``dynamic``
blocks of one file may visit, all together: past this a loop fails where it stands."""

BLOCK_COST = 10
"""What one element of a ``dynamic`` block counts against :data:`MAX_ITERATIONS`: it
generates a block to decode, about ten times the work of a ``for`` element."""

MAX_MEASURED = 5_000_000
"""The most elements one file may have measured in all (a few seconds of walking)."""

MAX_FILE_STEPS = 1_000_000
"""The most steps the file functions of one file may take in all: patterns expanded from
braces, directory entries tested, files looked at."""

MAX_FILE_BYTES = 256 * 2**20
"""The most bytes the file functions of one file may read in all (16 times the largest file)."""

REMEMBERED = 256
"""Containers of at least this many elements are remembered once measured."""


@dataclass(slots=True)
class Budget:
    """What one file's evaluation has spent so far."""

    iterations: int = 0
    measured: int = 0
    file_steps: int = 0
    file_bytes: int = 0
    remembered: Measured = field(default_factory=dict)

    def visit(self, count: int, cost: int = 1) -> None:
        """Count ``count`` loop elements about to be visited, each at ``cost``."""
        self.iterations += count * cost
        if self.iterations > MAX_ITERATIONS:
            raise TooMuchWork(
                f"the loops of this file visit more than {MAX_ITERATIONS:,} elements in all, "
                f"hclgpu's limit (an element of a `dynamic` block counts {BLOCK_COST})"
            )

    def file_work(self, steps: int, read: int = 0) -> None:
        """Count ``steps`` of a file function's work and ``read`` bytes it read."""
        self.file_steps += steps
        self.file_bytes += read
        if self.file_steps > MAX_FILE_STEPS:
            raise TooMuchWork(
                f"the file functions of this file take more than {MAX_FILE_STEPS:,} steps in all "
                "(patterns expanded from braces, directory entries tested, files looked at), "
                "hclgpu's limit"
            )
        if self.file_bytes > MAX_FILE_BYTES:
            raise TooMuchWork(
                f"the file functions of this file read more than {MAX_FILE_BYTES // 2**20} MiB in all, "
                "hclgpu's limit"
            )

    def measure(self, value: Value) -> None:
        """:class:`~hclgpu.eval.functions.base.ResultTooLarge` if ``value`` holds more than a
        function's result may; what was walked is spent, a walk stopped at the budget too."""
        if not isinstance(value, (list, dict)) or id(value) in self.remembered:
            return
        try:
            values, text, walked = measure(value, self.remembered)
        except ResultTooLarge as error:
            self._spend(error.walked)
            raise
        self._spend(walked)
        if values >= REMEMBERED:
            self.remembered[id(value)] = (value, values, text)

    def _spend(self, walked: int) -> None:
        self.measured += walked
        if self.measured > MAX_MEASURED:
            raise TooMuchWork(
                f"the values this file walks whole (arguments, function arguments, `==` "
                f"operands) add up to more than {MAX_MEASURED:,} elements, hclgpu's limit"
            )


SPENDING: ContextVar[Budget | None] = ContextVar("hclgpu_budget", default=None)
"""The budget of the evaluation calling a function right now: the function tables are
shared by every file, so a function that counts its own work (the file functions) finds
the budget of the file it is working for here."""


def spending() -> Budget:
    """The budget of the current call, or a new one for a call made outside an evaluation."""
    return SPENDING.get() or Budget()
