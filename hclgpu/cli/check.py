"""``hclgpu check``: report the problems of many job files, in parallel, cached.

Each file is checked with its own settings: the command line over the nearest
configuration above it (:mod:`hclgpu.settings.resolve`). Files whose settings state the
same cluster and policies share one policy engine and one cache fingerprint.
"""

from __future__ import annotations

import argparse
import os
import sys

from hclgpu import __version__
from hclgpu.cli.common import EXIT_ERRORS, EXIT_FATAL, EXIT_OK, add_color, exit_status
from hclgpu.cli.parser import EPILOG, positive_int

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable

    from hclgpu.cli.cache import Inputs
    from hclgpu.cli.fixes import Fixed
    from hclgpu.cli.parser import Subparsers
    from hclgpu.diagnostics import Diagnostic
    from hclgpu.rego.policies import PolicySet
    from hclgpu.settings import Settings
    from hclgpu.settings.resolve import Resolver
    from hclgpu.source import SourceFile


def add_parser(commands: Subparsers) -> None:
    from hclgpu.cli.options import add_settings

    check = commands.add_parser(
        "check", help="check job files and report problems", epilog=EPILOG,
        description="Check job files. PATH is a file, a directory (searched recursively for "
        "*.hcl, *.nomad and *.nomad.hcl; files without a top-level `job` block are skipped with a "
        "note) or - for standard input. Each file is checked with the settings of the nearest "
        "hclgpu.toml, .hclgpu.toml or [tool.hclgpu] above it, the flags below taking precedence.",
    )  # fmt: skip
    check.add_argument("paths", nargs="+", metavar="PATH")
    add_color(check)
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when errors are found")
    check.add_argument("--stdin-filename", default="<stdin>", help="the name reported for standard input")
    check.add_argument(
        "--statistics", action="store_true",
        help="print how many findings each code and check has, instead of the findings (text or json)",
    )  # fmt: skip
    check.add_argument(
        "--output-file",
        "-o",
        metavar="FILE",
        help="write the report to FILE (atomically) instead of printing it",
    )
    check.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="print the findings only: no summary line and no progress bar",
    )
    check.add_argument(
        "--fix", action="store_true",
        help="apply the safe fixes, check the files again and write them (as fmt writes); "
        "the exit status is that of what remains",
    )  # fmt: skip
    check.add_argument(
        "--unsafe-fixes", action="store_true",
        help="with --fix or --diff, also apply the fixes that guess (a did-you-mean, a value brought "
        "into range)",
    )  # fmt: skip
    check.add_argument(
        "--diff", action="store_true",
        help="print what --fix would change as a unified diff and write nothing; exit 1 when it "
        "would change a file",
    )  # fmt: skip
    check.add_argument(
        "--show-fixes", action="store_true", help="with --fix, list the fixes applied, by file and code"
    )
    check.add_argument(
        "--show-settings", action="store_true",
        help="print the settings of the first PATH, each with where it comes from, and exit",
    )  # fmt: skip
    check.add_argument(
        "--jobs", "-j", type=positive_int, default=os.cpu_count() or 1, metavar="N",
        help="worker processes for many files (default: the number of cores)",
    )  # fmt: skip
    check.add_argument(
        "--no-cache", action="store_true",
        help="check every file again (the cache is $XDG_CACHE_HOME/hclgpu/check, ~/.cache/hclgpu/check)",
    )  # fmt: skip
    add_settings(check, "check")


def run(args: argparse.Namespace) -> int:
    from hclgpu.cli.options import run_settings
    from hclgpu.settings.files import ConfigError

    try:
        resolver, settings = run_settings(args)
        if args.statistics and args.format not in ("text", "json"):
            sys.stderr.write(f"hclgpu check: --statistics prints text or json, not {args.format}\n")
            return EXIT_FATAL
        if (args.fix or args.diff) and "-" in args.paths:
            sys.stderr.write("hclgpu check: --fix and --diff take files, not standard input\n")
            return EXIT_FATAL
        if args.show_settings:
            return _show_settings(args, resolver)
        policies = _Policies()
        force = settings.force_exclude  # the run's, as the walk's
        caching = not (args.no_cache or os.environ.get("HCLGPU_NO_CACHE"))
        if caching and "-" not in args.paths:
            files = _all_clean(args, resolver, policies, force)
            if files is not None:  # nothing changed since a clean check: nothing more to load
                return _finish(args, resolver, [], files)
        return _check(args, resolver, policies, caching, force)
    except ConfigError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    except _PoliciesFailed as failed:
        from hclgpu.cli.common import report

        report(args, failed.problems, len({d.path for d in failed.problems}))
        return EXIT_FATAL


def _check(
    args: argparse.Namespace, resolver: Resolver, policies: _Policies, caching: bool, force: bool
) -> int:
    from hclgpu.cli.batch import Options, WorkerDied, check_all, check_paths
    from hclgpu.cli.cache import Cache
    from hclgpu.diagnostics import Sink
    from hclgpu.io.inputs import collect, job_paths

    sink = Sink()
    cache = Cache() if caching else None
    inputs = _InputsBy(resolver, policies)
    options = Options(args.jobs, cache, progress=args.format == "text" and not args.quiet)
    try:
        if "-" in args.paths:
            items = list(collect(args.paths, sink, args.stdin_filename, resolver.exclusion, force))
            check_all([(item, inputs(item.file or item.path, item.walked)) for item in items], options, sink)
            files = len(items)
        else:
            paths = job_paths(args.paths, sink, resolver.exclusion, force)
            check_paths([(path, shown, inputs(path, walked)) for path, shown, walked in paths], options, sink)
            files = len(paths)
    except WorkerDied as error:
        sys.stderr.write(f"hclgpu: a worker process stopped unexpectedly ({error}); try --jobs 1\n")
        return EXIT_FATAL
    shown = _wanted(sink.sorted(), resolver)
    if args.fix or args.diff:
        return _fix(args, resolver, inputs, shown, files)
    return _finish(args, resolver, shown, files)


def _fix(
    args: argparse.Namespace, resolver: Resolver, inputs: _InputsBy, shown: list[Diagnostic], files: int
) -> int:
    """``--fix`` / ``--diff``: fix each file that has an applicable fix, check it again, then
    write it (or print its diff); the report is of what remains."""
    from hclgpu.cli.fixes import fix_file, show_fixes, unified_diff
    from hclgpu.diagnostics import fixable

    by_path: dict[str, list[Diagnostic]] = {}
    for d in shown:
        by_path.setdefault(d.path, []).append(d)
    fixed = []
    for path, found in by_path.items():
        if not any(fixable(d, args.unsafe_fixes) for d in found) or found[0].source.path != path:
            continue
        result = fix_file(path, found[0].source.text, found, _checker(resolver, inputs), args.unsafe_fixes)
        if result.after != result.before:
            fixed.append(result)
    if args.diff:
        sys.stdout.write("".join(unified_diff(f) for f in fixed))
        count = sum(sum(f.applied.values()) for f in fixed)
        sys.stderr.write(f"Would fix {count} error{'s' if count != 1 else ''}.\n" if count else "No fixes.\n")
        return EXIT_ERRORS if fixed else EXIT_OK
    failed = _write_fixed(fixed)
    if args.show_fixes:
        show_fixes(fixed)
    remaining = {f.path: f.diagnostics for f in fixed}
    after = [d for d in shown if d.path not in remaining]
    after += [d for f in fixed for d in _wanted(f.diagnostics, resolver)]
    status = _finish(args, resolver, sorted(after, key=lambda d: d.sort_key()), files)
    return EXIT_FATAL if failed else status


def _checker(resolver: Resolver, inputs: _InputsBy) -> Callable[[SourceFile], list[Diagnostic]]:
    """Check a fixed text as ``check`` checked the file: its settings, policies and variables."""
    from hclgpu.cli.batch import compile_entries
    from hclgpu.cli.cache import diagnostic

    def check(source: SourceFile) -> list[Diagnostic]:
        entries, _ = compile_entries(source.path, source.text, inputs(source.path, False))
        return _wanted([diagnostic(item, source) for item in entries], resolver)

    return check


def _wanted(diagnostics: list[Diagnostic], resolver: Resolver) -> list[Diagnostic]:
    """The findings each file's settings report (`select`, `ignore`, `per-file-ignores`)."""
    from hclgpu.diagnostics import wanted

    shown = []
    for d in diagnostics:
        settings = resolver.for_file(d.path)
        if wanted(d, settings.selected, settings.ignored_for(d.path)):
            shown.append(d)
    return shown


def _write_fixed(fixed: list[Fixed]) -> bool:
    """Write each fixed file atomically; False when all were written (a file that cannot be is
    left as it was, and said)."""
    from hclgpu.printer.fmt import LinkOutside, write_atomically

    failed = False
    for f in fixed:
        try:
            write_atomically(f.path, f.after, [os.path.dirname(os.path.abspath(f.path))])
        except (LinkOutside, OSError) as error:
            sys.stderr.write(f"hclgpu: cannot write the fixed {f.path}: {error}\n")
            failed = True
    return failed


def _finish(args: argparse.Namespace, resolver: Resolver, diagnostics: list[Diagnostic], files: int) -> int:
    """Report (or count) the findings, and the exit status: warnings fail the files whose
    settings are strict."""
    from hclgpu.cli.common import write_report

    status = write_report(args, diagnostics, files)
    if status != EXIT_OK:
        return status
    if diagnostics and args.format == "text" and not (args.quiet or args.statistics or args.output_file):
        from hclgpu.cli.fixes import fix_hint  # not for a clean tree: a warm re-check imports little

        sys.stderr.write(fix_hint(diagnostics))
    strict = {d.path for d in diagnostics if resolver.for_file(d.path).strict}
    status = max(
        exit_status([d for d in diagnostics if d.path in strict], True),
        exit_status([d for d in diagnostics if d.path not in strict], False),
    )
    return EXIT_OK if args.exit_zero and status == EXIT_ERRORS else status


class _PoliciesFailed(Exception):
    def __init__(self, problems: list[Diagnostic]) -> None:
        self.problems = problems


class _Policies:
    """The compiled policy set of each settings (None without `policy`), compiled once per
    distinct choice of directories, packages and time limit; a set that does not compile
    stops the run (exit 2), its problems located in the `.rego` files."""

    def __init__(self) -> None:
        self._sets: dict[tuple[object, ...], PolicySet | None] = {}

    def __call__(self, settings: Settings) -> PolicySet | None:
        if not settings.policy:
            return None
        key = (
            settings.policy,
            settings.policy_namespace,
            settings.policy_all_namespaces,
            settings.policy_timeout,
        )
        if key not in self._sets:
            from hclgpu.cli.policy import policy_set
            from hclgpu.diagnostics import Sink

            problems = Sink()
            found = policy_set(settings, problems)
            if found is None:
                raise _PoliciesFailed(problems.sorted())
            self._sets[key] = found
        return self._sets[key]


class _InputsBy:
    """The inputs of checking each file (its folder's settings), one object per distinct
    settings and walk, so that their fingerprints are computed once."""

    def __init__(self, resolver: Resolver, policies: _Policies) -> None:
        self.resolver = resolver
        self.policies = policies
        self._known: dict[tuple[int, bool], Inputs] = {}

    def __call__(self, path: str, walked: bool) -> Inputs:
        from hclgpu.cli.cache import inputs_from

        settings = self.resolver.for_file(path)
        key = (id(settings), walked)
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = inputs_from(settings, self.policies(settings), walked)
        return found


def _all_clean(args: argparse.Namespace, resolver: Resolver, policies: _Policies, force: bool) -> int | None:
    """The number of files when each is unchanged since a check that found nothing in it."""
    from hclgpu.cli import clean_index

    index = clean_index.CleanIndex(clean_index.cache_root(), __version__)
    env = clean_index.nomad_var_env()
    known: dict[int, str] = {}

    def inputs(path: str) -> str:
        settings = resolver.for_file(path)
        if id(settings) not in known:
            chosen = policies(settings)
            known[id(settings)] = clean_index.fingerprint(
                settings.var, settings.var_file, settings.allow_fs, env, settings.profile.key(),
                chosen.fingerprint if chosen is not None else "", settings.file_base,
            )  # fmt: skip
        return known[id(settings)]

    return clean_index.all_clean(args.paths, index, inputs, resolver.exclusion, force)


def _show_settings(args: argparse.Namespace, resolver: Resolver) -> int:
    """``--show-settings``: every setting of the first PATH, its value and its origin."""
    path = args.paths[0]
    settings = resolver.for_folder(path) if os.path.isdir(path) else resolver.for_file(path)
    lines = [f"Settings of {path} (configuration: {settings.config or 'none'})"]
    rows = settings.shown()
    width = max(len(name) for name, _, _ in rows)
    lines += [f"  {name.ljust(width)}  {value}  ({origin})" for name, value, origin in rows]
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK
