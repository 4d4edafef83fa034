"""HG2xx for device requests: names, targets, values, operators, weights, satisfiability."""

from __future__ import annotations

from hclgpu.codes.base import Code

CODES: tuple[Code, ...] = ()
