"""docker and compose output: every sample as golden `docker run` lines and a golden
compose.yaml that validates against the compose-spec schema; command lines that split back
into exactly the intended argv (the `--gpus` inner quotes, ulimits, sizes, env, ports);
adversarial values through both; lifecycle, healthchecks and devices on a job built to
use them; and, when a Docker daemon answers, `docker create` of a rendered line checked
with `docker inspect`."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml

from hclgpu.backends import registry
from hclgpu.backends.target import Artifact, Lowering
from hclgpu.backends.templating import TemplateError
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT, Golden, vendored

SAMPLES = sorted((ROOT / "samples").glob("*.hcl"))
GOLDEN = ROOT / "tests" / "golden"


def artifacts(
    text: str, target: str, name: str = "job.nomad.hcl", base: Path = ROOT, **options: Any
) -> tuple[list[Artifact], list[Diagnostic]]:
    result = compile_source(SourceFile(name, text), EvalOptions(VariableInputs(env={}), base_dir=base))
    assert result.job is not None, [f"{d.code} {d.message}" for d in result.diagnostics]
    sink = Sink()
    ctx = Lowering(target, result.source, sink, registry.render_options(target, **options))
    return registry.render(result.job, target, ctx), sink.sorted()


def render(
    text: str, target: str, name: str = "job.nomad.hcl", base: Path = ROOT
) -> tuple[str, list[Diagnostic]]:
    out, diagnostics = artifacts(text, target, name, base)
    return registry.get(target).join(out), diagnostics


def argvs(text: str) -> dict[str, list[str]]:
    """Each `docker run` artifact split as the shell would, by artifact name."""
    out, _ = artifacts(text, "docker")
    return {a.name: shlex.split(a.text, comments=True) for a in out}


def compose(text: str) -> dict[str, Any]:
    rendered, _ = render(text, "compose")
    doc = yaml.safe_load(rendered)
    assert isinstance(doc, dict)
    return doc


def flag_values(argv: list[str], flag: str) -> list[str]:
    """Every value given to ``flag`` (a flag followed by its value, as the argv writes it)."""
    image = _image_index(argv)
    return [argv[i + 1] for i in range(image) if argv[i] == flag]


def own_env(items: list[str]) -> list[str]:
    """``-e`` values less the NOMAD_* variables Nomad sets in every task (which hclgpu writes)."""
    return [item for item in items if not item.startswith("NOMAD_")]


def _image_index(argv: list[str]) -> int:
    """Where the options end: the first word that is neither a flag nor a flag's value."""
    switches = {"-d", "--privileged", "--read-only", "--init", "--tty", "--interactive"}
    i = 2
    while i < len(argv) and argv[i].startswith("-"):
        i += 1 if argv[i] in switches else 2
    return i


def validate_compose(doc: dict[str, Any]) -> None:
    """The compose-spec schema, plus what it does not check (count XOR device_ids)."""
    from jsonschema import Draft7Validator

    schema = json.loads((vendored("schemas", "compose") / "compose-spec.json").read_text())
    errors = [f"{list(e.path)}: {e.message}" for e in Draft7Validator(schema).iter_errors(doc)]
    assert errors == []
    assert own_compose_checks(doc) == []


def own_compose_checks(doc: dict[str, Any]) -> list[str]:
    problems = []
    for name, service in doc.get("services", {}).items():
        devices = service.get("deploy", {}).get("resources", {}).get("reservations", {}).get("devices", [])
        for device in devices:
            if "count" in device and "device_ids" in device:
                problems.append(f"{name}: a device reservation has both count and device_ids")
        for dependency in service.get("depends_on", {}):
            if dependency not in doc["services"]:
                problems.append(f"{name}: depends on unknown service {dependency}")
        for network in service.get("networks", []):
            if network not in doc.get("networks", {}):
                problems.append(f"{name}: joins undeclared network {network}")
    return problems


def stem(sample: Path) -> str:
    return sample.name.removesuffix(".hcl").removesuffix(".nomad")


# --------------------------------------------------------------------------- samples


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sample_compose_validates_and_matches_golden(sample: Path, golden: Golden) -> None:
    text, diagnostics = render(sample.read_text(encoding="utf-8"), "compose", sample.name, sample.parent)
    validate_compose(yaml.safe_load(text))
    assert all(d.span is not None for d in diagnostics if d.code in ("HG301", "HG302"))
    golden(GOLDEN / "compose" / f"{stem(sample)}.yaml", text)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sample_docker_lines_split_back_and_match_golden(sample: Path, golden: Golden) -> None:
    source = sample.read_text(encoding="utf-8")
    out, diagnostics = artifacts(source, "docker", sample.name, sample.parent)
    for artifact in out:
        assert artifact.name.endswith(".sh")
        argv = shlex.split(artifact.text, comments=True)
        assert argv[:2] == ["docker", "run"] and artifact.text.endswith("\n")
        assert argv[_image_index(argv)] != "", artifact.text
    assert all(d.span is not None for d in diagnostics if d.code in ("HG301", "HG302"))
    golden(GOLDEN / "docker" / f"{stem(sample)}.sh", registry.get("docker").join(out))


def test_tensorrt_docker_line() -> None:
    """The seed job: GPU by device id (inner quotes kept), ulimits soft:hard, shm bytes, ports."""
    sample = ROOT / "samples" / "tensorrt.nomad.hcl"
    lines = argvs(sample.read_text(encoding="utf-8"))
    back, front = lines["back-rtserver.sh"], lines["front-web.sh"]
    assert flag_values(back, "--gpus") == ["1"]  # no inventory: a count, docker takes the first GPU
    assert flag_values(back, "--ulimit") == ["memlock=-1:-1", "stack=67108864:67108864"]
    assert flag_values(back, "--shm-size") == ["1073741824"]
    assert flag_values(back, "-p") == ["8000", "8001", "8002"]
    assert flag_values(front, "-p") == ["8888:5000"]
    assert flag_values(back, "--memory") == ["8192m"] and flag_values(back, "--cpu-shares") == ["8192"]
    image = _image_index(back)
    assert back[image:] == [
        "nvcr.io/nvidia/tensorrtserver:19.02-py3",
        "trtserver",
        "--model-store=/local/models",  # Nomad's task directory where its docker driver mounts it
    ]
    assert "/local" in flag_values(back, "-v")


def test_tensorrt_device_constraint_reported_at_the_constraint() -> None:
    sample = ROOT / "samples" / "tensorrt.nomad.hcl"
    source = sample.read_text(encoding="utf-8")
    for target in ("docker", "compose"):
        _, diagnostics = render(source, target, sample.name, sample.parent)
        [constraint] = [d for d in diagnostics if d.code == "HG301" and "device constraint" in d.message]
        assert constraint.span is not None
        assert source[constraint.span.start : constraint.span.end].startswith("constraint")
        assert any(
            d.code == "HG302" and "count 1: docker takes the host's first GPUs" in d.message
            for d in diagnostics
        )


# --------------------------------------------------------------------------- a job using more features

FEATURES = """
job "features" {
  type = "batch"
  meta { owner = "ml" }

  group "g" {
    count = 2
    network {
      mode = "bridge"
      port "http" { to = 8080 }
      port "admin" {
        static = 9000
        to     = 9001
      }
    }
    restart {
      attempts = 5
      mode     = "fail"
    }

    task "setup" {
      driver = "docker"
      lifecycle { hook = "prestart" }
      config {
        image   = "busybox:1.36"
        command = "sh"
        args    = ["-c", "echo ready"]
      }
    }

    task "proxy" {
      driver = "docker"
      lifecycle {
        hook    = "prestart"
        sidecar = true
      }
      config { image = "envoyproxy/envoy:v1.30" }
    }

    task "main" {
      driver = "docker"
      user   = "1000:1000"
      config {
        image      = "nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04"
        entrypoint = ["/bin/sh", "-c"]
        command    = "nvidia-smi"
        args       = ["-L"]
        ports      = ["http", "admin"]
        shm_size   = 2147483648
        volumes    = ["/data/models:/models:ro"]
        privileged = true
        cap_add    = ["SYS_ADMIN"]
        work_dir   = "/work"
        sysctl     = { "net.core.somaxconn" = "1024" }
        ulimit {
          memlock = "-1"
          nofile  = "1024:4096"
        }
        labels { team = "gpu" }
      }
      kill_timeout = "45s"
      kill_signal  = "SIGINT"
      logs {
        max_files     = 3
        max_file_size = 20
      }
      service {
        name = "main"
        port = "http"
        check {
          type     = "script"
          command  = "/bin/health"
          args     = ["--quick"]
          interval = "30s"
          timeout  = "5s"
        }
      }
      resources {
        cpu        = 2500
        memory     = 4096
        memory_max = 8192
        device "nvidia/gpu" { count = 2 }
      }
    }

    task "announce" {
      driver = "docker"
      lifecycle { hook = "poststart" }
      config { image = "busybox:1.36" }
    }

    task "cleanup" {
      driver = "docker"
      lifecycle { hook = "poststop" }
      config { image = "busybox:1.36" }
    }

    task "native" {
      driver = "exec"
      config { command = "/bin/true" }
    }
  }

  group "pinned" {
    service {
      name = "cache"
      port = "6379"
      check {
        type     = "tcp"
        interval = "1500ms"
        timeout  = "1s"
      }
    }
    task "two-blocks" {
      driver = "podman"
      config {
        image       = "docker.io/library/python:3.12"
        mystery_key = "x"
      }
      resources {
        device "nvidia/gpu" {
          count = 2
          constraint {
            attribute = "${device.model}"
            value     = "NVIDIA A100"
          }
        }
        device "nvidia/gpu" { count = 1 }
      }
    }
  }

  group "accel" {
    task "neuron" {
      driver = "docker"
      config { image = "neuron:1" }
      resources {
        device "aws/neuron" { count = 2 }
      }
    }
    task "amd" {
      driver = "docker"
      config { image = "rocm/pytorch:latest" }
      resources {
        device "amd/gpu" { count = 2 }
      }
    }
    task "tpu" {
      driver = "docker"
      config { image = "tpu:1" }
      resources {
        device "google/tpu" { count = 1 }
      }
    }
  }
}
"""


def test_features_docker_lines() -> None:
    lines = argvs(FEATURES)
    assert list(lines) == [
        "g-proxy.sh",
        "g-setup.sh",
        "g-main.sh",
        "g-announce.sh",
        "g-cleanup.sh",
        "pinned-two-blocks.sh",
        "accel-neuron.sh",
        "accel-amd.sh",
        "accel-tpu.sh",
    ], "sidecars, prestart, main, poststart, poststop; the exec task is left out"
    main = lines["g-main.sh"]
    assert "-d" in main and "-d" not in lines["g-setup.sh"] and "-d" in lines["g-proxy.sh"]
    assert flag_values(main, "--gpus") == ["2"]
    assert flag_values(main, "--ulimit") == ["memlock=-1:-1", "nofile=1024:4096"]
    assert flag_values(main, "--shm-size") == ["2147483648"]
    assert flag_values(main, "-p") == ["8080", "9000:9001"]
    # Nomad's docker driver: CPU shares of the MHz, no quota; memory_max only with oversubscription
    assert flag_values(main, "--cpu-shares") == ["2500"] and flag_values(main, "--cpus") == []
    assert flag_values(main, "--memory") == ["4096m"] and flag_values(main, "--memory-reservation") == []
    assert flag_values(main, "--cap-drop") == ["NET_RAW"]
    out, _ = artifacts(FEATURES, "docker", memory_oversubscription=True)
    enabled = shlex.split(next(a.text for a in out if a.name == "g-main.sh"), comments=True)
    assert flag_values(enabled, "--memory") == ["8192m"]
    assert flag_values(enabled, "--memory-reservation") == ["4096m"]
    assert flag_values(main, "--restart") == ["on-failure:5"]
    assert flag_values(main, "--user") == ["1000:1000"]
    assert flag_values(main, "--sysctl") == ["net.core.somaxconn=1024"]
    assert flag_values(main, "-v") == ["/data/models:/models:ro"]
    assert flag_values(main, "--stop-timeout") == ["45"] and flag_values(main, "--stop-signal") == ["SIGINT"]
    assert flag_values(main, "--log-opt") == ["max-file=3", "max-size=20m"]
    assert flag_values(main, "--health-cmd") == ["/bin/health --quick"]
    assert flag_values(main, "--label")[:4] == [
        "io.hclgpu.job=features",
        "io.hclgpu.group=g",
        "io.hclgpu.task=main",
        "io.hclgpu.meta.owner=ml",
    ]
    assert "team=gpu" in flag_values(main, "--label")
    image = _image_index(main)
    assert flag_values(main, "--entrypoint") == ["/bin/sh"]
    assert main[image:] == ["nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04", "-c", "nvidia-smi", "-L"]
    assert flag_values(lines["g-setup.sh"], "--restart") == []
    pinned = lines["pinned-two-blocks.sh"]
    assert flag_values(pinned, "--gpus") == ["3"], "one count for the two blocks together"
    assert flag_values(lines["accel-neuron.sh"], "--device") == ["/dev/neuron0", "/dev/neuron1"]
    amd = lines["accel-amd.sh"]
    assert flag_values(amd, "--device") == ["/dev/kfd", "/dev/dri"]
    assert own_env(flag_values(amd, "-e")) == ["ROCR_VISIBLE_DEVICES=0,1"]
    assert flag_values(amd, "--group-add") == ["video"]
    assert (
        flag_values(lines["accel-tpu.sh"], "--gpus") == flag_values(lines["accel-tpu.sh"], "--device") == []
    )


def test_features_docker_diagnostics() -> None:
    _, diagnostics = render(FEATURES, "docker")
    messages = [(d.code, d.message) for d in diagnostics]

    def has(code: str, text: str) -> bool:
        return any(c == code and text in m for c, m in messages)

    assert has("HG301", 'task "native" uses the `exec` driver')
    assert has("HG301", "`mystery_key` in the podman config")
    assert has("HG301", "no way to pass `google/tpu`")
    assert has("HG301", "device constraint `${device.model} = NVIDIA A100`")
    assert has("HG302", "count 3: docker takes the host's first GPUs")
    twice = [d for d in diagnostics if d.code == "HG302" and "count 3: docker takes" in d.message]
    assert len(twice) == 2  # once for each block
    assert has("HG302", "count = 2")
    assert has("HG302", "poststop")
    assert has("HG302", "podman driver")
    assert has("HG302", "share one network namespace")
    assert has("HG302", "/dev/neuron0, /dev/neuron1")
    assert all(d.span is not None for d in diagnostics if d.code in ("HG301", "HG302"))


def test_features_compose() -> None:
    doc = compose(FEATURES)
    validate_compose(doc)
    services = doc["services"]
    assert list(services) == [
        "g-proxy",
        "g-setup",
        "g-main",
        "g-announce",
        "g-cleanup",
        "pinned-two-blocks",
        "accel-neuron",
        "accel-amd",
        "accel-tpu",
    ]
    main = services["g-main"]
    assert main["depends_on"] == {
        "g-proxy": {"condition": "service_started"},
        "g-setup": {"condition": "service_completed_successfully"},
    }
    assert services["g-announce"]["depends_on"] == {"g-main": {"condition": "service_started"}}
    assert services["g-cleanup"]["depends_on"] == {"g-main": {"condition": "service_completed_successfully"}}
    assert main["entrypoint"] == ["/bin/sh", "-c"] and main["command"] == ["nvidia-smi", "-L"]
    assert main["ulimits"] == {"memlock": {"soft": -1, "hard": -1}, "nofile": {"soft": 1024, "hard": 4096}}
    assert main["shm_size"] == 2147483648
    assert main["ports"] == ["8080", "9000:9001"]
    assert main["healthcheck"] == {
        "test": ["CMD", "/bin/health", "--quick"],
        "interval": "30s",
        "timeout": "5s",
        "retries": 1,
    }
    assert main["stop_grace_period"] == "45s" and main["stop_signal"] == "SIGINT"
    assert main["restart"] == "on-failure:5" and "restart" not in services["g-setup"]
    assert main["networks"] == ["g"] and doc["networks"] == {"g": {}, "pinned": {}, "accel": {}}
    assert main["sysctls"] == {"net.core.somaxconn": "1024"} and main["user"] == "1000:1000"
    assert main["logging"] == {"driver": "json-file", "options": {"max-file": "3", "max-size": "20m"}}
    assert main["cpu_shares"] == 2500 and main["cap_drop"] == ["NET_RAW"]
    assert main["deploy"] == {
        "replicas": 2,
        "resources": {
            "limits": {"memory": "4096m"},
            "reservations": {"devices": [{"driver": "nvidia", "count": 2, "capabilities": ["gpu"]}]},
        },
    }
    pinned = services["pinned-two-blocks"]
    [gpus] = pinned["deploy"]["resources"]["reservations"]["devices"]
    assert gpus == {"driver": "nvidia", "count": 3, "capabilities": ["gpu"]}
    tcp = pinned["healthcheck"]
    assert tcp["test"][0] == "CMD-SHELL" and "nc -z localhost 6379" in tcp["test"][1]
    assert tcp["interval"] == "1500ms"
    assert services["accel-neuron"]["devices"] == ["/dev/neuron0:/dev/neuron0", "/dev/neuron1:/dev/neuron1"]
    assert services["accel-amd"]["group_add"] == ["video"]


def test_compose_http_healthcheck_and_durations() -> None:
    doc = compose((ROOT / "samples" / "mixed-service.nomad.hcl").read_text(encoding="utf-8"))
    check = doc["services"]["api-api"]["healthcheck"]
    assert check["test"][0] == "CMD-SHELL"
    assert "curl -fs -o /dev/null http://localhost:8080/healthz" in check["test"][1]
    assert check["test"][1].endswith("|| exit 1")
    assert (check["interval"], check["timeout"]) == ("10s", "2s")
    trainer = compose((ROOT / "samples" / "distributed-training.nomad.hcl").read_text(encoding="utf-8"))
    service = trainer["services"]["trainer-torchrun"]
    assert service["stop_grace_period"] == "3m"
    assert service["restart"] == "on-failure:1"


SHARED_CONTAINER_PORT = """job "j" {
  group "g" {
    network {
      port "http" { to = 8001 }
      port "grpc" { to = 8001 }
      port "admin" {
        static = 9001
        to     = 8001
      }
    }
    task "t" {
      driver = "docker"
      config {
        image = "busybox"
        ports = ["http", "grpc", "admin"]
      }
    }
  }
}
"""
"""Two dynamic ports on one container port, and a static one on it too."""


def test_dynamic_ports_on_one_container_port_are_published_once() -> None:
    rendered, diagnostics = render(SHARED_CONTAINER_PORT, "compose")
    doc = yaml.safe_load(rendered)
    validate_compose(doc)  # compose-spec: the items of `ports` are unique
    assert doc["services"]["g-t"]["ports"] == ["8001", "9001:8001"]
    shared = [d for d in diagnostics if "one published port serves both" in d.message]
    assert [(d.code, d.message.split('"')[1]) for d in shared] == [("HG302", "grpc")]
    (argv,) = argvs(SHARED_CONTAINER_PORT).values()
    assert flag_values(argv, "-p") == ["8001", "9001:8001"]


REPEATED_ITEMS = {
    "cap_add": ("cap_add", "NET_ADMIN"),
    "cap_drop": ("cap_drop", "ALL"),
    "dns_servers": ("dns", "1.1.1.1"),
    "dns_options": ("dns_opt", "ndots:1"),
    "dns_search_domains": ("dns_search", "example.com"),
    "extra_hosts": ("extra_hosts", "db:10.0.0.2"),
    "group_add": ("group_add", "video"),
    "security_opt": ("security_opt", "no-new-privileges"),
    "volumes": ("volumes", "/data:/data"),
}
"""Driver-config lists given an item twice: their Compose key and the item."""


def test_items_repeated_in_lists_compose_requires_unique_are_listed_once() -> None:
    config = "".join(
        f'        {key} = ["{item}", "other", "{item}"]\n' for key, (_, item) in REPEATED_ITEMS.items()
    )
    text = SHARED_CONTAINER_PORT.replace(
        '        image = "busybox"\n', f'        image = "busybox"\n{config}'
    )
    rendered, diagnostics = render(text, "compose")
    doc = yaml.safe_load(rendered)
    validate_compose(doc)
    service = doc["services"]["g-t"]
    assert {key: service[key] for key, _ in REPEATED_ITEMS.values()} == {
        key: [item, "other"] for key, item in REPEATED_ITEMS.values()
    }
    repeated = [d.message for d in diagnostics if "more than once" in d.message]
    assert [m.split("`")[1] for m in repeated] == [key for key, _ in REPEATED_ITEMS.values()]
    (argv,) = argvs(text).values()
    assert flag_values(argv, "--cap-add") == ["NET_ADMIN", "other", "NET_ADMIN"]  # docker takes it


# --------------------------------------------------------------------------- adversarial values

ADVERSARIAL = [
    'it\'s "quoted" and \\ backslashed',
    "$HOME and ${NOMAD_TASK_DIR} and $$",
    "`uname -a` and $(id)",
    "semi; colon && amp || pipe | done",
    "new\nline and\ttab",
    "# not a comment",
    "glob * ? [a-z] ~user",
    "-starts-with-dash",
    "unicodé ✓ 中文",
    "key: value",
    "",
]


EXPECTED = [v.replace("${NOMAD_TASK_DIR}", "/local") for v in ADVERSARIAL]
"""What the task sees: Nomad interpolates its task directory in args and env (not in meta)."""


def _hcl_string(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return '"' + escaped.replace("${", "$${").replace("%{", "%%{") + '"'


def _adversarial_job() -> str:
    env = "\n".join(f"        V{i} = {_hcl_string(v)}" for i, v in enumerate(ADVERSARIAL))
    meta = "\n".join(f"    m{i} = {_hcl_string(v)}" for i, v in enumerate(ADVERSARIAL))
    args = ", ".join(_hcl_string(v) for v in ADVERSARIAL)
    return (
        f'job "adversarial" {{\n  meta {{\n{meta}\n  }}\n  group "g" {{\n    task "t" {{\n'
        f'      driver = "docker"\n      config {{\n        image = "busybox:1.36"\n'
        f"        args = [{args}]\n      }}\n"
        f"      env {{\n{env}\n      }}\n    }}\n  }}\n}}\n"
    )


def test_adversarial_values_round_trip_through_the_shell() -> None:
    [argv] = argvs(_adversarial_job()).values()
    env = dict(item.split("=", 1) for item in flag_values(argv, "-e"))
    assert env["NOMAD_TASK_NAME"] == "t" and env["NOMAD_TASK_DIR"] == "/local"  # as Nomad sets them
    assert {k: v for k, v in env.items() if not k.startswith("NOMAD_")} == {
        f"V{i}": v for i, v in enumerate(EXPECTED)
    }
    labels = dict(item.split("=", 1) for item in flag_values(argv, "--label"))
    assert {labels[f"io.hclgpu.meta.m{i}"] for i in range(len(ADVERSARIAL))} == set(ADVERSARIAL)
    assert argv[_image_index(argv) :] == ["busybox:1.36", *EXPECTED]


def test_adversarial_values_round_trip_through_compose() -> None:
    """Compose interpolates `$`: every `$` is written `$$`, which it reads back as one."""
    doc = compose(_adversarial_job())
    validate_compose(doc)
    [service] = doc["services"].values()

    def interpolated(value: str) -> str:
        return value.replace("$$", "$")

    own = {k: v for k, v in service["environment"].items() if not k.startswith("NOMAD_")}
    assert {k: interpolated(v) for k, v in own.items()} == {f"V{i}": v for i, v in enumerate(EXPECTED)}
    assert [interpolated(v) for v in service["command"]] == EXPECTED
    assert all("$" not in v.replace("$$", "") for v in service["environment"].values())


# --------------------------------------------------------------------------- templates


def test_a_template_that_changes_the_command_is_refused(tmp_path: Path) -> None:
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "run.sh.j2").write_text('{{ words[:-1] | join(" ") }}\n')
    job = (ROOT / "samples" / "tensorrt.nomad.hcl").read_text(encoding="utf-8")
    with pytest.raises(TemplateError, match="does not reproduce"):
        artifacts(job, "docker", templates=str(tmp_path))


def test_a_template_may_add_comments(tmp_path: Path) -> None:
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "run.sh.j2").write_text('# from {{ source }}\n{{ words | join(" ") }}\n')
    job = (ROOT / "samples" / "tensorrt.nomad.hcl").read_text(encoding="utf-8")
    out, _ = artifacts(job, "docker", templates=str(tmp_path))
    assert out[0].text.startswith("# from job.nomad.hcl\ndocker run ")


# --------------------------------------------------------------------------- a real daemon (optional)


def _docker_image() -> str:
    """A local image to create containers from; skips when there is no daemon or no image."""
    if shutil.which("docker") is None:
        pytest.skip("no docker CLI on PATH")
    info = subprocess.run(
        ["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True, text=True
    )
    if info.returncode != 0 or not info.stdout.strip():
        pytest.skip(f"no Docker daemon reachable (docker info: {info.stderr.strip()[:200]})")
    images = subprocess.run(
        ["docker", "images", "--format", "{{.Repository}}:{{.Tag}}"], capture_output=True, text=True
    )
    names = [n for n in images.stdout.split() if "<none>" not in n]
    if not names:
        pytest.skip("the Docker daemon has no local image to create a container from")
    return names[0]


def _inspect_created(argv: list[str], image: str, original_image: str) -> dict[str, Any]:
    """`docker create` the rendered command (local image, unique name, no --cpus: the daemon
    refuses more CPUs than the host has; no --runtime or --pull: this daemon has only runc and
    no registry), then
    `docker inspect` it and remove it."""
    argv = ["docker", "create", *[w for w in argv[2:] if w != "-d"]]
    at = argv.index(original_image)
    argv[at] = image
    if at == len(argv) - 1:
        argv.append("sh")  # the local image may have no CMD, and the task names none
    name = f"hclgpu-test-{uuid.uuid4().hex[:12]}"
    argv[argv.index("--name") + 1] = name
    for flag in ("--cpus", "--runtime", "--pull"):  # more CPUs than here; a runtime or registry absent
        if flag in argv:
            at = argv.index(flag)
            del argv[at : at + 2]
    created = subprocess.run(argv, capture_output=True, text=True)
    assert created.returncode == 0, created.stderr
    try:
        inspected = subprocess.run(["docker", "inspect", name], capture_output=True, text=True, check=True)
        result: dict[str, Any] = json.loads(inspected.stdout)[0]
        return result
    finally:
        subprocess.run(["docker", "rm", "-f", name], capture_output=True)


def test_docker_create_accepts_the_rendered_command() -> None:
    image = _docker_image()
    sample = ROOT / "samples" / "tensorrt.nomad.hcl"
    back = argvs(sample.read_text(encoding="utf-8"))["back-rtserver.sh"]
    inspected = _inspect_created(back, image, "nvcr.io/nvidia/tensorrtserver:19.02-py3")
    host = inspected["HostConfig"]
    [request] = host["DeviceRequests"]
    assert request["Count"] == 1 and not request["DeviceIDs"]  # no inventory: a count
    assert request["Capabilities"] == [["gpu"]]
    assert host["ShmSize"] == 1024 * 1024 * 1024
    assert {"Name": "memlock", "Soft": -1, "Hard": -1} in host["Ulimits"]
    assert host["Memory"] == 8192 * 1024 * 1024
    assert host["CpuShares"] == 8192 and not host["NanoCpus"]  # Nomad's shares, no quota
    assert host["CapDrop"] == ["CAP_NET_RAW"]  # as the daemon normalizes it
    assert inspected["Config"]["Healthcheck"]["Test"][0] == "CMD-SHELL"
    assert {m["Destination"] for m in inspected["Mounts"]} >= {"/local"}  # Nomad's task directory

    main = argvs(FEATURES)["g-main.sh"]
    inspected = _inspect_created(main, image, "nvcr.io/nvidia/cuda:12.4.0-base-ubuntu22.04")
    [request] = inspected["HostConfig"]["DeviceRequests"]
    assert request["Count"] == 2 and not request["DeviceIDs"]
    pinned = argvs(FEATURES)["pinned-two-blocks.sh"]
    inspected = _inspect_created(pinned, image, "docker.io/library/python:3.12")
    [request] = inspected["HostConfig"]["DeviceRequests"]
    assert request["Count"] == 3, "one count for the two blocks together"


BRIDGE = """
job "mesh" {
  group "web" {
    network {
      mode = "bridge"
      port "http" { to = 8080 }
      port "metrics" { to = 9090 }
    }
    service {
      name = "web"
      port = "metrics"
      task = "exporter"
    }
    task "app" {
      driver = "docker"
      config { image = "nginx:1.27" }
    }
    task "exporter" {
      driver = "docker"
      config { image = "nginx/nginx-prometheus-exporter:1.3" }
    }
  }
}
"""


def test_bridge_mode_ports_are_published_without_a_ports_list() -> None:
    """Nomad forwards bridge-mode group ports to every task; each goes to one container here."""
    lines = argvs(BRIDGE)
    assert flag_values(lines["web-app.sh"], "-p") == ["8080"]
    assert flag_values(lines["web-exporter.sh"], "-p") == ["9090"]
    _, diagnostics = render(BRIDGE, "compose")
    assert any(d.code == "HG302" and "bridge mode it reaches every task" in d.message for d in diagnostics)
    assert not any("published by no task" in d.message for d in diagnostics)


def test_a_job_without_container_tasks() -> None:
    """Nothing to run: no command lines, an empty but valid compose.yaml, and HG301 saying why."""
    job = 'job "x" {\n  group "g" {\n    task "t" {\n      driver = "exec"\n    }\n  }\n}\n'
    text, diagnostics = render(job, "docker")
    assert text == "" and any("`exec` driver" in d.message for d in diagnostics)
    doc = compose(job)
    validate_compose(doc)
    assert doc["services"] == {}


def test_a_volume_source_that_is_no_path_or_name_is_left_out() -> None:
    text = (
        'job "j" {\n  group "g" {\n    task "t" {\n      driver = "docker"\n      config {\n'
        '        image   = "busybox"\n        volumes = ["[[ .data ]]:/data", "cache:/cache"]\n'
        '        volume_driver = "local"\n      }\n    }\n  }\n}\n'
    )
    [argv] = argvs(text).values()
    assert "cache:/cache" in flag_values(argv, "-v") and not any("[[" in v for v in flag_values(argv, "-v"))
    _, diagnostics = render(text, "docker")
    assert any("neither a host path nor a volume name" in d.message for d in diagnostics if d.code == "HG301")


def test_a_relative_volume_source_is_in_the_task_directory() -> None:
    """Without `volume_driver`, a bare name is a path in the Nomad task directory
    (drivers/docker/driver.go:786-793 at v1.10.0), not a docker volume."""
    text = (
        'job "j" {\n  group "g" {\n    task "t" {\n      driver = "docker"\n      config {\n'
        '        image   = "busybox"\n        volumes = ["cache:/cache"]\n      }\n    }\n  }\n}\n'
    )
    [argv] = argvs(text).values()
    assert flag_values(argv, "-v") == []
    _, diagnostics = render(text, "docker")
    assert any("`cache` is a path in the Nomad task directory" in d.message for d in diagnostics)


def test_docker_create_accepts_every_rendered_line() -> None:
    """Every docker line of the samples and the public job files, created by a real daemon."""
    image = _docker_image()
    jobs = sorted((ROOT / "samples").glob("*.nomad.hcl")) + sorted(
        p for p in (ROOT / "tests" / "data" / "wild").iterdir() if p.suffix in (".hcl", ".nomad")
    )
    created = 0
    for path in jobs:
        result = compile_source(
            SourceFile(path.name, path.read_text(encoding="utf-8", errors="replace")),
            EvalOptions(VariableInputs(env={}), base_dir=path.parent),
        )
        if result.job is None:
            continue
        ctx = Lowering("docker", result.source, Sink(), registry.render_options("docker"))
        for artifact in registry.render(result.job, "docker", ctx):
            argv = shlex.split(artifact.text, comments=True)
            _inspect_created(argv, image, argv[_image_index(argv)])
            created += 1
    assert created >= 100, created


def test_a_lifecycle_script_says_when_it_runs_and_delay_restarts_are_approximated() -> None:
    """Each script is one command: a lifecycle task's says when to run it. A batch task in
    `mode = "delay"` restarts without end after waiting out the interval: plain on-failure,
    which keeps neither its `attempts` nor its `mode` (reported, not dropped)."""
    text = (
        'job "j" {\n  type = "batch"\n  group "g" {\n    restart {\n      attempts = 2\n'
        '      mode     = "delay"\n    }\n    task "init" {\n      driver = "docker"\n'
        '      lifecycle {\n        hook = "prestart"\n      }\n      config {\n        image = "busybox"\n'
        '      }\n    }\n    task "main" {\n      driver = "docker"\n      config {\n'
        '        image = "busybox"\n      }\n    }\n  }\n}\n'
    )
    out, diagnostics = artifacts(text, "docker")
    scripts = {a.name: a.text.splitlines() for a in out}
    assert (
        scripts["g-init.sh"][2]
        == "# prestart task: run it to completion before the main tasks of its group start"
    )
    assert scripts["g-main.sh"][2].startswith("docker run")
    assert "on-failure" in flag_values(shlex.split(out[1].text, comments=True), "--restart")
    [restart] = [d.message for d in diagnostics if d.message.startswith("restart ")]
    assert "`attempts`" in restart and "`mode`" in restart
