"""File system functions (go-cty-funcs ``filesystem``), confined to the folder they read from.

Relative paths are taken from ``base_dir``: the working directory, as Nomad's CLI takes
them, or the job file's folder (the `file-base` setting; see
:func:`hclgpu.pipeline.file_base_dir`). Nomad's CLI lets these functions read anywhere;
hclgpu, which also runs in CI and editors on files it did not write, confines them
unless ``--allow-fs`` is given: every path is resolved (``..`` and symlinks included) and
must stay inside ``base_dir``'s tree, otherwise the call fails with a message naming the
flag.

Without ``--allow-fs``, ``~`` is never expanded (by ``pathexpand``, ``file``,
``filebase64`` or ``fileexists``): the home directory lies outside the base folder and
even its path is not revealed. ``basename`` and ``dirname`` only handle strings and are
never restricted. With ``--allow-fs`` everything behaves exactly as in Nomad, within the
file's budget: every pattern, directory entry, file looked at and byte read is counted
(:mod:`hclgpu.eval.budget`), so no pattern can walk a disk or a brace bomb run for minutes.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from hclgpu.codes.evaluation import HG107
from hclgpu.eval.functions.base import CallError, Function, Param, define, go_quote
from hclgpu.io.files import Unreadable, read_bytes

if TYPE_CHECKING:
    from hclgpu.eval.budget import Budget

__all__ = ["file_functions"]

_PATH = Param("path", "string")
_META = re.compile(r"[*?\[{\\]")


def go_clean(path: str) -> str:
    """Go's ``filepath.Clean``: lexical, ``""`` is ``.``, a leading ``//`` becomes ``/``."""
    cleaned = posixpath.normpath(path) if path else "."
    return "/" + cleaned.lstrip("/") if cleaned.startswith("//") else cleaned


def go_base(path: str) -> str:
    """Go's ``filepath.Base``."""
    if path == "":
        return "."
    stripped = path.rstrip("/")
    if stripped == "":
        return "/"
    return stripped.rsplit("/", 1)[-1]


def go_dir(path: str) -> str:
    """Go's ``filepath.Dir``."""
    return go_clean(path[: path.rfind("/") + 1])


def _expand_home(path: str) -> str:
    """go-homedir's ``Expand``: a leading ``~`` (alone or before ``/``) is ``$HOME``."""
    if not path.startswith("~"):
        return path
    if len(path) > 1 and path[1] not in "/\\":
        raise ValueError("cannot expand user-specific home dir")
    home = os.environ.get("HOME") or os.path.expanduser("~")
    return go_clean(posixpath.join(home, path[1:].lstrip("/")))


TOUCHED: ContextVar[list[tuple[str, bytes | None]] | None] = ContextVar("hclgpu_fs_touched", default=None)
"""When set (by the check cache), every file the functions read, with its bytes, and every
path they only looked at (``None``: fileexists, fileset), so a cached result can be
invalidated when one of them changes."""


def _budget() -> Budget:
    """The calling file's budget (imported here: the budget imports the function base,
    whose package imports this module)."""
    from hclgpu.eval.budget import spending

    return spending()


def _touch(path: str, data: bytes | None) -> None:
    """Log ``path`` (made absolute: the cache checks it from any working directory)."""
    log = TOUCHED.get()
    if log is not None:
        log.append((os.path.abspath(path), data))


class _Files:
    """The file functions bound to one base directory and one confinement setting.

    go-cty-funcs returns each of its errors as a plain Go error, never a ``function.ArgError``
    (hashicorp/go-cty-funcs filesystem/filesystem.go at b1e701b), so HCL reports it at the
    call's name and parenthesis, "Error in function call" (hashicorp/hcl hclsyntax/expression.go
    :613-626 at v2.20.2-nomad-1): those :class:`CallError` s name no argument. hclgpu's own
    refusals (HG107) point at the path argument.
    """

    def __init__(self, base_dir: Path, allow_fs: bool) -> None:
        self.base = str(base_dir)
        self.allow_fs = allow_fs
        self.real_base = os.path.realpath(self.base)

    # paths

    def _home(self, path: str) -> str:
        """Expand ``~`` when allowed; without ``--allow-fs`` refuse it outright."""
        if not path.startswith("~"):
            return path
        if not self.allow_fs:
            raise CallError(
                f"{go_quote(path)} names the home directory, which is outside the folder file functions "
                "read from; pass --allow-fs to let file functions use it",
                arg=0,
                code=HG107,
            )
        try:
            return _expand_home(path)
        except ValueError as exc:
            raise CallError(f"failed to expand ~: {exc}") from None

    def _join(self, path: str) -> str:
        """``path`` relative to the base directory, cleaned as Go does."""
        return go_clean(path if posixpath.isabs(path) else posixpath.join(self.base, path))

    def _confine(self, original: str, path: str) -> None:
        """Refuse a path that resolves outside the base directory (unless allowed)."""
        if self.allow_fs:
            return
        real = os.path.realpath(path)
        if real == self.real_base or real.startswith(self.real_base.rstrip("/") + "/"):
            return
        raise CallError(
            f"{go_quote(original)} resolves to {real}, which is outside {self.real_base}, "
            "the folder file functions read from; pass --allow-fs to let file functions read it",
            arg=0,
            code=HG107,
        )

    def _resolve(self, original: str) -> str:
        """Expand, join, clean and confine a path argument."""
        path = self._join(self._home(original))
        self._confine(original, path)
        return path

    # functions

    def read(self, original: str) -> bytes:
        """The bytes of a file, with go-cty-funcs' messages."""
        path = self._resolve(original)
        try:
            data = read_bytes(path)[0]  # a regular file of at most 16 MiB: never a FIFO or /dev/zero
            _touch(path, data)
            _budget().file_work(1, len(data))
            return data
        except FileNotFoundError:
            _touch(path, None)
            raise CallError(f"no file exists at {path}") from None
        except Unreadable as error:
            _touch(path, None)
            raise CallError(f"failed to read {path}: {error}") from None
        except OSError:
            _touch(path, None)  # unreadable now, perhaps not later: never cached
            raise CallError(f"failed to read {path}") from None

    def file(self, original: str) -> str:
        """A file's contents, which must be UTF-8."""
        data = self.read(original)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise CallError(
                f"contents of {original} are not valid UTF-8; use the filebase64 function to obtain the "
                "Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain "
                "file hashing results instead"
            ) from None

    def filebase64(self, original: str) -> str:
        """A file's contents in base64."""
        import base64

        return base64.b64encode(self.read(original)).decode("ascii")

    def fileexists(self, original: str) -> bool:
        """Whether a regular file exists there (a directory is an error, as in Nomad)."""
        import stat

        path = self._resolve(original)
        _touch(path, None)
        _budget().file_work(1)
        try:
            info = os.stat(path)
        except FileNotFoundError:
            return False
        except OSError:
            raise CallError(f"failed to stat {path}") from None
        if stat.S_ISREG(info.st_mode):
            return True
        raise CallError(f"{path} is not a regular file, but {go_quote(stat.filemode(info.st_mode))}")

    def fileset(self, directory: str, pattern: str) -> list[str]:
        """Regular files under ``directory`` matching a doublestar ``pattern``, sorted.

        Every step counts against the file's budget (:mod:`hclgpu.eval.budget`), the patterns
        its braces stand for before one is expanded. Without ``--allow-fs`` the walk never
        lists, or even looks for a file in, a directory outside the base folder: a pattern
        such as ``../../**/*`` fails before it reads a name there."""
        path = self._join(directory)
        _touch(path, None)
        self._confine(directory, path)
        joined = go_clean(posixpath.join(path, pattern))
        budget = _budget()
        glob = _Glob(budget, None if self.allow_fs else self._inside)
        try:
            matches = sorted(set(glob.matches(joined)))
        except ValueError as exc:
            raise CallError(f"failed to glob pattern ({joined}): {exc}") from None
        except _Outside:
            raise CallError(
                f"the pattern {go_quote(pattern)} reaches outside {self.real_base}, "
                "the folder file functions read from; pass --allow-fs to let file functions read there",
                arg=1,
                code=HG107,
            ) from None
        result: list[str] = []
        for match in matches:
            budget.file_work(1)
            try:
                info = os.stat(match)
            except OSError as exc:
                raise CallError(f"failed to stat ({match}): {exc.strerror}") from None
            if info.st_mode & 61440 != 32768:
                continue
            self._confine(posixpath.relpath(match, path), match)
            result.append(posixpath.relpath(match, path))
        return sorted(result)

    def _inside(self, path: str) -> bool:
        """Whether ``path`` resolves inside the base folder."""
        real = os.path.realpath(path or ".")
        return real == self.real_base or real.startswith(self.real_base.rstrip("/") + "/")

    def abspath(self, original: str) -> str:
        """The absolute form of a path (relative paths start at the base folder)."""
        path = go_clean(posixpath.join(os.path.abspath(self.base), original))
        self._confine(original, path)
        return path

    def pathexpand(self, original: str) -> str:
        """A leading ``~`` replaced by the home directory."""
        return self._home(original)


# --- doublestar globbing (bmatcuk/doublestar v1) ---------------------------------------------


def _first_group(pattern: str) -> tuple[int, int] | None:
    """The start and end of the first top-level ``{...}`` group, or None; ValueError when a
    brace is never closed."""
    depth, start, i = 0, -1, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            if depth == 0:
                start = i
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                return start, i
        i += 1
    if depth:
        raise ValueError("syntax error in pattern")
    return None


def _count_expansions(pattern: str) -> int:
    """How many patterns :func:`_expand_braces` makes of ``pattern``, without making them:
    each group multiplies the rest by the sum of its options' own counts."""
    group = _first_group(pattern)
    if group is None:
        return 1
    start, end = group
    rest = _count_expansions(pattern[end + 1 :])
    return sum(_count_expansions(option) for option in _split_options(pattern[start + 1 : end])) * rest


def _expand_braces(pattern: str) -> Iterator[str]:
    """``{a,b}`` alternatives expanded into separate patterns (nested braces allowed)."""
    group = _first_group(pattern)
    if group is None:
        yield pattern
        return
    start, end = group
    for option in _split_options(pattern[start + 1 : end]):
        yield from _expand_braces(pattern[:start] + option + pattern[end + 1 :])


def _split_options(body: str) -> list[str]:
    """Split brace contents at top-level commas."""
    options, depth, current, i = [], 0, [], 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            current.append(body[i : i + 2])
            i += 2
            continue
        if char == "," and depth == 0:
            options.append("".join(current))
            current = []
        else:
            depth += {"{": 1, "}": -1}.get(char, 0)
            current.append(char)
        i += 1
    options.append("".join(current))
    return options


def _component_regex(component: str) -> re.Pattern[str]:
    """One path component's pattern (``*``, ``?``, ``[...]``, ``\\`` escapes) as a regex."""
    out, i = [], 0
    while i < len(component):
        char = component[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "\\":
            if i + 1 >= len(component):
                raise ValueError("syntax error in pattern")
            out.append(re.escape(component[i + 1]))
            i += 1
        elif char == "[":
            end = component.find("]", i + 2)
            if end < 0:
                raise ValueError("syntax error in pattern")
            body = component[i + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            escaped = "".join("\\" + c if c in "\\]^[" else c for c in body)
            out.append(f"[{'^' if negate else ''}{escaped}]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return re.compile("".join(out))


class _Outside(Exception):
    """The walk was about to look into a directory outside the base folder."""


class _Glob:
    """One ``fileset`` walk: counts its steps against ``budget`` and, given ``inside``,
    refuses to list or probe a directory for which it is false."""

    def __init__(self, budget: Budget, inside: Callable[[str], bool] | None) -> None:
        self.budget = budget
        self.inside = inside
        self.listed: dict[str, list[str]] = {}
        self.entered: set[str] = set()
        """Directories already found inside the tree (each resolved once, not per match)."""

    def matches(self, pattern: str) -> Iterator[str]:
        """All existing paths matching ``pattern``, its braces expanded once counted."""
        self.budget.file_work(_count_expansions(pattern))
        for expanded in _expand_braces(pattern):
            absolute = expanded.startswith("/")
            parts = [p for p in expanded.split("/") if p]
            yield from self._parts("/" if absolute else "", parts)

    def _parts(self, current: str, parts: list[str]) -> Iterator[str]:
        """Match ``parts`` below ``current``; ``**`` spans any number of directories."""
        if not parts:
            self._enter(posixpath.dirname(current))
            self.budget.file_work(1)
            if current and os.path.lexists(current):
                yield current
            return
        part, rest = parts[0], parts[1:]
        if part == "**":
            yield from self._parts(current, rest)
            for entry in self._entries(current):
                child = posixpath.join(current, entry)
                if os.path.isdir(child) and not os.path.islink(child):
                    yield from self._parts(child, parts)
        elif not _META.search(part):
            yield from self._parts(posixpath.join(current, part), rest)
        else:
            matcher = _component_regex(part)
            for entry in self._entries(current):
                if matcher.fullmatch(entry):
                    yield from self._parts(posixpath.join(current, entry), rest)

    def _enter(self, directory: str) -> None:
        """Refuse a directory outside the tree before anything in it is looked at."""
        if self.inside is None or directory in self.entered:
            return
        if not self.inside(directory or "."):
            raise _Outside
        self.entered.add(directory)

    def _entries(self, current: str) -> list[str]:
        """A directory's entries (none if it cannot be listed), each a step of the walk."""
        directory = current or "."
        entries = self.listed.get(directory)
        if entries is None:
            self._enter(directory)
            try:
                entries = sorted(os.listdir(directory))
            except OSError:
                entries = []
            self.listed[directory] = entries
        self.budget.file_work(len(entries) + 1)
        return entries


def file_functions(base_dir: Path, allow_fs: bool) -> dict[str, Function]:
    """The eight file system functions, bound to ``base_dir`` and the confinement setting."""
    files = _Files(base_dir, allow_fs)
    functions = (
        define("abspath", files.abspath, _PATH),
        define("basename", go_base, _PATH),
        define("dirname", go_dir, _PATH),
        define("file", files.file, _PATH),
        define("filebase64", files.filebase64, _PATH),
        define("fileexists", files.fileexists, _PATH),
        define("fileset", files.fileset, _PATH, Param("pattern", "string")),
        define("pathexpand", files.pathexpand, _PATH),
    )
    return {function.name: function for function in functions}
