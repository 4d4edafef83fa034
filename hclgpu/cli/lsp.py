"""``hclgpu lsp``: the language server over stdio (pygls is imported here only)."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    from hclgpu.cli.options import add_settings

    lsp = commands.add_parser(
        "lsp", help="run the language server (stdio) for editors",
        description="Serve the Language Server Protocol over stdin/stdout: diagnostics as you type, "
        "hover, completion, formatting, symbols, definitions, references and quick fixes. Each "
        "document is checked with the settings of the nearest hclgpu.toml, .hclgpu.toml or "
        "[tool.hclgpu] above it; the flags below, and the client's initializationOptions and `hclgpu` "
        "workspace settings (the same settings in camelCase: nomadVersion, varFiles...), take "
        "precedence over it, as a command line's flags do.",
    )  # fmt: skip
    lsp.add_argument(
        "--debounce-ms", type=int, default=10, metavar="MS", help="pause after a change before checking (10)"
    )
    add_settings(lsp, "lsp")


def run(args: argparse.Namespace) -> int:
    """pygls is imported here only: no other command pays for it. The status is LSP's: 0 when
    the client said ``shutdown`` before ``exit``, 1 when it did not."""
    from hclgpu.cli.options import given
    from hclgpu.lsp.server import serve

    return serve(given(args), debounce=max(0, args.debounce_ms) / 1000)
