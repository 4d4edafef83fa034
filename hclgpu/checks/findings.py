"""A failed server check, held as a value until its rule reports it.

Some of Nomad's validators return only their first error (`ConsulConnect.Validate` with
the gateway blocks under it, each admission hook around Connect). The rules that mirror
them try one check after the other, each giving a :class:`Finding` or None, and report the
first finding they get.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hclgpu.checks.context import Context
from hclgpu.checks.server import Condition, reject
from hclgpu.source import Span


@dataclass(frozen=True, slots=True)
class Finding:
    """A condition that failed, where, and the values its message formats in."""

    condition: Condition
    span: Span | None
    help: str
    values: Mapping[str, Any] = field(default_factory=dict)


def report_finding(ctx: Context, finding: Finding | None, where: str) -> None:
    """Report ``finding``, if there is one, with ``where`` before its message."""
    if finding is not None:
        reject(ctx, finding.condition, finding.span, where=where, help=finding.help, **finding.values)
