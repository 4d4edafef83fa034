"""Configuration files: which one applies to a file, and what it says.

The configuration of a file is the nearest one in its folder or a folder above it. In one
folder, ``.hclgpu.toml`` wins over ``hclgpu.toml``, which wins over the `[tool.hclgpu]`
table of ``pyproject.toml`` (a pyproject.toml without that table is passed over, and the
search goes on upwards). The files are not merged: the nearest one is the whole
configuration, as ruff does it. ``hclgpu.toml`` and ``.hclgpu.toml`` hold the keys at their
top level, or in a `[tool.hclgpu]` table (so the README's pyproject.toml example works in
either file).

Every key is an option of :class:`hclgpu.settings.Settings` that a configuration may set,
by its name (``nomad-version``); an unknown key, a value of the wrong kind or a code that
does not exist is a :class:`ConfigError` naming the file and the key, with the nearest
real name: the command exits 2, as for any usage error.
"""

from __future__ import annotations

import os

from hclgpu.io.files import read_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from hclgpu.settings.option import Option

NAMES = (".hclgpu.toml", "hclgpu.toml", "pyproject.toml")
"""The configuration files of a folder, the first present one winning."""


class ConfigError(Exception):
    """A configuration that cannot be used; the message names the file and the key."""


class ConfigFile:
    """One configuration file's values, read and checked (relative paths resolved)."""

    __slots__ = ("directory", "path", "values")

    def __init__(self, path: str, values: dict[str, object]) -> None:
        self.path = path
        self.directory = os.path.dirname(os.path.abspath(path))
        self.values = values
        """Option attribute → value."""


class Configurations:
    """The configuration files one run reads, each read once (a language server makes one
    of these per analysis: its files change while it runs)."""

    __slots__ = ("_found", "_read")

    def __init__(self) -> None:
        self._found: dict[str, ConfigFile | None] = {}
        """Folder → the configuration that applies in it."""
        self._read: dict[str, ConfigFile | None] = {}

    def nearest(self, folder: str) -> ConfigFile | None:
        """The configuration that applies in ``folder``: the nearest one there or above it."""
        visited: list[str] = []
        current = os.path.abspath(folder)
        found: ConfigFile | None = None
        while True:
            if current in self._found:
                found = self._found[current]
                break
            visited.append(current)
            found = self._in_folder(current)
            if found is not None:
                break
            parent = os.path.dirname(current)
            if parent == current:
                break
            current = parent
        for name in visited:
            self._found[name] = found
        return found

    def _in_folder(self, folder: str) -> ConfigFile | None:
        for name in NAMES:
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                found = self.load(candidate)
                if found is not None:
                    return found
        return None

    def load(self, path: str) -> ConfigFile | None:
        """The configuration in ``path`` (None for a pyproject.toml without `[tool.hclgpu]`)."""
        key = os.path.abspath(path)
        if key not in self._read:
            table = _table(path)
            self._read[key] = None if table is None else ConfigFile(path, _values(table, path))
        return self._read[key]


def _table(path: str) -> dict[str, object] | None:
    try:
        text = read_text(path)
    except (OSError, ValueError) as error:
        raise ConfigError(f"{path}: cannot read the configuration: {error}") from None
    is_pyproject = os.path.basename(path) == "pyproject.toml"
    if is_pyproject and "hclgpu" not in text:
        return None  # no [tool.hclgpu] table: not ours to parse (or judge)
    data = _parsed(path, text)
    tool = data.get("tool")
    table = tool.get("hclgpu") if isinstance(tool, dict) else None
    if is_pyproject:
        return table if isinstance(table, dict) else None
    if table is None:
        return data
    if not isinstance(table, dict) or set(data) != {"tool"} or set(tool) != {"hclgpu"}:  # type: ignore[arg-type]
        raise ConfigError(f"{path}: write the keys either at the top level or in [tool.hclgpu], not both")
    return table


def _parsed(path: str, text: str) -> dict[str, Any]:
    """The TOML document ``text``, from its record when this text was parsed before.

    Every `check` reads the configuration of the folder it runs in, and importing and
    running the TOML parser is a tenth of a warm re-check of a whole tree. So the document
    is kept as a record (:mod:`hclgpu.io.records`) named by a digest of the text and of the
    Python that parsed it: the same text gives the same document, and any change a new
    record. A document marshal cannot hold (a TOML date) is parsed each time."""
    import sys

    from hclgpu.digests import sha256_hex
    from hclgpu.io.records import cache_dir, read_record, write_record

    key = sha256_hex(f"{sys.version_info[:2]}\0{text}".encode())[:32]
    record = os.path.join(cache_dir(), "config", f"{key}.marshal")
    whole, stored = read_record(record)
    if whole and isinstance(stored, dict):
        return stored
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: cannot read the configuration: {error}") from None
    write_record(record, data)
    return data


def _values(table: dict[str, object], path: str) -> dict[str, object]:
    from hclgpu.settings import Settings

    keys = {o.name: o for o in Settings.options() if o.config}
    values, problems = read_values(table, os.path.dirname(os.path.abspath(path)), keys, "key")
    if problems:
        raise ConfigError(f"{path}: {problems[0]}")
    return values


def read_values(
    given: dict[str, object], base: str, keys: dict[str, Option[object]], noun: str
) -> tuple[dict[str, object], list[str]]:
    """The settings ``given`` by ``keys`` (a configuration's names, an editor's camelCase
    ones, the Python API's), read by their options' kinds (relative paths from ``base``), by
    attribute; and a problem for each ``noun`` or value that cannot be used, naming it, with
    the nearest known name."""
    values: dict[str, object] = {}
    problems: list[str] = []
    for key, raw in given.items():
        option = keys.get(key)
        if option is None:
            problems.append(f"unknown {noun} `{key}`{_nearest_key(str(key), keys)}")
            continue
        try:
            values[option.attr] = option.kind.read(raw, base)
        except ValueError as error:
            problems.append(f"`{key}`: {error}")
    return values, problems


def _nearest_key(key: str, keys: dict[str, Option[object]]) -> str:
    from difflib import get_close_matches

    from hclgpu.settings import Settings

    close = get_close_matches(key, list(keys), n=1, cutoff=0.6)
    if close:
        return f"; did you mean `{close[0]}`?"
    if any(o.name == key and not o.config for o in Settings.options()):
        return " (it is a command-line option only: a job's inputs are given by the run)"
    return f" (known: {', '.join(sorted(keys))})"
