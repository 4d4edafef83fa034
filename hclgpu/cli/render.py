"""``hclgpu render``: translate one job file for another system."""

from __future__ import annotations

import argparse
import sys

from hclgpu.cli.common import (
    EXIT_ERRORS,
    EXIT_FATAL,
    EXIT_OK,
    exit_status,
    internal_error,
    report,
    single,
    write_out,
)
from hclgpu.cli.parser import EPILOG, add_format, add_inputs, dns_label, positive_int

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


TARGETS = ("nomad", "kubernetes", "oci", "docker", "compose")


def add_parser(commands: Subparsers) -> None:
    render = commands.add_parser(
        "render", help="translate a job file for another system", epilog=EPILOG,
        description="Translate one job file. Nothing is printed or written when the job has errors.",
    )  # fmt: skip
    render.add_argument("path", metavar="PATH", help="a job file, or - for standard input")
    render.add_argument("--target", required=True, choices=TARGETS, help="what to produce")
    render.add_argument("--out", metavar="DIR", help="write files into DIR instead of printing")
    render.add_argument(
        "--canonicalize", action="store_true", help="apply the defaults Nomad's HTTP agent fills in"
    )
    render.add_argument(
        "--k8s-devices", choices=("plugin", "dra"), default="plugin",
        help="kubernetes: device-plugin resources with node affinity, or DRA resource claims",
    )  # fmt: skip
    render.add_argument(
        "--namespace", type=dns_label, help="kubernetes: the namespace of every object (a DNS label)"
    )
    render.add_argument(
        "--cpu-mhz-per-core", type=positive_int, default=1000, metavar="MHZ",
        help="kubernetes: how many of Nomad's cpu MHz make one core (default 1000)",
    )  # fmt: skip
    render.add_argument(
        "--templates", metavar="DIR", help="use DIR/<target>/*.j2 before the built-in templates"
    )
    render.add_argument(
        "--oci-devices", choices=("hook", "cdi", "env"), default="hook",
        help="oci: GPUs through the NVIDIA prestart hook, CDI device names, or environment only",
    )  # fmt: skip
    render.add_argument("--cdi-spec", metavar="FILE", help="oci: apply this CDI spec's edits to config.json")
    render.add_argument("--rootfs", metavar="PATH", help="oci: the root filesystem each bundle uses")
    render.add_argument(
        "--nodes", metavar="INVENTORY",
        help="oci, docker, compose: plan on this node file and use the device IDs chosen on --node",
    )  # fmt: skip
    render.add_argument("--node", metavar="NAME", help="with --nodes: the node the containers run on")
    render.add_argument(
        "--unsupported", choices=("ignore", "warn", "error"), default="warn",
        help="what to do with constructs the target cannot express (HG301)",
    )  # fmt: skip
    add_format(render)
    add_inputs(render)


def run(args: argparse.Namespace) -> int:
    from hclgpu.diagnostics import Sink

    sink = Sink()
    status, result = single(args, sink, compile=True)
    if result is None or result.job is None:
        return status or EXIT_ERRORS
    from hclgpu.backends import join, render_target
    from hclgpu.backends.target import Lowering, RenderOptions
    from hclgpu.backends.templating import TemplateError

    job = result.job
    device_ids: dict[tuple[str, str, int], list[str]] | None = None
    if args.nodes is not None and args.target in ("oci", "docker", "compose"):
        # plan the job on the inventory; every group with device requests takes its first
        # placement on --node, and each request the IDs chosen there
        from pathlib import Path

        from hclgpu.plan.inventory import InventoryError, load_inventory
        from hclgpu.plan.planner import plan

        if not args.node:
            sys.stderr.write("hclgpu render: --nodes needs --node NAME (the node the containers run on)\n")
            return EXIT_FATAL
        try:
            inventory, _notes = load_inventory(Path(args.nodes))
        except InventoryError as error:
            sys.stderr.write(f"hclgpu: {error}\n")
            return EXIT_FATAL
        if not any(n.name == args.node for n in inventory.nodes):
            sys.stderr.write(f"hclgpu render: node {args.node!r} is not in {args.nodes}\n")
            return EXIT_FATAL
        try:
            plans = plan(job, inventory)
        except Exception as error:  # a bug in hclgpu: report it, never a traceback, write nothing
            return internal_error(args, sink, result.source, "planning", error)
        device_ids = {}
        for group, group_plan in zip(job.task_groups or [], plans, strict=True):
            keys = [
                (group_plan.name, task.name, index)
                for task in group.tasks or []
                for index, _ in enumerate((task.resources.devices if task.resources else None) or [])
            ]
            if not keys:
                continue
            placement = next((p for p in group_plan.placements if p.node == args.node), None)
            if placement is None:
                reason = next((i.reason for i in group_plan.infeasible if i.node == args.node), None)
                if reason is None:
                    elsewhere = ", ".join(dict.fromkeys(p.node for p in group_plan.placements)) or "no node"
                    reason = f"the plan places its allocations on {elsewhere}"
                sys.stderr.write(
                    f'hclgpu render: group "{group_plan.name}" cannot be placed on {args.node}: {reason}\n'
                )
                return EXIT_ERRORS
            # the planner assigns a group's requests in task, then device order: one choice each
            for key, choice in zip(keys, placement.devices, strict=True):
                device_ids[key] = list(choice.ids)
    if args.canonicalize:
        from hclgpu.ir.canonical import canonicalize

        job = canonicalize(job)
    options = RenderOptions(
        k8s_devices=args.k8s_devices,
        namespace=args.namespace,
        templates=args.templates,
        unsupported=args.unsupported,
        cpu_mhz_per_core=max(1, args.cpu_mhz_per_core),
        oci_devices=args.oci_devices,
        cdi_spec=args.cdi_spec,
        rootfs=args.rootfs,
        device_ids=device_ids,
        device_node=args.node if device_ids is not None else None,
    )
    try:
        artifacts = render_target(job, args.target, Lowering(args.target, result.source, sink, options))
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
    if args.out:
        return write_out(args.out, [(a.name, a.text) for a in artifacts])
    sys.stdout.write(join(args.target, artifacts))
    return EXIT_OK
