"""``hclgpu import``: a job in another format (Nomad API JSON, Kubernetes, Compose) as HCL."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from hclgpu.cli.common import EXIT_ERRORS, EXIT_FATAL, EXIT_OK, write_one

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers
    from hclgpu.importers.hcl_writer import Dropped


def add_parser(commands: Subparsers) -> None:
    importer = commands.add_parser(
        "import", help="turn a job in another format into a Nomad job file (HCL)",
        description="Read a job as Nomad API JSON (`nomad job run -output`, `nomad job inspect`, "
        "the HTTP API), Kubernetes manifests (YAML or JSON, one or many documents, a List) or a "
        "Compose file, and print it as a Nomad job file. What a job file cannot say is warned "
        "about at its line in the input: HG301 left out, HG302 approximated.",
    )  # fmt: skip
    importer.add_argument("file", metavar="FILE", help="the input file ('-' for stdin)")
    importer.add_argument(
        "--from", dest="source_format", choices=("nomad-json", "kubernetes", "compose"), required=True
    )
    importer.add_argument("-o", "--output", metavar="FILE", help="write the job file here (atomically)")
    from hclgpu.cli.options import add_settings

    add_settings(importer, "import")


def run(args: argparse.Namespace) -> int:
    """Warnings go to stderr so that stdout stays a clean job file for redirection."""
    from hclgpu.cli.options import resolver
    from hclgpu.importers import importer_for
    from hclgpu.importers.common import ImportFailure, ImportOptions
    from hclgpu.io.files import NotUtf8, read_text_or_stdin
    from hclgpu.settings.files import ConfigError

    try:
        settings = resolver(args).for_file(args.file)
    except ConfigError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    folder = os.path.basename(os.path.dirname(os.path.abspath(args.file))) if args.file != "-" else None
    options = ImportOptions(cpu_mhz_per_core=settings.cpu_mhz_per_core, directory=folder)
    try:
        text = read_text_or_stdin(args.file)
    except NotUtf8 as error:
        sys.stderr.write(f"{args.file}:{error.line}:{error.column}: error: HG010: {error}\n")
        return EXIT_ERRORS
    except OSError as error:
        sys.stderr.write(f"hclgpu: cannot read {args.file}: {error.strerror or error}\n")
        return EXIT_FATAL
    try:
        imported = importer_for(args.source_format)(text, options)
    except ImportFailure as error:
        where = f"{args.file}:{error.line}:{error.column or 1}" if error.line else args.file
        sys.stderr.write(f"{where}: error: {error}\n")
        return EXIT_ERRORS
    except Exception as error:  # a bug in hclgpu: report it, never a traceback, write nothing
        sys.stderr.write(
            f"{args.file}: error: HG901: internal error while importing: {type(error).__name__}: {error} "
            "(this is a bug in hclgpu; please report it with the file)\n"
        )
        return EXIT_FATAL
    _report_import(args.file, text, imported.dropped)
    if args.output is None:
        sys.stdout.write(imported.hcl)
        return EXIT_OK
    return write_one(args.output, imported.hcl)


def _report_import(path: str, text: str, dropped: Sequence[Dropped]) -> None:
    """``file:line:col: warning: HGnnn: message [pointer]``, the line found from the pointer."""
    from hclgpu.importers.common import locate

    located = [(locate(text, item.document, item.pointer), item) for item in dropped]
    located.sort(key=lambda pair: (pair[1].document, pair[0] or (0, 0)))
    documents = any(item.document for item in dropped)
    for spot, item in located:
        where = f"{path}:{spot[0]}:{spot[1]}" if spot else path
        at = f" [{f'document {item.document + 1} ' if documents else ''}{item.pointer or '/'}]"
        sys.stderr.write(f"{where}: warning: {item.code}: {item.message}{at}\n")
