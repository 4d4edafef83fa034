"""The pieces of ``hclgpu fmt`` below the command line: format with a safety check,
show a diff, write a file atomically.

Reading inputs and reporting diagnostics stay in :mod:`hclgpu.cli` (a higher layer);
everything here works on text so it can be tested and reused without the file system.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import tempfile
from pathlib import Path

from hclgpu.codes import Severity
from hclgpu.diagnostics import Sink
from hclgpu.printer.hcl import format_tree, same_tree
from hclgpu.source import SourceFile
from hclgpu.syntax import ast
from hclgpu.syntax.parser import parse


class UnsafeFormat(Exception):
    """The formatted text would not mean what the original does: a bug in the printer.

    Raised instead of returning text so that no caller can write such a result."""


def is_json_syntax(text: str) -> bool:
    """HCL JSON files are left alone: their layout is JSON's, not HCL's (same test as the pipeline)."""
    return text.lstrip(" ").startswith("{")


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
    if is_json_syntax(text):
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


def write_atomically(path: str | Path, text: str) -> None:
    """Replace the file's contents in one step: a temporary file in the same directory
    (so the rename cannot cross file systems), given the original's owner and permissions,
    then ``os.replace``. A crash or a full disk leaves the original untouched. A symbolic
    link is followed: the file it points to is rewritten and the link stays a link."""
    target = Path(os.path.realpath(path))
    status = target.stat()
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        _keep_owner(temporary, status)
        os.chmod(temporary, status.st_mode & 0o7777)  # after chown, which may clear set-id bits
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _keep_owner(path: str, status: os.stat_result) -> None:
    """Give ``path`` the original's owner and group where allowed: only root can give a
    file away, so for anyone else the new file stays theirs, as an editor's would."""
    if not hasattr(os, "chown"):
        return
    with contextlib.suppress(PermissionError):
        os.chown(path, status.st_uid, status.st_gid)
