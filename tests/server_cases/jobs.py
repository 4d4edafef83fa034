"""Cases for the server checks of hclgpu.checks.jobs."""

from __future__ import annotations

from tests.server_cases.common import job

CASES: dict[str, tuple[str, str]] = {
    "missing-job-type": (job(job_body='type = ""'), job(job_body='type = "service"')),
    "job-without-groups": (
        'job "web" {\n  datacenters = ["dc1"]\n}\n',
        job(job_body='datacenters = ["dc1"]'),
    ),
    "periodic-cron-attribute-spec": (
        job('periodic {\ncron = "*/5 * * *"\n}', kind="batch"),
        job('periodic {\ncrons = ["*/5 * * * *"]\n}', kind="batch"),
    ),
    "multiregion-unlicensed": (
        job('multiregion {\nregion "east" {}\n}'),
        job("multiregion {}"),
    ),
}

ALSO: dict[str, set[str]] = {}
