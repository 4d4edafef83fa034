"""``hclgpu rules``: every diagnostic code, as a table or JSON."""

from __future__ import annotations

import argparse
import json
import sys

from hclgpu.cli.common import EXIT_OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    rules = commands.add_parser("rules", help="list every diagnostic code")
    rules.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    from hclgpu.codes import CODES

    if args.format == "json":
        rows = [
            {"code": c.id, "name": c.name, "severity": str(c.severity), "summary": c.summary}
            for c in CODES.values()
        ]
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return EXIT_OK
    width = max(len(c.name) for c in CODES.values())
    for c in CODES.values():
        sys.stdout.write(f"{c.id}  {c.name.ljust(width)}  {str(c.severity).ljust(7)}  {c.summary}\n")
    return EXIT_OK
