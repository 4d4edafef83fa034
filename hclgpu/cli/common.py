"""What the commands share: exit statuses, evaluation options from the command line,
checking one input, reporting, and writing ``--out``.

Exit status, for every command: 0 no errors; 1 errors found (warnings too with
``--strict``); 2 usage error, unreadable input or internal error. (tflint numbers
these the other way round.)
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from hclgpu.diagnostics import Diagnostic, Sink
    from hclgpu.eval.program import EvalOptions
    from hclgpu.io.inputs import Input
    from hclgpu.pipeline import Result
    from hclgpu.source import SourceFile

EXIT_OK, EXIT_ERRORS, EXIT_FATAL = 0, 1, 2


def code_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip().upper() for part in text.split(",") if part.strip())


def exit_status(diagnostics: Sequence[Diagnostic], strict: bool) -> int:
    from hclgpu.codes import CODES, Severity

    if any(CODES[d.code].fatal for d in diagnostics if d.code in CODES):
        return EXIT_FATAL
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    return EXIT_ERRORS if any(d.severity in failing for d in diagnostics) else EXIT_OK


def eval_options(args: argparse.Namespace, path: str) -> EvalOptions:
    """Evaluation inputs from the command line and the environment (NOMAD_VAR_*)."""
    from pathlib import Path

    from hclgpu.eval.program import EvalOptions
    from hclgpu.eval.variables import VariableInputs

    variables = VariableInputs(
        args=list(getattr(args, "var", [])),
        files=[Path(f) for f in getattr(args, "var_file", [])],
        env=dict(os.environ),
    )
    base = Path(path).parent if path and not path.startswith("<") else Path()
    allow_fs = bool(getattr(args, "allow_fs", False))
    return EvalOptions(
        variables, base_dir=base, allow_fs=allow_fs, nomad_version=getattr(args, "nomad_version", "2.0")
    )


def check_one(item: Input, sink: Sink, args: argparse.Namespace | None = None) -> Result | None:
    """Decode and check one input (parse only when ``args`` is None); HG901 for any escaping exception."""
    from hclgpu.io.inputs import decode
    from hclgpu.pipeline import check_source, compile_source
    from hclgpu.source import SourceFile

    source = decode(item, sink)
    if source is None:
        return None
    try:
        result = (
            check_source(source)
            if args is None
            else compile_source(
                source,
                eval_options(args, item.path),
                checks=not getattr(args, "parser_only", False),
                ignore=getattr(args, "ignore_codes", frozenset()),
            )
        )
    except Exception as error:  # a bug in hclgpu: report it, never a traceback
        sink.emit(
            "HG901",
            f"internal error while checking this file: {type(error).__name__}: {error}",
            SourceFile(source.path, source.text),
            help="this is a bug in hclgpu; please report it with the file",
        )
        return None
    sink.extend(result.diagnostics)
    return result


def report(args: argparse.Namespace, diagnostics: list[Diagnostic], files: int) -> None:
    if args.format == "text" and not diagnostics:
        sys.stderr.write(f"All checks passed ({files} file{'s' if files != 1 else ''}).\n")
        return
    from hclgpu.report import write_report

    stream = sys.stderr if args.format == "text" else sys.stdout
    write_report(args.format, diagnostics, files, stream, color=args.color)


def single(args: argparse.Namespace, sink: Sink, compile: bool) -> tuple[int, Result | None]:
    """Read and process exactly one input; a nonzero status means stop (diagnostics reported)."""

    from hclgpu.io.inputs import collect

    items = list(collect([args.path], sink))
    if len(items) > 1:
        sys.stderr.write(f"hclgpu {args.command}: give exactly one job file, not a directory of several\n")
        return EXIT_FATAL, None
    result = check_one(items[0], sink, args if compile else None) if items else None
    diagnostics = sink.sorted()
    status = exit_status(diagnostics, False)
    if result is None or status != EXIT_OK:
        report(args, diagnostics, len(items))
        return status or EXIT_FATAL, None
    return EXIT_OK, result


def internal_error(
    args: argparse.Namespace, sink: Sink, source: SourceFile, doing: str, error: Exception
) -> int:
    """HG901 for an exception that escaped a back end or the planner, reported with the file
    like every other diagnostic (exit 2; the caller writes nothing)."""
    sink.emit(
        "HG901",
        f"internal error while {doing}: {type(error).__name__}: {error}",
        source,
        help="this is a bug in hclgpu; please report it with the file",
    )
    report(args, sink.sorted(), 1)
    return EXIT_FATAL


def write_out(directory: str, files: list[tuple[str, str]]) -> int:
    """Write every artifact, or none (see :mod:`hclgpu.io.output`)."""
    from hclgpu.io.output import WriteFailed, write_files

    try:
        write_files(directory, files)
    except WriteFailed as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    return EXIT_OK
