"""``hclgpu lsp``: the language server over stdio (pygls is imported here only)."""

from __future__ import annotations

import argparse

from hclgpu.cli.common import EXIT_OK
from hclgpu.cli.policy import add_policy_options

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers


def add_parser(commands: Subparsers) -> None:
    lsp = commands.add_parser(
        "lsp", help="run the language server (stdio) for editors",
        description="Serve the Language Server Protocol over stdin/stdout: diagnostics as you type, "
        "hover, completion, formatting, symbols, definitions, references and quick fixes. Variable "
        "files and policies may also come from the client's initializationOptions (varFiles, vars, "
        "allowFs, policy, policyNamespaces, policyAllNamespaces, policyTimeout), and policies from "
        "`policy` in [tool.hclgpu].",
    )  # fmt: skip
    lsp.add_argument("--var-file", action="append", default=[], metavar="FILE", help="variable values file")
    lsp.add_argument("--var", action="append", default=[], metavar="NAME=VALUE", help="a variable value")
    lsp.add_argument(
        "--allow-fs", action="store_true", help="let file functions read outside the job's directory"
    )
    lsp.add_argument(
        "--debounce-ms", type=int, default=10, metavar="MS", help="pause after a change before checking (10)"
    )
    add_policy_options(lsp, unit="document")


def run(args: argparse.Namespace) -> int:
    """pygls is imported here only: no other command pays for it."""
    from hclgpu.lsp.analysis import Settings
    from hclgpu.lsp.server import serve

    settings = Settings(
        var_files=list(args.var_file), variables=list(args.var), allow_fs=args.allow_fs,
        policy=list(args.policy), policy_namespaces=list(args.namespace),
        all_namespaces=args.all_namespaces, policy_timeout=args.policy_timeout,
    )  # fmt: skip
    serve(settings, debounce=max(0, args.debounce_ms) / 1000)
    return EXIT_OK
