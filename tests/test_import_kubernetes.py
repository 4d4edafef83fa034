"""`hclgpu import --from kubernetes`: manifests back to a job file.

Every sample rendered to Kubernetes (both device modes), imported and rendered again gives
the same manifests; hand-written real-world manifests import to reviewed HCL (goldens) with
every field that HCL cannot carry reported at its line; each mapping is tested on its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from hclgpu.backends import registry
from hclgpu.backends.target import Lowering
from hclgpu.cli import main
from hclgpu.codes import Severity
from hclgpu.diagnostics import Sink
from hclgpu.importers.common import ImportFailure, locate
from hclgpu.importers.kubernetes import import_kubernetes
from hclgpu.importers.kubernetes.cel import DeviceTest, parse_selector, unquote
from hclgpu.importers.kubernetes.devices import _order, _weights, label_tests
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from hclgpu.units.quantities import quantity
from tests.conftest import ROOT, Golden
from tests.test_k8s_render import render

SAMPLES = sorted((ROOT / "samples").glob("*.hcl"))
REAL_WORLD = sorted((ROOT / "tests" / "data" / "import" / "kubernetes").iterdir())
GOLDEN = ROOT / "tests" / "golden" / "import" / "kubernetes"


def _job(text: str) -> dict[str, Any]:
    """The imported job, compiled back (it must compile without errors)."""
    imported = import_kubernetes(text)
    result = compile_source(SourceFile("j.nomad.hcl", imported.hcl), checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]
    dumped: dict[str, Any] = result.job.model_dump(by_alias=True, exclude_none=True, exclude={"span"})
    return dumped


def _manifest(kind: str = "Deployment", pod: dict[str, Any] | None = None, **spec: Any) -> str:
    container = {"name": "app", "image": "busybox"}
    pod_spec = {"containers": [container], **(pod or {})}
    body: dict[str, Any] = {"template": {"metadata": {"labels": {"app": "web"}}, "spec": pod_spec}, **spec}
    if kind == "Pod":
        body = pod_spec
    return json.dumps({"apiVersion": "apps/v1", "kind": kind, "metadata": {"name": "web"}, "spec": body})


def _container(**fields: Any) -> dict[str, Any]:
    return {"containers": [{"name": "app", "image": "busybox", **fields}]}


def _task(text: str) -> dict[str, Any]:
    task: dict[str, Any] = _job(text)["TaskGroups"][0]["Tasks"][0]
    return task


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("mode", ["plugin", "dra"])
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sample_round_trip(sample: Path, mode: str) -> None:
    """render → import → render gives the same manifests, byte for byte."""
    first, _ = render(sample.read_text(), sample.name, mode)
    imported = import_kubernetes(first)
    second, _ = render(imported.hcl, sample.name, mode)
    assert second == first
    assert not [d for d in imported.dropped if d.code == "HG301"]


# --------------------------------------------------------------------------- real-world goldens


@pytest.mark.parametrize("path", REAL_WORLD, ids=lambda p: p.name)
def test_real_world_manifest_imports_to_the_golden(
    path: Path, golden: Golden, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    relative = str(path.relative_to(ROOT))
    assert main(["import", relative, "--from", "kubernetes"]) == 0
    out, err = capsys.readouterr()
    golden(GOLDEN / f"{path.stem}.nomad.hcl", out)
    golden(GOLDEN / f"{path.stem}.findings.txt", err)
    result = compile_source(SourceFile("imported.nomad.hcl", out))
    assert result.job is not None
    assert [d.message for d in result.diagnostics if d.severity is Severity.ERROR] == []


def test_operator_style_deployment_maps_gfd_labels_to_the_device() -> None:
    text = (ROOT / "tests/data/import/kubernetes/gpu-operator-inference.yaml").read_text()
    group = _job(text)["TaskGroups"][0]
    device = group["Tasks"][0]["Resources"]["Devices"][0]
    assert (device["Name"], device.get("Count")) == ("nvidia/gpu", None)  # count = 1 is the default
    tests = [(c["LTarget"], c["Operand"], c["RTarget"]) for c in device["Constraints"]]
    assert ("${device.attr.memory}", ">=", "40 GiB") in tests  # Gt 40959 MiB
    # GFD's products of models on record are their NVML names (units/gpu_names.py)
    assert tests[0][1] == "regexp" and "|NVIDIA H100 80GB HBM3)$" in tests[0][2]
    assert device["Affinities"] == [
        {
            "LTarget": "${device.attr.driver_version}",
            "RTarget": ">= 550.0",
            "Operand": "version",
            "Weight": 80,
        }
    ]
    node = [(c["LTarget"], c["RTarget"]) for c in group["Constraints"]]
    assert node == [("${meta.nvidia.com/gpu.present}", "true"), ("${attr.cpu.arch}", "amd64")]


def test_pytorch_job_keeps_gpus_shm_and_restarts() -> None:
    job = _job((ROOT / "tests/data/import/kubernetes/pytorch-ddp-job.json").read_text())
    assert (job["Type"], job["Namespace"]) == ("batch", "research")
    group = job["TaskGroups"][0]
    assert group["RestartPolicy"]["Attempts"] == 2
    assert group["EphemeralDisk"]["SizeMB"] == 500 * 1024
    task = group["Tasks"][0]
    assert task["Resources"]["Devices"][0]["Count"] == 8
    assert task["Resources"]["Cores"] == 96
    assert task["Config"]["shm_size"] == 64 * 2**30
    assert task["Config"]["entrypoint"] == ["torchrun"]
    assert "WANDB_API_KEY" not in task["Env"]


# --------------------------------------------------------------------------- mappings


def test_workload_kinds_choose_the_job_type() -> None:
    assert _job(_manifest("Deployment", replicas=3))["Type"] == "service"
    assert _job(_manifest("Deployment", replicas=3))["TaskGroups"][0]["Count"] == 3
    assert _job(_manifest("DaemonSet"))["Type"] == "system"
    assert _job(_manifest("Job", parallelism=4, backoffLimit=0))["TaskGroups"][0]["Count"] == 4
    assert _job(_manifest("Pod", {"restartPolicy": "Never"}))["Type"] == "batch"
    assert _job(_manifest("Pod"))["Type"] == "service"
    suspended = _job(_manifest("Job", suspend=True))
    assert "ParameterizedJob" in suspended


def test_cron_job_is_periodic() -> None:
    text = json.dumps(
        {
            "apiVersion": "batch/v1",
            "kind": "CronJob",
            "metadata": {"name": "nightly"},
            "spec": {
                "schedule": "0 3 * * *",
                "timeZone": "Europe/Paris",
                "concurrencyPolicy": "Forbid",
                "suspend": True,
                "jobTemplate": {"spec": {"template": {"spec": _container()}}},
            },
        }
    )
    periodic = _job(text)["Periodic"]
    assert periodic["Specs"] == ["0 3 * * *"]
    assert (periodic["TimeZone"], periodic["ProhibitOverlap"], periodic["Enabled"]) == (
        "Europe/Paris",
        True,
        False,
    )


def test_resources_become_mhz_mib_and_devices() -> None:
    task = _task(
        _manifest(
            pod=_container(
                resources={
                    "requests": {"cpu": "500m", "memory": "1Gi", "amd.com/gpu": 2},
                    "limits": {"memory": "1536Mi", "amd.com/gpu": 2},
                }
            )
        )
    )
    resources = task["Resources"]
    assert (resources["CPU"], resources["MemoryMB"], resources["MemoryMaxMB"]) == (500, 1024, 1536)
    assert resources["Devices"] == [{"Name": "amd/gpu", "Count": 2}]


def test_equal_cpu_limit_is_a_hard_limit_and_whole_cores_are_cores() -> None:
    hard = _task(
        _manifest(pod=_container(resources={"requests": {"cpu": "1500m"}, "limits": {"cpu": "1500m"}}))
    )
    assert hard["Config"]["cpu_hard_limit"] is True and hard["Resources"]["CPU"] == 1500
    cores = _task(_manifest(pod=_container(resources={"requests": {"cpu": "2"}, "limits": {"cpu": "2"}})))
    assert cores["Resources"]["Cores"] == 2


def test_command_args_env_and_security_context() -> None:
    task = _task(
        _manifest(
            pod=_container(
                args=["serve", "--port=80"],
                env=[
                    {"name": "A", "value": "1"},
                    {"name": "N", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
                ],
                securityContext={
                    "privileged": True,
                    "runAsUser": 1000,
                    "runAsGroup": 10,
                    "capabilities": {"drop": ["ALL"]},
                },
                workingDir="/srv",
                imagePullPolicy="Always",
            )
        )
    )
    config = task["Config"]
    assert (config["command"], config["args"], config["work_dir"]) == ("serve", ["--port=80"], "/srv")
    assert (config["privileged"], config["cap_drop"], config["force_pull"]) == (True, ["ALL"], True)
    assert task["Env"] == {"A": "1", "N": "${node.unique.name}"}
    assert task["User"] == "1000:10"


def test_service_ports_and_probes_become_services_and_checks() -> None:
    pod = _container(
        ports=[{"name": "web", "containerPort": 8080}],
        readinessProbe={"httpGet": {"path": "/ready", "port": 8080, "scheme": "HTTPS"}, "periodSeconds": 7},
        livenessProbe={"tcpSocket": {"port": "web"}, "failureThreshold": 4, "initialDelaySeconds": 20},
    )
    service = {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": "web"},
        "spec": {"selector": {"app": "web"}, "ports": [{"port": 80, "targetPort": "web"}]},
    }
    group = _job(_manifest(pod=pod) + "\n---\n" + json.dumps(service))["TaskGroups"][0]
    (port,) = group["Networks"][0]["ReservedPorts"]
    assert (port["Label"], port["Value"], port["To"]) == ("web", 80, 8080)
    (svc,) = group["Services"]
    assert (svc["Name"], svc["PortLabel"]) == ("web", "web")
    ready, live = svc["Checks"]
    assert (ready["Type"], ready["Path"], ready["Protocol"], ready["Interval"]) == (
        "http",
        "/ready",
        "https",
        7 * 10**9,
    )
    assert (live["Type"], live["CheckRestart"]["Limit"], live["CheckRestart"]["Grace"]) == (
        "tcp",
        4,
        20 * 10**9,
    )


def test_init_containers_are_prestart_tasks() -> None:
    pod = {
        "initContainers": [
            {"name": "proxy", "image": "envoy", "restartPolicy": "Always"},
            {"name": "migrate", "image": "app", "args": ["migrate"]},
        ],
        **_container(),
    }
    tasks = _job(_manifest(pod=pod))["TaskGroups"][0]["Tasks"]
    assert [(t["Name"], t.get("Lifecycle", {}).get("Sidecar")) for t in tasks] == [
        ("proxy", True),
        ("migrate", False),
        ("app", None),
    ]


def test_config_map_mounts_become_templates() -> None:
    config_map = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "cfg"},
        "data": {"a.conf": "x=1\n"},
    }
    pod = {
        **_container(volumeMounts=[{"name": "c", "mountPath": "/etc/app/a.conf", "subPath": "a.conf"}]),
        "volumes": [{"name": "c", "configMap": {"name": "cfg"}}],
    }
    task = _task(json.dumps(config_map) + "\n---\n" + _manifest(pod=pod))
    assert task["Templates"][0]["EmbeddedTmpl"] == "x=1\n"
    assert task["Templates"][0]["DestPath"] == "local/a.conf"
    assert task["Config"]["volumes"] == ["local/a.conf:/etc/app/a.conf"]


def test_node_affinity_operators() -> None:
    expressions = [
        {"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
        {"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["a", "b"]},
        {"key": "node.kubernetes.io/instance-type", "operator": "NotIn", "values": ["t3"]},
        {"key": "rack", "operator": "Exists"},
        {"key": "cores", "operator": "Gt", "values": ["8"]},
    ]
    affinity = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchExpressions": expressions}]
            }
        }
    }
    constraints = _job(_manifest(pod={"affinity": affinity}))["TaskGroups"][0]["Constraints"]
    assert [(c["LTarget"], c["Operand"], c["RTarget"]) for c in constraints] == [
        ("${attr.kernel.name}", "=", "linux"),
        ("${node.datacenter}", "set_contains_any", "a,b"),
        ("${node.class}", "!=", "t3"),
        ("${meta.rack}", "is_set", ""),
        ("${meta.cores}", ">", "8"),
    ]


@pytest.mark.parametrize(
    ("expression", "tests"),
    [
        (
            {"key": "nvidia.com/gpu.memory", "operator": "Gt", "values": ["4095"]},
            [("${device.attr.memory}", ">=", "4 GiB")],
        ),
        (
            {"key": "nvidia.com/gpu.memory", "operator": "Lt", "values": ["24000"]},
            [("${device.attr.memory}", "<", "24000 MiB")],
        ),
        (
            {"key": "nvidia.com/gpu.memory", "operator": "In", "values": ["16384"]},
            [("${device.attr.memory}", "=", "16 GiB")],
        ),
        (
            {"key": "nvidia.com/gpu.memory", "operator": "DoesNotExist"},
            [("${device.attr.memory}", "is_not_set", "")],
        ),
        (
            {"key": "nvidia.com/cuda.driver-version.major", "operator": "Gt", "values": ["534"]},
            [("${device.attr.driver_version}", "version", ">= 535.0")],
        ),
        (
            {"key": "nvidia.com/cuda.driver-version.major", "operator": "Lt", "values": ["600"]},
            [("${device.attr.driver_version}", "version", "< 600.0")],
        ),
        (
            {"key": "nvidia.com/gpu.product", "operator": "NotIn", "values": ["Tesla-T4", "Tesla-K80"]},
            [("${device.model}", "!=", "Tesla T4"), ("${device.model}", "!=", "Tesla K80")],
        ),
        (  # not on record: as GFD spells it
            {"key": "nvidia.com/gpu.product", "operator": "In", "values": ["Quadro-RTX-8000"]},
            [("${device.model}", "=", "Quadro-RTX-8000")],
        ),
        (  # a time-sliced GPU's product
            {"key": "nvidia.com/gpu.product", "operator": "In", "values": ["NVIDIA-L4-SHARED"]},
            [("${device.model}", "=", "NVIDIA L4")],
        ),
    ],
)
def test_gfd_labels_as_device_tests(expression: dict[str, Any], tests: list[tuple[str, str, str]]) -> None:
    found = label_tests(expression)
    assert found is not None
    assert [(t.attribute, t.operator, t.value) for t in found[0]] == tests


@pytest.mark.parametrize(
    ("cel", "test"),
    [
        (
            "device.attributes['gpu.nvidia.com'].productName.matches('Tesla.*')",
            DeviceTest("${device.model}", "regexp", "Tesla.*"),
        ),
        (
            "device.attributes['gpu.nvidia.com'].productName == 'it\\'s'",
            DeviceTest("${device.model}", "=", "it's"),
        ),
        (
            "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('40Gi')) >= 0",
            DeviceTest("${device.attr.memory}", ">=", "40 GiB"),
        ),
        (
            "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('3815Mi')) < 0",
            DeviceTest("${device.attr.memory}", "<", "3815 MiB"),
        ),
        (
            "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('16Gi')) >= 0 && "
            "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('16385Mi')) < 0",
            DeviceTest("${device.attr.memory}", "=", "16 GiB"),
        ),
        (
            "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('16Gi')) < 0 || "
            "device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('16385Mi')) >= 0",
            DeviceTest("${device.attr.memory}", "!=", "16 GiB"),
        ),
        (
            "device.attributes['gpu.nvidia.com'].driverVersion.compareTo(semver('535.0.0')) >= 0 && "
            "device.attributes['gpu.nvidia.com'].driverVersion.compareTo(semver('536.0.0')) < 0",
            DeviceTest("${device.attr.driver_version}", "version", ">= 535.0.0, < 536.0.0"),
        ),
        ("'memory' in device.capacity['gpu.nvidia.com']", DeviceTest("${device.attr.memory}", "is_set")),
        (
            "!('driverVersion' in device.attributes['gpu.nvidia.com'])",
            DeviceTest("${device.attr.driver_version}", "is_not_set"),
        ),
        ("device.driver == 'gpu.nvidia.com'", None),
        ("device.capacity['gpu.nvidia.com'].memory.compareTo(quantity('16Gi')) >= 0 && true", None),
    ],
)
def test_cel_selectors_the_back_end_writes_are_read_back(cel: str, test: DeviceTest | None) -> None:
    assert parse_selector(cel) == test


def test_cel_unquote() -> None:
    assert unquote("'a\\\\b\\n\\u00e9'") == "a\\b\né"


def test_first_available_order_gives_weights_that_reproduce_it() -> None:
    prefs = ["a", "b", "c"]
    heavy_first = _order(prefs, [60, 30, 20])  # {a} before {b, c}
    light_first = _order(prefs, [40, 30, 20])  # {b, c} before {a}
    assert heavy_first != light_first
    assert _order(prefs, _weights(prefs, heavy_first)) == heavy_first
    assert _order(prefs, _weights(prefs, light_first)) == light_first


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("500m", 0.5),
        ("2", 2),
        ("1Gi", 2**30),
        ("1.5G", 1.5e9),
        ("1e3", 1000),
        (3, 3),
        ("x", None),
        ("1Q", None),
        ("9" * 5000, None),  # more digits than Python converts
        ("1e" + "9" * 5000, None),
        ("0." + "0" * 5000 + "1", None),
    ],
    ids=lambda value: str(value)[:12],
)
def test_quantities(text: object, value: float | None) -> None:
    found = quantity(text)
    assert (None if found is None else float(found)) == value


# --------------------------------------------------------------------------- reporting and errors


def test_every_unread_field_is_reported_at_its_line() -> None:
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  paused: true\n"
        "  template:\n    spec:\n      hostAliases: []\n      shareProcessNamespace: true\n"
        "      containers:\n"
        "        - name: app\n          image: busybox\n"
    )
    dropped = {d.pointer: d for d in import_kubernetes(text).dropped}
    assert set(dropped) == {"/spec/paused", "/spec/template/spec/shareProcessNamespace"}
    assert all(d.code == "HG301" for d in dropped.values())
    assert locate(text, 0, "/spec/template/spec/shareProcessNamespace") == (10, 30)


def test_host_namespaces_and_the_runtime_class_are_docker_options() -> None:
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
        "      hostNetwork: true\n      hostIPC: true\n      dnsPolicy: ClusterFirstWithHostNet\n"
        "      runtimeClassName: nvidia\n      containers:\n        - name: app\n          image: busybox\n"
    )
    imported = import_kubernetes(text)
    assert not imported.dropped
    for line in ('network_mode = "host"', 'ipc_mode     = "host"', 'runtime      = "nvidia"'):
        assert line in imported.hcl


def test_a_list_is_opened_and_other_kinds_are_reported() -> None:
    items = [json.loads(_manifest()), {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}]
    imported = import_kubernetes(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
    assert imported.hcl.startswith('job "web" {')
    assert sorted((d.pointer, d.code) for d in imported.dropped) == [
        ("/items/0/spec/template/metadata/labels", "HG302"),  # `app: web` has no place in a job
        ("/items/1", "HG301"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("kind: [", "not valid YAML"),
        ("- a\n- b\n", "not a Kubernetes object"),
        ("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n", "no workload"),
        ("", "no workload"),
    ],
)
def test_inputs_that_cannot_be_imported(text: str, message: str) -> None:
    with pytest.raises(ImportFailure, match=message):
        import_kubernetes(text)


def test_cli_reports_located_errors_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bad.yaml"
    source.write_text("kind: Deployment\nmetadata: {name: [}\n")
    target = tmp_path / "out.nomad.hcl"
    assert main(["import", str(source), "--from", "kubernetes", "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{source}:2:") and "error: not valid YAML" in err
    assert not target.exists()


def test_cli_writes_the_job_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "web.yaml"
    source.write_text(_manifest())
    target = tmp_path / "web.nomad.hcl"
    assert main(["import", str(source), "--from", "kubernetes", "-o", str(target)]) == 0
    assert target.read_text().startswith('job "web" {')
    assert capsys.readouterr().out == ""


_SAMPLE_TEXT = render((ROOT / "samples" / "tensorrt.nomad.hcl").read_text(), "tensorrt.nomad.hcl", "dra")[0]


@settings(max_examples=150, deadline=None)
@given(cut=st.integers(0, len(_SAMPLE_TEXT)), noise=st.text(max_size=8))
def test_truncated_and_garbled_manifests_end_in_a_result_or_an_import_failure(cut: int, noise: str) -> None:
    text = _SAMPLE_TEXT[:cut] + noise
    try:
        imported = import_kubernetes(text)
    except ImportFailure:
        return
    result = compile_source(SourceFile("j.hcl", imported.hcl), checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "spec",
                        "template",
                        "containers",
                        "name",
                        "image",
                        "ports",
                        "resources",
                        "metadata",
                        "kind",
                    ]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=20,
    )
)
def test_random_structures_never_crash(spec: Any) -> None:
    text = yaml.safe_dump(
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "w"}, "spec": spec}
    )
    try:
        imported = import_kubernetes(text)
    except ImportFailure:
        return
    assert imported.hcl.startswith('job "')


def test_cpu_factor_is_the_render_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """cpu = 8192 MHz at 2000 MHz per core is 4096m; imported with the same factor it is 8192 again."""
    source = tmp_path / "job.yaml"
    source.write_text(_manifest(pod=_container(resources={"requests": {"cpu": "4096m", "memory": "1Gi"}})))
    assert main(["import", str(source), "--from", "kubernetes", "--cpu-mhz-per-core", "2000"]) == 0
    assert "cpu    = 8192" in capsys.readouterr().out
    assert main(["import", str(source), "--from", "kubernetes"]) == 0
    assert "cpu    = 4096" in capsys.readouterr().out


def test_an_importer_bug_is_a_diagnostic_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(text: str, options: object = None) -> None:
        raise KeyError("boom")

    monkeypatch.setattr("hclgpu.importers.kubernetes.import_kubernetes", broken)
    source = tmp_path / "web.yaml"
    source.write_text(_manifest())
    target = tmp_path / "out.nomad.hcl"
    # an internal error exits 2, as for every command
    assert main(["import", str(source), "--from", "kubernetes", "-o", str(target)]) == 2
    assert "HG901: internal error while importing: KeyError" in capsys.readouterr().err
    assert not target.exists()


# --------------------------------------------------------------------------- DRA and operators' kinds

_POD_WITH_CLAIM = """
apiVersion: v1
kind: Pod
metadata: {name: train}
spec:
  containers:
    - name: app
      image: busybox
      resources: {claims: [{name: gpus}]}
  resourceClaims:
    - {name: gpus, %s}
"""


def _claim(kind: str, api: str, request: str) -> str:
    spec = f"spec:\n  devices:\n    requests:\n{request}"
    if kind == "ResourceClaimTemplate":
        spec = "spec:\n  spec:\n    devices:\n      requests:\n" + "".join(
            f"  {line}\n" for line in request.splitlines()
        )
    return f"apiVersion: resource.k8s.io/{api}\nkind: {kind}\nmetadata: {{name: c}}\n{spec}---\n"


def test_a_v1beta1_request_keeps_its_class_and_count_on_the_request_itself() -> None:
    """Before resource.k8s.io/v1 a request had no `exactly`: its class and count are its own."""
    request = "      - {name: g, deviceClassName: gpu.nvidia.com, count: 2}\n"
    text = (
        _claim("ResourceClaimTemplate", "v1beta1", request) + _POD_WITH_CLAIM % "resourceClaimTemplateName: c"
    )
    imported = import_kubernetes(text)
    assert _task(text)["Resources"]["Devices"] == [{"Name": "nvidia/gpu", "Count": 2}]
    assert [d.message for d in imported.dropped] == []


def test_a_v1_request_without_a_count_asks_for_one_device_without_a_warning() -> None:
    request = "      - {name: g, exactly: {deviceClassName: gpu.amd.com}}\n"
    text = _claim("ResourceClaimTemplate", "v1", request) + _POD_WITH_CLAIM % "resourceClaimTemplateName: c"
    assert _task(text)["Resources"]["Devices"] == [{"Name": "amd/gpu"}]
    assert [d.message for d in import_kubernetes(text).dropped] == []


def test_a_resource_claim_the_pod_names_is_read_and_its_sharing_reported() -> None:
    request = "      - {name: g, exactly: {deviceClassName: gpu.nvidia.com}}\n"
    text = _claim("ResourceClaim", "v1", request) + _POD_WITH_CLAIM % "resourceClaimName: c"
    assert _task(text)["Resources"]["Devices"] == [{"Name": "nvidia/gpu"}]
    dropped = import_kubernetes(text).dropped
    assert [(d.code, d.pointer, d.document) for d in dropped] == [("HG302", "/spec/resourceClaims/0", 1)]
    assert "every pod naming it shares" in dropped[0].message


def test_an_unknown_device_class_is_one_finding_for_its_whole_request() -> None:
    request = "      - {name: g, exactly: {deviceClassName: gpu.example.com, count: 3}}\n"
    text = _claim("ResourceClaimTemplate", "v1", request) + _POD_WITH_CLAIM % "resourceClaimTemplateName: c"
    dropped = import_kubernetes(text).dropped
    assert [(d.code, d.pointer) for d in dropped] == [
        ("HG301", "/spec/spec/devices/requests/0/exactly/deviceClassName")
    ]


def test_an_operators_kind_imports_its_pod_templates_as_groups() -> None:
    """A RayCluster's head and worker groups are pods the operator starts: a group each,
    named by `groupName`, counted by `replicas`, with their GPUs."""
    text = """
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: ray}
spec:
  headGroupSpec:
    template:
      spec:
        containers: [{name: head, image: rayproject/ray}]
  workerGroupSpecs:
    - groupName: gpu-workers
      replicas: 3
      template:
        spec:
          containers:
            - name: worker
              image: rayproject/ray
              resources: {limits: {nvidia.com/gpu: 1}}
"""
    job = _job(text)
    groups = [(g["Name"], g.get("Count", 1)) for g in job["TaskGroups"]]
    assert groups == [("headgroupspec", 1), ("gpu-workers", 3)]
    assert job["TaskGroups"][1]["Tasks"][0]["Resources"]["Devices"] == [{"Name": "nvidia/gpu"}]
    dropped = import_kubernetes(text).dropped
    assert [(d.code, d.pointer) for d in dropped] == [("HG302", "/kind")]
    assert "RayCluster is an operator's kind" in dropped[0].message


# --------------------------------------------------------------------------- MIG devices


def _render_mig(text: str, strategy: str) -> str:
    result = compile_source(SourceFile("j.nomad.hcl", text), checks=False)
    assert result.job is not None, [d.message for d in result.diagnostics]
    options = registry.render_options("kubernetes", k8s_devices="plugin", mig_strategy=strategy)
    ctx = Lowering("kubernetes", result.source, Sink(), options)
    return registry.get("kubernetes").join(registry.render(result.job, "kubernetes", ctx))


def _mig_job(model: str) -> str:
    return f"""job "j" {{
  group "g" {{
    task "t" {{
      driver = "docker"
      config {{ image = "busybox" }}
      resources {{
        device "nvidia/gpu/{model}" {{ count = 2 }}
      }}
    }}
  }}
}}
"""


@pytest.mark.parametrize(
    ("strategy", "model"),
    [
        ("mixed", "NVIDIA A100-SXM4-40GB MIG 1g.5gb"),
        ("single", "NVIDIA A100-SXM4-40GB MIG 1g.5gb"),
        ("mixed", "NVIDIA A30 MIG 1g.6gb+me"),
        ("single", "NVIDIA A100-SXM4-80GB MIG 1g.10gb+me"),
        # a profile two models share: the rendered product label names the parent
        ("mixed", "NVIDIA A100-SXM4-80GB MIG 1g.10gb+me"),
        ("mixed", "NVIDIA H100 80GB HBM3 MIG 1g.10gb+me"),
    ],
)
def test_mig_devices_of_either_strategy_import_back_to_the_mig_model(strategy: str, model: str) -> None:
    """render → import gives the device block back; render again gives the same manifest."""
    first = _render_mig(_mig_job(model), strategy)
    imported = import_kubernetes(first)
    assert _task(first)["Resources"]["Devices"] == [{"Name": f"nvidia/gpu/{model}", "Count": 2}]
    assert not [d for d in imported.dropped if d.code == "HG301"]
    assert _render_mig(imported.hcl, strategy) == first


def _mig_devices(limits: dict[str, int], **pod: Any) -> tuple[list[dict[str, Any]], list[str]]:
    container = {"name": "app", "image": "busybox", "resources": {"limits": limits}}
    text = _manifest(pod={"containers": [container], **pod})
    found = [f"{d.code} {d.message}" for d in import_kubernetes(text).dropped]
    dropped = [f for f in found if "labels app are not kept" not in f]  # _manifest's own
    devices: list[dict[str, Any]] = _task(text)["Resources"]["Devices"]
    return devices, dropped


def test_mixed_mig_resource_takes_its_parent_from_the_product_label() -> None:
    """`.me` is `+me` again; the parent is the GFD product label's GPU, in NVML's spelling."""
    devices, dropped = _mig_devices(
        {"nvidia.com/mig-1g.10gb.me": 1}, nodeSelector={"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}
    )
    assert devices == [{"Name": "nvidia/gpu/NVIDIA H100 80GB HBM3 MIG 1g.10gb+me"}]
    assert dropped == []
    devices, _ = _mig_devices(
        {"nvidia.com/mig-1g.10gb.me": 1},
        nodeSelector={"nvidia.com/mig-1g.10gb.me.product": "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb.me"},
    )
    assert devices == [{"Name": "nvidia/gpu/NVIDIA A100-SXM4-80GB MIG 1g.10gb+me"}]


def test_mixed_mig_resource_of_several_parents_is_a_model_regexp() -> None:
    devices, dropped = _mig_devices({"nvidia.com/mig-1g.10gb.me": 2})
    assert devices == [
        {
            "Name": "nvidia/gpu",
            "Count": 2,
            "Constraints": [
                {"LTarget": "${device.model}", "RTarget": "MIG 1g\\.10gb\\+me$", "Operand": "regexp"}
            ],
        }
    ]
    assert len(dropped) == 1
    assert dropped[0].startswith("HG302 no node label names the GPU")


def test_mixed_mig_memory_label_is_the_devices_memory() -> None:
    requirement = {"key": "nvidia.com/mig-1g.5gb.memory", "operator": "Gt", "values": ["4095"]}
    affinity = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchExpressions": [requirement]}]
            }
        }
    }
    devices, _ = _mig_devices({"nvidia.com/mig-1g.5gb": 1}, affinity=affinity)
    assert devices == [
        {
            "Name": "nvidia/gpu/NVIDIA A100-SXM4-40GB MIG 1g.5gb",
            "Constraints": [{"LTarget": "${device.attr.memory}", "RTarget": "4 GiB", "Operand": ">="}],
        }
    ]


def test_single_strategy_product_of_an_unknown_gpu_is_kept_with_a_guess() -> None:
    devices, dropped = _mig_devices(
        {"nvidia.com/gpu": 1}, nodeSelector={"nvidia.com/gpu.product": "NVIDIA-B200-MIG-1g.23gb"}
    )
    assert devices == [{"Name": "nvidia/gpu/NVIDIA B200 MIG 1g.23gb"}]
    assert [d.split(" ", 1)[0] for d in dropped] == ["HG302"]


def test_a_pods_own_dns_is_the_docker_drivers() -> None:
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n"
        '      dnsPolicy: "None"\n      dnsConfig:\n        nameservers: [10.0.0.2]\n'
        '        options: [{name: ndots, value: "2"}]\n'
        "      containers:\n        - {name: app, image: busybox}\n"
    )
    imported = import_kubernetes(text)
    assert not imported.dropped
    assert 'dns_servers = ["10.0.0.2"]' in imported.hcl and 'dns_options = ["ndots:2"]' in imported.hcl


def test_a_char_device_host_path_is_a_docker_device() -> None:
    text = (
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ib\nspec:\n  containers:\n    - name: app\n"
        "      image: busybox\n      volumeMounts:\n"
        "        - {name: ib, mountPath: /dev/infiniband/uverbs0}\n"
        "  volumes:\n    - name: ib\n      hostPath: {path: /dev/infiniband/uverbs0, type: CharDevice}\n"
    )
    imported = import_kubernetes(text)
    assert 'host_path      = "/dev/infiniband/uverbs0"' in imported.hcl
    assert "volumes" not in imported.hcl.split("devices")[0].split("config")[1]  # not a bind mount
