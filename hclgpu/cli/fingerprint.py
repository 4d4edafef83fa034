"""``hclgpu fingerprint``: this machine's GPUs as a one-node inventory."""

from __future__ import annotations

import argparse
import json
import sys

from hclgpu.cli.common import EXIT_FATAL, EXIT_OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    fingerprint = commands.add_parser(
        "fingerprint", help="this machine's GPUs as a one-node inventory (nvidia-smi)",
        description="Run nvidia-smi (or read its saved CSV or -q -x XML output with --from) and print "
        "the node as the NVIDIA device plugin fingerprints it: Nomad's attribute names and units.",
    )  # fmt: skip
    fingerprint.add_argument("--from", dest="source", metavar="FILE", help="saved nvidia-smi CSV or XML")
    fingerprint.add_argument("--name", default=None, help="the node name (default: this host's name)")
    fingerprint.add_argument("--output", choices=("yaml", "json"), default="yaml")


def run(args: argparse.Namespace) -> int:
    import socket

    from hclgpu.io.files import read_side_file
    from hclgpu.plan import fingerprint as fp

    name = args.name or socket.gethostname()
    try:
        if args.source:
            text = read_side_file(args.source)
            is_xml = text.lstrip().startswith("<")
            inventory = fp.fingerprint_xml(text, name) if is_xml else fp.fingerprint_csv(text, name)
        else:
            inventory = fp.fingerprint_csv(fp.run_nvidia_smi(), name)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"hclgpu fingerprint: {error}\n")
        return EXIT_FATAL
    data = inventory.model_dump(mode="json", by_alias=True)
    if args.output == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        import yaml

        sys.stdout.write(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return EXIT_OK
