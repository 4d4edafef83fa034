"""The command-line flags of the settings, made from their definitions in
:class:`hclgpu.settings.Settings`, and the settings a run resolves from them.

A flag's argparse default is None, so that a flag not given leaves the configuration's
value (or the default) in place. ``--config FILE`` and ``--isolated`` choose the
configuration; ``HCLGPU_OUTPUT_FORMAT`` counts as a ``--format`` given on the command line.
"""

from __future__ import annotations

import argparse
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable

    from hclgpu.settings import Option, Settings
    from hclgpu.settings.resolve import Resolver


def add_settings(parser: argparse.ArgumentParser, command: str) -> None:
    """Every setting ``command`` takes as a flag, and (but for the language server, which
    finds each document's own) the choice of configuration."""
    from hclgpu.settings import Settings

    for option in Settings.options():
        if command in option.commands:
            _add_flag(parser, option)
    if command == "lsp":
        return
    titled = parser.add_argument_group("configuration (hclgpu.toml, .hclgpu.toml, [tool.hclgpu])")
    group = titled.add_mutually_exclusive_group()
    group.add_argument(
        "--config", metavar="FILE",
        help="use this configuration file for every file, instead of each file's nearest one",
    )  # fmt: skip
    group.add_argument("--isolated", action="store_true", help="read no configuration file")


def _add_flag(parser: argparse.ArgumentParser, option: Option[object]) -> None:
    kind = option.kind
    shown = kind.show(option.default)
    default = "" if option.extends else f"; default: {shown}"
    place = f" (setting `{option.name}`{default})" if option.config else ""
    common: dict[str, object] = {"dest": option.attr, "default": None, "help": option.help + place}
    if kind.cli == "switch":  # --x, and --no-x over a configuration's true
        parser.add_argument(*option.cli_flags, action=argparse.BooleanOptionalAction, **common)  # type: ignore[arg-type]
    elif kind.choices and kind.cli in ("value", "append"):  # argparse lists and checks them
        action = "append" if kind.cli == "append" else "store"
        parser.add_argument(*option.cli_flags, choices=kind.choices, action=action, **common)  # type: ignore[arg-type]
    elif kind.cli != "none":
        repeated = kind.cli in ("append", "list")
        reader = kind.item if kind.cli == "append" else kind  # type: ignore[attr-defined]
        parser.add_argument(
            *option.cli_flags,
            type=_reader(reader),
            metavar=kind.metavar,
            action="append" if repeated else "store",
            **common,  # type: ignore[arg-type]
        )


def _reader(kind: object) -> Callable[[str], object]:
    """An argparse type: the kind's reading of a word, a usage error when it cannot."""
    from hclgpu.settings.kinds import Kind

    assert isinstance(kind, Kind)

    def read(text: str) -> object:
        try:
            return kind.parse(text, os.getcwd())
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    read.__name__ = kind.metavar.lower()
    return read


def given(args: argparse.Namespace) -> dict[str, object]:
    """The settings the command line gives (flags present), by attribute."""
    from hclgpu.settings import Settings

    values: dict[str, object] = {}
    for option in Settings.options():
        value = getattr(args, option.attr, None)
        if value is None:
            continue
        if isinstance(value, list):
            joined: object = ()
            for part in value:
                joined = option.kind.join(joined, part if isinstance(part, tuple) else (part,))
            value = joined
        values[option.attr] = value
    if "output_format" not in values and hasattr(args, "output_format"):
        from_env = os.environ.get("HCLGPU_OUTPUT_FORMAT")
        if from_env:
            values["output_format"] = _environment_format(from_env)
    return values


def _environment_format(text: str) -> str:
    from hclgpu.settings import Settings

    choices = Settings.output_format.kind.choices
    if text not in choices:
        sys.stderr.write(f"hclgpu: HCLGPU_OUTPUT_FORMAT must be one of {', '.join(choices)}, not {text!r}\n")
        raise SystemExit(2)
    return text


def resolver(args: argparse.Namespace) -> Resolver:
    """The run's settings by file: the command line over each file's configuration."""
    from hclgpu.settings.resolve import Resolver

    return Resolver(
        given(args), config=getattr(args, "config", None), isolated=getattr(args, "isolated", False)
    )


def run_settings(args: argparse.Namespace) -> tuple[Resolver, Settings]:
    """The resolver, and the settings of the working directory (what applies to the run as a
    whole: the output format). ConfigError when a configuration cannot be used."""
    found = resolver(args)
    settings = found.for_folder(os.getcwd())
    args.format = settings.output_format
    return found, settings
