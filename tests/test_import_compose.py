"""`hclgpu import --from compose`: every sample survives compose → HCL → compose; a hand-written
ML serving stack imports to a reviewed job file with its findings; each mapping checked
against values written by hand; bad input fails with a location, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hclgpu.cli import main
from hclgpu.importers.common import Imported, ImportFailure, ImportOptions
from hclgpu.importers.compose import import_compose
from hclgpu.ir import models as m
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT, Golden
from tests.test_docker_compose import GOLDEN, SAMPLES, render, stem

SERVING = ROOT / "tests" / "data" / "import" / "compose" / "ml-serving.compose.yaml"


def compiled(hcl: str) -> m.Job:
    result = compile_source(SourceFile("j.hcl", hcl), checks=False)
    errors = [d.message for d in result.diagnostics if d.severity == "error"]
    assert result.job is not None and errors == [], errors
    return result.job


def asked(device: m.RequestedDevice) -> int:
    """How many devices a block asks for: an unset count is Nomad's default, one."""
    return 1 if device.count is None else device.count


def job_of(text: str) -> m.Job:
    return compiled(import_compose(text).hcl)


def task_of(text: str, group: int = 0, task: int = 0) -> m.Task:
    groups = job_of(text).task_groups or []
    return (groups[group].tasks or [])[task]


def found(imported: Imported) -> set[tuple[str, str]]:
    return {(d.pointer, d.code) for d in imported.dropped}


def service(body: str, name: str = "web") -> str:
    """A one-service compose file; ``body`` is the service's keys, indented by four."""
    return f"services:\n  {name}:\n    image: app:1\n{body}"


# ---------------------------------------------------------------- round trips


@pytest.mark.parametrize("sample", SAMPLES, ids=stem)
def test_a_sample_comes_back_as_the_same_compose_file(sample: Path) -> None:
    first, _ = render(sample.read_text(), "compose", name=sample.name)
    imported = import_compose(first)
    second, _ = render(imported.hcl, "compose", name=sample.name)
    assert second == first
    assert not [d for d in imported.dropped if d.code == "HG301"]


@pytest.mark.parametrize("sample", SAMPLES, ids=stem)
def test_a_sample_keeps_its_groups_tasks_and_gpus(sample: Path) -> None:
    original = compiled(sample.read_text())
    first, _ = render(sample.read_text(), "compose", name=sample.name)
    back = compiled(import_compose(first).hcl)
    assert back.id == original.id
    assert [g.name for g in back.task_groups or []] == [g.name for g in original.task_groups or []]
    for mine, theirs in zip(back.task_groups or [], original.task_groups or [], strict=True):
        assert [t.name for t in mine.tasks or []] == [t.name for t in theirs.tasks or []]
        for a, b in zip(mine.tasks or [], theirs.tasks or [], strict=True):
            assert a.resources is not None and b.resources is not None
            assert a.resources.memory_mb == b.resources.memory_mb
            wanted = [(d.name, asked(d)) for d in b.resources.devices or []]
            assert [(d.name, asked(d)) for d in a.resources.devices or []] == wanted


def test_the_lifecycle_comes_back_from_the_start_conditions() -> None:
    hcl = """
job "pipeline" {
  type = "batch"
  group "g" {
    task "proxy" {
      driver = "docker"
      lifecycle {
        hook    = "prestart"
        sidecar = true
      }
      config { image = "envoy:1" }
    }
    task "fetch" {
      driver = "docker"
      lifecycle { hook = "prestart" }
      config { image = "fetch:1" }
    }
    task "main" {
      driver = "docker"
      config { image = "main:1" }
    }
    task "announce" {
      driver = "docker"
      lifecycle { hook = "poststart" }
      config { image = "announce:1" }
    }
    task "upload" {
      driver = "docker"
      lifecycle { hook = "poststop" }
      config { image = "upload:1" }
    }
  }
}
"""
    first, _ = render(hcl, "compose")
    tasks = (compiled(import_compose(first).hcl).task_groups or [])[0].tasks or []
    hooks = {t.name: (t.lifecycle.hook, t.lifecycle.sidecar) if t.lifecycle else None for t in tasks}
    assert hooks == {
        "proxy": ("prestart", True),
        "fetch": ("prestart", False),
        "main": None,
        "announce": ("poststart", False),
        "upload": ("poststop", False),
    }
    assert render(import_compose(first).hcl, "compose")[0] == first


# ---------------------------------------------------------------- the real-world golden


def test_the_ml_serving_stack(
    golden: Golden, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reviewed job file on stdout, every finding on stderr at its line in the input."""
    monkeypatch.chdir(ROOT)
    assert main(["import", str(SERVING.relative_to(ROOT)), "--from", "compose"]) == 0
    out, err = capsys.readouterr()
    expected = GOLDEN / "import" / "compose" / "ml-serving.compose.nomad.hcl"
    golden(expected, out)
    golden(GOLDEN / "import" / "compose" / "ml-serving.compose.findings.txt", err)
    assert main(["check", str(expected)]) == 0


def test_the_ml_serving_stack_by_hand() -> None:
    job = job_of(SERVING.read_text())
    groups = {g.name: g for g in job.task_groups or []}
    assert list(groups) == ["triton", "vllm", "reranker", "redis", "prometheus", "dashboard"]
    vllm_group = groups["vllm"]
    fetch, vllm = vllm_group.tasks or []
    assert fetch.name == "model-fetch" and fetch.lifecycle is not None and fetch.lifecycle.hook == "prestart"
    assert vllm.resources is not None and (vllm.resources.memory_mb, vllm.resources.memory_max_mb) == (
        32768,
        49152,
    )
    assert (vllm.kill_signal, vllm.kill_timeout) == ("SIGINT", 60_000_000_000)
    assert (vllm.env or {})["VLLM_LOGGING_LEVEL"] == "INFO"
    findings = found(import_compose(SERVING.read_text()))
    assert ("/services/dashboard/build", "HG301") in findings
    assert ("/services/vllm/depends_on/redis", "HG301") in findings
    assert ("/services/reranker/deploy/resources/reservations/devices/0/device_ids", "HG302") in findings
    # plain named volumes need no declaration: the docker driver creates one where it is mounted
    assert not [f for f in findings if f[0].startswith("/volumes")]


def test_a_volume_with_settings_and_a_tmpfs_are_reported_but_task_dirs_are_nomads() -> None:
    text = (
        "services:\n  app:\n    image: busybox\n"
        "    volumes: [data:/data, job-g-alloc:/alloc, /local]\n    tmpfs: [/secrets, /scratch]\n"
        "volumes:\n  data: {driver: local, driver_opts: {type: nfs}}\n  job-g-alloc: {}\n"
    )
    imported = import_compose(text)
    findings = found(imported)
    assert ("/volumes/data", "HG301") in findings and ("/volumes/job-g-alloc", "HG301") not in findings
    assert ("/services/app/tmpfs/1", "HG301") in findings  # /scratch
    assert ("/services/app/tmpfs/0", "HG301") not in findings  # /secrets: Nomad's secrets directory
    assert 'volumes = ["data:/data"]' in imported.hcl  # /alloc and /local are Nomad's own mounts


# ---------------------------------------------------------------- mappings, by hand


def test_cpus_and_memory() -> None:
    text = service(
        "    deploy:\n      resources:\n        limits: {cpus: '2.5', memory: 491520m}\n"
        "        reservations: {memory: 1g}\n"
    )
    resources = task_of(text).resources
    assert resources is not None
    assert (resources.cpu, resources.memory_mb, resources.memory_max_mb) == (2500, 1024, 491520)
    slow = compiled(import_compose(text, ImportOptions(cpu_mhz_per_core=2000)).hcl)
    slow_resources = ((slow.task_groups or [])[0].tasks or [])[0].resources
    assert slow_resources is not None and slow_resources.cpu == 5000


def test_no_memory_limit_is_reported() -> None:
    assert ("/services/web", "HG302") in found(import_compose(service("")))


@pytest.mark.parametrize(
    ("request_yaml", "count", "finding"),
    [
        ("{driver: nvidia, count: 2, capabilities: [gpu]}", 2, None),
        ("{driver: nvidia, count: all, capabilities: [gpu]}", 1, "/0"),
        ("{driver: nvidia, device_ids: ['0', '1'], capabilities: [gpu]}", 2, None),
        ("{driver: nvidia, device_ids: ['2', '5'], capabilities: [gpu]}", 2, "/0/device_ids"),
        ("{capabilities: [gpu]}", 1, "/0"),
    ],
)
def test_gpu_reservations(request_yaml: str, count: int, finding: str | None) -> None:
    reservations = "    deploy:\n      resources:\n        reservations:\n"
    text = service(f"{reservations}          devices: [{request_yaml}]\n")
    resources = task_of(text).resources
    assert resources is not None
    assert [(d.name, asked(d)) for d in resources.devices or []] == [("nvidia/gpu", count)]
    assert all(d.count != 1 for d in resources.devices or []), "count = 1 is Nomad's default: not written"
    base = "/services/web/deploy/resources/reservations/devices"
    gpu_findings = {p for p, _ in found(import_compose(text)) if p.startswith(base)}
    assert gpu_findings == ({base + finding} if finding else set())


def test_gpu_uuids_are_kept_as_a_device_ids_constraint() -> None:
    text = service(
        "    deploy:\n      resources:\n        reservations:\n          devices:\n"
        "            - {driver: nvidia, device_ids: [GPU-8a1e, GPU-77f0], capabilities: [gpu]}\n"
    )
    resources = task_of(text).resources
    assert resources is not None
    (device,) = resources.devices or []
    assert device.count == 2
    (constraint,) = device.constraints or []
    assert (constraint.l_target, constraint.operand, constraint.r_target) == (
        "${device.ids}",
        "set_contains_any",
        "GPU-8a1e,GPU-77f0",
    )


def test_a_non_nvidia_device_request_is_left_out() -> None:
    text = service(
        "    deploy:\n      resources:\n        reservations:\n          devices: [{capabilities: [tpu]}]\n"
    )
    assert ("/services/web/deploy/resources/reservations/devices/0", "HG301") in found(import_compose(text))


def test_ports_short_and_long() -> None:
    text = service(
        "    ports:\n      - '8888:5000'\n      - '9000'\n"
        "      - {target: 7000, published: '7001', name: grpc}\n"
    )
    job = job_of(text)
    group = (job.task_groups or [])[0]
    (network,) = group.networks or []
    reserved = {(p.label, p.value, p.to) for p in network.reserved_ports or []}
    dynamic = {(p.label, p.value, p.to) for p in network.dynamic_ports or []}
    assert reserved == {("port_5000", 8888, 5000), ("grpc", 7001, 7000)}
    assert dynamic == {("port_9000", 0, 9000)}
    assert ((group.tasks or [])[0].config or {})["ports"] == ["port_5000", "port_9000", "grpc"]


def test_a_udp_port_is_approximated() -> None:
    assert ("/services/web/ports/0", "HG302") in found(import_compose(service("    ports: ['53:53/udp']\n")))


def test_shm_size_and_ulimits() -> None:
    text = service(
        "    shm_size: 2gb\n    ulimits:\n      memlock: -1\n      nofile: {soft: 1024, hard: 65536}\n"
    )
    config = task_of(text).config or {}
    assert config["shm_size"] == 2147483648
    assert config["ulimit"] == [{"memlock": "-1", "nofile": "1024:65536"}]


def test_environment_in_both_forms_and_dollars() -> None:
    listed = task_of(service("    environment:\n      - A=1\n      - B=x=y\n      - PRICE=$$5\n"))
    assert listed.env == {"A": "1", "B": "x=y", "PRICE": "$5"}
    mapped = task_of(service("    environment:\n      A: 1\n      DEBUG: true\n"))
    assert mapped.env == {"A": "1", "DEBUG": "true"}


def test_compose_variables() -> None:
    text = service("    environment:\n      LEVEL: ${LEVEL:-info}\n      TOKEN: ${TOKEN}\n      NONE:\n")
    imported = import_compose(text)
    assert compiled(imported.hcl).task_groups[0].tasks[0].env == {  # type: ignore[index]
        "LEVEL": "info",
        "TOKEN": "${TOKEN}",
    }
    assert {
        ("/services/web/environment/LEVEL", "HG302"),
        ("/services/web/environment/TOKEN", "HG302"),
        ("/services/web/environment/NONE", "HG301"),
    } <= found(imported)


def test_command_and_entrypoint() -> None:
    task = task_of(service("    entrypoint: [/bin/tini, --]\n    command: python -m 'my mod' --port=80\n"))
    config = task.config or {}
    assert config["entrypoint"] == ["/bin/tini", "--"]
    assert (config["command"], config["args"]) == ("python", ["-m", "my mod", "--port=80"])
    flags = task_of(service("    command: --model /m --port 80\n")).config or {}
    assert "command" not in flags and flags["args"] == ["--model", "/m", "--port", "80"]


def test_one_to_one_options() -> None:
    text = service(
        "    working_dir: /srv\n    user: '1000:1000'\n    privileged: true\n    cap_add: [SYS_ADMIN]\n"
        "    cap_drop: [ALL]\n    ipc: host\n    read_only: false\n"
    )
    task = task_of(text)
    assert task.user == "1000:1000"
    config = task.config or {}
    assert {k: config.get(k) for k in ("work_dir", "privileged", "cap_add", "cap_drop", "ipc_mode")} == {
        "work_dir": "/srv",
        "privileged": True,
        "cap_add": ["SYS_ADMIN"],
        "cap_drop": ["ALL"],
        "ipc_mode": "host",
    }
    assert "readonly_rootfs" not in config


def test_labels_meta_and_stop() -> None:
    text = service(
        "    labels:\n      io.hclgpu.meta.team: ml\n      com.acme.tier: gold\n"
        "    stop_signal: SIGINT\n    stop_grace_period: 1m30s\n"
    )
    job = job_of(text)
    task = (job.task_groups or [])[0].tasks or []
    assert job.meta == {"team": "ml"}
    assert (task[0].config or {})["labels"] == {"com.acme.tier": "gold"}
    assert (task[0].kill_signal, task[0].kill_timeout) == ("SIGINT", 90_000_000_000)


@pytest.mark.parametrize(
    ("test", "kind", "command"),
    [
        (
            '["CMD-SHELL", "curl -fs -o /dev/null http://localhost:80/up || wget -q -O /dev/null '
            'http://localhost:80/up || exit 1"]',
            "http",
            "",
        ),
        (
            '["CMD-SHELL", "nc -z localhost 80 || bash -c \\"exec 3<>/dev/tcp/localhost/80\\" || exit 1"]',
            "tcp",
            "",
        ),
        ('["CMD", "redis-cli", "ping"]', "script", "redis-cli"),
        ('["CMD-SHELL", "pg_isready -U app | grep -q accepting"]', "script", "/bin/sh"),
    ],
)
def test_healthchecks(test: str, kind: str, command: str) -> None:
    text = service(f"    ports: ['80']\n    healthcheck:\n      test: {test}\n      interval: 5s\n")
    (svc,) = task_of(text).services or []
    (check,) = svc.checks or []
    assert (check.type, check.command, check.interval) == (kind, command, 5_000_000_000)
    assert check.timeout == 30_000_000_000  # Docker's default
    if kind == "http":
        assert (svc.port_label, check.path) == ("port_80", "/up")


def test_restart_makes_the_job_type() -> None:
    batch = job_of(service("    restart: on-failure:4\n"))
    assert batch.type == "batch"
    group = (batch.task_groups or [])[0]
    assert group.restart_policy is not None and group.restart_policy.attempts == 4
    assert job_of(service("    restart: unless-stopped\n")).type == "service"
    assert job_of(service("")).type == "service"


def test_depends_on_a_one_shot_service_is_a_prestart_task() -> None:
    text = (
        "services:\n  fetch:\n    image: fetch:1\n  web:\n    image: web:1\n    depends_on:\n"
        "      fetch: {condition: service_completed_successfully}\n  db:\n    image: db:1\n"
    )
    job = job_of(text)
    assert [g.name for g in job.task_groups or []] == ["web", "db"]
    fetch, web = (job.task_groups or [])[0].tasks or []
    hook = (fetch.lifecycle.hook, fetch.lifecycle.sidecar) if fetch.lifecycle else None
    assert hook == ("prestart", False)
    assert web.lifecycle is None


def test_without_labels_each_service_is_a_group_named_after_it() -> None:
    job = job_of("name: shop\nservices:\n  a:\n    image: a:1\n  b:\n    image: b:1\n")
    assert job.id == "shop"
    assert [(g.name, [t.name for t in g.tasks or []]) for g in job.task_groups or []] == [
        ("a", ["a"]),
        ("b", ["b"]),
    ]
    assert job_of("services:\n  a:\n    image: a:1\n").id == "compose"


@pytest.mark.parametrize(
    "key",
    [
        "build: .",
        "container_name: x",
        "env_file: .env",
        "secrets: [s]",
        "expose: ['80']",
        "platform: linux/amd64",
        "tmpfs: /run",
        "extends: {service: base}",
        "profiles: [debug]",
        "networks: [front]",
        "network_mode: 'service:db'",
    ],
)
def test_every_untranslated_key_is_reported_where_it_is(key: str) -> None:
    name = key.split(":")[0]
    assert (f"/services/web/{name}", "HG301") in found(import_compose(service(f"    {key}\n")))


def test_top_level_keys_without_a_nomad_form_are_reported() -> None:
    imported = import_compose(service("") + "secrets:\n  s: {file: ./s}\nx-anchors: {a: 1}\n")
    assert ("/secrets", "HG301") in found(imported)
    assert not any(p.startswith("/x-anchors") for p, _ in found(imported))


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("text", "directory", "image"),
    [
        ("services:\n  web:\n    build: .\n", None, "compose-web"),
        ("services:\n  web:\n    build: .\n", "My_App.v2", "my_appv2-web"),
        ("name: Shop\nservices:\n  web:\n    build: .\n", "ignored", "shop-web"),
        ("services:\n  web:\n    build: .\n", "--x", "x-web"),
    ],
)
def test_a_built_service_runs_the_image_compose_would_tag(
    text: str, directory: str | None, image: str
) -> None:
    """`docker compose build` tags a service's image <project>-<service> (project: the file's
    `name`, else its directory, lower case and only a-z0-9_-); the job runs that image."""
    imported = import_compose(text, ImportOptions(directory=directory))
    assert f'image = "{image}"' in imported.hcl
    (note,) = [d for d in imported.dropped if d.pointer == "/services/web/build"]
    assert note.code == "HG302" and f"the job runs `{image}`" in note.message


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("services: [\n", 2, "not valid YAML"),
        ("- a\n- b\n", 1, "expected a Compose file"),
        ("name: x\n", 1, "no `services`"),
        ("services: {}\n", 1, "`services` must be a mapping"),
        ("services:\n  web: 3\n", 2, "must be a mapping"),
        ("services:\n  web:\n    image: ''\n", 3, "no `image`"),
        ("services: {a: {image: x}}\n---\nservices: {}\n", 1, "one YAML document"),
        ("", None, "empty"),
    ],
)
def test_bad_input_fails_with_a_location(text: str, line: int | None, words: str) -> None:
    with pytest.raises(ImportFailure) as caught:
        import_compose(text)
    assert words in str(caught.value)
    assert caught.value.line == line


def test_the_cli_reports_bad_yaml_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "compose.yaml"
    source.write_text("services:\n  web:\n    image: [\n")
    out = tmp_path / "job.nomad.hcl"
    assert main(["import", str(source), "--from", "compose", "-o", str(out)]) == 1
    assert re.search(rf"^{re.escape(str(source))}:\d+:\d+: error: ", capsys.readouterr().err, re.M)
    assert not out.exists()


def test_the_cli_warns_at_the_line_of_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "compose.yaml"
    source.write_text("services:\n  web:\n    image: app:1\n    build: .\n")
    assert main(["import", str(source), "--from", "compose"]) == 0
    captured = capsys.readouterr()
    assert f"{source}:4:12: warning: HG301: " in captured.err
    assert captured.out.startswith('job "compose" {')


_SEEDS = [
    SERVING.read_text(),
    service("    ports: ['80']\n    healthcheck: {test: curl -f http://localhost/}\n"),
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_SEEDS), st.integers(0, 10_000), st.text(max_size=40))
def test_truncated_or_mangled_input_fails_cleanly_or_compiles(seed: str, cut: int, noise: str) -> None:
    text = seed[: cut % (len(seed) + 1)] + noise
    try:
        imported = import_compose(text)
    except ImportFailure:
        return
    compiled(imported.hcl)


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=12,
    )
)
def test_any_value_under_a_service_key_fails_cleanly_or_compiles(value: object) -> None:
    import yaml

    keys = ["ports", "deploy", "healthcheck", "environment", "ulimits", "devices", "command", "logging"]
    for key in keys:
        text = yaml.safe_dump({"services": {"web": {"image": "app:1", key: value}}})
        try:
            imported = import_compose(text)
        except ImportFailure:
            continue
        compiled(imported.hcl)


def test_compose_scalars_are_read_as_yaml_1_2() -> None:
    """Compose's parser is YAML 1.2: `ON` is text and `1:20` a port mapping, not base-60 80."""
    job = job_of(service("    environment:\n      MODE: ON\n    ports:\n      - 1:20\n"))
    (task,) = (job.task_groups or [])[0].tasks or []
    assert task.env == {"MODE": "ON"}
    (network,) = (job.task_groups or [])[0].networks or []
    assert [(p.value, p.to) for p in network.reserved_ports or []] == [(1, 20)]


HUGE = 10**30


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        (f"    deploy:\n      replicas: {HUGE}\n", "/services/web/deploy/replicas"),
        (
            f"    deploy:\n      resources:\n        limits:\n          memory: {HUGE}\n",
            "/services/web/deploy/resources/limits/memory",
        ),
        (
            f"    healthcheck:\n      test: [CMD, x]\n      retries: {HUGE}\n",
            "/services/web/healthcheck/retries",
        ),
        (
            f"    logging:\n      driver: json-file\n      options:\n        max-file: '{HUGE}'\n",
            "/services/web/logging/options/max-file",
        ),
        (
            f"    deploy:\n      resources:\n        reservations:\n          devices:\n"
            f"            - {{driver: nvidia, count: {HUGE}, capabilities: [gpu]}}\n",
            "/services/web/deploy/resources/reservations/devices/0/count",
        ),
    ],
)
def test_numbers_beyond_any_nomad_field_are_reported_not_written(body: str, pointer: str) -> None:
    """The job file must still compile: an out-of-range number is a finding, not an int64 overflow."""
    imported = import_compose(service(body))
    compiled(imported.hcl)
    assert str(HUGE) not in imported.hcl
    assert (pointer, "HG301") in {(d.pointer, d.code) for d in imported.dropped}
