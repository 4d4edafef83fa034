"""``hclgpu schema``: the JSON Schema of an input format."""

from __future__ import annotations

import argparse
import json
import sys

from hclgpu.cli.common import EXIT_OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    schema = commands.add_parser("schema", help="print a JSON Schema of an input format")
    schema.add_argument("what", choices=("inventory",))


def run(args: argparse.Namespace) -> int:
    from hclgpu.plan.inventory import inventory_schema

    sys.stdout.write(json.dumps(inventory_schema(), indent=2) + "\n")
    return EXIT_OK
