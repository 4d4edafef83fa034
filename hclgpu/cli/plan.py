"""``hclgpu plan``: place a job on a node inventory, as Nomad's scheduler would."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence

from hclgpu.cli.common import EXIT_ERRORS, EXIT_FATAL, EXIT_OK, add_color, internal_error, report, single
from hclgpu.cli.parser import EPILOG

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers
    from hclgpu.plan.allocs import Existing
    from hclgpu.plan.model import Inventory
    from hclgpu.settings import Settings


MODEL_EPILOG = """what the plan models: Nomad's generic scheduler for one job: datacenters,
node pools, constraints, drivers, devices, distinct_hosts, distinct_property, ports, cores,
CPU, memory and disk against what existing allocations (--allocs) hold, and the scores
binpack (or spread), devices, job-anti-affinity, node-affinity and allocation-spread,
averaged. Every candidate is scored (Nomad scores a random sample), ties go to the earlier
node. Not modelled: preemption, quotas, host and CSI volumes, host networks. NUMA is a
Nomad Enterprise feature: ignored as Community Edition does, placed with --enterprise
(or `enterprise = true` in the configuration).

"""


def add_parser(commands: Subparsers) -> None:
    from hclgpu.cli.options import add_settings

    plan = commands.add_parser(
        "plan", help="place a job on a node inventory, as Nomad's scheduler would",
        epilog=MODEL_EPILOG + EPILOG,
        description="Dry-run placement: feasible nodes ranked with their scores and devices, and why "
        "every other node is infeasible. Exit 1 when some allocation cannot be placed.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    plan.add_argument("path", metavar="PATH", help="a job file")
    plan.add_argument(
        "--nodes-format", choices=("hclgpu", "nomad", "kubernetes"), help="skip format detection"
    )
    plan.add_argument(
        "--allocs", metavar="FILE",
        help="existing allocations (`/v1/allocations?resources=true` JSON), or `nomad` to read them live",
    )  # fmt: skip
    plan.add_argument(
        "--timeout", type=float, default=10.0, metavar="SECONDS",
        help="seconds for each request to the Nomad API with `nomad`, from connecting to its last byte "
        "(default 10)",
    )  # fmt: skip
    add_color(plan)
    add_settings(plan, "plan")


def run(args: argparse.Namespace) -> int:
    from hclgpu.diagnostics import Sink

    sink = Sink()
    status, result, settings = single(args, sink, compile=True)
    if result is None or result.job is None or settings is None:
        return status or EXIT_ERRORS
    if not settings.nodes:
        sys.stderr.write(
            "hclgpu plan: give the inventory: --nodes INVENTORY, or `nodes` in the configuration\n"
        )
        return EXIT_FATAL
    loaded = _load(args, settings)
    if isinstance(loaded, str):
        sys.stderr.write(f"hclgpu: {loaded}\n")
        return EXIT_FATAL
    inventory, allocations, notes, namespace = loaded
    from hclgpu.plan.planner import schedule
    from hclgpu.plan.report import to_json, to_text

    job = result.job
    if namespace and not job.namespace:
        job = job.model_copy(update={"namespace": namespace})
    algorithm = settings.scheduler_algorithm or inventory.scheduler.algorithm
    try:
        planned = schedule(job, inventory, allocations, algorithm, bool(settings.enterprise))
        notes = notes + planned.notes
        if args.format == "json":
            text = json.dumps(to_json(planned.groups, algorithm, notes), ensure_ascii=False, indent=2) + "\n"
        else:
            text = _terminal_text(to_text(planned.groups), args.color)
    except Exception as error:  # a bug in hclgpu: report it, never a traceback, write nothing
        return internal_error(args, sink, result.source, "planning", error)
    if sink.items:
        report(args, sink.sorted(), 1)
    if args.format != "json":
        for note in notes:
            sys.stderr.write(f"note: {note}\n")
    sys.stdout.write(text)
    return EXIT_ERRORS if any(p.unplaced for p in planned.groups) else EXIT_OK


def _load(
    args: argparse.Namespace, settings: Settings
) -> tuple[Inventory, tuple[Existing, ...], list[str], str] | str:
    """The inventory and existing allocations, from files or the cluster; a string says why not."""
    from pathlib import Path

    from hclgpu.plan.allocs import convert_allocations, load_allocations
    from hclgpu.plan.inventory import InventoryError, convert, load_inventory
    from hclgpu.plan.live import Client, LiveError, fetch_allocations, fetch_nodes

    if not math.isfinite(args.timeout) or args.timeout <= 0:
        return "--timeout must be a positive number of seconds"
    nodes = settings.nodes or ""
    live = "nomad" in (nodes, args.allocs)
    try:
        client = Client.from_environment(timeout=args.timeout) if live else None
        if nodes == "nomad" and client is not None:
            inventory, notes = convert(fetch_nodes(client), "nomad")
        else:
            inventory, notes = load_inventory(Path(nodes), args.nodes_format, settings.cpu_mhz_per_core)
        allocations: list[Existing] = []
        if args.allocs == "nomad" and client is not None:
            allocations = convert_allocations(fetch_allocations(client))
        elif args.allocs:
            allocations = load_allocations(Path(args.allocs))
    except (InventoryError, LiveError) as error:
        return str(error)
    return inventory, tuple(allocations), notes, client.namespace if client is not None else ""


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
