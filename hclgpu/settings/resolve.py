"""The settings of each file: what the run was given (command line, editor, Python API),
then the nearest configuration file above the file, then the defaults.

A value given for the run replaces the configuration's, except for the options that extend
(`ignore`, `extend-select`, `extend-exclude`), whose given values are added to the
configuration's. ``--config FILE`` names the one configuration for every file instead of
searching; ``--isolated`` reads none.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from hclgpu.settings import Settings
from hclgpu.settings.files import ConfigFile, Configurations, read_values


class Resolver:
    """Settings by file, each configuration read once per run."""

    __slots__ = ("_by_config", "_by_folder", "_files", "config", "given", "isolated", "origin")

    def __init__(
        self,
        given: dict[str, object] | None = None,
        *,
        origin: str = "command line",
        config: str | None = None,
        isolated: bool = False,
    ) -> None:
        self.given = dict(given or {})
        """Option attribute → the value the run was given."""
        self.origin = origin
        self.config = config
        """The one configuration file for every file (``--config``), else None: each file's nearest."""
        self.isolated = isolated
        self._files = Configurations()
        self._by_config: dict[str | None, Settings] = {}
        self._by_folder: dict[str, Settings] = {}
        """Folder → its settings: a run over a folder asks once per file."""

    def for_folder(self, folder: str) -> Settings:
        """The settings of the files in ``folder``."""
        found = self._by_folder.get(folder)
        if found is None:
            found = self._by_folder[folder] = self._settings(self._config_for(folder))
        return found

    def for_file(self, path: str) -> Settings:
        """The settings of ``path`` (standard input and unnamed text: the working directory's)."""
        if not path or path == "-" or path.startswith("<"):
            return self.for_folder(os.getcwd())
        return self.for_folder(os.path.dirname(os.path.abspath(path)))

    def exclusion(self, folder: str) -> Callable[[str, bool, bool], bool] | None:
        """What `exclude` excludes in ``folder`` (None when nothing is), for walking it."""
        settings = self.for_folder(folder)
        return settings.excluded if settings.excluded_patterns else None

    def _config_for(self, folder: str) -> ConfigFile | None:
        if self.isolated:
            return None
        if self.config is not None:
            found = self._files.load(self.config)
            if found is None:
                from hclgpu.settings.files import ConfigError

                raise ConfigError(f"{self.config}: no [tool.hclgpu] table")
            return found
        return self._files.nearest(folder)

    def _settings(self, config: ConfigFile | None) -> Settings:
        key = config.path if config is not None else None
        found = self._by_config.get(key)
        if found is None:
            found = merged(config, self.given, self.origin)
            self._by_config[key] = found
        return found


def merged(config: ConfigFile | None, given: dict[str, object], origin: str) -> Settings:
    """The settings of a configuration (or none) with the run's ``given`` values over it."""
    values: dict[str, object] = dict(config.values) if config is not None else {}
    origins = dict.fromkeys(values, config.path) if config is not None else {}
    cleared = {reset for attr in given for reset in Settings.option(attr).resets}
    for attr in cleared - set(given):
        values.pop(attr, None)
        origins.pop(attr, None)
    for attr, value in given.items():
        option = Settings.option(attr)
        if option.extends and attr in values:
            values[attr] = option.kind.join(values[attr], value)
            origins[attr] = f"{origins[attr]} and {origin}"
        else:
            values[attr] = value
            origins[attr] = origin
    return Settings(values, origins, config.path if config is not None else None)


def from_editor(options: object, base: str) -> tuple[dict[str, object], list[str]]:
    """The settings an editor gives (``initializationOptions``, or the `hclgpu` section of
    its workspace configuration) by their camelCase keys (``nomadVersion``), relative paths
    from ``base`` (the workspace root), and a problem for each key or value that cannot be
    used (the editor shows them; the rest still apply)."""
    if not isinstance(options, dict):
        return {}, [] if options is None else ["the settings must be an object of camelCase keys"]
    keys = {o.lsp_key: o for o in Settings.options() if o.lsp_key}
    return read_values(options, base, keys, "setting")


def layered(*layers: dict[str, object]) -> dict[str, object]:
    """Given values from several places as one, each layer over the ones before it (an
    extending option's values added up)."""
    values: dict[str, object] = {}
    for layer in layers:
        for attr, value in layer.items():
            option = Settings.option(attr)
            values[attr] = (
                option.kind.join(values[attr], value) if option.extends and attr in values else value
            )
    return values
