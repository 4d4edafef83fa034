"""Project configuration: `[tool.hclgpu]` in pyproject.toml, or an `hclgpu.toml`.

The nearest file wins, searching from the current directory upwards (an `hclgpu.toml`
before a `pyproject.toml` in the same directory; a pyproject.toml without a
`[tool.hclgpu]` table is skipped). Keys::

    select = ["HG2"]                      # report only codes starting with these
    ignore = ["HG250"]                    # never report these
    strict = true                         # warnings fail the run too
    per-file-ignores = { "jobs/legacy/*.hcl" = ["HG260"] }
    policy = ["policies"]                 # Rego policy directories (from this file's directory)
    policy-namespace = ["main"]           # the packages whose deny/warn/violation rules run
    policy-timeout = 10                   # seconds the policies may take on one job file

Command-line options take precedence: `--select` replaces `select`, `--ignore` adds to
`ignore`, `--strict` turns strict on, `--policy` and `--namespace` replace `policy` and
`policy-namespace`, `--policy-timeout` replaces `policy-timeout`.
"""

from __future__ import annotations

import os

from hclgpu.io.files import read_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


class ConfigError(Exception):
    """The configuration file cannot be used; the message names the file and the key."""


class Config:
    """The settings that apply (a plain class: this module is read on every `hclgpu check`,
    and a warm check must not pay for importing dataclasses)."""

    __slots__ = (
        "ignore", "path", "per_file_ignores", "policy", "policy_namespaces", "policy_timeout", "select",
        "strict",
    )  # fmt: skip

    def __init__(
        self,
        select: tuple[str, ...] = (),
        ignore: tuple[str, ...] = (),
        strict: bool = False,
        per_file_ignores: dict[str, tuple[str, ...]] | None = None,
        path: str | None = None,
        policy: tuple[str, ...] = (),
        policy_namespaces: tuple[str, ...] = (),
        policy_timeout: float | None = None,
    ) -> None:
        self.select = select
        self.ignore = ignore
        self.strict = strict
        self.per_file_ignores = per_file_ignores or {}
        self.path = path
        """The file this came from, or None for the defaults."""
        self.policy = policy
        """Policy directories, as paths from the current directory."""
        self.policy_namespaces = policy_namespaces
        self.policy_timeout = policy_timeout

    def ignored_for(self, file: str) -> tuple[str, ...]:
        """Codes ignored in ``file``: the global list plus every matching per-file pattern."""
        extra = [
            code
            for pattern, codes in self.per_file_ignores.items()
            if _matches(file, pattern)
            for code in codes
        ]
        return self.ignore + tuple(extra)


def _matches(file: str, pattern: str) -> bool:
    import fnmatch

    path = file.replace(os.sep, "/")
    return fnmatch.fnmatch(path, pattern) or fnmatch.fnmatch(os.path.basename(file), pattern)


def find_config(start: Path | str | None = None) -> Config:
    """The configuration that applies in ``start`` (the current directory by default)."""
    folder = os.path.realpath(start if start is not None else os.getcwd())
    while True:
        for name in ("hclgpu.toml", "pyproject.toml"):
            candidate = os.path.join(folder, name)
            if os.path.isfile(candidate):
                table = _read(candidate)
                if table is not None:
                    return _parse(table, candidate)
        parent = os.path.dirname(folder)
        if parent == folder:
            return Config()
        folder = parent


def _read(path: str) -> dict[str, Any] | None:
    try:
        text = read_text(path)
    except (OSError, ValueError) as error:
        raise ConfigError(f"{path}: cannot read the configuration: {error}") from None
    is_own = os.path.basename(path) == "hclgpu.toml"
    if not is_own and "hclgpu" not in text:
        return None  # a pyproject.toml with no [tool.hclgpu] table: not ours to parse (or judge)
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: cannot read the configuration: {error}") from None
    if is_own:
        return data
    table = data.get("tool", {}).get("hclgpu")
    return table if isinstance(table, dict) else None


def _codes(value: Any, path: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f'{path}: `{key}` must be a list of codes, like ["HG250"]')
    return tuple(v.strip().upper() for v in value if v.strip())


def _parse(table: dict[str, Any], path: str) -> Config:
    known = {"select", "ignore", "strict", "per-file-ignores", "policy", "policy-namespace", "policy-timeout"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{path}: unknown key `{unknown[0]}` (known: {', '.join(sorted(known))})")
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise ConfigError(f"{path}: `strict` must be true or false")
    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict):
        raise ConfigError(f"{path}: `per-file-ignores` must be a table of pattern = [codes]")
    return Config(
        select=_codes(table.get("select", []), path, "select"),
        ignore=_codes(table.get("ignore", []), path, "ignore"),
        strict=strict,
        per_file_ignores={pattern: _codes(codes, path, pattern) for pattern, codes in per_file.items()},
        path=path,
        policy=tuple(
            os.path.relpath(os.path.join(os.path.dirname(path), d)) for d in _strings(table, "policy", path)
        ),
        policy_namespaces=_strings(table, "policy-namespace", path),
        policy_timeout=_seconds(table.get("policy-timeout"), path),
    )


def _strings(table: dict[str, Any], key: str, path: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f'{path}: `{key}` must be a list of strings, like ["policies"]')
    return tuple(value)


def _seconds(value: Any, path: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ConfigError(f"{path}: `policy-timeout` must be a number of seconds above 0")
    return float(value)
