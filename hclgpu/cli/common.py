"""What the commands share: exit statuses, evaluation options from the settings, checking
one input, reporting, and writing ``--out``.

Exit status, for every command: 0 no errors; 1 errors found (warnings too with
``--strict``); 2 usage error, unreadable input or internal error. (tflint numbers
these the other way round.)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from typing import TextIO

    from hclgpu.diagnostics import Diagnostic, Sink
    from hclgpu.io.inputs import Input
    from hclgpu.pipeline import Result
    from hclgpu.settings import Settings
    from hclgpu.settings.profile import Profile
    from hclgpu.source import SourceFile

EXIT_OK, EXIT_ERRORS, EXIT_FATAL = 0, 1, 2


def add_color(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour in text output"
    )


def exit_status(diagnostics: Sequence[Diagnostic], strict: bool) -> int:
    if not diagnostics:  # a clean run (a warm re-check) need not load the code tables
        return EXIT_OK
    from hclgpu.codes import CODES, Severity

    if any(CODES[d.code].fatal for d in diagnostics if d.code in CODES):
        return EXIT_FATAL
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    return EXIT_ERRORS if any(d.severity in failing for d in diagnostics) else EXIT_OK


def check_one(
    item: Input,
    sink: Sink,
    settings: Settings | None = None,
    *,
    checks: bool = True,
    profile: Profile | None = None,
) -> Result | None:
    """Decode and check one input (parse only when ``settings`` is None); HG901 for any
    escaping exception."""
    from hclgpu.io.inputs import decode
    from hclgpu.pipeline import check_source, compile_source, eval_options
    from hclgpu.source import SourceFile

    source = decode(item, sink)
    if source is None:
        return None
    try:
        if settings is None:
            result = check_source(source, skip_non_jobs=item.walked)
        else:
            options = eval_options(settings, item.path, profile)
            result = compile_source(source, options, checks=checks, skip_non_jobs=item.walked)
    except Exception as error:  # a bug in hclgpu: report it, never a traceback
        from hclgpu.codes.syntax import HG901  # (a warm re-check of a clean tree imports no codes)

        sink.emit(
            HG901,
            f"internal error while checking this file: {type(error).__name__}: {error}",
            SourceFile(source.path, source.text),
            help="this is a bug in hclgpu; please report it with the file",
        )
        return None
    sink.extend(result.diagnostics)
    return result


def report(
    args: argparse.Namespace, diagnostics: list[Diagnostic], files: int, stream: TextIO | None = None
) -> None:
    """Write ``diagnostics`` in the run's format to ``stream`` (without colour), else print
    them (text to standard error, the rest to standard output)."""
    quiet = getattr(args, "quiet", False)
    out = stream or (sys.stderr if args.format == "text" else sys.stdout)
    if args.format == "text" and not diagnostics:
        if not quiet:
            out.write(f"All checks passed ({files} file{'s' if files != 1 else ''}).\n")
        return
    from hclgpu.report import write_report as write

    color = "never" if stream is not None else args.color
    write(args.format, diagnostics, files, out, color=color, summary=not quiet)


def write_report(args: argparse.Namespace, diagnostics: list[Diagnostic], files: int) -> int:
    """``check``'s report: the findings or (``--statistics``) their counts, printed or
    written to ``--output-file`` whole; EXIT_FATAL when that file cannot be written."""
    output = getattr(args, "output_file", None)
    if getattr(args, "statistics", False):
        from hclgpu.report.statistics import render_statistics

        text = render_statistics(diagnostics, args.format)
        if output is None:
            sys.stdout.write(text)
            return EXIT_OK
        return write_one(output, text)
    if output is None:
        report(args, diagnostics, files)
        return EXIT_OK
    import io

    buffer = io.StringIO()
    report(args, diagnostics, files, buffer)
    return write_one(output, buffer.getvalue())


def single(
    args: argparse.Namespace, sink: Sink, compile: bool, target: str | None = None
) -> tuple[int, Result | None, Settings | None]:
    """Read and process exactly one input with its settings; a nonzero status means stop
    (diagnostics reported). ``target``: the translation the command makes, named for the
    checks about it."""
    from hclgpu.cli.options import run_settings
    from hclgpu.io.inputs import collect
    from hclgpu.settings.files import ConfigError

    try:
        resolver, _ = run_settings(args)
        settings = resolver.for_file(args.path)
    except ConfigError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL, None, None
    items = list(collect([args.path], sink, getattr(args, "stdin_filename", "<stdin>")))
    if len(items) > 1:
        sys.stderr.write(f"hclgpu {args.command}: give exactly one job file, not a directory of several\n")
        return EXIT_FATAL, None, settings
    profile = settings.profile_for(target) if target else None
    checks = not getattr(args, "parser_only", False)
    chosen = settings if compile else None
    result = None
    if items:
        from hclgpu.gc_pause import keep, kept_for_good

        with kept_for_good():
            result = check_one(items[0], sink, chosen, checks=checks, profile=profile)
        keep(result)
    diagnostics = sink.sorted()
    status = exit_status(diagnostics, False)
    if result is None or status != EXIT_OK:
        report(args, diagnostics, len(items))
        return status or EXIT_FATAL, None, settings
    return EXIT_OK, result, settings


def internal_error(
    args: argparse.Namespace, sink: Sink, source: SourceFile, doing: str, error: Exception
) -> int:
    """HG901 for an exception that escaped a back end or the planner, reported with the file
    like every other diagnostic (exit 2; the caller writes nothing)."""
    from hclgpu.codes.syntax import HG901

    sink.emit(
        HG901,
        f"internal error while {doing}: {type(error).__name__}: {error}",
        source,
        help="this is a bug in hclgpu; please report it with the file",
    )
    report(args, sink.sorted(), 1)
    return EXIT_FATAL


def write_one(path: str, text: str) -> int:
    """Write one file the user named (``--output-file``, ``import --output``) in one step,
    its folder otherwise untouched (see :func:`hclgpu.io.output.write_file`)."""
    from hclgpu.io.output import write_file

    return _written(write_file, path, text)


def write_out(directory: str, files: list[tuple[str, str]]) -> int:
    """Write every artifact, or none (see :mod:`hclgpu.io.output`)."""
    from hclgpu.io.output import write_files

    return _written(write_files, directory, files)


def _written(write: Callable[..., None], *arguments: object) -> int:
    """Run one of :mod:`hclgpu.io.output`'s writers; EXIT_FATAL, said on standard error, when
    it wrote nothing."""
    from hclgpu.io.output import WriteFailed

    try:
        write(*arguments)
    except WriteFailed as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    return EXIT_OK
