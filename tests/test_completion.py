"""`hclgpu completion bash|zsh|fish`: each script is run by its real shell (.ci/run installs
zsh and fish), completes commands, flags and their values, and offers every flag the parser has."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.cli.completion import commands


def script(shell: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    assert main(["completion", shell]) == 0
    path = tmp_path / f"hclgpu.{shell}"
    path.write_text(capsys.readouterr().out)
    return path


def needs(shell: str) -> str:
    found = shutil.which(shell)
    if found is None:
        pytest.skip(f"{shell} is not installed (apt-get install {shell}; .ci/run installs it)")
    return found


def bash_complete(path: Path, *words: str) -> list[str]:
    """What bash offers for the last of ``words`` (the one being typed)."""
    line = " ".join(f"'{w}'" for w in words)
    program = (
        f"source {path}; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _hclgpu;"
        ' printf "%s\\n" "${COMPREPLY[@]}"'
    )
    out = subprocess.run([needs("bash"), "-c", program], capture_output=True, text=True, check=True).stdout
    return [w for w in out.splitlines() if w]


def fish_complete(path: Path, line: str) -> list[str]:
    program = f"source {path}; complete -C '{line}'"
    out = subprocess.run([needs("fish"), "-c", program], capture_output=True, text=True, check=True).stdout
    return [row.split("\t")[0] for row in out.splitlines()]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_script_is_valid_in_its_shell(
    shell: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = script(shell, tmp_path, capsys)
    completed = subprocess.run([needs(shell), "-n", str(path)], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_script_offers_every_flag_of_every_command(
    shell: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = script(shell, tmp_path, capsys).read_text()
    for command in commands():
        assert command.name in text
        for flag in command.flags:
            for name in flag.names:
                written = {"bash": name, "zsh": name, "fish": name.lstrip("-")}[shell]
                assert written in text, (command.name, name)


def test_bash_completes_commands_flags_and_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = script("bash", tmp_path, capsys)
    assert bash_complete(path, "hclgpu", "ch") == ["check"]
    assert bash_complete(path, "hclgpu", "check", "--nomad-v") == ["--nomad-version"]
    assert bash_complete(path, "hclgpu", "check", "--format", "s") == ["sarif"]
    assert bash_complete(path, "hclgpu", "check", "--nomad-version", "2.0.") == [f"2.0.{n}" for n in range(7)]
    assert bash_complete(path, "hclgpu", "check", "--ignore", "memory-over") == [
        "memory-oversubscription-disabled"
    ]
    assert bash_complete(path, "hclgpu", "completion", "z") == ["zsh"]
    assert bash_complete(path, "hclgpu", "render", "--k8s-devices", "") == ["plugin", "dra"]


def test_fish_completes_commands_flags_and_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = script("fish", tmp_path, capsys)
    assert fish_complete(path, "hclgpu comp") == ["completion"]
    assert fish_complete(path, "hclgpu check --format ") == ["github", "json", "sarif", "text"]
    assert "--memory-oversubscription" in fish_complete(path, "hclgpu check --memory")
    assert fish_complete(path, "hclgpu plan --scheduler-algorithm ") == ["binpack", "spread"]


def test_zsh_registers_the_function(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = script("zsh", tmp_path, capsys)
    program = f"autoload -Uz compinit && compinit -u -D; source {path}; print -r -- ${{_comps[hclgpu]}}"
    completed = subprocess.run(
        [needs("zsh"), "-f", "-c", program],
        capture_output=True,
        text=True,
        check=False,
        env={"HOME": str(tmp_path)},
    )
    assert completed.stdout.strip().splitlines()[-1] == "_hclgpu", completed.stderr
