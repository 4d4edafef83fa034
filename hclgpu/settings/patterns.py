"""gitignore-style patterns, for `exclude`, `extend-exclude` and `per-file-ignores`.

A pattern is matched against a path relative to the folder it was written for (the
configuration file's folder, or the working directory for the command line), as git
matches a `.gitignore`:

* a pattern with no ``/`` but a trailing one matches a name at any depth: ``vars.hcl``,
  ``*.vars.hcl``, ``legacy/`` (a folder named ``legacy`` anywhere, below the folder walked);
* a pattern with a ``/`` elsewhere is anchored to the folder it was written for:
  ``jobs/legacy``, ``/staging.nomad.hcl``;
* ``*`` and ``?`` match within one name, ``[a-z]`` one character of a class (``[!a]`` one
  outside it), ``**`` any number of folders (``jobs/**/old-*.hcl``);
* a trailing ``/`` matches folders only, and everything below a matched folder is matched.

Negation (``!pattern``) is not supported: a pattern may only add to what is excluded.
"""

from __future__ import annotations

import os
import re


class Pattern:
    """One pattern and the folder it is matched from."""

    __slots__ = ("anchored", "base", "directory_only", "regex", "text")

    def __init__(self, text: str, base: str) -> None:
        pattern = text.strip()
        if pattern.startswith("!"):
            raise ValueError(f"`{text}`: negated patterns (`!`) are not supported")
        self.text = text
        self.base = os.path.abspath(base)
        self.directory_only = pattern.endswith("/")
        pattern = pattern.rstrip("/")
        if not pattern:
            raise ValueError(f"`{text}` matches nothing")
        self.anchored = "/" in pattern
        try:
            self.regex = re.compile(_translate(pattern.lstrip("/")), re.DOTALL)
        except re.error as error:
            raise ValueError(f"`{text}` is not a pattern: {error}") from None

    def matches(self, path: str, is_dir: bool, ancestors: bool = False) -> bool:
        """Whether ``path`` (absolute, or relative to the working directory) is matched; with
        ``ancestors``, or one of the folders above it. A folder's walk asks of each entry
        alone (it does not go into a folder that is matched), so the folder walked is never
        excluded by its own name; a file named on the command line asks with ``ancestors``."""
        full = os.path.abspath(path)
        while True:
            if (is_dir or not self.directory_only) and self._matches_itself(full):
                return True
            parent = os.path.dirname(full)
            if not ancestors or _relative(parent, self.base) is None:  # not above its own folder
                return False
            full, is_dir = parent, True

    def _matches_itself(self, full: str) -> bool:
        if not self.anchored:  # a name at any depth
            return self.regex.fullmatch(os.path.basename(full)) is not None
        relative = _relative(full, self.base)
        return relative is not None and self.regex.fullmatch(relative) is not None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pattern) and (self.text, self.base) == (other.text, other.base)

    def __hash__(self) -> int:
        return hash((self.text, self.base))

    def __repr__(self) -> str:
        return f"Pattern({self.text!r}, {self.base!r})"


def _relative(full: str, base: str) -> str | None:
    """``full`` (absolute) relative to ``base`` with ``/`` separators, or None when outside."""
    if full == base:
        return None
    prefix = base if base.endswith(os.sep) else base + os.sep
    if not full.startswith(prefix):
        return None
    return full[len(prefix) :].replace(os.sep, "/")


def _translate(glob: str) -> str:
    """A regular expression for one glob (see the module's rules)."""
    out: list[str] = []
    index, size = 0, len(glob)
    while index < size:
        char = glob[index]
        if glob.startswith("**/", index):
            out.append("(?:[^/]+/)*")
            index += 3
        elif glob.startswith("/**", index) and index + 3 == size:
            out.append("/.*")
            index += 3
        elif glob.startswith("**", index):
            out.append(".*")
            index += 2
        elif char == "*":
            out.append("[^/]*")
            index += 1
        elif char == "?":
            out.append("[^/]")
            index += 1
        elif char == "[":
            end = glob.find("]", index + 2)
            if end < 0:
                out.append(re.escape(char))
                index += 1
                continue
            inner = glob[index + 1 : end]
            negated = inner[:1] in ("!", "^")
            inner = inner[1:] if negated else inner
            out.append(("[^/" if negated else "[") + inner.replace("\\", "\\\\") + "]")
            index = end + 1
        else:
            out.append(re.escape(char))
            index += 1
    return "".join(out)
