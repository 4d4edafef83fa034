"""The ``hclgpu`` argument parser: the pieces every command's parser shares.

Building every command's parser costs more than a warm ``check`` of a thousand cached
files (argparse formats and translates each help text as it is added), so
:func:`build_parser` adds only the command named on the command line (each command's
module defines its own part, ``add_parser``), and all of them only when none is
(``hclgpu --help``, a typo).
"""

from __future__ import annotations

import argparse
import os
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
}
"""Every command and its module in :mod:`hclgpu.cli`, in the order `hclgpu --help` lists them."""


def command_module(name: str) -> ModuleType:
    """The module of command ``name``: its ``add_parser(commands)`` and ``run(args)``."""
    return import_module(f"hclgpu.cli.{COMMANDS[name]}")


def add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=("text", "json", "sarif", "github"),
        default=os.environ.get("HCLGPU_OUTPUT_FORMAT", "text"),
        help="how to print diagnostics (default: text; env HCLGPU_OUTPUT_FORMAT)",
    )
    parser.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour in text output"
    )


NOMAD_VERSIONS = ("1.8", "1.9", "1.10", "1.11", "2.0")
"""The releases of hclgpu.checks.server.RELEASES (kept here so the parser imports nothing)."""


def add_inputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--var", "-var", action="append", default=[], metavar="NAME=VALUE", help="set an input variable"
    )
    parser.add_argument(
        "--var-file", "-var-file", action="append", default=[], metavar="FILE",
        help="read variable values from an HCL or JSON file",
    )  # fmt: skip
    parser.add_argument(
        "--allow-fs", action="store_true",
        help="let file functions read outside the job file's directory",
    )  # fmt: skip
    parser.add_argument(
        "--nomad-version", choices=NOMAD_VERSIONS, default=NOMAD_VERSIONS[-1], metavar="VERSION",
        help=f"check against the server of this Nomad release: {', '.join(NOMAD_VERSIONS)}"
        f" (default {NOMAD_VERSIONS[-1]}; see docs/validation.md)",
    )  # fmt: skip


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` (a known command name), only that command's part."""
    parser = argparse.ArgumentParser(
        prog="hclgpu",
        description="Check and translate Nomad job files that request GPUs and other accelerators.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hclgpu {__version__}")
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
