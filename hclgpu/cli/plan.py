"""``hclgpu plan``: place a job on a node inventory, as Nomad's scheduler would."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from hclgpu.cli.common import EXIT_ERRORS, EXIT_FATAL, EXIT_OK, internal_error, report, single
from hclgpu.cli.parser import EPILOG, add_format, add_inputs

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    plan = commands.add_parser(
        "plan", help="place a job on a node inventory, as Nomad's scheduler would", epilog=EPILOG,
        description="Dry-run placement: feasible nodes ranked with their scores and devices, and why "
        "every other node is infeasible. Exit 1 when some group cannot be placed.",
    )  # fmt: skip
    plan.add_argument("path", metavar="PATH", help="a job file")
    plan.add_argument(
        "--nodes", required=True, metavar="INVENTORY", help="hclgpu, Nomad or kubectl node file"
    )
    plan.add_argument(
        "--nodes-format", choices=("hclgpu", "nomad", "kubernetes"), help="skip format detection"
    )
    add_format(plan)
    add_inputs(plan)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from hclgpu.diagnostics import Sink
    from hclgpu.plan.inventory import InventoryError, load_inventory

    sink = Sink()
    status, result = single(args, sink, compile=True)
    if result is None or result.job is None:
        return status or EXIT_ERRORS
    try:
        inventory, notes = load_inventory(Path(args.nodes), args.nodes_format)
    except InventoryError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    from hclgpu.plan.planner import plan
    from hclgpu.plan.report import to_json, to_text

    try:
        plans = plan(result.job, inventory)
        if args.format == "json":
            text = json.dumps(to_json(plans), ensure_ascii=False, indent=2) + "\n"
        else:
            text = _terminal_text(to_text(plans), args.color)
    except Exception as error:  # a bug in hclgpu: report it, never a traceback, write nothing
        return internal_error(args, sink, result.source, "planning", error)
    if sink.items:
        report(args, sink.sorted(), 1)
    for note in notes:
        sys.stderr.write(f"note: {note}\n")
    sys.stdout.write(text)
    return EXIT_ERRORS if any(p.unplaced for p in plans) else EXIT_OK


def _terminal_text(lines: Sequence[object], color: str) -> str:
    """Lines and rich tables as standard output shows them, colour as ``--color``, the terminal
    and ``NO_COLOR`` say; rendered whole before anything is written. Text is printed as it is:
    a reason like ``not in [dc1]`` is no markup."""
    from hclgpu.report.text import make_console

    console = make_console(sys.stdout, color)
    with console.capture() as capture:
        for line in lines:
            console.print(line, markup=False)
    return capture.get()
