"""``hclgpu fmt``: rewrite job files in the canonical layout, as ``nomad fmt`` does."""

from __future__ import annotations

import argparse
import sys

from hclgpu.cli.common import EXIT_ERRORS, EXIT_FATAL, EXIT_OK, add_color, check_one, exit_status, report
from hclgpu.cli.parser import EPILOG

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    fmt = commands.add_parser(
        "fmt", help="rewrite job files in the canonical HCL layout", epilog=EPILOG,
        description="Format job files in place, as nomad fmt does. PATH is a file, a directory or - "
        "(standard input, printed to standard output). Files with syntax errors are never touched; "
        "a folder's files without a top-level `job` block are skipped with a note.",
    )  # fmt: skip
    fmt.add_argument("paths", nargs="+", metavar="PATH")
    fmt.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 and list files that would change"
    )
    fmt.add_argument("--diff", action="store_true", help="write nothing; print a unified diff of the changes")
    add_color(fmt)
    from hclgpu.cli.options import add_settings

    add_settings(fmt, "fmt")


def run(args: argparse.Namespace) -> int:
    """Format each input; with --check or --diff, or for standard input, write no file.

    Files that do not parse are reported and left byte-identical; exit 1 for those and,
    with --check, when some file would change. A file that cannot be written is reported
    (HG022, exit 2) after every other file is formatted."""
    from hclgpu.cli.options import run_settings
    from hclgpu.codes import Severity
    from hclgpu.diagnostics import Sink
    from hclgpu.io.inputs import collect
    from hclgpu.printer.fmt import (
        UnsafeFormat,
        format_document,
        unified_diff,
        write_atomically,
    )
    from hclgpu.settings.files import ConfigError

    sink = Sink()
    try:  # every file's configuration is read before any file is written
        resolver, settings = run_settings(args)
        exclusion, force = resolver.exclusion, settings.force_exclude
        items = list(collect(args.paths, sink, exclusion=exclusion, force_exclude=force))
    except ConfigError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    changed: list[str] = []
    files = 0
    for item in items:
        files += 1
        result = check_one(item, sink)  # parse only; HG901 rather than a traceback on a bug
        if result is None or result.tree is None or any(d.code == "HG023" for d in result.diagnostics):
            continue  # not parsed, or not a job file
        if any(d.severity is Severity.ERROR for d in result.diagnostics):
            continue
        source = result.source
        text = source.text
        try:
            formatted = format_document(result.tree, text, item.path)
        except (UnsafeFormat, RecursionError) as error:
            sink.emit("HG901", f"internal error while formatting this file: {error}", source,
                      help="this is a bug in hclgpu; the file was left as it is")  # fmt: skip
            continue
        if item.data is not None and item.data.startswith(b"\xef\xbb\xbf"):
            formatted = "\ufeff" + formatted[1:] if formatted.startswith(" ") else "\ufeff" + formatted
        original = (item.data or b"").decode("utf-8")
        if item.file is None and not (args.check or args.diff):  # standard input
            sys.stdout.write(formatted)
        if formatted == original:
            continue
        changed.append(item.path)
        if args.diff:
            sys.stdout.write(unified_diff(item.path, original, formatted))
        elif args.check:
            sys.stdout.write(f"{item.path}\n")
        elif item.file is not None:
            try:
                write_atomically(item.file, formatted)
            except OSError as error:  # the file is as it was; the others are still formatted
                reason = error.strerror or str(error)
                sink.emit("HG022", f"cannot write the formatted file: {reason}", source)
    diagnostics = sink.sorted()
    if diagnostics:
        report(args, diagnostics, files)
    status = exit_status(diagnostics, False)
    if status == EXIT_OK and args.check and changed:
        return EXIT_ERRORS
    return status
