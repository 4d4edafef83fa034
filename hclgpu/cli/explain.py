"""``hclgpu explain``: what a diagnostic code means, why, and how to fix it."""

from __future__ import annotations

import argparse
import sys

from hclgpu.cli.common import EXIT_FATAL, EXIT_OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    explain = commands.add_parser("explain", help="explain a diagnostic code")
    explain.add_argument("code", metavar="CODE", help="a code such as HG001, or its name")


def run(args: argparse.Namespace) -> int:
    from hclgpu.codes import lookup

    code = lookup(args.code)
    if code is None:
        sys.stderr.write(f"hclgpu: unknown code `{args.code}`; `hclgpu rules` lists them all\n")
        return EXIT_FATAL
    sys.stdout.write(f"{code.id} {code.name} ({code.severity})\n\n{code.summary}.\n\n{code.doc}\n")
    return EXIT_OK
