"""The Python API: hclgpu.load, hclgpu.loads and hclgpu.render."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hclgpu
from hclgpu.diagnostics import Diagnostic

JOB = (
    'variable "n" {\n  type = number\n  default = 1\n}\n'
    + 'job "api" {\n  group "g" {\n    count = var.n\n'
    + '    task "t" {\n      driver = "docker"\n    }\n  }\n}\n'
)


def test_loads_returns_the_job_and_no_diagnostics() -> None:
    result = hclgpu.loads(JOB)
    assert result.diagnostics == [] and result.job is not None
    assert result.job.task_groups is not None and result.job.task_groups[0].count == 1


def test_load_reads_variables_and_files_as_nomad_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Files from the working directory, as `nomad job run`; from the job's folder on request."""
    (tmp_path / "jobs").mkdir()
    (tmp_path / "motd.txt").write_text("from the working directory")
    (tmp_path / "jobs" / "motd.txt").write_text("beside the job")
    path = tmp_path / "jobs" / "job.hcl"
    path.write_text(JOB.replace('group "g" {', 'meta { motd = file("motd.txt") }\n  group "g" {'))
    monkeypatch.chdir(tmp_path)
    result = hclgpu.load(str(path), variables={"n": "3"})
    assert result.job is not None and result.job.meta == {"motd": "from the working directory"}
    assert result.job.task_groups is not None and result.job.task_groups[0].count == 3
    beside = hclgpu.load(str(path), variables={"n": "3"}, file_base="job-folder")
    assert beside.job is not None and beside.job.meta == {"motd": "beside the job"}


def test_render_plain_and_canonical() -> None:
    job = hclgpu.loads(JOB).job
    assert job is not None
    plain = json.loads(hclgpu.render(job))["Job"]
    canonical = json.loads(hclgpu.render(job, canonicalize=True))["Job"]
    assert (plain["Region"], plain["Type"]) == (None, None)
    assert (canonical["Region"], canonical["Type"]) == ("global", "service")
    with pytest.raises(ValueError, match="unknown target 'slurm'; available: nomad, kubernetes, oci"):
        hclgpu.render(job, "slurm")


SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "tensorrt.nomad.hcl"


@pytest.mark.parametrize(
    ("target", "options", "flags"),
    [
        ("nomad", {}, []),
        ("kubernetes", {"k8s_devices": "dra", "namespace": "ml"},
         ["--k8s-devices", "dra", "--namespace", "ml"]),
        ("oci", {"oci_devices": "cdi", "cpu_mhz_per_core": 2000},
         ["--oci-devices", "cdi", "--cpu-mhz-per-core", "2000"]),
        ("docker", {}, []),
        ("compose", {"unsupported": "ignore"}, ["--unsupported", "ignore"]),
    ],
)  # fmt: skip
def test_render_gives_what_the_command_line_prints_for_every_target(
    target: str, options: dict[str, object], flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from hclgpu.cli import main

    # --isolated: the API reads no configuration, so neither does the command (samples/hclgpu.toml)
    assert main(["render", str(SAMPLE), "--target", target, "--isolated", *flags]) == 0
    printed = capsys.readouterr().out
    result = hclgpu.load(str(SAMPLE))
    found: list[Diagnostic] = []
    assert hclgpu.render(result, target, diagnostics=found, **options) == printed
    assert result.job is not None  # a bare job has no file: the outputs that name it say <job>
    # outputs name the job file by its name alone, never its folder
    named = printed.replace(f'"{SAMPLE.name}"', '"<job>"').replace(f"from {SAMPLE.name}", 'from "<job>"')
    assert str(SAMPLE.parent) not in printed
    assert hclgpu.render(result.job, target, **options) == named
    if target == "kubernetes":  # what Kubernetes cannot say is reported, located in the file
        assert found and all(d.code in ("HG301", "HG302") and d.path == str(SAMPLE) for d in found)


def test_render_refuses_an_option_the_target_lacks_and_errors_of_the_translation() -> None:
    result = hclgpu.load(str(SAMPLE))
    with pytest.raises(ValueError, match="oci takes no option 'namespace'; its options: cdi_spec, "):
        hclgpu.render(result, "oci", namespace="ml")
    with pytest.raises(ValueError, match=r"^kubernetes: HG30[12]: "):
        hclgpu.render(result, "kubernetes", unsupported="error")


def test_errors_leave_no_job() -> None:
    result = hclgpu.loads(JOB.replace("var.n", "var.m"))
    assert result.job is None and [d.code for d in result.diagnostics] == ["HG111"]
