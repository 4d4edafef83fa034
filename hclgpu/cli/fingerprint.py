"""``hclgpu fingerprint``: this machine's GPUs as a one-node inventory."""

from __future__ import annotations

import argparse
import json
import sys

from hclgpu.cli.common import EXIT_FATAL, EXIT_OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers
    from hclgpu.plan.model import Inventory, Resources


def add_parser(commands: Subparsers) -> None:
    fingerprint = commands.add_parser(
        "fingerprint", help="this machine's GPUs as a one-node inventory (nvidia-smi)",
        description="Run nvidia-smi -q -x (or read its saved CSV or XML output with --from) and print "
        "the node as the NVIDIA device plugin fingerprints it: Nomad's attribute names and units, "
        "plus the node's CPU, memory and disk as Nomad's client fingerprints them. power, "
        "cores_clock and memory_clock are samples of the current draw and clocks, as the plugin's.",
    )  # fmt: skip
    fingerprint.add_argument("--from", dest="source", metavar="FILE", help="saved nvidia-smi CSV or XML")
    fingerprint.add_argument(
        "--mig-list",
        metavar="FILE",
        help="saved `nvidia-smi -L` of the same node, for --from XML with MIG instances (their profiles)",
    )
    fingerprint.add_argument(
        "--host", metavar="FILE", help="saved host capture (lscpu, cpuinfo, meminfo, df) for --from"
    )
    fingerprint.add_argument(
        "--alloc-dir", metavar="DIR", help="Nomad's alloc dir, whose volume is the node's disk (default: .)"
    )
    fingerprint.add_argument("--name", default=None, help="the node name (default: this host's name)")
    fingerprint.add_argument("--output", choices=("yaml", "json"), default="yaml")


def run(args: argparse.Namespace) -> int:
    import socket

    name = args.name or socket.gethostname()
    try:
        inventory = _fingerprint(args, name)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"hclgpu fingerprint: {error}\n")
        return EXIT_FATAL
    data = inventory.model_dump(mode="json", by_alias=True)
    if args.output == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        sys.stderr.write(f"hclgpu fingerprint: note: {_sampled_note()}\n")
    else:
        import yaml

        sys.stdout.write(f"# {_sampled_note()}\n")
        sys.stdout.write(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return EXIT_OK


def _fingerprint(args: argparse.Namespace, name: str) -> Inventory:
    """The GPUs (nvidia-smi) and, where known, the host's capacity: live, or from --host.

    GPUs in MIG mode are named by `nvidia-smi -L` (run live when the XML lists MIG
    instances; `--mig-list` with `--from`). A saved nvidia-smi file says nothing of the host,
    so `--from` without `--host` gives a
    node without resources (capacity not checked by `plan`), as before.
    """
    from hclgpu.io.files import read_side_file
    from hclgpu.plan import fingerprint as fp
    from hclgpu.plan import host

    if args.source:
        text = read_side_file(args.source)
        listing = read_side_file(args.mig_list) if args.mig_list else None
        is_xml = text.lstrip().startswith("<")
        inventory = fp.fingerprint_xml(text, name, listing) if is_xml else fp.fingerprint_csv(text, name)
        facts = host.from_capture(read_side_file(args.host)) if args.host else None
    else:
        text = fp.run_nvidia_smi()
        listing = (
            fp.run_nvidia_smi(command=fp.nvidia_smi_list_command()) if fp.has_mig_instances(text) else None
        )
        inventory = fp.fingerprint_xml(text, name, listing)
        facts = host.from_capture(read_side_file(args.host)) if args.host else host.live(args.alloc_dir)
    if facts is not None:
        node = inventory.nodes[0]
        resources, attributes = host.node_fields(facts)
        node.resources = _resources(resources)
        node.attributes.update(attributes)
    return inventory


def _sampled_note() -> str:
    """Why power and clocks may differ from run to run (the plugin samples them too)."""
    from hclgpu.plan.fingerprint import SAMPLED

    return (
        f"{', '.join(SAMPLED)} are samples taken now (current power draw and clocks, as "
        "nomad-device-nvidia reports them), not limits"
    )


def _resources(values: dict[str, int]) -> Resources:
    from hclgpu.plan.model import Resources

    return Resources.model_validate(values)
