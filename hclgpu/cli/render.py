"""``hclgpu render``: translate one job file for another system.

The targets, their own flags and which of them take ``--nodes`` come from
:mod:`hclgpu.backends.registry`; this module only reads the job, plans its devices when
asked, and prints or writes what the target produced.
"""

from __future__ import annotations

import argparse
import sys

from hclgpu.cli.common import (
    EXIT_ERRORS,
    EXIT_FATAL,
    EXIT_OK,
    add_color,
    exit_status,
    internal_error,
    report,
    single,
    write_out,
)
from hclgpu.cli.parser import EPILOG

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers
    from hclgpu.diagnostics import Sink
    from hclgpu.ir.models import Job
    from hclgpu.pipeline import Result
    from hclgpu.plan.devices import DeviceIds
    from hclgpu.plan.model import Node
    from hclgpu.settings import Settings


def add_parser(commands: Subparsers) -> None:
    from hclgpu.backends import registry
    from hclgpu.cli.options import add_settings

    render = commands.add_parser(
        "render", help="translate a job file for another system", epilog=EPILOG,
        description="Translate one job file. Nothing is printed or written when the job has errors.",
    )  # fmt: skip
    render.add_argument("path", metavar="PATH", help="a job file, or - for standard input")
    render.add_argument("--target", required=True, choices=registry.names(), help="what to produce")
    render.add_argument("--out", metavar="DIR", help="write files into DIR instead of printing")
    render.add_argument(
        "--canonicalize", action="store_true", help="apply the defaults Nomad's HTTP agent fills in"
    )
    render.add_argument(
        "--report",
        choices=("md", "json"),
        help="the migration report (what carried over exactly, approximately, not at all, by area):"
        " printed instead of the output, or written beside it as migration-report.md/.json with --out",
    )
    render.add_argument(
        "--admission",
        action="store_true",
        help="also apply what Nomad's server adds on registration: implied constraints, Connect"
        " sidecar tasks and ports (implies --canonicalize; see hclgpu explain admission)",
    )
    for target in registry.flag_targets():
        target.add_arguments(render)  # a plug-in target's own flags (the built-in ones are settings)
    render.add_argument(
        "--node", metavar="NAME",
        help=f"{', '.join(registry.device_id_targets())}: plan on the inventory (`--nodes`) and use the"
        " device IDs chosen on this node",
    )  # fmt: skip
    add_color(render)
    add_settings(render, "render")


def run(args: argparse.Namespace) -> int:
    from hclgpu.diagnostics import Sink

    sink = Sink()
    # Nomad JSON is what Nomad's parser prints (`nomad job run -output`), which no server
    # validation precedes: a job the server would refuse still has its JSON. `check` says why.
    args.parser_only = args.target == "nomad"
    status, result, settings = single(args, sink, compile=True, target=args.target)
    if result is None or result.job is None or settings is None:
        return status or EXIT_ERRORS
    from hclgpu.backends import registry
    from hclgpu.backends.target import Lowering, RenderOptions
    from hclgpu.backends.templating import TemplateError

    target = registry.get(args.target)
    job = result.job
    device_ids: DeviceIds | None = None
    if (args.node or args.nodes) and target.takes_device_ids:
        planned = _planned(args, settings, job, sink, result)
        if isinstance(planned, int):
            return planned
        device_ids = planned
    if args.canonicalize or args.admission:
        from hclgpu.ir.canonical import canonicalize

        job = canonicalize(job)
    if args.admission:
        from hclgpu.ir.admission import admit

        job = admit(job)
    options = RenderOptions(
        templates=settings.templates,
        unsupported=settings.unsupported,  # type: ignore[arg-type]
        cpu_mhz_per_core=settings.cpu_mhz_per_core,
        memory_oversubscription=settings.memory_oversubscription,
        device_ids=device_ids,
        device_node=args.node if device_ids is not None else None,
        node_values=getattr(args, "node_values", None),
        target=registry.options_from(target, _TargetValues(settings, args)),
    )
    try:
        artifacts = registry.render(job, args.target, Lowering(args.target, result.source, sink, options))
    except TemplateError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    except Exception as error:  # a bug in a back end: report it, never a traceback, write nothing
        return internal_error(args, sink, result.source, f"rendering for {args.target}", error)
    diagnostics = sink.sorted()
    if diagnostics:
        report(args, diagnostics, 1)
    if exit_status(diagnostics, False) != EXIT_OK:
        return EXIT_ERRORS  # --unsupported error turned something into an error: write nothing
    files = [(a.name, a.text) for a in artifacts]
    if args.report:
        from hclgpu.report import migration

        found = migration.migration_report(job, result.source, args.target, diagnostics)
        text = migration.to_markdown([found]) if args.report == "md" else migration.to_json([found])
        if not args.out:
            sys.stdout.write(text)
            return EXIT_OK
        files.append((f"migration-report.{args.report}", text))
    if args.out:
        return write_out(args.out, files)
    sys.stdout.write(target.join(artifacts))
    return EXIT_OK


class _TargetValues:
    """A target's options by field name: the settings' (``k8s_devices``, ``oci_devices``...),
    else the flags a plug-in target added."""

    def __init__(self, settings: Settings, args: argparse.Namespace) -> None:
        self._settings, self._args = settings, args

    def __getattr__(self, name: str) -> object:
        try:
            self._settings.option(name)
        except KeyError:
            return getattr(self._args, name)
        return getattr(self._settings, name)


def node_values(node: Node) -> dict[str, str]:
    """The interpolation targets a node answers (Nomad's client/taskenv): its attributes as
    `attr.*`, its meta as `meta.*`, and its identity as `node.*`."""
    values = {f"attr.{key}": value for key, value in node.attributes.items()}
    values.update({f"meta.{key}": value for key, value in node.meta.items()})
    values.update(
        {
            "node.unique.name": node.name,
            "node.unique.id": node.id,
            "node.datacenter": node.datacenter,
            "node.class": node.node_class,
            "node.pool": node.node_pool,
        }
    )
    return values


def _planned(
    args: argparse.Namespace, settings: Settings, job: Job, sink: Sink, result: Result
) -> DeviceIds | int:
    """The device IDs planned on ``--node`` of the inventory (``--nodes`` or `nodes`), or the
    exit status when there are none (the reason printed)."""
    from pathlib import Path

    from hclgpu.plan.devices import NotPlaced, planned_device_ids
    from hclgpu.plan.inventory import InventoryError, load_inventory

    if not args.node:
        sys.stderr.write("hclgpu render: --nodes needs --node NAME (the node the containers run on)\n")
        return EXIT_FATAL
    if not settings.nodes:
        sys.stderr.write(
            "hclgpu render: --node needs an inventory: --nodes FILE, or `nodes` in the configuration\n"
        )
        return EXIT_FATAL
    try:
        inventory, _notes = load_inventory(Path(settings.nodes))
    except InventoryError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    if not any(n.name == args.node for n in inventory.nodes):
        sys.stderr.write(f"hclgpu render: node {args.node!r} is not in {settings.nodes}\n")
        return EXIT_FATAL
    node = next(n for n in inventory.nodes if n.name == args.node)
    args.node_values = node_values(node)
    try:
        return planned_device_ids(job, inventory, args.node)
    except NotPlaced as refusal:
        sys.stderr.write(f"hclgpu render: {refusal}\n")
        return EXIT_ERRORS
    except Exception as error:  # a bug in hclgpu: report it, never a traceback, write nothing
        return internal_error(args, sink, result.source, "planning", error)
