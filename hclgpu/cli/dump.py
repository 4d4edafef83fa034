"""``hclgpu dump``: the syntax tree or the typed job, as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from hclgpu.cli.common import (
    EXIT_ERRORS,
    EXIT_FATAL,
    EXIT_OK,
    add_color,
    check_one,
    exit_status,
    report,
    single,
)
from hclgpu.codes.syntax import HG012

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    dump = commands.add_parser("dump", help="print internal representations as JSON")
    dump.add_argument(
        "what", choices=("ast", "ir"), help="ast: the syntax tree with spans; ir: the typed job"
    )
    dump.add_argument("path", metavar="PATH", help="a job file, or - for standard input")
    from hclgpu.cli.options import add_settings

    add_color(dump)
    add_settings(dump, "dump")


def run(args: argparse.Namespace) -> int:
    from hclgpu.diagnostics import Sink

    if args.what == "ir":
        return _dump_ir(args)
    from hclgpu.cli.options import run_settings
    from hclgpu.io.inputs import collect
    from hclgpu.settings.files import ConfigError

    try:
        run_settings(args)
    except ConfigError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL

    sink = Sink()
    items = list(collect([args.path], sink))
    results = [check_one(item, sink) for item in items]
    diagnostics = sink.sorted()
    if len(items) != 1:
        if len(items) > 1:
            sys.stderr.write("hclgpu dump: give exactly one job file, not a directory of several\n")
            return EXIT_FATAL
        report(args, diagnostics, 0)
        return exit_status(diagnostics, False) or EXIT_FATAL
    result = results[0]
    if result is None or exit_status(diagnostics, False) != EXIT_OK:
        report(args, diagnostics, 1)
        return exit_status(diagnostics, False) or EXIT_ERRORS
    from hclgpu.syntax.dump import to_json

    try:
        data = to_json(result.tree, result.source)
        text = json.dumps(data, ensure_ascii=False, indent=2)
    except RecursionError:
        sink.emit(HG012, "the file is nested too deeply to print", result.source)
        report(args, sink.sorted(), 1)
        return EXIT_ERRORS
    if diagnostics:
        report(args, diagnostics, 1)
    sys.stdout.write(text + "\n")
    return EXIT_OK


def _dump_ir(args: argparse.Namespace) -> int:
    from hclgpu.diagnostics import Sink

    sink = Sink()
    status, result, _ = single(args, sink, compile=True)
    if result is None or result.job is None:
        return status or EXIT_ERRORS
    data = result.job.model_dump(mode="json", exclude_none=False)
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    return EXIT_OK
