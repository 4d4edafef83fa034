"""The kinds of value a setting holds, and how each is read from the three places a value
comes from: a word of the command line, a value of a TOML configuration file, and a value
of an editor's JSON settings.

Each reader raises ValueError with a message that names no place: the caller adds the
flag, the file and key, or the editor setting. Relative paths are resolved from the place
the value was written: the configuration file's folder, the working directory for the
command line, the workspace root for an editor.
"""

from __future__ import annotations

import os

from hclgpu.settings.patterns import Pattern

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import ClassVar

    from hclgpu.settings.releases import Release


class Kind:
    """How one kind of value is read, shown and given on the command line."""

    metavar = "VALUE"
    cli = "value"
    """``switch`` (``--x`` for true, ``--no-x`` for false), ``value``, ``append``
    (repeatable), ``list`` (a comma-separated list), or ``none`` (no flag)."""
    toml = "string"
    """How the README's table names the type of the configuration key."""
    choices: tuple[str, ...] = ()

    def parse(self, text: str, base: str) -> object:
        """A value from a command-line word (relative paths from ``base``)."""
        return self.read(text, base)

    def read(self, raw: object, base: str) -> object:
        """A value from a configuration file or an editor (relative paths from ``base``)."""
        raise NotImplementedError

    def join(self, earlier: object, later: object) -> object:
        """Two values of a repeatable or extending setting as one."""
        return later

    def show(self, value: object) -> str:
        """The value as the README's table and ``--show-settings`` print it."""
        if value is None:
            return "not set"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)


class Bool(Kind):
    """True or false; a cluster fact's default None says "not stated"."""

    cli = "switch"
    toml = "true or false"

    def read(self, raw: object, base: str) -> object:
        if not isinstance(raw, bool):
            raise ValueError(f"must be true or false, not {_shown(raw)}")
        return raw


class Choice(Kind):
    def __init__(self, *choices: str) -> None:
        self.choices = choices
        self.metavar = "|".join(choices)
        self.toml = " or ".join(f'"{c}"' for c in choices)

    def read(self, raw: object, base: str) -> object:
        if not isinstance(raw, str) or raw not in self.choices:
            raise ValueError(f"must be one of {', '.join(self.choices)}, not {_shown(raw)}")
        return raw


class NomadRelease(Kind):
    metavar = "X.Y[.Z]"
    toml = 'string ("2.0" or "2.0.5")'

    def read(self, raw: object, base: str) -> Release:
        from hclgpu.settings.releases import parse_release

        if not isinstance(raw, str):
            raise ValueError(f'must be a release such as "2.0.5", not {_shown(raw)}')
        return parse_release(raw)

    def show(self, value: object) -> str:
        from hclgpu.settings.releases import release_text

        return release_text(value) if isinstance(value, tuple) else super().show(value)


class Number(Kind):
    """A number above 0: whole (:class:`PositiveInt`) or finite (:class:`Seconds`)."""

    def __init__(self, whole: bool, metavar: str, what: str) -> None:
        self.whole = whole
        self.metavar = metavar
        self.toml = what
        self._what = what

    def parse(self, text: str, base: str) -> object:
        try:
            return self.read(int(text) if self.whole else float(text), base)
        except ValueError:
            raise ValueError(f"must be a {self._what}, not {text!r}") from None

    def read(self, raw: object, base: str) -> object:
        kinds = int if self.whole else int | float
        if isinstance(raw, bool) or not isinstance(raw, kinds) or not 0 < raw < float("inf"):
            raise ValueError(f"must be a {self._what}, not {_shown(raw)}")
        return raw if self.whole else float(raw)


class PositiveInt(Number):
    def __init__(self) -> None:
        super().__init__(True, "N", "whole number above 0")


class Seconds(Number):
    def __init__(self) -> None:
        super().__init__(False, "SECONDS", "number of seconds above 0")


class ByteSize(Kind):
    """A size as the Nomad agent reads `job_max_source_size` (command/agent/agent.go:703 at
    aa026cc99c): a whole number of bytes, or go-humanize's ``ParseBytes`` text ("1M" is
    1,000,000 bytes, "1MiB" 1,048,576; units in any case, a space allowed before them)."""

    metavar = "SIZE"
    toml = 'bytes, or a size such as "1M" or "2MiB"'
    _UNITS: ClassVar[dict[str, int]] = {"": 1, "b": 1}
    for power, letter in enumerate("kmgtpe", start=1):
        _UNITS.update({letter: 1000**power, f"{letter}b": 1000**power})
        _UNITS.update({f"{letter}i": 1024**power, f"{letter}ib": 1024**power})

    def parse(self, text: str, base: str) -> object:
        return self.read(text, base)

    def read(self, raw: object, base: str) -> object:
        if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0:
            return raw
        if isinstance(raw, str):
            import re

            match = re.fullmatch(r"([0-9.,]+)(.*)", raw)
            unit = self._UNITS.get(match.group(2).strip().lower()) if match else None
            if match is not None and unit is not None:
                try:
                    size = int(float(match.group(1).replace(",", "")) * unit)
                except (ValueError, OverflowError):
                    size = 0
                if size > 0:
                    return size
        raise ValueError(f'must be a size in bytes, such as 1000000 or "1M", not {_shown(raw)}')


class Text(Kind):
    """A string, checked by ``problem`` (None when it is fine)."""

    def __init__(self, metavar: str = "TEXT", problem: object = None) -> None:
        self.metavar = metavar
        self._problem = problem

    def read(self, raw: object, base: str) -> object:
        if not isinstance(raw, str) or not (raw or callable(self._problem)) or "\0" in raw:
            raise ValueError(f"must be a non-empty string, not {_shown(raw)}")
        problem = self._problem(raw) if callable(self._problem) else None
        if problem:
            raise ValueError(str(problem))
        return raw


class Path(Kind):
    """A path, relative to where it is written; the words in ``literal`` stand for
    themselves (`nodes = "nomad"`: the cluster at NOMAD_ADDR)."""

    toml = "path"

    def __init__(self, metavar: str = "PATH", literal: tuple[str, ...] = ()) -> None:
        self.metavar = metavar
        self.literal = literal

    def read(self, raw: object, base: str) -> object:
        if not isinstance(raw, str) or not raw or "\0" in raw:
            raise ValueError(f"must be a path, not {_shown(raw)}")
        return raw if raw in self.literal else resolve_path(raw, base)


class Many(Kind):
    """A list of the values of another kind, repeatable on the command line."""

    cli = "append"

    def __init__(self, item: Kind, metavar: str, toml: str, comma: bool = False) -> None:
        self.item = item
        self.metavar = metavar
        self.toml = toml
        self.choices = item.choices
        if comma:
            self.cli = "list"

    def parse(self, text: str, base: str) -> object:
        words = [w for w in text.split(",") if w.strip()] if self.cli == "list" else [text]
        return tuple(self.item.parse(word.strip() if self.cli == "list" else word, base) for word in words)

    def read(self, raw: object, base: str) -> object:
        if isinstance(raw, str):
            raw = [raw]
        if isinstance(raw, tuple):  # the Python API's
            raw = list(raw)
        if not isinstance(raw, list):
            raise ValueError(f"must be a list, like [{self.metavar.lower()!r}], not {_shown(raw)}")
        return tuple(self.item.read(item, base) for item in raw)

    def join(self, earlier: object, later: object) -> object:
        return (*_items(earlier), *_items(later))

    def show(self, value: object) -> str:
        items = _items(value)
        return "[" + ", ".join(f'"{self.item.show(v)}"' for v in items) + "]"


class Selector(Kind):
    """A code, code prefix, or code or check name (:mod:`hclgpu.settings.selectors`)."""

    metavar = "CODE"

    def read(self, raw: object, base: str) -> object:
        from hclgpu.settings.selectors import selector

        if not isinstance(raw, str) or not raw.strip():
            raise ValueError(f'must be a code or check name, like "HG264", not {_shown(raw)}')
        return selector(raw)


class Ignorable(Selector):
    """A selector that names findings `ignore` can hide (:func:`~hclgpu.settings.selectors.ignorable`)."""

    def read(self, raw: object, base: str) -> object:
        from hclgpu.settings.selectors import ignorable

        super().read(raw, base)
        assert isinstance(raw, str)
        return ignorable(raw)


class Glob(Kind):
    """A gitignore-style pattern, matched from where it is written."""

    metavar = "PATTERN"

    def read(self, raw: object, base: str) -> object:
        if not isinstance(raw, str) or not raw.strip():
            raise ValueError(f"must be a pattern, like 'legacy/', not {_shown(raw)}")
        return Pattern(raw, base)

    def show(self, value: object) -> str:
        return value.text if isinstance(value, Pattern) else super().show(value)


class IgnoresByPattern(Kind):
    """``per-file-ignores``: a table of pattern = [selectors]."""

    cli = "none"
    toml = 'table of pattern = ["HG260", ...]'

    def read(self, raw: object, base: str) -> object:
        if not isinstance(raw, dict):
            raise ValueError('must be a table of pattern = ["HG260", ...]')
        selectors = Many(Ignorable(), "CODE", "")
        return tuple(
            (Pattern(str(pattern), base), selectors.read(codes, base)) for pattern, codes in raw.items()
        )

    def join(self, earlier: object, later: object) -> object:
        return (*_items(earlier), *_items(later))

    def show(self, value: object) -> str:
        shown = [f'"{pair[0].text}" = {list(pair[1])}' for pair in _items(value) if isinstance(pair, tuple)]
        return "{" + ", ".join(shown) + "}"


def dns_label_problem(text: str) -> str | None:
    """Why ``text`` cannot be a Kubernetes namespace (an RFC 1123 label, written into every
    manifest as it is given), or None."""
    import re

    if re.fullmatch(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?", text):
        return None
    return (
        f"{text!r} is not a DNS label (at most 63 lowercase letters, digits and '-', "
        "starting and ending with a letter or digit)"
    )


def resolve_path(raw: str, base: str) -> str:
    """``raw`` from ``base``, as short as the working directory allows (messages name it)."""
    path = os.path.normpath(os.path.join(base, os.path.expanduser(raw)))
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return path if relative.startswith(os.pardir + os.sep) and os.path.isabs(raw) else relative


def _items(value: object) -> tuple[object, ...]:
    return tuple(value) if isinstance(value, tuple | list) else ()


def _shown(raw: object) -> str:
    if isinstance(raw, str):
        return repr(raw)
    if isinstance(raw, bool):
        return "true" if raw else "false"
    return type(raw).__name__ if isinstance(raw, dict | list) else repr(raw)
