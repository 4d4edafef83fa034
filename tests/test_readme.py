"""The README's configuration: its table of settings is the settings' definitions, row for
row, and every configuration example in it (and samples/hclgpu.toml, which it shows) is one
hclgpu reads. Rewrite the table after a change with ``.venv/bin/python -m tests.test_readme``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from hclgpu.cli import main
from hclgpu.settings import SECTIONS, Settings
from hclgpu.settings.resolve import Resolver
from tests.conftest import ROOT

README = ROOT / "README.md"
START, END = "<!-- settings: start -->", "<!-- settings: end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table() -> str:
    """One table per section: the configuration key, the flags and commands, the editor's
    key, the type, the default, and what it does."""
    parts = []
    for section, title in SECTIONS.items():
        parts.append(f"**{title}**\n")
        parts.append("| key | flag (commands) | editor | type | default | what it does |")
        parts.append("|---|---|---|---|---|---|")
        for option in Settings.options():
            if option.section != section:
                continue
            key = f"`{option.name}`" if option.config else "— (not in a file)"
            flags = ", ".join(f"`{flag}`" for flag in option.cli_flags) if option.commands else ""
            if option.kind.cli == "switch":
                flags += ", " + ", ".join(f"`--no-{flag[2:]}`" for flag in option.cli_flags)
            where = f"{flags} ({', '.join(option.commands)})" if option.commands else "—"
            editor = f"`{option.lsp_key}`" if option.lsp_key else "—"
            default = "—" if option.extends else option.kind.show(option.default)
            cells = (key, where, editor, option.kind.toml, f"`{default}`", option.help)
            parts.append("| " + " | ".join(_cell(cell) for cell in cells) + " |")
        parts.append("")
    return "\n".join(parts).rstrip()


def _documented() -> str:
    return README.read_text(encoding="utf-8").split(START, 1)[1].split(END, 1)[0].strip()


def test_the_readme_table_is_the_settings_row_for_row() -> None:
    assert _documented().splitlines() == table().splitlines()


def _examples() -> list[str]:
    """The README's TOML blocks that configure hclgpu (not Helix's languages.toml)."""
    blocks = re.findall(r"```toml\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    return [block for block in blocks if "language-server" not in block]


@pytest.mark.parametrize("index", range(len(_examples())))
def test_every_configuration_example_is_read_as_written(index: int, tmp_path: Path) -> None:
    text = _examples()[index]
    name = "pyproject.toml" if "[tool.hclgpu]" in text and "[project]" in text else "hclgpu.toml"
    (tmp_path / name).write_text(text)
    for folder in re.findall(r'"([a-z]+)/?"', text):  # the folders it names exist in a real project
        (tmp_path / folder).mkdir(exist_ok=True)
    settings = Resolver().for_folder(str(tmp_path))
    assert settings.config is not None and Path(settings.config).name == name
    assert set(settings.origins) >= {
        o.attr for o in Settings.options() if re.search(rf"^{o.name} *=", text, re.M)
    }


def test_the_readme_shows_the_sample_team_configuration() -> None:
    sample = (ROOT / "samples" / "hclgpu.toml").read_text(encoding="utf-8")
    assert sample in _examples()


def test_the_sample_configuration_applies_to_the_samples(capsys: pytest.CaptureFixture[str]) -> None:
    """`make demo` checks the samples with it; `plan` finds its inventory there."""
    settings = Resolver().for_folder(str(ROOT / "samples"))
    assert settings.config == str(ROOT / "samples" / "hclgpu.toml")
    assert (settings.enterprise, settings.targets, settings.namespace) == (False, ("kubernetes",), "ml")
    assert main(["check", "--no-cache", str(ROOT / "samples")]) == 0
    assert main(["plan", str(ROOT / "samples" / "tensorrt.nomad.hcl")]) == 0
    assert "group back: 1/1 placed" in capsys.readouterr().out


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def _run(argv: str, cwd: Path) -> tuple[str, int]:
    """A README command line run as printed (``| head -N`` kept to its first N lines): what
    it prints, standard error and output together as a terminal shows them, and its status."""
    import shlex
    import subprocess

    command, _, head = argv.partition(" | head -")
    words = shlex.split(command)
    done = subprocess.run(
        [sys.executable, "-m", "hclgpu", *words[1:]], cwd=cwd, capture_output=True, text=True, check=False,
        env={**os.environ, "HCLGPU_NO_CACHE": "1", "COLUMNS": "200"},
    )  # fmt: skip
    out = done.stderr + done.stdout
    if head:
        out = "".join(out.splitlines(keepends=True)[: int(head)])
    return out, done.returncode


def test_the_example_commands_print_what_the_readme_shows(tmp_path: Path) -> None:
    """The Example section's sessions, run in a folder holding its job files (and the samples)."""
    example = _section("Example")
    files = re.findall(r"`([\w.]+\.nomad\.hcl)`:\n\n```hcl\n(.*?)```", example, re.DOTALL)
    assert [name for name, _ in files] == ["infer.nomad.hcl", "gpu.nomad.hcl"]
    for name, text in files:
        (tmp_path / name).write_text(text)
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    sessions = re.findall(r"```\n(\$ hclgpu .*?)```", example, re.DOTALL)
    compared = 0
    for session in sessions:
        status = None
        for command, shown in re.findall(r"^\$ (hclgpu[^\n]*)\n(.*?)(?=^\$ |\Z)", session, re.DOTALL | re.M):
            out, status = _run(command, tmp_path)
            if command.endswith("--format json infer.nomad.hcl"):  # shown compacted
                summary = re.search(r'"summary": (\{.*?\})', shown)
                assert summary is not None and json.loads(out)["summary"] == json.loads(summary.group(1))
                assert json.loads(out)["diagnostics"][0] == json.loads(
                    shown.split('"diagnostics": [', 1)[1]
                    .rsplit("]", 1)[0]
                    .replace('"line": 6, "column"', '"line": 6,\n"column"')
                )
            elif "\n...\n" in shown:  # an excerpt (JSON compacted): each line shown is printed
                printed = re.sub(r"\s", "", out)
                for line in shown.splitlines():
                    assert line == "..." or re.sub(r"\s", "", line) in printed, line
            else:
                assert out == shown, command
            compared += 1
        echoed = re.search(r"^\$ echo \$\?\n(\d+)$", session, re.M)
        assert echoed is None or status == int(echoed.group(1)), session
    assert compared == 5


def test_the_python_api_example_runs_as_printed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    block = re.search(r"```python\n(.*?)```", _section("Python API"), re.DOTALL)
    assert block is not None
    namespace: dict[str, object] = {}
    exec(compile(block.group(1), "README", "exec"), namespace)
    assert namespace["found"] and "kind: " in str(namespace["manifests"])


def _rewrite(text: str) -> str:
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{table()}\n{END}{tail}"


if __name__ == "__main__":  # rewrite the README's table
    README.write_text(_rewrite(README.read_text(encoding="utf-8")), encoding="utf-8")
    sys.stdout.write(f"{README}: {len(Settings.options())} settings\n")
