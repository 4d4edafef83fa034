"""The parts the server-check cases build their jobs from: a valid service job to change."""

from __future__ import annotations

IMAGE = 'config {\n        image = "nginx:1.27"\n      }'


def job(
    job_body: str = "",
    group: str = "",
    task: str = "",
    *,
    kind: str = "",
    driver: str = 'driver = "docker"',
    second_task: str = "",
) -> str:
    """A valid service job (`type` from ``kind``) with extra text in the job, group and task."""
    kind_line = f'  type = "{kind}"\n' if kind else ""
    extra = (
        f'    task "side" {{\n      driver = "docker"\n      {IMAGE}\n{second_task}\n    }}\n'
        if second_task
        else ""
    )
    return (
        f'job "web" {{\n{kind_line}{job_body}\n  group "web" {{\n{group}\n'
        f'    task "server" {{\n      {driver}\n      {IMAGE}\n{task}\n    }}\n{extra}  }}\n}}\n'
    )


NETWORK = 'network {\n  port "http" {\n    to = 8080\n  }\n}'
CHECK = 'interval = "10s"\ntimeout = "2s"'


DELAY = 'shutdown_delay = "5s"'
"""A group or task with services and no ``shutdown_delay`` gets a warning from Nomad 2.0.1 on."""


def service(body: str, check: str | None = None) -> str:
    """A group network and a group service on its port, with ``body`` and a check (and the
    group's ``shutdown_delay``, so that the valid twin draws no warning)."""
    checks = f"check {{\n{check}\n}}" if check is not None else ""
    return f'{DELAY}\n{NETWORK}\nservice {{\nname = "web"\nport = "http"\n{body}\n{checks}\n}}'
