"""How much evaluating one file may do: the loops it runs and the values it walks whole.

Nomad's parser has no such bounds, so a few lines can hold it for an hour: three nested
loops over ``range(1000)``, or locals that repeat one another (``l1 = [local.l0,
local.l0]`` ... ``l30``) and so stand for billions of elements while taking a few bytes.
hclgpu stops such a file at the expression that goes past a bound, with a located error.

A value is *measured* where it is walked whole (an attribute written out, a function's
argument, an operand of ``==``): its elements are counted, shared parts each time they
appear, stopping at the budget of a function's result. A large container once measured is
remembered, so a local passed to a function inside a loop is walked once, not each time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hclgpu.eval.functions.base import Measured, ResultTooLarge, measure
from hclgpu.eval.values import Value

MAX_ITERATIONS = 1_000_000
"""The most elements the ``for`` expressions, template ``for`` directives and ``dynamic``
blocks of one file may visit, all together: past this a loop fails where it stands."""

BLOCK_COST = 10
"""What one element of a ``dynamic`` block counts against :data:`MAX_ITERATIONS`: it
generates a block to decode, about ten times the work of a ``for`` element."""

MAX_MEASURED = 5_000_000
"""The most elements one file may have measured in all (a few seconds of walking)."""

REMEMBERED = 256
"""Containers of at least this many elements are remembered once measured."""


class TooMuchWork(Exception):
    """A file past :data:`MAX_ITERATIONS` or :data:`MAX_MEASURED`; the message says which."""


@dataclass(slots=True)
class Budget:
    """What one file's evaluation has spent so far."""

    iterations: int = 0
    measured: int = 0
    remembered: Measured = field(default_factory=dict)

    def visit(self, count: int, cost: int = 1) -> None:
        """Count ``count`` loop elements about to be visited, each at ``cost``."""
        self.iterations += count * cost
        if self.iterations > MAX_ITERATIONS:
            raise TooMuchWork(
                f"the loops of this file visit more than {MAX_ITERATIONS:,} elements in all, "
                f"hclgpu's limit (an element of a `dynamic` block counts {BLOCK_COST})"
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
