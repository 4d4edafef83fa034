"""The pieces of ``hclgpu fmt`` below the command line: format with a safety check,
show a diff, write a file atomically (never through a link out of the tree given).

Reading inputs and reporting diagnostics stay in :mod:`hclgpu.cli` (a higher layer);
everything here works on text so it can be tested and reused without the file system.
"""

from __future__ import annotations

import difflib
import errno
import os
from collections.abc import Sequence
from pathlib import Path

from hclgpu.codes import Severity
from hclgpu.diagnostics import Sink
from hclgpu.printer.hcl import format_tree, same_tree
from hclgpu.source import SourceFile, looks_like_json
from hclgpu.syntax import ast
from hclgpu.syntax.parser import parse


class UnsafeFormat(Exception):
    """The formatted text would not mean what the original does: a bug in the printer.

    Raised instead of returning text so that no caller can write such a result."""


def format_checked(tree: ast.File, text: str, path: str = "<fmt>") -> str:
    """Format ``text`` (parsed as ``tree``), then parse the result and compare the trees.

    The printer copies expressions verbatim, so a difference can only be a bug; checking
    costs one more parse and means ``fmt`` can never silently change a job."""
    formatted = format_tree(tree, text)
    if formatted == text:
        return text
    sink = Sink()
    again = parse(SourceFile(path, formatted), sink)
    if again is None or any(d.severity is Severity.ERROR for d in sink) or not same_tree(tree, again):
        raise UnsafeFormat(f"formatting {path} would change its meaning")
    return formatted


def format_document(tree: ast.File, text: str, path: str = "<fmt>") -> str:
    """:func:`format_checked`, keeping Windows line ends in a file that uses them throughout;
    an HCL JSON file is returned as it is."""
    if looks_like_json(text):  # HCL JSON files are left alone: their layout is JSON's
        return text
    formatted = format_checked(tree, text, path)
    if "\r\n" in text and text.count("\n") == text.count("\r\n"):
        formatted = formatted.replace("\r\n", "\n").replace("\n", "\r\n")
    return formatted


def unified_diff(path: str, before: str, after: str) -> str:
    """A ``diff -u`` of the change, with ``a/`` and ``b/`` names as git prints them (an
    absolute path without its leading ``/``, so ``patch -p1`` applies it from the root)."""
    name = path.lstrip("/")
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{name}", f"b/{name}"
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


class LinkOutside(OSError):
    """The file named is a symbolic link to a file outside the trees it may lead into:
    nothing is written (``target`` is where it points)."""

    def __init__(self, path: str | Path, target: Path) -> None:
        super().__init__(
            errno.EXDEV, f"it is a symbolic link to `{target}`, outside the tree given", str(path)
        )
        self.target = target


def writable_target(path: str | Path, within: Sequence[str | Path] | None = None) -> Path:
    """The file a write to ``path`` replaces: ``path`` with its links resolved, which must lie
    inside one of the trees ``within`` (by default the folder holding ``path``): a CI hook
    formats the files of a pull request, and a link it adds (``x.nomad.hcl ->
    ../../etc/agent.hcl``) must not get a file outside the repository rewritten."""
    target = Path(os.path.realpath(path))
    trees = [os.path.dirname(path) or os.curdir] if within is None else within
    for tree in trees:
        top = Path(os.path.realpath(tree))
        if target == top or top in target.parents:
            return target
    raise LinkOutside(path, target)


def write_atomically(path: str | Path, text: str, within: Sequence[str | Path] | None = None) -> None:
    """Replace the file's contents in one step: a temporary file in the same directory
    (so the rename cannot cross file systems), given the original's owner and permissions,
    synced, then ``os.replace`` and the folder synced. A crash, a kill or a full disk leaves
    the original untouched, and an interrupt waits for the rename. A symbolic link is
    followed into ``within`` only (see :func:`writable_target`): the file it points to is
    rewritten and the link stays a link; :class:`LinkOutside` otherwise."""
    from hclgpu.io.durable import replace_file, signals_held

    target = writable_target(path, within)
    with signals_held():
        status = target.stat()
        replace_file(target, text, status.st_mode & 0o7777, ".fmt", owner=status)
