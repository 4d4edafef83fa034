"""Pausing Python's cyclic garbage collector while a large acyclic tree is built.

A syntax tree, a job model and a rendered document are trees: nothing in them is a cycle,
so a collection while they are being built finds nothing to free and only walks them. On
a 1 MB job such walks cost more than printing the Nomad JSON itself.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Disable the cyclic collector for the block (reference counting still frees memory)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def kept_for_good() -> Iterator[None]:
    """:func:`paused_gc`, and what the block built is never walked by the collector again.

    For a command that reads one job and ends once it has written the result: its syntax
    tree and job live until the process exits, so collecting them can only cost time (one
    walk of a 1 MB job's objects is about 36 ms, more than printing its Nomad JSON). They
    are moved to the collector's permanent generation (``gc.freeze``); reference counting
    still frees whatever the command drops.
    """
    with paused_gc():
        yield
        gc.freeze()


_KEPT: list[object] = []


def keep(value: object) -> None:
    """Hold ``value`` (a command's one job: its tree, model and findings) until the process
    ends. Freeing a 1 MB job object by object costs about 17 ms; a program that has written
    its result ends without it (:func:`hclgpu.cli.run`). Only the last value is held, so a
    process that runs commands in turn (the tests, an embedding program) holds one job."""
    _KEPT[:] = [value]


def holds_kept() -> bool:
    """Whether :func:`keep` holds anything, which only the process's end should free."""
    return bool(_KEPT)
