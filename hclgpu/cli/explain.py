"""``hclgpu explain``: what a diagnostic code means, why, and how to fix it; and
``hclgpu explain admission``: what Nomad's server changes in a job when it registers it."""

from __future__ import annotations

import argparse
import sys

from hclgpu.cli.common import EXIT_FATAL, EXIT_OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    explain = commands.add_parser("explain", help="explain a diagnostic code, or Nomad's admission changes")
    explain.add_argument(
        "code",
        metavar="CODE",
        help="a code such as HG001, or its name; or `admission`, or one admission change by its id",
    )


ADMISSION = "admission"


def _admission(wanted: str) -> int | None:
    """Print every admission change (``admission``) or the one named; None if not one."""
    from hclgpu.ir.admission import MUTATIONS

    chosen = [m for m in MUTATIONS if wanted in (ADMISSION, m.id)]
    if not chosen:
        return None
    if wanted == ADMISSION:
        sys.stdout.write(
            "What Nomad's server changes in a job when it registers it, in order"
            " (hclgpu render --target nomad --admission shows the result):\n\n"
        )
    for mutation in chosen:
        sys.stdout.write(f"{mutation.id} ({mutation.hook}, {mutation.source})\n    {mutation.what}.\n")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    from hclgpu.codes import lookup
    from hclgpu.codes.checks import CHECKS

    admitted = _admission(args.code)
    if admitted is not None:
        return admitted
    code = lookup(args.code) or lookup(CHECKS.get(args.code.lower(), ""))
    if code is None:
        sys.stderr.write(f"hclgpu: unknown code `{args.code}`; `hclgpu rules` lists them all\n")
        return EXIT_FATAL
    sys.stdout.write(f"{code.id} {code.name} ({code.severity})\n\n{code.summary}.\n\n{code.doc}\n")
    checks = [name for name, of in CHECKS.items() if of == code.id]
    if checks:
        sys.stdout.write(
            "\nChecks (each named in the output, and taken by `select`, `ignore` and suppression"
            " comments; docs/validation.md has Nomad's source of each):\n"
            + "".join(f"  {name}\n" for name in checks)
        )
    return EXIT_OK
