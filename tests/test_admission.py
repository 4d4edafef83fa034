"""What Nomad's server changes in a job on registration (hclgpu.ir.admission), as
``render --target nomad --admission`` prints it and ``explain admission`` lists it.

The expected values are Nomad's own constants (nomad/job_endpoint_hooks.go,
nomad/job_endpoint_hook_connect.go, nomad/job_endpoint_hook_expose_check.go at the
registry's commit), written out here, not computed by the code under test.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from hclgpu.backends.nomad.api import to_api
from hclgpu.cli import main
from hclgpu.ir.admission import MUTATIONS, admit
from hclgpu.ir.canonical import canonicalize
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.server_cases.common import IMAGE


def _group(group: str, task: str = "", job: str = "", driver: str = "docker") -> str:
    return (
        f'job "web" {{\n{job}\n  group "api" {{\n{group}\n'
        f'    task "server" {{\n      driver = "{driver}"\n      {IMAGE}\n{task}\n    }}\n  }}\n}}\n'
    )


def _admitted(text: str) -> dict[str, Any]:
    result = compile_source(SourceFile("job.nomad.hcl", text), checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]
    return to_api(admit(canonicalize(result.job)))


def _constraints(node: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(c["LTarget"], c["Operand"], c["RTarget"]) for c in node["Constraints"] or []]


BRIDGE = 'network {\n  mode = "bridge"\n  port "http" {\n    to = 8080\n  }\n}'
CNI = [(f"${{attr.plugins.cni.version.{p}}}", "semver", ">= 0.4.0") for p in
       ("bridge", "firewall", "host-local", "loopback", "portmap")]  # fmt: skip
CONSUL = ("${attr.consul.version}", "semver", ">= 1.8.0")


def test_a_sidecar_service_gets_its_envoy_task_port_and_constraints() -> None:
    job = _admitted(
        _group(f'{BRIDGE}\nservice {{\nname = "api"\nport = "http"\nconnect {{\nsidecar_service {{}}\n}}\n}}')
    )
    group = job["TaskGroups"][0]
    envoy = group["Tasks"][1]
    assert (envoy["Name"], envoy["Kind"], envoy["Driver"]) == (
        "connect-proxy-api",
        "connect-proxy:api",
        "docker",
    )
    assert envoy["Config"] == {
        "image": "${meta.connect.sidecar_image}",
        "args": ["-c", "${NOMAD_SECRETS_DIR}/envoy_bootstrap.json", "-l", "${meta.connect.log_level}",
                 "--concurrency", "${meta.connect.proxy_concurrency}", "--disable-hot-restart"],
    }  # fmt: skip
    assert (envoy["Resources"]["CPU"], envoy["Resources"]["MemoryMB"]) == (250, 128)
    assert (envoy["LogConfig"]["MaxFiles"], envoy["LogConfig"]["MaxFileSizeMB"]) == (2, 2)
    assert envoy["ShutdownDelay"] == 5_000_000_000
    assert envoy["Lifecycle"] == {"Hook": "prestart", "Sidecar": True}
    assert _constraints(envoy) == [CONSUL, ("${attr.consul.grpc}", ">", "0")]
    ports = group["Networks"][0]["DynamicPorts"]
    assert [(p["Label"], p["To"], p["HostNetwork"]) for p in ports] == [
        ("http", 8080, "default"),
        ("connect-proxy-api", -1, "default"),
    ]
    assert _constraints(group) == [CONSUL, *CNI]


def test_a_sidecar_task_block_brings_the_agents_defaults_over_the_envoy_task() -> None:
    """The agent fills an empty ``sidecar_task`` with 100 MHz / 300 MB, 10x10 MB logs and no
    shutdown delay (api/consul.go SidecarTask.Canonicalize), and MergeIntoTask copies them."""
    connect = "connect {\nsidecar_service {}\nsidecar_task {}\n}"
    body = f'{BRIDGE}\nservice {{\nname = "api"\nport = "http"\n{connect}\n}}'
    envoy = _admitted(_group(body))["TaskGroups"][0]["Tasks"][1]
    assert (envoy["Resources"]["CPU"], envoy["Resources"]["MemoryMB"]) == (100, 300)
    assert (envoy["LogConfig"]["MaxFiles"], envoy["ShutdownDelay"]) == (10, 0)


def test_podman_alone_makes_a_podman_sidecar_and_a_written_proxy_task_is_kept() -> None:
    sidecar = f'{BRIDGE}\nservice {{\nname = "api"\nport = "http"\nconnect {{\nsidecar_service {{}}\n}}\n}}'
    assert _admitted(_group(sidecar, driver="podman"))["TaskGroups"][0]["Tasks"][1]["Driver"] == "podman"
    own = _group(sidecar, task='kind = "connect-proxy:api"')
    assert [t["Name"] for t in _admitted(own)["TaskGroups"][0]["Tasks"]] == ["server"]


def test_an_exposed_check_gets_a_port_named_by_its_hash_and_an_expose_path() -> None:
    check = 'check {\ntype = "http"\npath = "/health"\nexpose = true\ninterval = "10s"\ntimeout = "2s"\n}'
    connect = "connect {\nsidecar_service {}\n}"
    body = f'{BRIDGE}\nservice {{\nname = "api"\nport = "9001"\n{connect}\n{check}\n}}'
    group = _admitted(_group(body))["TaskGroups"][0]
    # ServiceCheck.Hash("api_0"): its fields in Go's order, written out by hand
    fields = [
        "api_0",
        'service: "api" check',
        "http",
        "",
        "",
        "/health",
        "",
        "",
        "10s",
        "2s",
        "",
        "",
        "require_healthy",
        "",
    ]
    label = "svc_api_ck_" + hashlib.sha256("".join(fields).encode()).hexdigest()[:6]
    assert group["Services"][0]["Checks"][0]["PortLabel"] == label
    assert group["Networks"][0]["DynamicPorts"][-1]["Label"] == label
    expose = group["Services"][0]["Connect"]["SidecarService"]["Proxy"]["Expose"]["Paths"]
    assert expose == [{"Path": "/health", "Protocol": "", "LocalPathPort": 9001, "ListenerPort": label}]


def test_implied_constraints_follow_what_the_job_uses() -> None:
    task = 'kill_signal = "SIGUSR1"\nvault {}\nresources {\nnuma {\naffinity = "prefer"\n}\n}'
    group = _admitted(
        _group(
            'service {\nname = "api"\nprovider = "nomad"\n'
            'check {\ntype = "tcp"\nport = 80\ninterval = "10s"\ntimeout = "2s"\n}\n}',
            task,
        )
    )["TaskGroups"][0]
    assert _constraints(group) == [
        ("${attr.vault.version}", "semver", ">= 0.6.1"),
        ("${attr.nomad.version}", "semver", ">= 1.6.3-dev"),
        ("${attr.kernel.name}", "=", "linux"),
        ("${attr.os.signals}", "set_contains", "SIGUSR1"),
        ("${attr.nomad.service_discovery}", "=", "true"),
        ("${attr.nomad.version}", "semver", ">= 1.4.0"),
    ]


def test_a_constraint_the_job_writes_on_the_same_attribute_wins() -> None:
    mine = 'constraint {\nattribute = "${attr.vault.version}"\noperator = "semver"\nvalue = ">= 1.15.0"\n}'
    group = _admitted(_group(mine, "vault {}"))["TaskGroups"][0]
    assert _constraints(group) == [("${attr.vault.version}", "semver", ">= 1.15.0")]


def test_a_consul_partition_and_an_identity_add_their_constraints() -> None:
    task = 'consul {\npartition = "eu"\n}\nidentity {\nname = "aws"\naud = ["sts.amazonaws.com"]\n}'
    group = _admitted(_group("", task))["TaskGroups"][0]
    assert _constraints(group["Tasks"][0]) == [("${attr.consul.partition}", "=", "eu")]
    assert _constraints(group) == [("${attr.nomad.version}", "semver", ">= 1.7.0-a")]


def test_the_job_gets_every_datacenter_and_the_default_pool() -> None:
    job = _admitted(_group(""))
    assert (job["Datacenters"], job["NodePool"]) == (["*"], "default")


def test_a_consul_service_identity_is_named_after_its_service() -> None:
    service = 'service {\nname = "api"\nport = "http"\nidentity {\naud = ["consul.io"]\n}\n}'
    job = _admitted(_group(f"{BRIDGE}\n{service}"))
    identity = job["TaskGroups"][0]["Services"][0]["Identity"]
    assert (identity["Name"], identity["ServiceName"]) == ("consul-service_api-http", "api")


def test_admit_leaves_the_canonical_job_unchanged() -> None:
    result = compile_source(SourceFile("job.nomad.hcl", _group("", "vault {}")), checks=False)
    assert result.job is not None
    canonical = canonicalize(result.job)
    before = canonical.model_dump()
    admit(canonical)
    assert canonical.model_dump() == before


def test_render_prints_the_admitted_job(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "job.nomad.hcl"
    path.write_text(_group("", "vault {}"))
    assert main(["render", "--target", "nomad", "--admission", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    job = printed.get("Job", printed)
    assert _constraints(job["TaskGroups"][0]) == [("${attr.vault.version}", "semver", ">= 0.6.1")]
    assert main(["render", "--target", "nomad", "--canonicalize", str(path)]) == 0
    assert "attr.vault.version" not in capsys.readouterr().out


def test_explain_lists_every_admission_change_with_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "admission"]) == 0
    listed = capsys.readouterr().out
    for mutation in MUTATIONS:
        assert f"{mutation.id} ({mutation.hook}, {mutation.source})" in listed
    assert main(["explain", "connect-sidecar-task"]) == 0
    assert "connect-proxy-<service>" in capsys.readouterr().out


def test_every_admission_change_cites_a_line_of_nomad() -> None:
    for mutation in MUTATIONS:
        path, _, line = mutation.source.rpartition(":")
        assert path.startswith("nomad/") and line.isdigit(), mutation.id
    assert len({m.id for m in MUTATIONS}) == len(MUTATIONS)


def test_service_names_are_interpolated_as_the_server_does() -> None:
    sidecar = "connect {\nsidecar_service {}\n}"
    body = f'{BRIDGE}\nservice {{\nname = "${{JOB}}-${{NOMAD_META_tier}}"\nport = "http"\n{sidecar}\n}}'
    job = _admitted(_group(body, job='meta {\ntier = "gold"\n}'))
    assert job["TaskGroups"][0]["Services"][0]["Name"] == "web-gold"
    assert job["TaskGroups"][0]["Tasks"][1]["Name"] == "connect-proxy-web-gold"
    task = _admitted(_group("", 'service {\nname = "${BASE}"\n}'))["TaskGroups"][0]["Tasks"][0]
    assert task["Services"][0]["Name"] == "web-api-server"
