"""The ``hclgpu`` argument parser: the pieces every command's parser shares.

Building every command's parser costs more than a warm ``check`` of a thousand cached
files (argparse formats and translates each help text as it is added), so
:func:`build_parser` adds only the command named on the command line (each command's
module defines its own part, ``add_parser``), and all of them only when none is
(``hclgpu --help``, a typo).
"""

from __future__ import annotations

import argparse
from importlib import import_module
from types import ModuleType

from hclgpu import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import TypeAlias

    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]

EPILOG = """exit status: 0 no errors; 1 errors found (or warnings with --strict);
2 usage error, unreadable input or internal error."""

COMMANDS = {
    "check": "check",
    "render": "render",
    "dump": "dump",
    "plan": "plan",
    "fingerprint": "fingerprint",
    "schema": "schema",
    "fmt": "fmt",
    "explain": "explain",
    "rules": "rules",
    "lsp": "lsp",
    "import": "import_",
    "completion": "completion",
}
"""Every command and its module in :mod:`hclgpu.cli`, in the order `hclgpu --help` lists them."""


def command_module(name: str) -> ModuleType:
    """The module of command ``name``: its ``add_parser(commands)`` and ``run(args)``."""
    return import_module(f"hclgpu.cli.{COMMANDS[name]}")


def version_text() -> str:
    """``hclgpu --version``: hclgpu's version and the Nomad releases it checks against."""
    from hclgpu.settings.releases import NEWEST, OLDEST, release_text

    releases = f"{release_text(OLDEST)} to {release_text(NEWEST)}"
    return f"hclgpu {__version__} (checks job files as Nomad {releases} does)"


class _Version(argparse.Action):
    """``--version``, its text made only when it is asked for: the releases' module is not
    on the start-up path of the commands that read no settings."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        import sys

        sys.stdout.write(version_text() + "\n")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` (a known command name), only that command's part."""
    parser = argparse.ArgumentParser(
        prog="hclgpu",
        description="Check and translate Nomad job files that request GPUs and other accelerators.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        if command is None or command not in COMMANDS or name == command:
            command_module(name).add_parser(commands)
    return parser


def positive_int(text: str) -> int:
    """An argparse type: a whole number above zero (a usage error otherwise)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{value} is not above zero")
    return value
