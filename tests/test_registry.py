"""A target is one registry entry: a throwaway one, written here and nowhere else, renders
through the command line and the Python API with its own flag, --out and --nodes."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import hclgpu
from hclgpu.backends import registry
from hclgpu.backends.registry import BaseTarget, options_of
from hclgpu.backends.target import Artifact, Lowering
from hclgpu.cli import main
from hclgpu.ir import models as m

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "tensorrt.nomad.hcl"
NODES = ROOT / "samples" / "nodes" / "v100.yaml"


@dataclass(frozen=True, slots=True)
class SlurmOptions:
    partition: str = "gpu"


class Slurm(BaseTarget):
    """One sbatch script per task, GPUs as a generic resource."""

    name = "slurm"
    Options = SlurmOptions
    takes_device_ids = True

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--partition", default="gpu", help="slurm: the partition to submit to")

    def render(self, job: m.Job, ctx: Lowering) -> list[Artifact]:
        partition = options_of(ctx.options.target, SlurmOptions).partition
        scripts = []
        for group in job.task_groups or []:
            for task in group.tasks or []:
                devices = (task.resources.devices if task.resources else None) or []
                gpus = sum(d.count or 1 for d in devices)
                planned = (ctx.options.device_ids or {}).get((group.name or "", task.name, 0))
                lines = [
                    "#!/bin/sh",
                    f"#SBATCH --job-name={job.id}-{group.name}-{task.name}",
                    f"#SBATCH --partition={partition}",
                    *([f"#SBATCH --gres=gpu:{gpus}"] if gpus else []),
                    *([f"# planned on {ctx.options.device_node}: {','.join(planned)}"] if planned else []),
                ]
                scripts.append(Artifact(f"{group.name}-{task.name}.sbatch", "\n".join(lines) + "\n"))
        return scripts

    def join(self, artifacts: list[Artifact]) -> str:
        return "\n".join(a.text for a in artifacts)


@pytest.fixture
def slurm() -> Iterator[None]:
    registry.register(Slurm())
    yield
    registry.unregister("slurm")


BACK = "#!/bin/sh\n#SBATCH --job-name=tensorrt-back-rtserver\n#SBATCH --partition={}\n#SBATCH --gres=gpu:1\n"
FRONT = "#!/bin/sh\n#SBATCH --job-name=tensorrt-front-web\n#SBATCH --partition={}\n"


@pytest.mark.usefixtures("slurm")
def test_a_registered_target_renders_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(SAMPLE), "--target", "slurm", "--partition", "a100"]) == 0
    out, _ = capsys.readouterr()
    assert out == BACK.format("a100") + "\n" + FRONT.format("a100")


@pytest.mark.usefixtures("slurm")
def test_a_registered_target_writes_its_files_and_takes_the_planned_device_ids(tmp_path: Path) -> None:
    out = tmp_path / "out"
    argv = ["render", str(SAMPLE), "--target", "slurm", "--nodes", str(NODES), "--node", "nomad-client-v100"]
    assert main([*argv, "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["back-rtserver.sbatch", "front-web.sbatch"]
    inventory = NODES.read_text(encoding="utf-8")
    back = (out / "back-rtserver.sbatch").read_text(encoding="utf-8")
    assert back.startswith(BACK.format("gpu")) and "# planned on nomad-client-v100: " in back
    planned = back.rsplit(": ", 1)[1].strip()
    assert planned and all(device in inventory for device in planned.split(","))


@pytest.mark.usefixtures("slurm")
def test_the_help_lists_the_target_its_flag_and_its_device_ids(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["render", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "{nomad,kubernetes,oci,docker,compose,slurm}" in out
    assert "--partition PARTITION slurm: the partition to submit to" in out
    assert "oci, docker, compose, slurm: plan on the inventory" in out


@pytest.mark.usefixtures("slurm")
def test_a_registered_target_renders_through_the_python_api() -> None:
    result = hclgpu.load(str(SAMPLE))
    assert hclgpu.render(result, "slurm", partition="h100") == BACK.format("h100") + "\n" + FRONT.format(
        "h100"
    )
    with pytest.raises(ValueError, match="slurm takes no option 'namespace'"):
        hclgpu.render(result, "slurm", namespace="x")


def test_an_unregistered_target_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    registry.register(Slurm())
    registry.unregister("slurm")
    with pytest.raises(SystemExit) as exit:
        main(["render", str(SAMPLE), "--target", "slurm"])
    assert exit.value.code == 2 and "invalid choice: 'slurm'" in capsys.readouterr().err


def test_every_built_in_target_is_light_to_list() -> None:
    """Listing the targets (render's parser does) loads no back end's lowering."""
    import subprocess
    import sys

    program = (
        "import json, sys\n"
        "from hclgpu.backends import registry\n"
        "names = [t.name for t in registry.targets()]\n"
        "heavy = ('pydantic', 'jinja2', 'hclgpu.ir')\n"
        "print(json.dumps([names, sorted(m for m in sys.modules if m.startswith(heavy))]))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    names, heavy = json.loads(done.stdout)
    assert names == ["nomad", "kubernetes", "oci", "docker", "compose"] and heavy == []


def test_what_the_registry_knows_of_the_built_in_targets_without_loading_them_holds() -> None:
    """render's parser lists the targets that take device IDs, and adds every target's flags,
    without importing the built-in targets: none has flags, and the list is theirs."""
    for target in registry.targets():
        assert type(target).add_arguments is registry.BaseTarget.add_arguments, target.name
        assert target.takes_device_ids == (target.name in registry.BUILT_IN_DEVICE_IDS), target.name
    assert registry.flag_targets() == []


def test_a_render_of_one_target_loads_no_other() -> None:
    import subprocess
    import sys

    program = (
        "import sys\n"
        "from hclgpu.cli import main\n"
        f"main(['render', {str(SAMPLE)!r}, '--target', 'nomad'])\n"
        "backends = [m.split('.')[2] for m in sys.modules if m.startswith('hclgpu.backends.')]\n"
        "print(sorted(backends), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stderr.strip().splitlines()[-1].replace("'", '"')))
    assert "nomad" in loaded and not loaded & {"kubernetes", "oci", "docker", "compose"}
