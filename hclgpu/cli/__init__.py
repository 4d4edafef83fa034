"""The ``hclgpu`` command line.

argparse keeps start-up cheap: editors and pre-commit run this on every keystroke
and commit, so rich is imported only to print diagnostics and pydantic/jinja2 only
by the commands that need them. Each command is one module here (its part of the
parser, ``add_parser``, and ``run``), loaded only when it is the one named (see
:mod:`hclgpu.cli.parser`); exit statuses are in :mod:`hclgpu.cli.common`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import NoReturn


def run() -> NoReturn:
    """The ``hclgpu`` program: :func:`main`, then the end of the process.

    A command that read one job keeps it to the end (:func:`hclgpu.gc_pause.keep`): Python's
    own exit would free it object by object, which costs more than parsing a tenth of it.
    Then the process ends as Python's exit would, without that: the standard streams
    flushed, the exit handlers run (the policy engines' workers stopped)."""
    status = main()
    gc_pause = sys.modules.get("hclgpu.gc_pause")
    if gc_pause is None or not gc_pause.holds_kept():
        raise SystemExit(status)
    import atexit
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a reader that went away: nothing more can be written
        pass
    atexit._run_exitfuncs()
    os._exit(status)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (``sys.argv[1:]`` when None); the exit status."""
    from hclgpu.cli.common import EXIT_FATAL, EXIT_OK
    from hclgpu.cli.parser import build_parser, command_module

    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(arguments[0] if arguments else None)
    if arguments[:1] == ["--version"] and len(arguments) > 1:  # argparse would ignore the rest
        parser.error("--version takes no other arguments")
    args = parser.parse_args(arguments)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_FATAL
    previous = _on_terminate(_terminated)
    try:
        status: int = command_module(args.command).run(args)
    except KeyboardInterrupt as stopped:
        return 143 if isinstance(stopped, Terminated) else 130
    except BrokenPipeError:
        return EXIT_OK
    finally:
        _on_terminate(previous)
    return status


class Terminated(KeyboardInterrupt):
    """SIGTERM (a CI job cancelled, a service stopped), handled as Ctrl-C is: workers and
    policy engines ended, nothing half-written, temporary files removed; exit status 143,
    as a shell reports a process the signal ended."""


def _terminated(signum: int, frame: object) -> None:
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second one must not cut the clean-up short
    raise Terminated


def _on_terminate(handler: object) -> object:
    """Install ``handler`` for SIGTERM; the one it replaces (None off the main thread, where
    Python cannot set one)."""
    import signal

    try:
        return signal.signal(signal.SIGTERM, handler)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return None
