"""The Python API: hclgpu.load, hclgpu.loads and hclgpu.render."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hclgpu

JOB = (
    'variable "n" {\n  type = number\n  default = 1\n}\n'
    + 'job "api" {\n  group "g" {\n    count = var.n\n  }\n}\n'
)


def test_loads_returns_the_job_and_no_diagnostics() -> None:
    result = hclgpu.loads(JOB)
    assert result.diagnostics == [] and result.job is not None
    assert result.job.task_groups is not None and result.job.task_groups[0].count == 1


def test_load_reads_variables_and_files_relative_to_the_job(tmp_path: Path) -> None:
    (tmp_path / "motd.txt").write_text("hello")
    path = tmp_path / "job.hcl"
    path.write_text(JOB.replace('group "g" {', 'meta { motd = file("motd.txt") }\n  group "g" {'))
    result = hclgpu.load(str(path), variables={"n": "3"})
    assert result.job is not None and result.job.meta == {"motd": "hello"}
    assert result.job.task_groups is not None and result.job.task_groups[0].count == 3


def test_render_plain_and_canonical() -> None:
    job = hclgpu.loads(JOB).job
    assert job is not None
    plain = json.loads(hclgpu.render(job))["Job"]
    canonical = json.loads(hclgpu.render(job, canonicalize=True))["Job"]
    assert (plain["Region"], plain["Type"]) == (None, None)
    assert (canonical["Region"], canonical["Type"]) == ("global", "service")
    with pytest.raises(ValueError, match="unknown target"):
        hclgpu.render(job, "kubernetes")


def test_errors_leave_no_job() -> None:
    result = hclgpu.loads(JOB.replace("var.n", "var.m"))
    assert result.job is None and [d.code for d in result.diagnostics] == ["HG111"]
