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

from hclgpu.eval.functions_base import MAX_RESULT_TEXT, MAX_RESULT_VALUES
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


class TooLarge(Exception):
    """A value past the budget of a function's result."""


class TooMuchWork(Exception):
    """A file past :data:`MAX_ITERATIONS` or :data:`MAX_MEASURED`; the message says which."""


@dataclass(slots=True)
class Budget:
    """What one file's evaluation has spent so far."""

    iterations: int = 0
    measured: int = 0
    remembered: dict[int, tuple[Value, int, int]] = field(default_factory=dict)
    """Measured containers by id: (the container, kept so its id stays its own; elements; text)."""

    def visit(self, count: int, cost: int = 1) -> None:
        """Count ``count`` loop elements about to be visited, each at ``cost``."""
        self.iterations += count * cost
        if self.iterations > MAX_ITERATIONS:
            raise TooMuchWork(
                f"the loops of this file visit more than {MAX_ITERATIONS:,} elements in all, "
                f"hclgpu's limit (an element of a `dynamic` block counts {BLOCK_COST})"
            )

    def measure(self, value: Value) -> None:
        """Raise :class:`TooLarge` if ``value`` holds more than a function's result may."""
        if not isinstance(value, (list, dict)) or id(value) in self.remembered:
            return
        values, text = self._walk(value)
        if values >= REMEMBERED:
            self.remembered[id(value)] = (value, values, text)

    def _walk(self, value: list[Value] | dict[str, Value]) -> tuple[int, int]:
        """Elements and characters of ``value``, remembered containers taken as counted."""
        values = text = walked = 0
        stack: list[Value] = [value]
        try:
            while stack:
                item = stack.pop()
                walked += 1
                known = self.remembered.get(id(item)) if isinstance(item, (list, dict)) else None
                if known is not None:
                    values, text = values + known[1], text + known[2]
                elif isinstance(item, str):
                    values, text = values + 1, text + len(item)
                elif isinstance(item, dict):
                    values, text = values + 1, text + sum(map(len, item))
                    stack.extend(item.values())
                elif isinstance(item, list):
                    values += 1
                    stack.extend(item)
                else:
                    values += 1
                if values + len(stack) > MAX_RESULT_VALUES or text > MAX_RESULT_TEXT:
                    raise TooLarge
        finally:  # a walk stopped at the budget was work too
            self._spend(walked)
        return values, text

    def _spend(self, walked: int) -> None:
        self.measured += walked
        if self.measured > MAX_MEASURED:
            raise TooMuchWork(
                f"the values this file walks whole (arguments, function arguments, `==` "
                f"operands) add up to more than {MAX_MEASURED:,} elements, hclgpu's limit"
            )
