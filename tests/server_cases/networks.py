"""Cases for the server checks of hclgpu.checks.networks, deprecations and naming."""

from __future__ import annotations

from tests.server_cases.common import CHECK, DELAY, IMAGE, NETWORK, job


def _ports(*ports: str) -> str:
    """A group network with these `port` blocks."""
    return "network {\n" + "".join(f"{port}\n" for port in ports) + "}"


def _task_ports(*ports: str) -> str:
    """A task's deprecated `resources { network }` with these `port` blocks."""
    return f"resources {{\n{_ports(*ports)}\n}}"


def _task_service(port: str, check: str = "") -> str:
    """A task service on ``port``, with a check when given."""
    checks = f"check {{\n{check}\n}}" if check else ""
    return f'{DELAY}\nservice {{\nname = "web"\nport = "{port}"\n{checks}\n}}'


def _group_service(name: str) -> str:
    """A group network and a group service named ``name`` on its port."""
    return f'{DELAY}\n{NETWORK}\nservice {{\nname = "{name}"\nport = "http"\n}}'


def _docker_ports(*labels: str) -> str:
    """The task's docker `config` with a `ports` list, as ``job`` writes the config."""
    ports = ", ".join(f'"{label}"' for label in labels)
    return job(group=NETWORK).replace('image = "nginx:1.27"', f'image = "nginx:1.27"\nports = [{ports}]')


def _task(name: str) -> str:
    """A second task named ``name``."""
    return f'task "{name}" {{\ndriver = "docker"\n{IMAGE}\n}}'


NUL = "\\u0000"
"""A NUL character as an HCL string escape writes it."""

CASES: dict[str, tuple[str, str]] = {
    # group networks
    "port-label-twice": (
        job(group=_ports('port "http" {}', 'port "http" {}')),
        job(group=_ports('port "http" {}', 'port "admin" {}')),
    ),
    "static-port-twice": (
        job(group=_ports('port "http" {\nstatic = 8080\n}', 'port "admin" {\nstatic = 8080\n}')),
        job(group=_ports('port "http" {\nstatic = 8080\n}', 'port "admin" {\nstatic = 8081\n}')),
    ),
    "port-above-65535": (
        job(group=_ports('port "http" {\nstatic = 65536\n}')),
        job(group=_ports('port "http" {\nstatic = 65535\n}')),
    ),
    "port-mapped-negative": (
        job(group=_ports('port "http" {\nto = -2\n}')),
        job(group=_ports('port "http" {\nto = -1\n}')),
    ),
    "port-mapped-above-65535": (
        job(group=_ports('port "http" {\nto = 65536\n}')),
        job(group=_ports('port "http" {\nto = 65535\n}')),
    ),
    # task networks (deprecated, HG249: a warning the twin avoids by moving the port to the group)
    "task-port-label-twice": (
        job(group=_ports('port "http" {}'), task=_task_ports('port "http" {}')),
        job(group=_ports('port "http" {}', 'port "admin" {}')),
    ),
    "task-static-port-twice": (
        job(
            group=_ports('port "http" {\nstatic = 8080\n}'),
            task=_task_ports('port "admin" {\nstatic = 8080\n}'),
        ),
        job(group=_ports('port "http" {\nstatic = 8080\n}', 'port "admin" {\nstatic = 8081\n}')),
    ),
    "task-port-above-65535": (
        job(task=_task_ports('port "http" {\nstatic = 65536\n}')),
        job(group=_ports('port "http" {\nstatic = 65535\n}')),
    ),
    # task services
    "task-service-port": (
        job(group=NETWORK, task=_task_service("htpp")),
        job(group=NETWORK, task=_task_service("http")),
    ),
    "task-check-numeric-port": (
        job(group=NETWORK, task=_task_service("http", f'type = "tcp"\nport = "8080"\n{CHECK}')),
        job(group=NETWORK, task=_task_service("http", f'type = "tcp"\nport = "http"\n{CHECK}')),
    ),
    # hclgpu's own: what the server accepts but the allocation cannot use (warnings)
    "group-service-port": (
        job(group=f'{DELAY}\n{NETWORK}\nservice {{\nname = "web"\nport = "htpp"\n}}'),
        job(group=f'{DELAY}\n{NETWORK}\nservice {{\nname = "web"\nport = "http"\n}}'),
    ),
    "docker-port-undeclared": (_docker_ports("htpp"), _docker_ports("http")),
    # schedulers (deprecations.py)
    "periodic-needs-batch": (
        job('periodic {\ncrons = ["@daily"]\n}', kind="service"),
        job('periodic {\ncrons = ["@daily"]\n}', kind="batch"),
    ),
    "parameterized-needs-batch": (
        job("parameterized {}", kind="service"),
        job("parameterized {}", kind="batch"),
    ),
    "system-group-count-above-one": (
        job(group="count = 2", kind="system"),
        job(group="count = 1", kind="system"),
    ),
    "periodic-cron-deprecated": (
        job('periodic {\ncron = "@daily"\n}', kind="batch"),
        job('periodic {\ncrons = ["@daily"]\n}', kind="batch"),
    ),
    "max-client-disconnect-deprecated": (
        job(group='max_client_disconnect = "1h"'),
        job(group='disconnect {\nlost_after = "1h"\n}'),
    ),
    "stop-after-client-disconnect-deprecated": (
        job(group='stop_after_client_disconnect = "1h"'),
        job(group='disconnect {\nstop_on_client_after = "1h"\n}'),
    ),
    "prevent-reschedule-on-lost-deprecated": (
        job(group="prevent_reschedule_on_lost = true"),
        job(group="disconnect {\nreplace = false\n}"),
    ),
    # the same attributes before Nomad 1.10, which honoured them and warned in other words
    "max-client-disconnect-to-be-deprecated": (
        job(group='max_client_disconnect = "1h"'),
        job(group='disconnect {\nlost_after = "1h"\n}'),
    ),
    "stop-after-client-disconnect-to-be-deprecated": (
        job(group='stop_after_client_disconnect = "1h"'),
        job(group='disconnect {\nstop_on_client_after = "1h"\n}'),
    ),
    "prevent-reschedule-on-lost-to-be-deprecated": (
        job(group="prevent_reschedule_on_lost = true"),
        job(group="disconnect {\nreplace = false\n}"),
    ),
    "iops-deprecated": (
        job(task="resources {\niops = 10\n}"),
        job(task="resources {\ncpu = 100\n}"),
    ),
    # names (naming.py)
    "service-name": (job(group=_group_service("web_api")), job(group=_group_service("web-api"))),
    "job-id-space": (job(job_body='id = "web app"'), job(job_body='id = "web-app"')),
    "job-id-nul": (job(job_body=f'id = "web{NUL}"'), job(job_body='id = "web"')),
    "job-name-nul": (job(job_body=f'name = "web{NUL}"'), job(job_body='name = "web"')),
    "group-name-nul": (
        job().replace('group "web"', f'group "web{NUL}"'),
        job(),
    ),
    "task-name-slash": (job(group=_task("side/car")), job(group=_task("side-car"))),
    "task-name-nul": (job(group=_task(f"side{NUL}car")), job(group=_task("side-car"))),
}

ALSO: dict[str, set[str]] = {}
