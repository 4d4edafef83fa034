"""HG2xx for resources, networks, deprecations, naming, and suppressions."""

from __future__ import annotations

from hclgpu.codes.base import Code

CODES: tuple[Code, ...] = ()
