"""The ``hclgpu`` command line.

argparse keeps start-up cheap: editors and pre-commit run this on every keystroke
and commit, so rich is imported only to print diagnostics and pydantic/jinja2 only
by the commands that need them.

Exit status, for every command: 0 no errors; 1 errors found (warnings too with
``--strict``); 2 usage error, unreadable input or internal error. (tflint numbers
these the other way round.)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from hclgpu import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)

if TYPE_CHECKING:
    from hclgpu.diagnostics import Diagnostic, Sink
    from hclgpu.eval.program import EvalOptions
    from hclgpu.importers.hcl_writer import Dropped
    from hclgpu.io.inputs import Input
    from hclgpu.pipeline import Result
    from hclgpu.source import SourceFile

EXIT_OK, EXIT_ERRORS, EXIT_FATAL = 0, 1, 2


def _codes(text: str) -> tuple[str, ...]:
    return tuple(part.strip().upper() for part in text.split(",") if part.strip())


def _exit_status(diagnostics: Sequence[Diagnostic], strict: bool) -> int:
    from hclgpu.codes import CODES, Severity

    if any(CODES[d.code].fatal for d in diagnostics if d.code in CODES):
        return EXIT_FATAL
    failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
    return EXIT_ERRORS if any(d.severity in failing for d in diagnostics) else EXIT_OK


def _options(args: argparse.Namespace, path: str) -> EvalOptions:
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
    return EvalOptions(variables, base_dir=base, allow_fs=bool(getattr(args, "allow_fs", False)))


def _check_one(item: Input, sink: Sink, args: argparse.Namespace | None = None) -> Result | None:
    """Decode and check one input (parse only when ``args`` is None); HG901 for any escaping exception."""
    from hclgpu.io.inputs import decode
    from hclgpu.pipeline import check_source, compile_source
    from hclgpu.source import SourceFile

    source = decode(item, sink)
    if source is None:
        return None
    try:
        result = check_source(source) if args is None else compile_source(source, _options(args, item.path))
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


def _report(args: argparse.Namespace, diagnostics: list[Diagnostic], files: int) -> None:
    if args.format == "text" and not diagnostics:
        sys.stderr.write(f"All checks passed ({files} file{'s' if files != 1 else ''}).\n")
        return
    from hclgpu.report import write_report

    stream = sys.stderr if args.format == "text" else sys.stdout
    write_report(args.format, diagnostics, files, stream, color=args.color)


def run_check(args: argparse.Namespace) -> int:
    from hclgpu.config import ConfigError, find_config

    try:
        config = find_config()
    except ConfigError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    caching = not (args.no_cache or os.environ.get("HCLGPU_NO_CACHE"))
    if caching and "-" not in args.paths:
        files = _all_clean(args)
        if files is not None:  # nothing changed since a clean check: nothing more to load
            _report(args, [], files)
            return EXIT_OK
    from hclgpu.batch import Options, WorkerDied, check_all, check_paths
    from hclgpu.cache import Cache, inputs_from
    from hclgpu.diagnostics import Sink, wanted
    from hclgpu.io.inputs import collect, job_paths

    sink = Sink()
    cache = Cache() if caching else None
    inputs = inputs_from(args.var, args.var_file, args.allow_fs)
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
    select = _codes(args.select) or config.select
    extra = _codes(args.ignore)
    diagnostics = [d for d in sink.sorted() if wanted(d, select, config.ignored_for(d.path) + extra)]
    _report(args, diagnostics, files)
    status = _exit_status(diagnostics, args.strict or config.strict)
    return EXIT_OK if args.exit_zero and status == EXIT_ERRORS else status


def _all_clean(args: argparse.Namespace) -> int | None:
    """The number of files when each is unchanged since a check that found nothing in it."""
    from hclgpu import clean_index

    index = clean_index.CleanIndex(clean_index.cache_root(), __version__)
    inputs = clean_index.fingerprint(
        tuple(args.var), tuple(args.var_file), args.allow_fs, clean_index.nomad_var_env()
    )
    return clean_index.all_clean(args.paths, index, inputs)


def _single(args: argparse.Namespace, sink: Sink, compile: bool) -> tuple[int, Result | None]:
    """Read and process exactly one input; a nonzero status means stop (diagnostics reported)."""

    from hclgpu.io.inputs import collect

    items = list(collect([args.path], sink))
    if len(items) > 1:
        sys.stderr.write(f"hclgpu {args.command}: give exactly one job file, not a directory of several\n")
        return EXIT_FATAL, None
    result = _check_one(items[0], sink, args if compile else None) if items else None
    diagnostics = sink.sorted()
    status = _exit_status(diagnostics, False)
    if result is None or status != EXIT_OK:
        _report(args, diagnostics, len(items))
        return status or EXIT_FATAL, None
    return EXIT_OK, result


def run_render(args: argparse.Namespace) -> int:
    from hclgpu.diagnostics import Sink

    sink = Sink()
    status, result = _single(args, sink, compile=True)
    if result is None or result.job is None:
        return status or EXIT_ERRORS
    from hclgpu.backends import join, render_target
    from hclgpu.backends.target import Lowering, RenderOptions
    from hclgpu.backends.templating import TemplateError

    job = result.job
    device_ids: dict[tuple[str, str, int], list[str]] | None = None
    if args.nodes is not None and args.target in ("oci", "docker", "compose"):
        # plan the job on the inventory; every group with device requests takes its first
        # placement on --node, and each request the IDs chosen there
        from pathlib import Path

        from hclgpu.plan.inventory import InventoryError, load_inventory
        from hclgpu.plan.planner import plan

        if not args.node:
            sys.stderr.write("hclgpu render: --nodes needs --node NAME (the node the containers run on)\n")
            return EXIT_FATAL
        try:
            inventory, _notes = load_inventory(Path(args.nodes))
        except InventoryError as error:
            sys.stderr.write(f"hclgpu: {error}\n")
            return EXIT_FATAL
        if not any(n.name == args.node for n in inventory.nodes):
            sys.stderr.write(f"hclgpu render: node {args.node!r} is not in {args.nodes}\n")
            return EXIT_FATAL
        try:
            plans = plan(job, inventory)
        except Exception as error:  # a bug in hclgpu: report it, never a traceback, write nothing
            return _internal_error(args, sink, result.source, "planning", error)
        device_ids = {}
        for group, group_plan in zip(job.task_groups or [], plans, strict=True):
            keys = [
                (group_plan.name, task.name, index)
                for task in group.tasks or []
                for index, _ in enumerate((task.resources.devices if task.resources else None) or [])
            ]
            if not keys:
                continue
            placement = next((p for p in group_plan.placements if p.node == args.node), None)
            if placement is None:
                reason = next((i.reason for i in group_plan.infeasible if i.node == args.node), None)
                if reason is None:
                    elsewhere = ", ".join(dict.fromkeys(p.node for p in group_plan.placements)) or "no node"
                    reason = f"the plan places its allocations on {elsewhere}"
                sys.stderr.write(
                    f'hclgpu render: group "{group_plan.name}" cannot be placed on {args.node}: {reason}\n'
                )
                return EXIT_ERRORS
            # the planner assigns a group's requests in task, then device order: one choice each
            for key, choice in zip(keys, placement.devices, strict=True):
                device_ids[key] = list(choice.ids)
    if args.canonicalize:
        from hclgpu.ir.canonical import canonicalize

        job = canonicalize(job)
    options = RenderOptions(
        k8s_devices=args.k8s_devices,
        namespace=args.namespace,
        templates=args.templates,
        unsupported=args.unsupported,
        cpu_mhz_per_core=max(1, args.cpu_mhz_per_core),
        oci_devices=args.oci_devices,
        cdi_spec=args.cdi_spec,
        rootfs=args.rootfs,
        device_ids=device_ids,
        device_node=args.node if device_ids is not None else None,
    )
    try:
        artifacts = render_target(job, args.target, Lowering(args.target, result.source, sink, options))
    except TemplateError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    except Exception as error:  # a bug in a back end: report it, never a traceback, write nothing
        return _internal_error(args, sink, result.source, f"rendering for {args.target}", error)
    diagnostics = sink.sorted()
    if diagnostics:
        _report(args, diagnostics, 1)
    if _exit_status(diagnostics, False) != EXIT_OK:
        return EXIT_ERRORS  # --unsupported error turned something into an error: write nothing
    if args.out:
        return _write_out(args.out, [(a.name, a.text) for a in artifacts])
    sys.stdout.write(join(args.target, artifacts))
    return EXIT_OK


def _internal_error(
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
    _report(args, sink.sorted(), 1)
    return EXIT_FATAL


def _write_out(directory: str, files: list[tuple[str, str]]) -> int:
    """Write every artifact, or none (see :mod:`hclgpu.io.output`)."""
    from hclgpu.io.output import WriteFailed, write_files

    try:
        write_files(directory, files)
    except WriteFailed as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    return EXIT_OK


def run_dump(args: argparse.Namespace) -> int:
    from hclgpu.diagnostics import Sink

    if args.what == "ir":
        return _dump_ir(args)
    from hclgpu.io.inputs import collect

    sink = Sink()
    items = list(collect([args.path], sink))
    results = [_check_one(item, sink) for item in items]
    diagnostics = sink.sorted()
    if len(items) != 1:
        if len(items) > 1:
            sys.stderr.write("hclgpu dump: give exactly one job file, not a directory of several\n")
            return EXIT_FATAL
        _report(args, diagnostics, 0)
        return _exit_status(diagnostics, False) or EXIT_FATAL
    result = results[0]
    if result is None or _exit_status(diagnostics, False) != EXIT_OK:
        _report(args, diagnostics, 1)
        return _exit_status(diagnostics, False) or EXIT_ERRORS
    from hclgpu.syntax.dump import to_json

    try:
        data = to_json(result.tree, result.source)
        text = json.dumps(data, ensure_ascii=False, indent=2)
    except RecursionError:
        sink.emit("HG012", "the file is nested too deeply to print", result.source)
        _report(args, sink.sorted(), 1)
        return EXIT_ERRORS
    if diagnostics:
        _report(args, diagnostics, 1)
    sys.stdout.write(text + "\n")
    return EXIT_OK


def _dump_ir(args: argparse.Namespace) -> int:
    from hclgpu.diagnostics import Sink

    sink = Sink()
    status, result = _single(args, sink, compile=True)
    if result is None or result.job is None:
        return status or EXIT_ERRORS
    data = result.job.model_dump(mode="json", exclude_none=False)
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    return EXIT_OK


def run_plan(args: argparse.Namespace) -> int:
    from pathlib import Path

    from hclgpu.diagnostics import Sink
    from hclgpu.plan.inventory import InventoryError, load_inventory

    sink = Sink()
    status, result = _single(args, sink, compile=True)
    if result is None or result.job is None:
        return status or EXIT_ERRORS
    try:
        inventory, notes = load_inventory(Path(args.nodes), args.nodes_format)
    except InventoryError as error:
        sys.stderr.write(f"hclgpu: {error}\n")
        return EXIT_FATAL
    from hclgpu.plan.planner import plan
    from hclgpu.plan.report import to_json, to_text

    try:
        plans = plan(result.job, inventory)
        if args.format == "json":
            text = json.dumps(to_json(plans), ensure_ascii=False, indent=2) + "\n"
        else:
            text = _terminal_text(to_text(plans), args.color)
    except Exception as error:  # a bug in hclgpu: report it, never a traceback, write nothing
        return _internal_error(args, sink, result.source, "planning", error)
    if sink.items:
        _report(args, sink.sorted(), 1)
    for note in notes:
        sys.stderr.write(f"note: {note}\n")
    sys.stdout.write(text)
    return EXIT_ERRORS if any(p.unplaced for p in plans) else EXIT_OK


def _terminal_text(lines: Sequence[object], color: str) -> str:
    """Lines and rich tables as standard output shows them, colour as ``--color``, the terminal
    and ``NO_COLOR`` say; rendered whole before anything is written. Text is printed as it is:
    a reason like ``not in [dc1]`` is no markup."""
    from hclgpu.report.text import make_console

    console = make_console(sys.stdout, color)
    with console.capture() as capture:
        for line in lines:
            console.print(line, markup=False)
    return capture.get()


def run_fingerprint(args: argparse.Namespace) -> int:
    import socket

    from hclgpu.io.files import read_side_file
    from hclgpu.plan import fingerprint as fp

    name = args.name or socket.gethostname()
    try:
        if args.source:
            text = read_side_file(args.source)
            is_xml = text.lstrip().startswith("<")
            inventory = fp.fingerprint_xml(text, name) if is_xml else fp.fingerprint_csv(text, name)
        else:
            inventory = fp.fingerprint_csv(fp.run_nvidia_smi(), name)
    except (OSError, ValueError) as error:
        sys.stderr.write(f"hclgpu fingerprint: {error}\n")
        return EXIT_FATAL
    data = inventory.model_dump(mode="json", by_alias=True)
    if args.output == "json":
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        import yaml

        sys.stdout.write(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return EXIT_OK


def run_schema(args: argparse.Namespace) -> int:
    from hclgpu.plan.inventory import inventory_schema

    sys.stdout.write(json.dumps(inventory_schema(), indent=2) + "\n")
    return EXIT_OK


def run_fmt(args: argparse.Namespace) -> int:
    """Format each input; with --check or --diff, or for standard input, write no file.

    Files that do not parse are reported and left byte-identical; exit 1 for those and,
    with --check, when some file would change. A file that cannot be written is reported
    (HG022, exit 2) after every other file is formatted."""
    from hclgpu.codes import Severity
    from hclgpu.diagnostics import Sink
    from hclgpu.io.inputs import collect
    from hclgpu.printer.fmt import (
        UnsafeFormat,
        format_document,
        unified_diff,
        write_atomically,
    )

    sink = Sink()
    changed: list[str] = []
    files = 0
    for item in collect(args.paths, sink):
        files += 1
        result = _check_one(item, sink)  # parse only; HG901 rather than a traceback on a bug
        if result is None or result.tree is None:
            continue
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
        _report(args, diagnostics, files)
    status = _exit_status(diagnostics, False)
    if status == EXIT_OK and args.check and changed:
        return EXIT_ERRORS
    return status


def run_explain(args: argparse.Namespace) -> int:
    from hclgpu.codes import lookup

    code = lookup(args.code)
    if code is None:
        sys.stderr.write(f"hclgpu: unknown code `{args.code}`; `hclgpu rules` lists them all\n")
        return EXIT_FATAL
    sys.stdout.write(f"{code.id} {code.name} ({code.severity})\n\n{code.summary}.\n\n{code.doc}\n")
    return EXIT_OK


def run_rules(args: argparse.Namespace) -> int:
    from hclgpu.codes import CODES

    if args.format == "json":
        rows = [
            {"code": c.id, "name": c.name, "severity": str(c.severity), "summary": c.summary}
            for c in CODES.values()
        ]
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
        return EXIT_OK
    width = max(len(c.name) for c in CODES.values())
    for c in CODES.values():
        sys.stdout.write(f"{c.id}  {c.name.ljust(width)}  {str(c.severity).ljust(7)}  {c.summary}\n")
    return EXIT_OK


def run_import(args: argparse.Namespace) -> int:
    """Warnings go to stderr so that stdout stays a clean job file for redirection."""
    from hclgpu.importers import importer_for
    from hclgpu.importers.common import ImportFailure, ImportOptions
    from hclgpu.io.files import NotUtf8, read_text_or_stdin

    options = ImportOptions(cpu_mhz_per_core=args.cpu_mhz_per_core)
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
    directory, name = os.path.split(os.path.abspath(args.output))
    return _write_out(directory, [(name, imported.hcl)])


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


def run_lsp(args: argparse.Namespace) -> int:
    """pygls is imported here only: no other command pays for it."""
    from hclgpu.lsp.analysis import Settings
    from hclgpu.lsp.server import serve

    settings = Settings(var_files=list(args.var_file), variables=list(args.var), allow_fs=args.allow_fs)
    serve(settings, debounce=max(0, args.debounce_ms) / 1000)
    return EXIT_OK


_COMMANDS = {
    "import": run_import,
    "lsp": run_lsp,
    "check": run_check,
    "render": run_render,
    "plan": run_plan,
    "fingerprint": run_fingerprint,
    "schema": run_schema,
    "dump": run_dump,
    "fmt": run_fmt,
    "explain": run_explain,
    "rules": run_rules,
}


def main(argv: Sequence[str] | None = None) -> int:
    from hclgpu.cli_parser import build_parser

    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(arguments[0] if arguments else None)
    if arguments[:1] == ["--version"] and len(arguments) > 1:  # argparse would ignore the rest
        parser.error("--version takes no other arguments")
    args = parser.parse_args(arguments)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_FATAL
    try:
        return _COMMANDS[args.command](args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
