"""The resource, network, deprecation and naming rules (HG240-HG279), one behaviour per test.

Each test compiles a small job and looks only at codes of this range, so the rules are
tested the way `hclgpu check` runs them (decoded job, spans from the source) without
depending on what other rules report.
"""

from __future__ import annotations

import textwrap

import pytest

from hclgpu.checks.naming import dns_label
from hclgpu.codes import CODES
from hclgpu.codes.base import INFO, E, W
from hclgpu.diagnostics import Diagnostic
from hclgpu.eval.program import EvalOptions
from hclgpu.pipeline import compile_source
from hclgpu.settings.profile import Profile
from hclgpu.source import SourceFile

OURS = range(240, 280)


KUBERNETES = Profile(targets=("kubernetes",))
"""The jobs are checked as for a team that also translates them to Kubernetes (HG267)."""


def diagnostics(text: str) -> list[Diagnostic]:
    result = compile_source(SourceFile("job.hcl", textwrap.dedent(text)), EvalOptions(profile=KUBERNETES))
    return [d for d in result.diagnostics if d.code.startswith("HG") and int(d.code[2:]) in OURS]


def found(text: str) -> list[str]:
    """`CODE@line:col` of every diagnostic of this range, in source order."""
    out = []
    for d in diagnostics(text):
        assert d.span is not None, d
        position = d.source.position(d.span.start)
        out.append(f"{d.code}@{position.line}:{position.column}")
    return out


def task_job(resources: str = "", config: str = "", extra: str = "", group: str = "") -> str:
    """A one-task docker job with the given pieces spliced in."""
    return f"""
job "web" {{
  group "web" {{
{group}
    task "server" {{
      driver = "docker"
      config {{
        image = "nginx:1.27"
{config}
      }}
      resources {{
{resources}
      }}
{extra}
    }}
  }}
}}
"""


def only(code: str, text: str) -> list[Diagnostic]:
    return [d for d in diagnostics(text) if d.code == code]


# ---- registry ---------------------------------------------------------------------------


def test_codes_of_this_range_have_documented_shape() -> None:
    ours = [code for code in CODES.values() if int(code.id[2:]) in OURS and code.id.startswith("HG2")]
    assert len(ours) == 30  # with HG259 (docker), HG264 and HG268-HG274, the server codes
    for code in ours:
        for part in ("What:", "Why:", "Example:", "Fix:"):
            assert part in code.doc, (code.id, part)
        assert all(len(line) <= 110 for line in code.doc.splitlines())


@pytest.mark.parametrize(
    ("code", "severity"),
    [
        ("HG240", E), ("HG241", E), ("HG242", E),
        ("HG245", E), ("HG246", E), ("HG247", E), ("HG248", E), ("HG249", W), ("HG250", W),
        ("HG255", W), ("HG256", E), ("HG257", E), ("HG258", W),
        ("HG265", E), ("HG266", E), ("HG267", INFO),
    ],
)  # fmt: skip
def test_severity(code: str, severity: object) -> None:
    """Errors only where Nomad refuses the job and none of its accepted fixtures does it."""
    assert CODES[code].severity == severity


# ---- resources --------------------------------------------------------------------------


def test_memory_max_below_default_memory() -> None:
    [d] = only("HG240", task_job("memory_max = 200"))
    assert d.message == "task `server`: MemoryMaxMB value (200) should be larger than MemoryMB value (300)"
    assert d.help is not None and "300 MB, Nomad's default" in d.help


@pytest.mark.parametrize("ceiling", ["0", "-1", "1024", "2048"])
def test_memory_max_sentinels_and_larger_values_are_fine(ceiling: str) -> None:
    assert only("HG240", task_job(f"memory = 1024\nmemory_max = {ceiling}")) == []


def test_memory_max_points_at_memory() -> None:
    [d] = only("HG240", task_job("memory = 512\nmemory_max = 256"))
    assert [r.message for r in d.related] == ["`memory` is set here"]
    assert (
        d.help
        == "`memory_max` (256 MB) is below `memory` (512 MB); "
        + "raise `memory_max` to at least 512, or remove it"
    )


def test_cores_alone_or_cpu_alone_is_fine() -> None:
    assert only("HG241", task_job("cores = 2")) == []
    assert only("HG241", task_job("cpu = 2000")) == []
    assert only("HG241", task_job("cpu = 2000\ncores = 0")) == []


def test_cpu_and_cores_reports_cpu_name() -> None:
    assert found(task_job("cpu = 500\ncores = 1")) == ["HG241@12:1"]


def test_zero_cores_without_cpu_is_zero_cpu() -> None:
    """`cores` set (even to 0) turns off the cpu default, so Nomad sees cpu 0."""
    [d] = only("HG242", task_job("cores = 0"))
    assert d.message == "task `server`: minimum CPU value is 1; got 0"
    assert d.help is not None and "0 MHz" in d.help


@pytest.mark.parametrize(
    ("resources", "count"), [("memory = 10\ncpu = 1", 0), ("memory = 9", 1), ("cpu = -5", 1)]
)
def test_minimums(resources: str, count: int) -> None:
    assert len(only("HG242", task_job(resources))) == count


# ---- networks ---------------------------------------------------------------------------


def group_network(ports: str, extra: str = "") -> str:
    return f"    network {{\n{extra}\n{ports}\n    }}"


def test_task_network_label_clashing_with_group_label() -> None:
    text = task_job(
        group=group_network('port "http" {}'),
        resources='network {\n  port "http" {}\n}',
        config='ports = ["http"]',
    )
    [d] = only("HG245", text)
    assert d.message == "Port label http already in use by taskgroup network" and d.related
    assert d.help is not None and "the group network" in d.help


def test_two_task_networks_may_reuse_a_label() -> None:
    """Nomad only compares task ports with group ports."""
    text = """
job "web" {
  group "web" {
    task "a" {
      driver = "exec"
      resources {
        network {
          port "http" {}
        }
      }
    }
    task "b" {
      driver = "exec"
      resources {
        network {
          port "http" {}
        }
      }
    }
  }
}
"""
    assert only("HG245", text) == []


def test_ignore_collision_and_host_networks() -> None:
    shared = 'port "a" { static = 80 }\nport "b" {\n  static = 80\n  ignore_collision = true\n}'
    assert only("HG246", task_job(group=group_network(shared))) == []
    apart = 'port "a" { static = 80 }\nport "b" {\n  static = 80\n  host_network = "public"\n}'
    assert only("HG246", task_job(group=group_network(apart))) == []


def test_task_static_port_collides_with_group() -> None:
    text = task_job(
        group=group_network('port "a" { static = 80 }'),
        resources='network {\n  port "b" {\n    static = 80\n  }\n}',
    )
    [d] = only("HG246", text)
    assert d.message == "Static port 80 already reserved by taskgroup network:a"
    assert d.help is not None and "port `a` of the group network" in d.help


@pytest.mark.parametrize(("to", "count"), [("-1", 0), ("0", 0), ("65535", 0), ("-2", 1), ("65536", 1)])
def test_to_range(to: str, count: int) -> None:
    text = task_job(group=group_network(f'port "http" {{\n  to = {to}\n}}'), config='ports = ["http"]')
    assert len(only("HG247", text)) == count


def test_docker_ports_point_at_the_element() -> None:
    text = task_job(group=group_network('port "http" {}'), config='ports = ["http", "htp"]')
    [d] = only("HG248", text)
    position = d.source.position(d.span.start) if d.span else None
    assert position is not None and (position.line, position.column) == (12, 18)
    assert d.help == "did you mean `http`?"


def test_docker_ports_of_a_task_network_are_not_published() -> None:
    text = task_job(config='ports = ["http"]', resources='network {\n  port "http" {}\n}')
    [d] = only("HG248", text)
    assert d.help is not None and "only publishes group network ports" in d.help


def test_other_drivers_ports_are_not_checked() -> None:
    text = task_job(config='ports = ["http"]').replace('"docker"', '"podman"')
    assert only("HG248", text) == []


def test_task_service_may_use_its_task_network() -> None:
    text = task_job(
        resources='network {\n  port "http" {}\n}',
        extra='service {\n  name = "web"\n  port = "http"\n}',
    )
    assert only("HG248", text) == []


def test_task_service_port_numbers_need_driver_address_mode() -> None:
    numeric = 'service {\n  name = "web"\n  port = "8080"\n}'
    [d] = only("HG248", task_job(extra=numeric))  # validateServices checks it as a label
    assert d.message == 'port label "8080" referenced by services web does not exist'
    driver = 'service {\n  name = "web"\n  port = "8080"\n  address_mode = "driver"\n}'
    assert only("HG248", task_job(extra=driver)) == []


def test_group_service_port_numbers_are_fine() -> None:
    """Consul Connect sidecar services name the port the application listens on."""
    text = task_job(group='    service {\n      name = "api"\n      port = "9001"\n    }')
    assert only("HG248", text) == []


def test_checks_with_their_own_port() -> None:
    service = """
service {
  name = "web"
  port = "http"
  check {
    type     = "http"
    port     = "admin"
    path     = "/"
    interval = "10s"
    timeout  = "2s"
  }
  check {
    type     = "script"
    command  = "/bin/true"
    port     = "nope"
    interval = "10s"
    timeout  = "2s"
  }
}
"""
    text = task_job(group=group_network('port "http" {}'), extra=service)
    [d] = only("HG248", text)
    assert d.message == 'port label "admin" referenced by services web does not exist'
    assert d.help is not None and d.help.endswith("declared ports: `http`")


def test_runtime_values_are_not_checked() -> None:
    text = task_job(config='ports = ["${NOMAD_META_port}"]')
    assert only("HG248", text) == []


def test_task_network_and_mbits() -> None:
    text = task_job(
        group=group_network('port "http" {}', extra="mbits = 10"),
        resources='network {\n  mbits = 10\n  port "admin" {}\n}',
        config='ports = ["http"]',
    )
    assert [d.code for d in diagnostics(text)] == ["HG250", "HG249"]


def test_zero_mbits_is_not_reported() -> None:
    assert only("HG250", task_job(group=group_network("", extra="mbits = 0"))) == []


# ---- deprecations -----------------------------------------------------------------------


def test_port_map_with_a_task_network_is_the_old_setup() -> None:
    text = task_job(config="port_map {\n  http = 80\n}", resources='network {\n  port "http" {}\n}')
    assert only("HG255", text) == []


def test_port_map_next_to_ports_is_ignored() -> None:
    text = task_job(
        group=group_network('port "http" {}'), config='ports = ["http"]\nport_map {\n  http = 80\n}'
    )
    [d] = only("HG255", text)
    assert "is ignored" in d.message


def test_port_map_without_any_network() -> None:
    [d] = only("HG255", task_job(config="port_map {\n  http = 80\n}"))
    assert "has no network" in d.message


def batch_job(job_body: str) -> str:
    return f"""
job "nightly" {{
{job_body}
  group "run" {{
    task "run" {{
      driver = "exec"
    }}
  }}
}}
"""


@pytest.mark.parametrize(
    ("body", "count"),
    [
        ('type = "batch"\nperiodic {\n  crons = ["@daily"]\n}', 0),
        ('type = "sysbatch"\nparameterized {}', 0),
        ('periodic {\n  crons = ["@daily"]\n  enabled = false\n}', 0),
        ('type = "service"\nparameterized {}', 1),
        ('type = "system"\nperiodic {\n  crons = ["@daily"]\n}\nparameterized {}', 2),
    ],
)
def test_periodic_and_parameterized_need_batch(body: str, count: int) -> None:
    assert len(only("HG256", batch_job(body))) == count


def test_explicit_type_is_related() -> None:
    [d] = only("HG256", batch_job('type = "service"\nparameterized {}'))
    assert [r.message for r in d.related] == ["`type` is set here"]


def test_count_only_limited_in_system_jobs() -> None:
    system = batch_job('type = "system"').replace('group "run" {', 'group "run" {\n    count = 2')
    assert len(only("HG257", system)) == 1
    assert only("HG257", system.replace("count = 2", "count = 1")) == []
    assert only("HG257", system.replace('type = "system"', 'type = "service"')) == []


def test_deprecated_group_fields_and_iops() -> None:
    text = task_job(
        group='    max_client_disconnect = "0s"\n    prevent_reschedule_on_lost = false',
        resources="iops = 10",
    )
    assert [d.message for d in only("HG258", text)] == [
        "group `web`: MaxClientDisconnect is deprecated and ignored in favor of Disconnect.LostAfter",
        "task `server`: IOPS has been deprecated as of Nomad 0.9.0. Please remove IOPS from resource block.",
    ]


# ---- naming -----------------------------------------------------------------------------


def service_job(job: str, service: str) -> str:
    return f"""
job "{job}" {{
  group "api" {{
    task "server" {{
      driver = "exec"
      shutdown_delay = "5s"
      service {{
{service}
      }}
    }}
  }}
}}
"""


def test_default_service_name_inherits_underscores() -> None:
    [d] = only("HG265", service_job("web_app", ""))
    assert d.message.endswith(': "web_app-api-server"')
    assert d.help is not None and "the default service name `web_app-api-server`" in d.help
    assert d.help.endswith('set `name = "web-app-api-server"`')


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("Web-API", 0),  # Nomad compares letters of either case
        ("${NOMAD_META_svc}-api", 0),  # a runtime variable counts as a word
        ("${JOB}-api", 1),  # ... but `${JOB}` is the job name, with its underscore
        ("${ NOMAD_META_svc }", 1),  # spaces: not a variable Nomad replaces
        ("a" * 63, 0),
        ("a" * 64, 1),
        ("-api", 1),
    ],
)
def test_service_names(name: str, count: int) -> None:
    assert len(only("HG265", service_job("web_app", f'name = "{name}"'))) == count


def test_long_service_name_says_so() -> None:
    [d] = only("HG265", service_job("web", f'name = "{"a" * 70}"'))
    assert d.help is not None and "70 characters long" in d.help


def test_names_nomad_refuses_are_not_also_infos() -> None:
    text = service_job("my job", 'name = "web"').replace('task "server"', 'task "a\\\\b"')
    assert sorted((d.code, d.message) for d in diagnostics(text)) == [
        ("HG266", "Job ID contains a space"),
        ("HG266", "Task name cannot include slashes"),
    ]


def test_kubernetes_names_are_infos() -> None:
    text = service_job("Web", 'name = "web"').replace('group "api"', 'group "api_v2"')
    assert [(d.code, d.severity) for d in diagnostics(text)] == [("HG267", INFO), ("HG267", INFO)]


def test_explicit_job_name_is_checked_too() -> None:
    text = service_job("web", 'name = "web"').replace('job "web" {', 'job "web" {\n  name = "My Web"')
    [d] = only("HG267", text)
    assert d.message.startswith("job name `My Web`")


@pytest.mark.parametrize(
    ("name", "label"),
    [("Web_API", "web-api"), ("--a..b--", "a-b"), ("___", "x"), ("a" * 70, "a" * 63), ("Ärger", "rger")],
)
def test_dns_label(name: str, label: str) -> None:
    assert dns_label(name) == label


def test_explicit_job_id_is_pointed_at() -> None:
    text = service_job("web", 'name = "web"').replace('job "web" {', 'job "web" {\n  id = "my web"')
    assert found(text) == ["HG266@3:8"]
