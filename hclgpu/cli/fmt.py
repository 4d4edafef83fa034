"""``hclgpu fmt``: rewrite job files in the canonical layout, as ``nomad fmt`` does."""

from __future__ import annotations

import argparse
import sys

from hclgpu.cli.common import EXIT_ERRORS, EXIT_FATAL, EXIT_OK, add_color, check_one, exit_status, report
from hclgpu.cli.parser import EPILOG
from hclgpu.codes.syntax import HG022, HG023, HG901

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers
    from hclgpu.diagnostics import Sink
    from hclgpu.io.inputs import Input
    from hclgpu.source import SourceFile


def add_parser(commands: Subparsers) -> None:
    fmt = commands.add_parser(
        "fmt", help="rewrite job files in the canonical HCL layout", epilog=EPILOG,
        description="Format job files in place, as nomad fmt does. PATH is a file, a directory or - "
        "(standard input, printed to standard output). Files with syntax errors are never touched; "
        "a folder's files without a top-level `job` block are skipped with a note. A symbolic link "
        "is followed only to a file inside the directory given, or for a file named, inside its own "
        "folder or the working directory (otherwise HG022, exit 2).",
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
    with --check, when some file would change. A file that cannot be written, or is a link
    out of the tree given, is reported (HG022, exit 2) after every other file is formatted."""
    from hclgpu.cli.options import run_settings
    from hclgpu.diagnostics import Sink
    from hclgpu.io.inputs import collect
    from hclgpu.settings.files import ConfigError

    sink = Sink()
    try:  # every file's configuration is read before any file is written
        resolver, settings = run_settings(args)
        exclusion, force = resolver.exclusion, settings.force_exclude
        items = list(collect(args.paths, sink, exclusion=exclusion, force_exclude=force))
    except ConfigError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    writer = _Writer(args.paths, sink) if not (args.check or args.diff) else None
    changed = [item.path for item in items if _format(args, item, sink, writer)]
    diagnostics = sink.sorted()
    if diagnostics:
        report(args, diagnostics, len(items))
    status = exit_status(diagnostics, False)
    if status == EXIT_OK and args.check and changed:
        return EXIT_ERRORS
    return status


def _format(args: argparse.Namespace, item: Input, sink: Sink, writer: _Writer | None) -> bool:
    """Format one input: print, diff, list or write it; whether it changes."""
    from hclgpu.codes import Severity
    from hclgpu.printer.fmt import UnsafeFormat, format_document, unified_diff

    if writer is not None and item.file is not None:
        writer.clean(item.file, item.walked)  # what a killed run left beside it, even if it needs no change
    result = check_one(item, sink)  # parse only; HG901 rather than a traceback on a bug
    if result is None or result.tree is None or any(d.code == HG023 for d in result.diagnostics):
        return False  # not parsed, or not a job file
    if any(d.severity is Severity.ERROR for d in result.diagnostics):
        return False
    source = result.source
    try:
        formatted = format_document(result.tree, source.text, item.path)
    except (UnsafeFormat, RecursionError) as error:
        sink.emit(HG901, f"internal error while formatting this file: {error}", source,
                  help="this is a bug in hclgpu; the file was left as it is")  # fmt: skip
        return False
    if item.data is not None and item.data.startswith(b"\xef\xbb\xbf"):
        formatted = "\ufeff" + formatted[1:] if formatted.startswith(" ") else "\ufeff" + formatted
    original = (item.data or b"").decode("utf-8")
    if item.file is None and not (args.check or args.diff):  # standard input
        sys.stdout.write(formatted)
    if formatted == original:
        return False
    if args.diff:
        sys.stdout.write(unified_diff(item.path, original, formatted))
    elif args.check:
        sys.stdout.write(f"{item.path}\n")
    elif writer is not None and item.file is not None:
        writer.write(item.file, item.walked, formatted, source)
    return True


class _Writer:
    """Writes formatted files, each only inside the tree it was given in: a file a folder's
    walk found, inside that folder; a file named, inside its own folder or the working
    directory (pre-commit names a pull request's files from the repository root)."""

    def __init__(self, paths: list[str], sink: Sink) -> None:
        import os

        self.folders = [path for path in paths if path != "-" and os.path.isdir(path)]
        self.sink = sink
        self.cleaned: set[str] = set()

    def trees(self, file: str, walked: bool) -> list[str]:
        """The trees a link at ``file`` may lead into."""
        import os

        if walked:
            for folder in self.folders:
                if file.startswith(folder.rstrip(os.sep) + os.sep):
                    return [folder]
        return list(dict.fromkeys([os.path.dirname(file) or os.curdir, os.curdir]))

    def clean(self, file: str, walked: bool) -> None:
        """Remove the temporary files a killed run left beside the file, once per folder."""
        from hclgpu.io.durable import remove_stale_temporaries
        from hclgpu.printer.fmt import LinkOutside, writable_target

        try:
            folder = str(writable_target(file, self.trees(file, walked)).parent)
        except LinkOutside:
            return
        if folder not in self.cleaned:
            self.cleaned.add(folder)
            remove_stale_temporaries(folder)

    def write(self, file: str, walked: bool, formatted: str, source: SourceFile) -> None:
        """Write ``file``; HG022 when it cannot be, or is a link out of its tree."""
        from hclgpu.printer.fmt import LinkOutside, write_atomically

        trees = self.trees(file, walked)
        try:
            write_atomically(file, formatted, trees)
        except LinkOutside as error:
            outside = " and ".join(f"`{tree}`" for tree in trees)
            self.sink.emit(HG022, f"cannot write the formatted file: it is a symbolic link to "
                           f"`{error.target}`, outside {outside}", source,
                           help="fmt does not write through a link that leaves the tree it was given; "
                           "format the file it points to where it is")  # fmt: skip
        except OSError as error:  # the file is as it was; the others are still formatted
            reason = error.strerror or str(error)
            self.sink.emit(HG022, f"cannot write the formatted file: {reason}", source)
