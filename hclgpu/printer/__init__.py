"""Printing syntax trees back as canonical HCL (``hclgpu fmt``).

The printer only re-lays-out the structure (indentation, ``=`` alignment, blank lines,
braces); every expression is copied from the source text, so formatting can never change
what a job means.
"""

from __future__ import annotations

from hclgpu.printer.hcl import format_tree, same_tree

__all__ = ["format_tree", "same_tree"]
