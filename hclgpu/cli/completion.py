"""``hclgpu completion bash|zsh|fish``: a shell completion script, made from the parser.

Every command, flag and choice comes from the argparse parser itself (and so from the
settings' definitions), so the scripts can never offer a flag that does not exist. Install::

    hclgpu completion bash > ~/.local/share/bash-completion/completions/hclgpu
    hclgpu completion zsh > "${fpath[1]}/_hclgpu"
    hclgpu completion fish > ~/.config/fish/completions/hclgpu.fish
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from hclgpu.cli.common import EXIT_OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.cli.parser import Subparsers

SHELLS = ("bash", "zsh", "fish")


def add_parser(commands: Subparsers) -> None:
    completion = commands.add_parser(
        "completion", help="print a shell completion script (bash, zsh or fish)",
        description="Print the completion script of SHELL on standard output: commands, flags and "
        "their choices. bash: save it as ~/.local/share/bash-completion/completions/hclgpu; zsh: as "
        "_hclgpu in a folder of $fpath; fish: as ~/.config/fish/completions/hclgpu.fish.",
    )  # fmt: skip
    completion.add_argument("shell", choices=SHELLS, help="the shell to complete in")


@dataclass(slots=True)
class Flag:
    names: list[str]
    help: str
    choices: list[str] = field(default_factory=list)
    takes_value: bool = False


@dataclass(slots=True)
class Command:
    name: str
    help: str
    flags: list[Flag]
    words: list[str]
    """What the positional arguments may be, when they are words (not files)."""


def commands() -> list[Command]:
    """Every command of the full parser, with its flags and choices."""
    from hclgpu.cli.parser import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: str(choice.help or "") for choice in action._choices_actions}
    words_of = _setting_words()
    found = []
    for name, sub in action.choices.items():
        flags, words = [], []
        for item in sub._actions:
            if isinstance(item, argparse._HelpAction):
                flags.append(Flag(list(item.option_strings), "show the help and exit"))
            elif item.option_strings:
                choices = [str(c) for c in item.choices] if item.choices else words_of.get(item.dest, [])
                flags.append(Flag(list(item.option_strings), _short(item.help), choices, item.nargs != 0))
            elif item.choices:
                words += [str(c) for c in item.choices]
        found.append(Command(name, helps.get(name, ""), flags, words))
    return found


def _setting_words() -> dict[str, list[str]]:
    """The words a setting's flag takes that argparse does not list: the releases of
    ``--nomad-version``, the codes and check names of ``--select`` and ``--ignore``."""
    from hclgpu.codes import BY_NAME, CHECKS, CODES
    from hclgpu.settings import Settings
    from hclgpu.settings.kinds import Many, NomadRelease, Selector
    from hclgpu.settings.releases import NEWEST_PATCH, all_releases, release_text

    releases = [f"{a}.{b}" for a, b in NEWEST_PATCH] + [release_text(r) for r in all_releases()]
    selectors = [*CODES, *BY_NAME, *CHECKS]
    found: dict[str, list[str]] = {}
    for option in Settings.options():
        if isinstance(option.kind, NomadRelease):
            found[option.attr] = releases
        elif isinstance(option.kind, Many) and isinstance(option.kind.item, Selector):
            found[option.attr] = selectors
    return found


def _short(text: str | None) -> str:
    """The help of a flag as a shell shows it beside the flag: its first clause."""
    first = (text or "").split(" (setting")[0].split("; ")[0].split(": ")[0]
    return first if len(first) <= 70 else first[:67].rstrip() + "..."


def bash() -> str:
    found = commands()
    lines = [
        "# bash completion for hclgpu (hclgpu completion bash)",
        "_hclgpu() {",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command="" word',
        '    for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do',
        '        case "$word" in -*) ;; *) command="$word"; break ;; esac',
        "    done",
        '    if [[ -z "$command" ]]; then',
        f'        COMPREPLY=($(compgen -W "{" ".join(c.name for c in found)} --help --version" -- "$cur"))',
        "        return",
        "    fi",
        '    local flags="" choices="" words="" value=""',
        '    case "$command" in',
    ]
    for command in found:
        lines.append(f"        {command.name})")
        lines.append(f'            flags="{" ".join(n for f in command.flags for n in f.names)}"')
        if command.words:
            lines.append(f'            words="{" ".join(command.words)}"')
        cases = [(f, "|".join(f.names)) for f in command.flags if f.takes_value]
        if cases:
            lines.append('            case "$prev" in')
            for flag, names in cases:
                if flag.choices:
                    lines.append(f'                {names}) choices="{" ".join(flag.choices)}"; value=1 ;;')
                else:
                    lines.append(f"                {names}) value=1 ;;")
            lines.append("            esac")
        lines.append("            ;;")
    lines += [
        "    esac",
        '    if [[ -n "$choices" ]]; then COMPREPLY=($(compgen -W "$choices" -- "$cur")); return; fi',
        '    if [[ -n "$value" ]]; then COMPREPLY=($(compgen -f -- "$cur")); return; fi',
        '    if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); return; fi',
        '    if [[ -n "$words" ]]; then COMPREPLY=($(compgen -W "$words" -- "$cur")); return; fi',
        '    COMPREPLY=($(compgen -f -- "$cur"))',
        "}",
        "complete -o filenames -o bashdefault -F _hclgpu hclgpu",
    ]
    return "\n".join(lines) + "\n"


def _zsh_text(text: str) -> str:
    """A description inside single quotes of an _arguments spec: brackets and colons escaped."""
    return text.replace("'", "'\\''").replace("[", "\\[").replace("]", "\\]").replace(":", "\\:")


def zsh() -> str:
    found = commands()
    lines = [
        "#compdef hclgpu",
        "# zsh completion for hclgpu (hclgpu completion zsh)",
        "_hclgpu() {",
        "    local -a commands",
        "    commands=(",
        *(f"        '{_zsh_text(c.name)}:{_zsh_text(c.help)}'" for c in found),
        "    )",
        "    if (( CURRENT == 2 )); then",
        "        _describe 'command' commands",
        "        return",
        "    fi",
        "    local command=$words[2]",
        "    shift words",
        "    (( CURRENT-- ))",
        "    case $command in",
    ]
    for command in found:
        specs = []
        for flag in command.flags:
            value = ""
            if flag.takes_value:
                value = f":value:({' '.join(flag.choices)})" if flag.choices else ":value:_files"
            names = "{" + ",".join(flag.names) + "}" if len(flag.names) > 1 else flag.names[0]
            exclusive = f"'({' '.join(flag.names)})'" if len(flag.names) > 1 else ""
            specs.append(f"{exclusive}{names}'[{_zsh_text(flag.help)}]{value}'")
        rest = f"'*:word:({' '.join(command.words)})'" if command.words else "'*:file:_files'"
        lines.append(f"        {command.name})")
        lines.append("            _arguments -s \\")
        lines += [f"                {spec} \\" for spec in specs]
        lines.append(f"                {rest}")
        lines.append("            ;;")
    lines += [
        "    esac",
        "}",
        'if [[ "${funcstack[1]}" == "_hclgpu" ]]; then',
        '    _hclgpu "$@"',
        "else",
        "    compdef _hclgpu hclgpu",
        "fi",
    ]
    return "\n".join(lines) + "\n"


def _fish_text(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish() -> str:
    found = commands()
    lines = ["# fish completion for hclgpu (hclgpu completion fish)", "complete -c hclgpu -f"]
    for command in found:
        lines.append(
            f"complete -c hclgpu -n __fish_use_subcommand -a {command.name} -d {_fish_text(command.help)}"
        )
    for command in found:
        when = f"-n '__fish_seen_subcommand_from {command.name}'"
        for flag in command.flags:
            names = []
            for name in flag.names:
                if name.startswith("--"):
                    names.append(f"-l {name[2:]}")
                elif len(name) == 2:
                    names.append(f"-s {name[1:]}")
                else:
                    names.append(f"-o {name[1:]}")
            value = ""
            if flag.takes_value:
                value = f" -x -a {_fish_text(' '.join(flag.choices))}" if flag.choices else " -r -F"
            lines.append(f"complete -c hclgpu {when} {' '.join(names)}{value} -d {_fish_text(flag.help)}")
        if command.words:
            lines.append(f"complete -c hclgpu {when} -a {_fish_text(' '.join(command.words))}")
        else:
            lines.append(f"complete -c hclgpu {when} -F")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    sys.stdout.write({"bash": bash, "zsh": zsh, "fish": fish}[args.shell]())
    return EXIT_OK
