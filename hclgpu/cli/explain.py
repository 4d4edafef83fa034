"""``hclgpu explain``: what a diagnostic code means, why, and how to fix it; and
``hclgpu explain admission``: what Nomad's server changes in a job when it registers it."""

from __future__ import annotations

import argparse
import sys

from hclgpu.cli.common import EXIT_FATAL, EXIT_OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers
    from hclgpu.codes import Code


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
    from hclgpu.codes import CHECKS, declared, lookup

    admitted = _admission(args.code)
    if admitted is not None:
        return admitted
    entry = lookup(args.code) or lookup(CHECKS.get(args.code.lower(), ""))
    if entry is None:
        sys.stderr.write(f"hclgpu: unknown code `{args.code}`; `hclgpu rules` lists them all\n")
        return EXIT_FATAL
    code = declared(entry.id)
    sys.stdout.write(f"{code.id} {code.name} ({code.severity})\n\n{code.summary}.\n\n{code.doc}\n\n")
    sys.stdout.write(_checks(code))
    return EXIT_OK


def _checks(code: Code) -> str:
    """Every check of ``code``, as a finding names it: Nomad's with their source, hclgpu's
    own, and those that need the cluster's configuration (documented, never reported)."""
    from hclgpu.checks.registry import checks_of
    from hclgpu.checks.server import Condition

    named = checks_of(code.id)
    if not named:
        return f"Check: `{code.name}`, the only one (findings name it; `ignore` takes it).\n"
    width = max(len(check.id) for check in named)
    rows = []
    for check in named:
        if not isinstance(check, Condition):
            where = "hclgpu's own"
        elif check.needs or check.code is None:
            where = f"{check.nomad} ({check.location}); not checked offline: needs {check.needs}"
        else:
            where = f"{check.nomad} ({check.location})"
            if check.fact:
                where += f"; reported when the profile says `{check.fact} = false`"
        rows.append(f"  {check.id.ljust(width)}  {where}\n")
    return (
        f"Checks ({len(named)}; each finding names one, and `select`, `ignore` and suppression comments"
        " take the name):\n" + "".join(rows)
    )
