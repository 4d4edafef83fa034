"""RE2 as Nomad's ``regexp`` constraints run it: Go's ``regexp`` acceptance and matching.

* :mod:`hclgpu.re2.parser` — Go's ``regexp/syntax`` parser: what Go accepts, in Go's words.
* :mod:`hclgpu.re2.translator` — Python ``re`` syntax for one node, with Go's semantics.
* :mod:`hclgpu.re2.vm` — a Pike VM over the tree: matching time linear in the text.

Only jobs with a regexp pay for this package: nothing imports it up front.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from hclgpu.re2.parser import Re2Error, parse

if TYPE_CHECKING:
    from hclgpu.re2.vm import Program

__all__ = ["Re2Error", "re2_problem", "re2_search"]


def re2_problem(pattern: str) -> str | None:
    """``None`` when Go's ``regexp.Compile`` accepts ``pattern``, else Go's message
    without its ``error parsing regexp: `` prefix, e.g. ``invalid escape sequence: `\\Z```."""
    try:
        parse(pattern)
    except Re2Error as error:
        return str(error)
    return None


def re2_search(pattern: str, text: str) -> bool:
    """``regexp.MustCompile(pattern).MatchString(text)``: an unanchored search.

    A pattern Go rejects matches nothing, as in Nomad's ``checkRegexpMatch``. Matching is
    linear in the text, as RE2's: a Pike VM over the parse tree, each character tested with
    Go's semantics translated to a one-character Python pattern (ASCII ``\\d\\s\\w``, flags
    scoped to their group).
    """
    compiled = _compiled(pattern)
    return compiled is not None and compiled.search(text)


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> Program | None:
    """The compiled pattern (cached: constraints repeat across nodes), run in linear time
    by :class:`~hclgpu.re2.vm.Program`, never by a backtracking engine."""
    import re

    from hclgpu.re2.vm import Program

    try:
        return Program(parse(pattern))
    except (Re2Error, RecursionError, re.error):
        return None  # rejected by Go, or nested too deeply to compile
