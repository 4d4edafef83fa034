"""Kubernetes workloads from small jobs: kinds, names, pods, probes, resources, placement, and
the HG301/HG302 diagnostics, each located at the block it is about.

Every object is validated with kubernetes-validate (1.34, strict). Expected values come
from the translation rules, not from running the code.
"""

from __future__ import annotations

import sys
import textwrap
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hclgpu.backends import registry
from hclgpu.backends.kubernetes.devices import DeviceLowering
from hclgpu.backends.kubernetes.workloads import lower_job
from hclgpu.backends.target import Lowering
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.ir import models as m
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "samples").glob("*.hcl"))
Obj = dict[str, Any]


def validate(obj: Obj) -> None:
    import kubernetes_validate

    kubernetes_validate.validate(obj, "1.34", strict=True)


@dataclass
class Lowered:
    text: str
    objects: list[Obj]
    diagnostics: list[Diagnostic]
    source: SourceFile

    def kinds(self) -> list[str]:
        return [o["kind"] for o in self.objects]

    def one(self, kind: str) -> Obj:
        found = [o for o in self.objects if o["kind"] == kind]
        assert len(found) == 1, self.kinds()
        return found[0]

    def pod(self, kind: str = "Deployment") -> Obj:
        spec = self.one(kind)["spec"]
        if kind == "CronJob":
            spec = spec["jobTemplate"]["spec"]
        pod: Obj = spec["template"]["spec"]
        return pod

    def container(self, name: str, kind: str = "Deployment") -> Obj:
        pod = self.pod(kind)
        found = [c for c in pod.get("initContainers", []) + pod["containers"] if c["name"] == name]
        assert len(found) == 1, [c["name"] for c in pod["containers"]]
        container: Obj = found[0]
        return container

    def lines(self, code: str, fragment: str) -> list[int]:
        """The lines of the ``code`` diagnostics whose message contains ``fragment``."""
        return [
            self.source.position(d.span.start).line
            for d in self.diagnostics
            if d.code == code and fragment in d.message and d.span is not None
        ]

    def line(self, needle: str, occurrence: int = 1) -> int:
        """The line of the ``occurrence``-th line of the job text containing ``needle``."""
        return [n for n, line in enumerate(self.text.splitlines(), 1) if needle in line][occurrence - 1]


def lower(text: str, **options: Any) -> Lowered:
    text = textwrap.dedent(text).lstrip("\n")
    source = SourceFile("j.hcl", text)
    result = compile_source(source, checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]
    sink = Sink()
    objects = lower_job(
        result.job, Lowering("kubernetes", source, sink, registry.render_options("kubernetes", **options))
    )
    for obj in objects:
        validate(obj)
    return Lowered(text, objects, sink.sorted(), source)


APP = """
    task "app" {
      driver = "docker"
      config {
        image = "nginx:1.27"
      }
    }
"""


def simple(header: str = "", group: str = "", task: str = APP) -> str:
    """job "web" { <header> group "api" { <group> <task> } }, each part already indented."""
    tasks = textwrap.indent(textwrap.dedent(task), "    ")
    return f'job "web" {{\n{header}  group "api" {{\n{group}{tasks}  }}\n}}\n'


# --------------------------------------------------------------------------- kinds


def test_a_service_job_is_a_deployment_with_labels_and_selector() -> None:
    out = lower(simple(group="    count = 3\n"))
    deployment = out.one("Deployment")
    assert deployment["apiVersion"] == "apps/v1"
    assert deployment["metadata"]["name"] == "web-api"
    labels = {
        "app.kubernetes.io/name": "web",
        "app.kubernetes.io/instance": "web-api",
        "app.kubernetes.io/managed-by": "hclgpu",
    }
    assert deployment["metadata"]["labels"] == labels
    spec = deployment["spec"]
    assert spec["replicas"] == 3
    assert spec["template"]["metadata"]["labels"] == labels
    assert spec["selector"]["matchLabels"].items() <= labels.items()
    assert spec["selector"]["matchLabels"]["app.kubernetes.io/instance"] == "web-api"
    assert out.pod()["restartPolicy"] == "Always"
    assert out.container("app")["image"] == "nginx:1.27"


def test_count_defaults_to_one_replica() -> None:
    assert lower(simple()).one("Deployment")["spec"]["replicas"] == 1


def test_a_batch_job_is_a_job_with_parallelism_completions_and_backoff() -> None:
    group = "    count = 4\n    restart {\n      attempts = 2\n    }\n"
    out = lower(simple('  type = "batch"\n', group))
    spec = out.one("Job")["spec"]
    assert out.one("Job")["apiVersion"] == "batch/v1"
    assert (spec["parallelism"], spec["completions"], spec["backoffLimit"]) == (4, 4, 2)
    assert out.pod("Job")["restartPolicy"] == "OnFailure"


@pytest.mark.parametrize("group", ["", '    restart {\n      delay = "30s"\n    }\n'])
def test_a_batch_job_retries_as_often_as_nomad_not_six_times(group: str) -> None:
    # Nomad's batch default: 3 attempts (api/tasks.go defaultBatchJobRestartPolicy); a Job's is 6
    assert lower(simple('  type = "batch"\n', group)).one("Job")["spec"]["backoffLimit"] == 3


def test_a_batch_job_without_restart_attempts_never_restarts() -> None:
    out = lower(simple('  type = "batch"\n', "    restart {\n      attempts = 0\n    }\n"))
    assert out.pod("Job")["restartPolicy"] == "Never"
    assert out.one("Job")["spec"]["backoffLimit"] == 0


def test_restart_details_are_approximated_at_the_restart_block() -> None:
    group = '    restart {\n      attempts = 2\n      delay    = "30s"\n      mode     = "fail"\n    }\n'
    out = lower(simple('  type = "batch"\n', group))
    assert out.lines("HG302", "`delay`") == [out.line("restart {")]
    assert out.lines("HG302", "`mode`") == [out.line("restart {")]


def test_a_periodic_batch_job_is_a_cron_job() -> None:
    out = lower("""
        job "nightly" {
          type = "batch"
          periodic {
            crons            = ["0 2 * * *", "0 14 * * *"]
            time_zone        = "Europe/Paris"
            prohibit_overlap = true
          }
          group "index" {
            count = 2
            task "app" {
              driver = "docker"
              config {
                image = "indexer:1"
              }
            }
          }
        }
    """)
    cron = out.one("CronJob")
    assert cron["apiVersion"] == "batch/v1"
    assert cron["metadata"]["name"] == "nightly-index"
    spec = cron["spec"]
    assert spec["schedule"] == "0 2 * * *"
    assert spec["timeZone"] == "Europe/Paris"
    assert spec["concurrencyPolicy"] == "Forbid"
    assert (spec["jobTemplate"]["spec"]["parallelism"], spec["jobTemplate"]["spec"]["completions"]) == (2, 2)
    assert out.pod("CronJob")["restartPolicy"] == "OnFailure"
    assert out.lines("HG301", "0 14 * * *") == [out.line("periodic {")]


def test_a_disabled_periodic_job_is_a_suspended_cron_job() -> None:
    header = '  type = "batch"\n  periodic {\n    cron    = "@daily"\n    enabled = false\n  }\n'
    spec = lower(simple(header)).one("CronJob")["spec"]
    assert spec["schedule"] == "@daily"
    assert spec["suspend"] is True
    assert "concurrencyPolicy" not in spec


def test_a_system_job_is_a_daemon_set() -> None:
    out = lower(simple('  type = "system"\n'))
    daemon_set = out.one("DaemonSet")
    assert daemon_set["apiVersion"] == "apps/v1"
    assert "replicas" not in daemon_set["spec"]
    assert daemon_set["spec"]["selector"]["matchLabels"]["app.kubernetes.io/instance"] == "web-api"
    assert out.pod("DaemonSet")["restartPolicy"] == "Always"
    assert not out.lines("HG302", "sysbatch")


def test_a_sysbatch_job_is_a_daemon_set_whose_pods_restart() -> None:
    out = lower(simple('  type = "sysbatch"\n'))
    assert out.pod("DaemonSet")["restartPolicy"] == "Always"
    assert out.lines("HG302", "sysbatch") == [out.line('job "web"')]


def test_a_parameterized_job_is_a_suspended_job() -> None:
    header = '  type = "batch"\n  parameterized {\n    meta_required = ["model"]\n  }\n'
    out = lower(simple(header))
    assert out.one("Job")["spec"]["suspend"] is True
    assert out.lines("HG301", "dispatch") == [out.line("parameterized {")]


# --------------------------------------------------------------------------- names and metadata


def test_names_are_dns_labels_and_renaming_is_reported() -> None:
    out = lower("""
        job "My_Job" {
          group "GPU Tier" {
            task "Model_Server" {
              driver = "docker"
              config {
                image = "triton:24"
              }
            }
          }
        }
    """)
    deployment = out.one("Deployment")
    assert deployment["metadata"]["name"] == "my-job-gpu-tier"
    assert deployment["metadata"]["labels"]["app.kubernetes.io/instance"] == "my-job-gpu-tier"
    assert out.container("model-server")["image"] == "triton:24"
    assert out.lines("HG302", "`my-job-gpu-tier`") == [out.line("group ")]
    assert out.lines("HG302", "`model-server`") == [out.line("task ")]


def test_tasks_whose_names_collide_get_distinct_containers() -> None:
    twin = APP.replace('task "app"', 'task "App"')
    out = lower(simple(task=APP + twin))
    assert [c["name"] for c in out.pod()["containers"]] == ["app", "app-2"]
    assert out.lines("HG302", "`app-2`") == [out.line('task "App"')]


def test_a_valid_name_is_not_reported() -> None:
    out = lower(simple())
    assert not out.lines("HG302", "DNS")
    assert not out.lines("HG302", "label")


SERVED = """
    network {
      port "http" { to = 8080 }
    }
    service {
      name = "web"
      port = "http"
    }
"""


def with_block(task: str, block: str) -> str:
    """``task`` (one task block) with ``block`` added at its end."""
    body = textwrap.dedent(task).rstrip()
    return body[: -len("}")] + textwrap.indent(textwrap.dedent(block), "  ") + "}\n"


TEMPLATED = with_block(APP, 'template {\n  data        = "x"\n  destination = "local/x"\n}\n')


def groups(*names: str, header: str = "", body: str = SERVED, task: str = TEMPLATED) -> str:
    """job "web" with one group per name, each with ``body`` and ``task``."""
    parts = [
        f'  group "{name}" {{\n'
        + textwrap.indent(textwrap.dedent(body), "    ")
        + textwrap.indent(textwrap.dedent(task), "    ")
        + "  }\n"
        for name in names
    ]
    return f'job "web" {{\n{header}' + "".join(parts) + "}\n"


def named(out: Lowered, kind: str) -> list[str]:
    return [o["metadata"]["name"] for o in out.objects if o["kind"] == kind]


def test_groups_whose_names_coincide_get_distinct_objects_tied_together() -> None:
    out = lower(groups("a_b", "a-b", "A.B"))
    names = ["web-a-b", "web-a-b-2", "web-a-b-3"]
    assert named(out, "Deployment") == names
    assert named(out, "Service") == names
    assert named(out, "ConfigMap") == [f"{n}-templates" for n in names]
    deployments = [o for o in out.objects if o["kind"] == "Deployment"]
    services = [o for o in out.objects if o["kind"] == "Service"]
    for name, deployment, service in zip(names, deployments, services, strict=True):
        selector = deployment["spec"]["selector"]["matchLabels"]
        pod = deployment["spec"]["template"]
        assert selector["app.kubernetes.io/instance"] == name
        assert deployment["metadata"]["labels"]["app.kubernetes.io/instance"] == name
        assert pod["metadata"]["labels"].items() >= selector.items()
        assert service["spec"]["selector"] == selector
        assert pod["spec"]["volumes"] == [{"name": "templates", "configMap": {"name": f"{name}-templates"}}]
    assert out.lines("HG302", "is named `web-a-b-2`") == [out.line('group "a-b"')]
    assert out.lines("HG302", "is named `web-a-b-3`") == [out.line('group "A.B"')]
    [message] = [d.message for d in out.diagnostics if "is named `web-a-b-3`" in d.message]
    assert 'group "a_b"' in message, "the message says whose name it would have been"


def test_services_of_coinciding_groups_stay_distinct_when_renamed_for_dns_1035() -> None:
    long = "a_" + "b" * 58
    out = lower(groups(long, long.replace("_", "-")).replace('job "web"', 'job "1web"'))
    first, second = named(out, "Service")
    assert first == ("svc-1web-" + long.replace("_", "-"))[:63]
    assert second == ("svc-1web-" + long.replace("_", "-"))[:61] + "-2"


def test_a_suffixed_name_skips_the_name_of_a_later_group() -> None:
    out = lower(groups("a-b", "a_b", "a-b-2"))
    assert named(out, "Deployment") == ["web-a-b", "web-a-b-3", "web-a-b-2"]
    assert not out.lines("HG302", "is named `web-a-b-2`")


def test_a_suffixed_cron_job_name_keeps_its_length_limit() -> None:
    header = '  type = "batch"\n  periodic {\n    crons = ["0 2 * * *"]\n  }\n'
    out = lower(groups("x" * 60, "X" * 60, body="", task=APP, header=header))
    first, second = named(out, "CronJob")
    assert first == ("web-" + "x" * 60)[:52]
    assert second == ("web-" + "x" * 60)[:50] + "-2"


def test_device_claim_templates_of_coinciding_groups_are_distinct() -> None:
    task = with_block(APP, 'resources {\n  device "nvidia/gpu" {}\n}\n')
    out = lower(groups("a_b", "a-b", body="", task=task), k8s_devices="dra")
    templates = named(out, "ResourceClaimTemplate")
    assert len(set(templates)) == 2, templates
    pods = [o["spec"]["template"]["spec"] for o in out.objects if o["kind"] == "Deployment"]
    assert [p["resourceClaims"][0]["resourceClaimTemplateName"] for p in pods] == templates


def test_naming_work_grows_with_the_groups_not_their_square(monkeypatch: pytest.MonkeyPatch) -> None:
    from hclgpu.backends.kubernetes import objects

    calls = 0
    real = objects.dns_label

    def counted(*args: Any) -> str:
        nonlocal calls
        calls += 1
        return real(*args)

    monkeypatch.setattr(objects, "dns_label", counted)
    counts = []
    for count in (40, 80):
        calls = 0
        lower(groups(*(f"g_{n}" for n in range(count)), body="", task=APP))
        counts.append(calls)
    assert counts[1] < 3 * counts[0], counts


def test_job_and_group_meta_become_annotations() -> None:
    long_key = "k" * 70
    header = '  meta {\n    a = "1"\n    c = "5"\n  }\n'
    group = f'    meta {{\n      a = "2"\n      b = "3"\n      {long_key} = "4"\n    }}\n'
    out = lower(simple(header, group))
    sanitised = "hclgpu.io/meta." + "k" * 58  # the name part is at most 63 characters
    expected = {"hclgpu.io/meta.a": "2", "hclgpu.io/meta.b": "3", sanitised: "4", "hclgpu.io/meta.c": "5"}
    deployment = out.one("Deployment")
    assert deployment["metadata"]["annotations"] == expected
    assert deployment["spec"]["template"]["metadata"]["annotations"] == expected
    assert out.lines("HG302", sanitised) == [out.line('group "api"')]


def test_namespace_comes_from_the_options() -> None:
    out = lower(simple(header='  namespace = "team-a"\n'), namespace="prod")
    assert all(o["metadata"]["namespace"] == "prod" for o in out.objects)
    assert "namespace" not in lower(simple()).one("Deployment")["metadata"]


def test_without_the_option_the_nomad_namespace_is_used() -> None:
    out = lower(simple(header='  namespace = "Team_A"\n'))
    assert out.one("Deployment")["metadata"]["namespace"] == "team-a"
    assert out.lines("HG302", "`team-a`") == [out.line('job "web"')]


# --------------------------------------------------------------------------- containers


def test_image_command_args_and_sorted_env() -> None:
    out = lower("""
        job "web" {
          group "api" {
            task "app" {
              driver = "docker"
              config {
                image      = "python:3.12"
                entrypoint = ["/bin/tini", "--"]
                command    = "python"
                args       = ["-m", "server", "--dir=${NOMAD_TASK_DIR}/models"]
              }
              env {
                ZED   = "1"
                ALPHA = "two"
              }
            }
          }
        }
    """)
    container = out.container("app")
    # docker's `entrypoint` is the image ENTRYPOINT (Kubernetes `command`); Nomad's `command`
    # followed by `args` is the container's CMD (Kubernetes `args`).
    assert container["command"] == ["/bin/tini", "--"]
    assert container["args"] == [
        "python",
        "-m",
        "server",
        "--dir=/local/models",
    ]  # the docker driver's /local
    own = [e for e in container["env"] if not e["name"].startswith("NOMAD_")]
    assert own == [{"name": "ALPHA", "value": "two"}, {"name": "ZED", "value": "1"}]
    assert out.lines("HG302", "${NOMAD_TASK_DIR}") == []  # nothing is lost: it is /local
    assert container["volumeMounts"] == [{"name": "local-app", "mountPath": "/local"}]
    assert {"name": "local-app", "emptyDir": {}} in out.pod()["volumes"]
    env = {e["name"]: e for e in container["env"]}
    assert env["NOMAD_TASK_DIR"]["value"] == "/local" and env["NOMAD_JOB_NAME"]["value"] == "web"
    assert env["NOMAD_ALLOC_ID"]["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.uid"}}


def test_nomad_variables_are_env_and_referenced_as_kubernetes_expands_them() -> None:
    out = lower(
        simple(
            group="    count = 2\n",
            task="""
        task "app" {
          driver = "docker"
          config {
            image    = "busybox"
            args     = ["--job=${NOMAD_JOB_NAME}", "--out=${NOMAD_ALLOC_DIR}/x", "--i=${NOMAD_ALLOC_INDEX}"]
            work_dir = "${NOMAD_SECRETS_DIR}/w"
          }
          env { WHO = "${NOMAD_TASK_NAME}@${NOMAD_ALLOC_ID}" }
        }
    """,
        )
    )
    container = out.container("app")
    assert container["args"] == ["--job=$(NOMAD_JOB_NAME)", "--out=/alloc/x", "--i=${NOMAD_ALLOC_INDEX}"]
    assert container["workingDir"] == "/secrets/w"  # workingDir is not expanded: the value itself
    names = [e["name"] for e in container["env"]]
    assert names.index("NOMAD_TASK_NAME") < names.index("WHO")  # defined before the value using it
    assert "NOMAD_ALLOC_INDEX" not in names  # two allocations: no one index per pod
    assert {"name": "WHO", "value": "$(NOMAD_TASK_NAME)@$(NOMAD_ALLOC_ID)"} in container["env"]
    assert {m["mountPath"] for m in container["volumeMounts"]} == {"/alloc", "/secrets"}
    assert {"name": "secrets-app", "emptyDir": {"medium": "Memory"}} in out.pod()["volumes"]
    assert out.lines("HG302", "${NOMAD_ALLOC_INDEX}") == [out.line('task "app"')]


NETWORK = """\
    network {
      port "http" { to = 8080 }
      port "admin" {
        static = 9000
        to     = 9001
      }
      port "metrics_endpoint" { static = 9100 }
      port "random" {}
    }
"""


def test_group_ports_used_by_the_task_become_container_ports() -> None:
    task = APP.replace('"nginx:1.27"', '"nginx:1.27"\n    ports = ["http", "metrics_endpoint", "random"]')
    out = lower(simple(group=NETWORK, task=task))
    assert out.container("app")["ports"] == [
        {"name": "http", "containerPort": 8080},
        {"name": "metrics-endpoin", "containerPort": 9100},
    ]
    assert out.lines("HG301", '"random"') == [out.line('port "random"')]
    assert out.lines("HG302", "`metrics-endpoin`") == [out.line('port "metrics_endpoint"')]
    assert out.lines("HG302", "static = 9100") == [out.line('port "metrics_endpoint"')]


def test_shm_size_is_a_memory_empty_dir_on_dev_shm() -> None:
    out = lower(simple(task=APP.replace('"nginx:1.27"', '"nginx:1.27"\n    shm_size = 1073741824')))
    [volume] = out.pod()["volumes"]
    assert volume["emptyDir"] == {"medium": "Memory", "sizeLimit": "1073741824"}
    assert out.container("app")["volumeMounts"] == [{"name": volume["name"], "mountPath": "/dev/shm"}]


def test_kill_timeout_is_the_longest_grace_period() -> None:
    a = APP.replace('driver = "docker"', 'driver = "docker"\n  kill_timeout = "10s"')
    b = a.replace('task "app"', 'task "b"').replace('"10s"', '"45s"')
    assert lower(simple(task=a + b)).pod()["terminationGracePeriodSeconds"] == 45


def test_privileged_becomes_the_security_context() -> None:
    out = lower(simple(task=APP.replace('"nginx:1.27"', '"nginx:1.27"\n    privileged = true')))
    # Nomad's docker driver drops NET_RAW (its default allow_caps), privileged or not
    assert out.container("app")["securityContext"] == {
        "privileged": True,
        "capabilities": {"drop": ["NET_RAW"]},
    }
    assert out.lines("HG302", "privileged") == [out.line('task "app"')]


@pytest.mark.parametrize(
    ("caps", "drop"),
    [
        ("", ["NET_RAW"]),
        ('\n    cap_add = ["net_raw"]', None),  # added back (the client's allow_caps must allow it)
        ('\n    cap_drop = ["ALL"]', ["ALL"]),
        ('\n    cap_drop = ["CAP_NET_RAW"]', ["NET_RAW"]),
    ],
)
def test_net_raw_is_dropped_as_nomads_docker_driver_drops_it(caps: str, drop: list[str] | None) -> None:
    out = lower(simple(task=APP.replace('"nginx:1.27"', '"nginx:1.27"' + caps)))
    assert out.container("app").get("securityContext", {}).get("capabilities", {}).get("drop") == drop
    assert out.pod()["automountServiceAccountToken"] is False  # a Nomad task has no API token
    assert out.pod()["securityContext"] == {"seccompProfile": {"type": "RuntimeDefault"}}  # docker's


# --------------------------------------------------------------------------- resources


def test_cpu_memory_arithmetic_and_one_factor_note_per_job() -> None:
    out = lower(
        """
        job "web" {
          group "api" {
            task "a" {
              driver = "docker"
              config {
                image = "a:1"
              }
              resources {
                cpu        = 2500
                memory     = 512
                memory_max = 1024
              }
            }
            task "b" {
              driver = "docker"
              config {
                image = "b:1"
              }
              resources {
                cpu    = 300
                memory = 128
              }
            }
          }
        }
        """,
        cpu_mhz_per_core=2000,
    )
    assert out.container("a")["resources"] == {  # Nomad ignores memory_max: oversubscription is off
        "requests": {"cpu": "1250m", "memory": "512Mi"},
        "limits": {"memory": "512Mi"},
    }
    assert out.container("b")["resources"] == {
        "requests": {"cpu": "150m", "memory": "128Mi"},
        "limits": {"memory": "128Mi"},
    }
    assert out.lines("HG302", "2000 MHz per core") == [out.line("resources {")]
    assert out.lines("HG302", "memory_max = 1024") == [out.line("resources {")]
    enabled = lower(out.text, cpu_mhz_per_core=2000, memory_oversubscription=True)
    assert enabled.container("a")["resources"]["limits"] == {"memory": "1024Mi"}
    assert enabled.lines("HG302", "memory_max") == []


def test_cores_set_the_cpu_limit() -> None:
    task = APP.replace("    }\n", "    }\n  resources {\n    cores  = 2\n    memory = 1024\n  }\n", 1)
    out = lower(simple(task=task))
    resources = out.container("app")["resources"]
    assert resources["limits"] == {"cpu": "2", "memory": "1024Mi"}
    assert resources["requests"] == {"cpu": "2", "memory": "1024Mi"}
    assert out.lines("HG302", "cores = 2") == [out.line("resources {")]


def test_nomad_default_resources_apply_when_unset() -> None:
    resources = lower(simple()).container("app")["resources"]
    assert resources == {"requests": {"cpu": "100m", "memory": "300Mi"}, "limits": {"memory": "300Mi"}}


def test_ephemeral_disk_is_an_ephemeral_storage_request() -> None:
    out = lower(simple(group="    ephemeral_disk {\n      size   = 2048\n      sticky = true\n    }\n"))
    assert out.container("app")["resources"]["requests"]["ephemeral-storage"] == "2048Mi"
    assert out.lines("HG302", "ephemeral-storage") == [out.line("ephemeral_disk")]
    assert out.lines("HG301", "`sticky`") == [out.line("ephemeral_disk")]


# --------------------------------------------------------------------------- services and probes


def test_an_http_check_is_a_readiness_probe_and_the_group_gets_a_service() -> None:
    out = lower("""
        job "web" {
          group "api" {
            network {
              port "http" { to = 8080 }
              port "admin" {
                static = 9000
                to     = 9001
              }
            }
            service {
              name = "web-api"
              port = "http"
              check {
                type     = "http"
                path     = "/healthz"
                interval = "5s"
                timeout  = "200ms"
              }
            }
            service {
              name = "web-admin"
              port = "admin"
            }
            task "app" {
              driver = "docker"
              config {
                image = "nginx:1.27"
                ports = ["http", "admin"]
              }
            }
          }
        }
    """)
    container = out.container("app")
    assert container["readinessProbe"] == {
        "httpGet": {"path": "/healthz", "port": 8080},
        "periodSeconds": 5,
        "timeoutSeconds": 1,
    }
    assert "livenessProbe" not in container
    assert out.kinds() == ["Deployment", "Service"]
    service = out.one("Service")
    assert service["apiVersion"] == "v1"
    assert service["metadata"]["name"] == "web-api"
    assert service["spec"]["type"] == "ClusterIP"
    assert service["spec"]["selector"] == out.one("Deployment")["spec"]["selector"]["matchLabels"]
    assert service["spec"]["ports"] == [
        {"name": "http", "port": 8080, "targetPort": 8080},
        {"name": "admin", "port": 9000, "targetPort": 9001},
    ]
    assert out.lines("HG302", "static = 9000") == [out.line('port "admin"')]
    assert out.lines("HG302", '"web-admin"') == [out.line("service {", 2)]


def test_tcp_and_grpc_checks_and_check_restart() -> None:
    out = lower("""
        job "web" {
          group "api" {
            network {
              port "http" { to = 8080 }
              port "rpc" { to = 9001 }
            }
            task "a" {
              driver = "docker"
              config {
                image = "a:1"
                ports = ["http"]
              }
              service {
                name = "a"
                port = "http"
                check {
                  type     = "tcp"
                  interval = "10s"
                  timeout  = "2s"
                }
                check_restart {
                  limit = 3
                  grace = "30s"
                }
              }
            }
            task "b" {
              driver = "docker"
              config {
                image = "b:1"
                ports = ["rpc"]
              }
              service {
                name = "b"
                port = "rpc"
                check {
                  type         = "grpc"
                  grpc_service = "health"
                  interval     = "15s"
                  timeout      = "3s"
                }
              }
            }
          }
        }
    """)
    readiness = {"tcpSocket": {"port": 8080}, "periodSeconds": 10, "timeoutSeconds": 2}
    assert out.container("a")["readinessProbe"] == readiness
    assert out.container("a")["livenessProbe"] == {
        **readiness,
        "failureThreshold": 3,
        "initialDelaySeconds": 30,
    }
    assert out.container("b")["readinessProbe"] == {
        "grpc": {"port": 9001, "service": "health"},
        "periodSeconds": 15,
        "timeoutSeconds": 3,
    }
    assert "livenessProbe" not in out.container("b")


def test_a_second_check_is_left_out_at_its_block() -> None:
    out = lower("""
        job "web" {
          group "api" {
            network {
              port "http" { to = 8080 }
            }
            service {
              name = "web-api"
              port = "http"
              check {
                type     = "http"
                path     = "/a"
                interval = "5s"
                timeout  = "1s"
              }
              check {
                type     = "tcp"
                interval = "5s"
                timeout  = "1s"
              }
            }
            task "app" {
              driver = "docker"
              config {
                image = "nginx:1.27"
                ports = ["http"]
              }
            }
          }
        }
    """)
    assert "httpGet" in out.container("app")["readinessProbe"]
    assert out.lines("HG301", "readinessProbe") == [out.line("check {", 2)]


# --------------------------------------------------------------------------- templates


def test_templates_become_one_config_map_mounted_by_sub_path() -> None:
    out = lower("""
        job "web" {
          group "api" {
            task "app" {
              driver = "docker"
              config {
                image = "nginx:1.27"
              }
              template {
                data        = "port={{ env \\"NOMAD_PORT_http\\" }}"
                destination = "local/app.conf"
              }
              template {
                data        = "plain"
                destination = "secrets/token.txt"
                env         = true
              }
            }
          }
        }
    """)
    assert out.kinds() == ["ConfigMap", "Deployment"]
    config_map = out.one("ConfigMap")
    assert config_map["metadata"]["name"] == "web-api-templates"
    assert config_map["data"] == {
        "local_app.conf": 'port={{ env "NOMAD_PORT_http" }}',
        "secrets_token.txt": "plain",
    }
    assert out.container("app")["volumeMounts"] == [
        {"name": "templates", "mountPath": "/local/app.conf", "subPath": "local_app.conf", "readOnly": True},
        {
            "name": "templates",
            "mountPath": "/secrets/token.txt",
            "subPath": "secrets_token.txt",
            "readOnly": True,
        },
    ]
    assert out.pod()["volumes"] == [{"name": "templates", "configMap": {"name": "web-api-templates"}}]
    assert out.lines("HG302", "not rendered") == [out.line("template {")]
    assert out.lines("HG301", "env = true") == [out.line("template {", 2)]
    assert not out.lines("HG301", "`change_mode`")  # jobspec2's defaults are not the user's


# --------------------------------------------------------------------------- lifecycle and drivers


def test_prestart_tasks_are_init_containers_and_sidecars_restart_always() -> None:
    out = lower("""
        job "web" {
          group "api" {
            task "main" {
              driver = "docker"
              config {
                image = "app:1"
              }
            }
            task "setup" {
              driver = "docker"
              lifecycle {
                hook = "prestart"
              }
              config {
                image = "setup:1"
              }
            }
            task "proxy" {
              driver = "docker"
              lifecycle {
                hook    = "prestart"
                sidecar = true
              }
              config {
                image = "envoy:1"
              }
            }
            task "late" {
              driver = "docker"
              lifecycle {
                hook = "poststart"
              }
              config {
                image = "late:1"
              }
            }
          }
        }
    """)
    pod = out.pod()
    assert [c["name"] for c in pod["containers"]] == ["main"]
    assert {c["name"]: c.get("restartPolicy") for c in pod["initContainers"]} == {
        "setup": None,
        "proxy": "Always",
    }
    assert out.lines("HG301", "poststart") == [out.line('task "late"')]  # the whole task is left out


def test_other_drivers_are_left_out_at_the_task() -> None:
    exec_task = 'task "batch" {\n  driver = "exec"\n  config {\n    command = "/bin/true"\n  }\n}\n'
    out = lower(simple(task=APP + exec_task))
    assert [c["name"] for c in out.pod()["containers"]] == ["app"]
    assert out.lines("HG301", "`exec` driver") == [out.line('task "batch"')]


def test_a_group_without_containers_is_left_out() -> None:
    out = lower(
        simple(task='task "batch" {\n  driver = "raw_exec"\n  config {\n    command = "/bin/true"\n  }\n}\n')
    )
    assert out.objects == []
    assert out.lines("HG301", "the group is left out") == [out.line('group "api"')]


def test_nomad_only_blocks_are_reported_where_they_are_written() -> None:
    out = lower("""
        job "web" {
          group "api" {
            volume "data" {
              type   = "host"
              source = "data"
            }
            task "app" {
              driver = "docker"
              config {
                image = "nginx:1.27"
                ulimit {
                  memlock = "-1"
                }
              }
              artifact {
                source = "https://example.com/model.tar.gz"
              }
              vault {
                policies = ["models"]
              }
              logs {
                max_files = 3
              }
            }
          }
        }
    """)
    assert out.lines("HG301", "`volume`") == [out.line('volume "data"')]
    assert out.lines("HG301", "`ulimit`") == [out.line('task "app"')]
    assert out.lines("HG301", "`artifact`") == [out.line("artifact {")]
    assert out.lines("HG301", "`vault`") == [out.line("vault {")]
    assert out.lines("HG301", "`logs`") == [out.line("logs {")]


def test_task_fields_without_a_container_equivalent_are_reported() -> None:
    out = lower("""
        job "web" {
          group "api" {
            network {
              port "http" {
                to           = 8080
                host_network = "public"
              }
            }
            task "app" {
              driver = "docker"
              user   = "1000:2000"
              config {
                image = "nginx:1.27"
                ports = ["http"]
              }
              meta {
                owner = "a"
              }
              restart {
                attempts = 1
              }
              service {
                name = "web-api"
                port = "http"
                tags = ["edge"]
              }
            }
          }
        }
    """)
    assert out.container("app")["securityContext"] == {
        "runAsUser": 1000,
        "runAsGroup": 2000,
        "capabilities": {"drop": ["NET_RAW"]},
    }
    assert out.lines("HG301", "`meta`") == [out.line('task "app"')]
    assert out.lines("HG301", "restart") == [out.line("restart {")]
    assert out.lines("HG301", "`tags`") == [out.line("service {")]
    assert out.lines("HG301", "`host_network`") == [out.line('port "http"')]


def test_update_maps_max_parallel_and_approximates_canaries() -> None:
    group = (
        '    count = 4\n    update {\n      max_parallel     = 2\n      min_healthy_time = "15s"\n'
        "      canary           = 1\n      auto_revert      = true\n    }\n"
    )
    out = lower(simple(group=group))
    spec = out.one("Deployment")["spec"]
    assert spec["strategy"]["type"] == "RollingUpdate"
    assert spec["strategy"]["rollingUpdate"]["maxUnavailable"] == 2
    assert spec["minReadySeconds"] == 15
    assert out.lines("HG302", "`canary`") == [out.line("update {")]
    assert out.lines("HG302", "`auto_revert`") == [out.line("update {")]


ONE_AT_A_TIME = {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}}
"""Nomad's DefaultUpdateStrategy (api/jobs.go:612-624): one allocation at a time, no surge."""


@pytest.mark.parametrize(
    ("group", "ready"),
    [
        ("", 10),  # no update block: the whole default strategy (api/jobs.go:1205-1209)
        ('    update {\n      min_healthy_time = "30s"\n    }\n', 30),  # fields one by one (715-755)
        ("    update {\n      auto_revert = true\n    }\n", 10),
    ],
)
def test_a_service_gets_nomads_default_update_not_a_25_percent_surge(group: str, ready: int) -> None:
    spec = lower(simple(group="    count = 2\n" + group)).one("Deployment")["spec"]
    assert spec["strategy"] == ONE_AT_A_TIME  # Kubernetes' default would start a 25% surge: a spare GPU
    assert (spec["minReadySeconds"], spec["progressDeadlineSeconds"]) == (ready, 600)


# --------------------------------------------------------------------------- placement


def test_node_constraints_become_one_node_selector_term() -> None:
    out = lower("""
        job "web" {
          constraint {
            attribute = "${attr.kernel.name}"
            value     = "linux"
          }
          group "api" {
            constraint {
              attribute = "${attr.cpu.arch}"
              operator  = "!="
              value     = "arm64"
            }
            constraint {
              attribute = "${attr.os.version}"
              operator  = "regexp"
              value     = "^22"
            }
            task "app" {
              driver = "docker"
              config {
                image = "nginx:1.27"
              }
              constraint {
                attribute = "${node.datacenter}"
                value     = "us-east-1a"
              }
              constraint {
                attribute = "${meta.gpu_interconnect}"
                value     = "nvlink"
              }
            }
          }
        }
    """)
    node = out.pod()["affinity"]["nodeAffinity"]
    assert node["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"] == [
        {
            "matchExpressions": [
                {"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
                {"key": "kubernetes.io/arch", "operator": "NotIn", "values": ["arm64"]},
                {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["us-east-1a"]},
                {"key": "gpu_interconnect", "operator": "In", "values": ["nvlink"]},
            ]
        }
    ]
    assert out.lines("HG302", "topology.kubernetes.io/zone") == [out.line("constraint {", 4)]
    assert out.lines("HG302", "`gpu_interconnect`") == [out.line("constraint {", 5)]
    assert out.lines("HG301", "regexp") == [out.line("constraint {", 3)]
    assert not out.lines("HG302", "kubernetes.io/os")


def test_affinities_are_preferred_terms() -> None:
    group = (
        '    affinity {\n      attribute = "${node.class}"\n      value     = "gpu"\n'
        "      weight    = 40\n    }\n"
        '    affinity {\n      attribute = "${attr.kernel.name}"\n      value     = "windows"\n'
        "      weight    = -70\n    }\n"
    )
    out = lower(simple(group=group))
    preferred = out.pod()["affinity"]["nodeAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"]
    instance_type = {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["gpu"]}
    not_windows = {"key": "kubernetes.io/os", "operator": "NotIn", "values": ["windows"]}
    assert preferred == [
        {"weight": 40, "preference": {"matchExpressions": [instance_type]}},
        {"weight": 70, "preference": {"matchExpressions": [not_windows]}},
    ]
    assert out.lines("HG302", "node.kubernetes.io/instance-type") == [out.line("affinity {")]


def test_spreads_are_topology_spread_constraints() -> None:
    out = lower(simple(header='  spread {\n    attribute = "${node.datacenter}"\n    weight    = 100\n  }\n'))
    assert out.pod()["topologySpreadConstraints"] == [
        {
            "maxSkew": 1,
            "topologyKey": "topology.kubernetes.io/zone",
            "whenUnsatisfiable": "ScheduleAnyway",
            "labelSelector": {"matchLabels": out.one("Deployment")["spec"]["selector"]["matchLabels"]},
        }
    ]
    assert out.lines("HG302", "topologySpreadConstraints") == [out.line("spread {")]


def test_distinct_hosts_is_pod_anti_affinity() -> None:
    out = lower(simple(group="    constraint {\n      distinct_hosts = true\n    }\n"))
    anti = out.pod()["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    selector = out.one("Deployment")["spec"]["selector"]["matchLabels"]
    assert anti == [{"labelSelector": {"matchLabels": selector}, "topologyKey": "kubernetes.io/hostname"}]
    assert "nodeAffinity" not in out.pod()["affinity"]


# --------------------------------------------------------------------------- devices


def fake_lower_devices(job_name: str, group_name: str, task: m.Task, ctx: Lowering) -> DeviceLowering:
    """One GPU, with every field of a device lowering set (both modes at once: wiring only)."""
    claim = f"{job_name}-{group_name}-{task.name}-gpu"
    family = {"key": "nvidia.com/gpu.family", "operator": "In", "values": ["hopper"]}
    return DeviceLowering(
        limits={"nvidia.com/gpu": 1},
        required=[{"key": "nvidia.com/gpu.memory", "operator": "Gt", "values": ["4095"]}],
        preferred=[{"weight": 50, "preference": {"matchExpressions": [family]}}],
        tolerations=[{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
        claim_templates=[
            {
                "apiVersion": "resource.k8s.io/v1",
                "kind": "ResourceClaimTemplate",
                "metadata": {"name": claim},
                "spec": {
                    "spec": {
                        "devices": {
                            "requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}}]
                        }
                    }
                },
            }
        ],
        pod_claims=[{"name": "gpu", "resourceClaimTemplateName": claim}],
        container_claims=[{"name": "gpu"}],
    )


def test_device_lowering_is_wired_into_the_pod(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("hclgpu.backends.kubernetes.devices")
    module.lower_devices = fake_lower_devices  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hclgpu.backends.kubernetes.devices", module)
    out = lower("""
        job "web" {
          group "api" {
            constraint {
              attribute = "${attr.kernel.name}"
              value     = "linux"
            }
            network {
              port "http" { to = 80 }
            }
            service {
              name = "web-api"
              port = "http"
            }
            task "app" {
              driver = "docker"
              config {
                image = "nginx:1.27"
                ports = ["http"]
              }
              template {
                data        = "x"
                destination = "local/x"
              }
              resources {
                memory = 1024
                device "nvidia/gpu" {
                  count = 1
                }
              }
            }
          }
        }
    """)
    assert out.kinds() == ["ConfigMap", "ResourceClaimTemplate", "Deployment", "Service"]
    resources = out.container("app")["resources"]
    assert resources["requests"]["nvidia.com/gpu"] == 1
    assert resources["limits"]["nvidia.com/gpu"] == 1
    assert resources["claims"] == [{"name": "gpu"}]
    pod = out.pod()
    assert pod["resourceClaims"] == [{"name": "gpu", "resourceClaimTemplateName": "web-api-app-gpu"}]
    assert pod["tolerations"] == [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
    node = pod["affinity"]["nodeAffinity"]
    assert node["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"] == [
        {
            "matchExpressions": [
                {"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
                {"key": "nvidia.com/gpu.memory", "operator": "Gt", "values": ["4095"]},
            ]
        }
    ]
    assert node["preferredDuringSchedulingIgnoredDuringExecution"][0]["weight"] == 50


# --------------------------------------------------------------------------- samples


@pytest.mark.parametrize("mode", ["plugin", "dra"])
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_lowers_to_valid_objects_and_located_diagnostics(path: Path, mode: str) -> None:
    out = lower(path.read_text(encoding="utf-8"), k8s_devices=mode)
    assert {"Deployment", "Job", "CronJob", "DaemonSet"} & set(out.kinds())
    assert all(d.span is not None for d in out.diagnostics)
    assert {d.code for d in out.diagnostics} <= {"HG301", "HG302"}


def test_host_options_are_the_pod_fields_that_do_the_same() -> None:
    config = (
        '"busybox"\n    network_mode = "host"\n    ipc_mode = "host"\n    runtime = "nvidia"\n'
        '    volumes = ["/dev/infiniband:/dev/infiniband:ro", "cache:/cache", "local/x:/x"]\n'
        '    volume_driver = "local"\n'
        '    mount {\n      type   = "tmpfs"\n      target = "/scratch"\n'
        "      tmpfs_options {\n        size = 1048576\n      }\n    }"
    )
    out = lower(simple(task=APP.replace('"nginx:1.27"', config)))
    pod = out.pod()
    assert (pod["hostNetwork"], pod["hostIPC"], pod["dnsPolicy"]) == (True, True, "ClusterFirstWithHostNet")
    assert pod["runtimeClassName"] == "nvidia"
    mounts = {m["mountPath"]: m for m in out.container("app")["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert volumes[mounts["/dev/infiniband"]["name"]]["hostPath"] == {"path": "/dev/infiniband"}
    assert mounts["/dev/infiniband"]["readOnly"] is True
    assert volumes[mounts["/cache"]["name"]]["emptyDir"] == {}  # a docker volume: gone with the pod (HG302)
    assert volumes[mounts["/scratch"]["name"]]["emptyDir"] == {"medium": "Memory", "sizeLimit": "1048576"}
    assert "/x" not in mounts  # `local/x` is no volume name: left out
    assert out.lines("HG301", "local/x") == [out.line('task "app"')]
    assert out.lines("HG302", "runtimeClassName") == [out.line('task "app"')]
    assert out.lines("HG301", "network_mode") == []


def test_a_relative_volume_source_is_in_the_task_directory() -> None:
    """Without `volume_driver`, Nomad's docker driver reads a relative source, a bare name
    too, as a path in the task directory (drivers/docker/driver.go:786-793 at v1.10.0), and a
    relative bind mount source likewise (driver.go:1472): neither is a named volume."""
    config = (
        '"busybox"\n    volumes = ["cache:/cache"]\n'
        '    mount {\n      type = "bind"\n      source = "conf"\n      target = "/etc/app"\n    }'
    )
    out = lower(simple(task=APP.replace('"nginx:1.27"', config)))
    mounts = {m["mountPath"] for m in out.container("app").get("volumeMounts", [])}
    assert not {"/cache", "/etc/app"} & mounts
    assert out.lines("HG301", "is a path in the Nomad task directory") == [out.line('task "app"')] * 2


def test_a_group_of_several_spreads_over_hosts_as_nomads_job_anti_affinity_does() -> None:
    spec = lower(simple(group="    count = 3\n")).one("Deployment")["spec"]["template"]["spec"]
    [term] = spec["affinity"]["podAntiAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"]
    assert term["weight"] == 50 and term["podAffinityTerm"]["topologyKey"] == "kubernetes.io/hostname"
    assert term["podAffinityTerm"]["labelSelector"]["matchLabels"]["app.kubernetes.io/instance"] == "web-api"
    assert "affinity" not in lower(simple()).one("Deployment")["spec"]["template"]["spec"]  # one pod


def test_dns_settings_are_the_pods_dns_config() -> None:
    config = (
        '"busybox"\n    dns_servers = ["10.0.0.2", "${attr.unique.network.ip-address}"]\n'
        '    dns_search_domains = ["svc.example"]\n    dns_options = ["ndots:2", "edns0"]'
    )
    out = lower(simple(task=APP.replace('"nginx:1.27"', config)))
    pod = out.pod()
    assert pod["dnsPolicy"] == "None"  # the container's resolv.conf is exactly these, as docker's --dns
    assert pod["dnsConfig"] == {
        "nameservers": ["10.0.0.2"],  # the node's own address is known only on the node: left out
        "searches": ["svc.example"],
        "options": [{"name": "ndots", "value": "2"}, {"name": "edns0"}],
    }
    assert out.lines("HG301", "names the node") == [out.line('task "app"')]


def test_a_docker_device_is_a_char_device_host_path() -> None:
    config = (
        '"busybox"\n    devices = [\n      {\n        host_path      = "/dev/infiniband/uverbs0"\n'
        '        container_path = "/dev/infiniband/uverbs0"\n      }\n    ]'
    )
    out = lower(simple(task=APP.replace('"nginx:1.27"', config)))
    [mount] = out.container("app")["volumeMounts"]
    volumes = {v["name"]: v for v in out.pod()["volumes"]}
    assert mount["mountPath"] == "/dev/infiniband/uverbs0"
    assert volumes[mount["name"]]["hostPath"] == {"path": "/dev/infiniband/uverbs0", "type": "CharDevice"}
    assert out.lines("HG302", "CharDevice") == [out.line('task "app"')]
    assert out.lines("HG301", "devices") == []


def test_what_a_render_would_drop_silently_is_said_at_its_block() -> None:
    """A port no task lists, a service with no port a Service can target, a group whose cron
    is refused and the job it leaves empty: each is a finding at its own block."""
    ports = '  network {\n    port "admin" {\n      static = 9001\n    }\n  }\n'
    service = '  service {\n    name = "api-svc"\n  }\n'
    out = lower(simple(group=textwrap.indent(ports + service, "  ")))
    assert out.lines("HG302", 'port "admin" (`static = 9001`) is in no task') == [out.line('port "admin"')]
    assert out.lines("HG301", 'service "api-svc" has no port a Service can target') == [out.line("service {")]
    cron = '  type = "batch"\n  periodic {\n    crons = ["*/10 * * * * * *"]\n  }\n'
    out = lower(simple(header=cron))
    assert out.objects == []
    assert out.lines("HG301", 'group "api" gets no CronJob') == [out.line('group "api"')]
    assert out.lines("HG301", 'no group of job "web" becomes a workload') == [1]
