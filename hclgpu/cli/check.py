"""``hclgpu check``: report the problems of many job files, in parallel, cached."""

from __future__ import annotations

import argparse
import os
import sys

from hclgpu import __version__
from hclgpu.cli.common import EXIT_ERRORS, EXIT_FATAL, EXIT_OK, code_list, exit_status, report
from hclgpu.cli.parser import EPILOG, add_format, add_inputs, positive_int

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    check = commands.add_parser(
        "check", help="check job files and report problems", epilog=EPILOG,
        description="Check job files. PATH is a file, a directory (searched recursively for "
        "*.hcl, *.nomad and *.nomad.hcl) or - for standard input.",
    )  # fmt: skip
    check.add_argument("paths", nargs="+", metavar="PATH")
    add_format(check)
    check.add_argument("--strict", action="store_true", help="treat warnings as errors for the exit status")
    check.add_argument("--select", default="", metavar="CODES", help="report only these codes (comma list)")
    check.add_argument("--ignore", default="", metavar="CODES", help="do not report these codes (comma list)")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when errors are found")
    check.add_argument("--stdin-filename", default="<stdin>", help="the name reported for standard input")
    check.add_argument(
        "--jobs", "-j", type=positive_int, default=os.cpu_count() or 1, metavar="N",
        help="worker processes for many files (default: the number of cores)",
    )  # fmt: skip
    check.add_argument(
        "--no-cache", action="store_true",
        help="check every file again (the cache is $XDG_CACHE_HOME/hclgpu/check, ~/.cache/hclgpu/check)",
    )  # fmt: skip
    add_inputs(check)
    from hclgpu.cli.policy import add_policy_options

    add_policy_options(check)


def run(args: argparse.Namespace) -> int:
    from hclgpu.config import ConfigError, find_config

    try:
        config = find_config()
    except ConfigError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    policies = None
    if args.policy or config.policy:
        from hclgpu.cli.policy import policies_for
        from hclgpu.diagnostics import Sink

        problems = Sink()
        policies = policies_for(args, config, problems)
        if policies is None:
            report(args, problems.sorted(), len({d.path for d in problems}))
            return EXIT_FATAL
    caching = not (args.no_cache or os.environ.get("HCLGPU_NO_CACHE"))
    if caching and "-" not in args.paths:
        files = _all_clean(args, policies.fingerprint if policies is not None else "")
        if files is not None:  # nothing changed since a clean check: nothing more to load
            report(args, [], files)
            return EXIT_OK
    from hclgpu.cli.batch import Options, WorkerDied, check_all, check_paths
    from hclgpu.cli.cache import Cache, inputs_from
    from hclgpu.diagnostics import Sink, wanted
    from hclgpu.io.inputs import collect, job_paths

    sink = Sink()
    cache = Cache() if caching else None
    inputs = inputs_from(args.var, args.var_file, args.allow_fs, args.nomad_version, policies)
    options = Options(inputs, args.jobs, cache, progress=args.format == "text")
    try:
        if "-" in args.paths:
            items = list(collect(args.paths, sink, args.stdin_filename))
            files = len(items)
            check_all(items, options, sink)
        else:
            paths = job_paths(args.paths, sink)
            files = len(paths)
            check_paths(paths, options, sink)
    except WorkerDied as error:
        sys.stderr.write(f"hclgpu: a worker process stopped unexpectedly ({error}); try --jobs 1\n")
        return EXIT_FATAL
    select = code_list(args.select) or config.select
    extra = code_list(args.ignore)
    diagnostics = [d for d in sink.sorted() if wanted(d, select, config.ignored_for(d.path) + extra)]
    report(args, diagnostics, files)
    status = exit_status(diagnostics, args.strict or config.strict)
    return EXIT_OK if args.exit_zero and status == EXIT_ERRORS else status


def _all_clean(args: argparse.Namespace, policies: str) -> int | None:
    """The number of files when each is unchanged since a check that found nothing in it."""
    from hclgpu.cli import clean_index

    index = clean_index.CleanIndex(clean_index.cache_root(), __version__)
    inputs = clean_index.fingerprint(
        tuple(args.var), tuple(args.var_file), args.allow_fs, clean_index.nomad_var_env(), args.nomad_version,
        policies,
    )  # fmt: skip
    return clean_index.all_clean(args.paths, index, inputs)
