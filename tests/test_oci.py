"""OCI output: every sample in each device mode validates against the runtime-spec schema
(and the checks runc/crun make that the schema does not); golden bundles; the NVIDIA hook,
NVIDIA_REQUIRE_* semantics, rlimits, /dev/shm, cpu shares and memory; a CDI spec applied
like the CDI library does; Neuron and AMD devices; values that must survive JSON exactly."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from hclgpu.backends import registry
from hclgpu.backends.oci.cdi import check_spec
from hclgpu.backends.oci.devices import NEURON_HOOK, NVIDIA_HOOK
from hclgpu.backends.oci.process import UNLIMITED
from hclgpu.backends.oci.requirements import Requirement, driver_requirement
from hclgpu.backends.target import Artifact, Lowering
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT, Golden, vendored

SAMPLES = sorted((ROOT / "samples").glob("*.hcl"))
GOLDEN = ROOT / "tests" / "golden" / "oci"
MODES = ("hook", "cdi", "env")
Config = dict[str, Any]


def render(
    text: str, name: str = "job.nomad.hcl", base: Path = ROOT, **options: Any
) -> tuple[list[Artifact], list[Diagnostic]]:
    result = compile_source(SourceFile(name, text), EvalOptions(VariableInputs(env={}), base_dir=base))
    assert result.job is not None, [f"{d.code} {d.message}" for d in result.diagnostics]
    sink = Sink()
    ctx = Lowering("oci", result.source, sink, registry.render_options("oci", **options))
    return registry.render(result.job, "oci", ctx), sink.sorted()


def render_sample(sample: str, **options: Any) -> tuple[dict[str, Config], list[Diagnostic]]:
    path = ROOT / "samples" / sample
    artifacts, diagnostics = render(path.read_text(encoding="utf-8"), path.name, path.parent, **options)
    return {a.name: json.loads(a.text) for a in artifacts}, diagnostics


def one(text: str, **options: Any) -> tuple[Config, list[Diagnostic]]:
    artifacts, diagnostics = render(text, **options)
    assert len(artifacts) == 1, [a.name for a in artifacts]
    return json.loads(artifacts[0].text), diagnostics


def job(task_body: str, group_body: str = "") -> str:
    return (
        f'job "j" {{\n  group "g" {{\n{group_body}\n    task "t" {{\n      driver = "docker"\n'
        f"{task_body}\n    }}\n  }}\n}}\n"
    )


GPU_TASK = """
      config {
        image   = "busybox:1.36"
        command = "/bin/sh"
        args    = ["-c", "true"]
      }
      resources {
        cpu    = 500
        memory = 256
        device "nvidia/gpu" {
          count = 2
%s
        }
      }
"""


def messages(diagnostics: list[Diagnostic], code: str) -> list[str]:
    return [d.message for d in diagnostics if d.code == code]


def env_of(config: Config) -> dict[str, str]:
    return dict(entry.split("=", 1) for entry in config["process"]["env"])


# --------------------------------------------------------------------------- validation


@cache
def _validator() -> Any:
    from jsonschema import Draft4Validator  # type: ignore[import-untyped,unused-ignore]
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT4

    folder = vendored("schemas", "oci-runtime-spec")
    registry: Registry[Any] = Registry().with_resources(
        (p.name, Resource.from_contents(json.loads(p.read_text()), default_specification=DRAFT4))
        for p in folder.glob("*.json")
    )
    return Draft4Validator(json.loads((folder / "config-schema.json").read_text()), registry=registry)


def own_checks(config: Config) -> list[str]:
    """What runc, crun and runtime-tools refuse and the schema lets through (backends.md 1.2)."""
    problems: list[str] = []
    if config["ociVersion"].count(".") != 2:
        problems.append(f"ociVersion {config['ociVersion']!r} is not semver")
    process = config["process"]
    if not process["args"]:
        problems.append("process.args is empty")
    problems += [f"env {e!r} has no name" for e in process["env"] if e.find("=") <= 0]
    problems += [
        f"mount {m['destination']} is relative" for m in config["mounts"] if m["destination"][0] != "/"
    ]
    for stage, hooks in config.get("hooks", {}).items():
        problems += [f"{stage} hook {h['path']} is relative" for h in hooks if not h["path"].startswith("/")]
    rules = config["linux"]["resources"]["devices"]
    problems += [f"cgroup rule type {r['type']!r}" for r in rules if r.get("type", "a") not in "abc"]
    problems += [
        f"device {d['path']} is relative" for d in config["linux"].get("devices", []) if d["path"][0] != "/"
    ]
    for limit in process.get("rlimits", []):
        if limit["soft"] > limit["hard"]:
            problems.append(f"{limit['type']} soft > hard")
    return problems


def validate(config: Config) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _validator().iter_errors(config)]
    assert errors == []
    assert own_checks(config) == []


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_sample_renders_valid_golden_bundles(sample: Path, mode: str, golden: Golden) -> None:
    artifacts, _ = render(sample.read_text(encoding="utf-8"), sample.name, sample.parent, oci_devices=mode)
    assert artifacts
    for artifact in artifacts:
        assert artifact.name.endswith("/config.json") and artifact.name.count("/") == 2
        validate(json.loads(artifact.text))
    folder = GOLDEN / f"{sample.name.removesuffix('.hcl').removesuffix('.nomad')}.{mode}"
    golden.tree(folder, {a.name: a.text for a in artifacts})


def test_upstream_fixtures_exercise_the_validator() -> None:
    fixtures = vendored("schemas", "oci-runtime-spec", "test-fixtures", "config")
    for path in (fixtures / "good").glob("*.json"):
        assert not list(_validator().iter_errors(json.loads(path.read_text()))), path.name
    bad = fixtures / "bad" / "linux-hugepage.json"
    assert list(_validator().iter_errors(json.loads(bad.read_text())))


# --------------------------------------------------------------------------- NVIDIA hook / env / cdi


def test_tensorrt_hook_mode_adds_the_legacy_prestart_hook_and_env() -> None:
    bundles, diagnostics = render_sample("tensorrt.nomad.hcl")
    assert sorted(bundles) == ["back/rtserver/config.json", "front/web/config.json"]
    back = bundles["back/rtserver/config.json"]
    assert back["hooks"] == {"prestart": [NVIDIA_HOOK]}
    assert NVIDIA_HOOK == {
        "path": "/usr/bin/nvidia-container-runtime-hook",
        "args": ["nvidia-container-runtime-hook", "prestart"],
    }
    env = env_of(back)
    assert env["NVIDIA_VISIBLE_DEVICES"] == "0"
    assert env["NVIDIA_DRIVER_CAPABILITIES"] == "compute,utility"
    assert back["process"]["args"] == ["trtserver", "--model-store=/local/models"]
    assert "hooks" not in bundles["front/web/config.json"]
    assert any("NVIDIA_VISIBLE_DEVICES=0" in m for m in messages(diagnostics, "HG302"))
    regexp = [m for m in messages(diagnostics, "HG301") if "regexp Tesla" in m]
    assert len(regexp) == 1


def test_env_mode_has_no_hook_and_cdi_mode_requests_by_annotation() -> None:
    env_bundles, _ = render_sample("distributed-training.nomad.hcl", oci_devices="env")
    config = env_bundles["trainer/torchrun/config.json"]
    assert "hooks" not in config
    assert env_of(config)["NVIDIA_VISIBLE_DEVICES"] == "0,1,2,3,4,5,6,7"
    cdi_bundles, diagnostics = render_sample("distributed-training.nomad.hcl", oci_devices="cdi")
    config = cdi_bundles["trainer/torchrun/config.json"]
    assert config["annotations"]["cdi.k8s.io/hclgpu_torchrun"] == ",".join(
        f"nvidia.com/gpu={i}" for i in range(8)
    )
    assert "NVIDIA_VISIBLE_DEVICES" not in env_of(config)
    assert any("NVIDIA_REQUIRE" in m for m in messages(diagnostics, "HG301"))


MIG_TASK = GPU_TASK.replace('"nvidia/gpu"', '"nvidia/gpu/NVIDIA A100-SXM4-40GB MIG 1g.5gb"')


@pytest.mark.parametrize("mode", MODES)
def test_mig_instances_are_named_gpu_colon_mig_as_nvidia_ctk_names_them(mode: str) -> None:
    # nvidia-ctk's index names: GPU i is `i`, MIG device j of GPU i is `i:j`
    # (NVIDIA/nvidia-container-toolkit pkg/nvcdi/namer.go:72-78); the runtime reads
    # NVIDIA_VISIBLE_DEVICES the same way
    config, diagnostics = one(job(MIG_TASK % ""), oci_devices=mode)
    if mode == "cdi":
        assert config["annotations"]["cdi.k8s.io/hclgpu_t"] == "nvidia.com/gpu=0:0,nvidia.com/gpu=0:1"
    else:
        assert env_of(config)["NVIDIA_VISIBLE_DEVICES"] == "0:0,0:1"
    assert any("0:0" in m and "stand in" in m for m in messages(diagnostics, "HG302"))


def test_user_capabilities_are_kept_and_visible_devices_assigned() -> None:
    text = job(
        GPU_TASK % "" + '      env {\n        NVIDIA_DRIVER_CAPABILITIES = "compute,utility,video"\n'
        '        NVIDIA_VISIBLE_DEVICES = "all"\n      }\n'
    )
    config, diagnostics = one(text)
    env = env_of(config)
    assert env["NVIDIA_DRIVER_CAPABILITIES"] == "compute,utility,video"
    assert env["NVIDIA_VISIBLE_DEVICES"] == "0,1"
    assert any("replaced by the device assignment" in m for m in messages(diagnostics, "HG302"))


# --------------------------------------------------------------------------- NVIDIA_REQUIRE_*


@pytest.mark.parametrize(
    ("operand", "value", "terms"),
    [
        ("version", ">= 535.0", ("driver>=535.0",)),
        ("version", ">= 535.0, < 550", ("driver>=535.0", "driver<550")),
        ("version", "~> 535.1", ("driver>=535.1", "driver<536")),
        ("version", "~> 535.104.5", ("driver>=535.104.5", "driver<535.105")),
        ("semver", "= 550.54.15", ("driver=550.54.15",)),
        ("version", "550", ("driver=550",)),
        ("=", "535.104.05", ("driver=535.104.05",)),
        ("!=", "535.0", ("driver!=535.0",)),
    ],
)
def test_driver_version_constraints_become_and_terms(
    operand: str, value: str, terms: tuple[str, ...]
) -> None:
    found = driver_requirement(operand, value)
    assert isinstance(found, Requirement) and found.terms == terms
    assert not found.lexical
    assert all(" " not in t for t in terms)  # a space would mean OR to the hook


def test_ordering_operators_compare_as_strings_in_nomad() -> None:
    found = driver_requirement(">=", "535")
    assert isinstance(found, Requirement) and found.terms == ("driver>=535",) and found.lexical


@pytest.mark.parametrize(
    ("operand", "value"), [("regexp", "^535"), ("version", ">= 535.0-beta"), ("version", "~> 5")]
)
def test_inexpressible_driver_constraints_are_refused(operand: str, value: str) -> None:
    assert isinstance(driver_requirement(operand, value), str)


def _constraint(operator: str, value: str, attribute: str = "${device.attr.driver_version}") -> str:
    return (
        f'          constraint {{\n            attribute = "{attribute}"\n'
        f'            operator = "{operator}"\n            value = "{value}"\n          }}\n'
    )


def test_all_driver_constraints_are_anded_in_one_variable() -> None:
    text = job(GPU_TASK % (_constraint("version", ">= 535.0") + _constraint("version", "< 560")))
    config, diagnostics = one(text)
    assert env_of(config)["NVIDIA_REQUIRE_DRIVER"] == "driver>=535.0,driver<560"
    assert not [m for m in messages(diagnostics, "HG301") if "driver_version" in m]


def test_a_user_requirement_is_kept_and_ours_added_beside_it() -> None:
    text = job(
        GPU_TASK % _constraint("version", ">= 535.0")
        + '      env {\n        NVIDIA_REQUIRE_DRIVER = "driver>=470 driver>=535"\n      }\n'
    )
    env = env_of(one(text)[0])
    assert env["NVIDIA_REQUIRE_DRIVER"] == "driver>=470 driver>=535"
    assert env["NVIDIA_REQUIRE_NOMAD_DRIVER"] == "driver>=535.0"


def test_unmappable_device_constraints_and_affinities_are_reported() -> None:
    affinity = (
        '          affinity {\n            attribute = "${device.model}"\n'
        '            value = "A100"\n          }\n'
    )
    text = job(
        GPU_TASK
        % (_constraint("regexp", "^535") + _constraint(">=", "8 GiB", "${device.attr.memory}") + affinity)
    )
    config, diagnostics = one(text)
    assert "NVIDIA_REQUIRE_DRIVER" not in env_of(config)
    unsupported = messages(diagnostics, "HG301")
    assert any("regexp ^535" in m for m in unsupported)
    assert any("${device.attr.memory} >= 8 GiB" in m for m in unsupported)
    assert any("affinity `${device.model} = A100`" in m for m in unsupported)


# --------------------------------------------------------------------------- process and linux


def test_rlimits_follow_docker_ulimit_syntax() -> None:
    text = job(
        """
      config {
        image = "busybox"
        command = "sh"
        ulimit {
          memlock = "-1"
          stack   = "67108864"
          nofile  = "1024:2048"
          bogus   = "1"
          nproc   = "10:5"
        }
      }
"""
    )
    config, diagnostics = one(text)
    limits = {r["type"]: (r["soft"], r["hard"]) for r in config["process"]["rlimits"]}
    assert limits == {
        "RLIMIT_MEMLOCK": (UNLIMITED, UNLIMITED),
        "RLIMIT_STACK": (67108864, 67108864),
        "RLIMIT_NOFILE": (1024, 2048),
    }
    assert UNLIMITED == 18446744073709551615
    unsupported = messages(diagnostics, "HG301")
    assert any("ulimit bogus" in m for m in unsupported) and any('nproc = "10:5"' in m for m in unsupported)


def _shm(config: Config) -> list[str]:
    [mount] = [m for m in config["mounts"] if m["destination"] == "/dev/shm"]
    assert mount["type"] == "tmpfs"
    return [o for o in mount["options"] if o.startswith("size=")]


@pytest.mark.parametrize(
    ("value", "size"),
    [("1024", "size=1024"), ('"64m"', "size=67108864"), ("34359738368", "size=34359738368")],
)
def test_shm_size_sets_the_dev_shm_mount(value: str, size: str) -> None:
    config, _ = one(
        job(f'      config {{\n        image = "busybox"\n        shm_size = {value}\n      }}\n')
    )
    assert _shm(config) == [size]


def test_default_shm_is_dockers_64_mib() -> None:
    config, _ = one(job('      config {\n        image = "busybox"\n      }\n'))
    assert _shm(config) == ["size=65536k"]


def test_cpu_shares_and_memory_follow_nomads_docker_driver() -> None:
    bundles, _ = render_sample("distributed-training.nomad.hcl")
    resources = bundles["trainer/torchrun/config.json"]["linux"]["resources"]
    assert resources["cpu"] == {"shares": 64000}
    assert resources["memory"] == {"limit": 491520 * 1024 * 1024}
    text = job(
        '      config {\n        image = "busybox"\n      }\n      resources {\n        cpu = 250\n'
        "        memory = 128\n        memory_max = 512\n      }\n"
    )
    config, diagnostics = one(text)  # memory oversubscription not stated: Nomad's default, off
    resources = config["linux"]["resources"]
    assert resources["cpu"] == {"shares": 250}
    assert resources["memory"] == {"limit": 128 * 1024 * 1024}
    assert "NOMAD_MEMORY_MAX_LIMIT" not in env_of(config)
    assert any("memory_max = 512" in m for m in messages(diagnostics, "HG302"))
    config, _ = one(text, memory_oversubscription=True)
    resources = config["linux"]["resources"]
    assert resources["memory"] == {"limit": 512 * 1024 * 1024, "reservation": 128 * 1024 * 1024}
    assert env_of(config)["NOMAD_MEMORY_MAX_LIMIT"] == "512"
    default, _ = one(job('      config {\n        image = "busybox"\n      }\n'))
    assert default["linux"]["resources"]["cpu"] == {"shares": 100}
    assert default["linux"]["resources"]["memory"] == {"limit": 300 * 1024 * 1024}


def test_static_nomad_variables_are_set_and_interpolated() -> None:
    bundles, _ = render_sample("distributed-training.nomad.hcl")
    config = bundles["trainer/torchrun/config.json"]
    env = env_of(config)
    assert env["NOMAD_JOB_NAME"] == "llm-finetune" and env["NOMAD_GROUP_NAME"] == "trainer"
    assert env["NOMAD_TASK_NAME"] == "torchrun" and env["NOMAD_ALLOC_INDEX"] == "0"
    assert env["NOMAD_CPU_LIMIT"] == "64000" and env["NOMAD_MEMORY_LIMIT"] == "491520"
    assert env["NOMAD_META_run_id"] == env["NOMAD_META_RUN_ID"] == "llama3-8b-sft-0427"
    assert env["HF_HOME"] == "/alloc/data/hf-cache"
    assert config["process"]["cwd"] == "/local/repo"
    assert "--config=/local/sft.yaml" in config["process"]["args"]
    assert config["process"]["args"][0] == "torchrun"
    assert env_of(config)["PATH"].startswith("/usr/local/sbin")
    _, mixed = render_sample("mixed-service.nomad.hcl")
    assert any("count = 2" in m and "NOMAD_ALLOC_INDEX=0" in m for m in messages(mixed, "HG302"))


def test_args_without_command_and_nothing_at_all_are_approximated() -> None:
    bundles, diagnostics = render_sample("mixed-service.nomad.hcl")
    assert bundles["cache/redis/config.json"]["process"]["args"][0] == "redis-server"
    assert bundles["api/api/config.json"]["process"]["args"] == ["sh"]
    approximated = messages(diagnostics, "HG302")
    assert any('task "redis" sets neither' in m for m in approximated)
    assert any('task "api" sets no `entrypoint`' in m and '["sh"]' in m for m in approximated)
    entry, _ = one(
        job(
            '      config {\n        image = "x"\n        entrypoint = ["/init", "--"]\n'
            '        command = "run"\n        args = ["a"]\n      }\n'
        )
    )
    assert entry["process"]["args"] == ["/init", "--", "run", "a"]


def test_user_names_need_passwd_and_numbers_pass() -> None:
    named, diagnostics = one(job('      user = "nobody"\n      config {\n        image = "x"\n      }\n'))
    assert named["process"]["user"] == {"uid": 0, "gid": 0}
    assert any('user "nobody"' in m for m in messages(diagnostics, "HG302"))
    numeric, _ = one(job('      user = "1000:100"\n      config {\n        image = "x"\n      }\n'))
    assert numeric["process"]["user"] == {"uid": 1000, "gid": 100}


def test_rootfs_option_and_default_note() -> None:
    config, _ = one(job('      config {\n        image = "busybox:1.36"\n      }\n'), rootfs="/srv/rootfs")
    assert config["root"]["path"] == "/srv/rootfs" and "io.hclgpu.rootfs" not in config["annotations"]
    plain, _ = one(job('      config {\n        image = "busybox:1.36"\n      }\n'))
    assert plain["root"]["path"] == "rootfs"
    assert "busybox:1.36" in plain["annotations"]["io.hclgpu.rootfs"]
    assert plain["annotations"]["io.hclgpu.task"] == "t"
    assert plain["annotations"]["io.hclgpu.source"] == "job.nomad.hcl"


def test_other_drivers_and_nomad_only_features_are_reported() -> None:
    text = (
        'job "j" {\n  group "g" {\n    network {\n      port "http" { to = 80 }\n    }\n'
        '    task "e" {\n      driver = "exec"\n      config {\n        command = "/bin/true"\n'
        "      }\n    }\n"
        '    task "d" {\n      driver = "docker"\n      config {\n        image = "x"\n'
        '        ports = ["http"]\n'
        "        privileged = true\n      }\n"
        '      vault {\n        policies = ["p"]\n      }\n      kill_timeout = "30s"\n    }\n  }\n}\n'
    )
    artifacts, diagnostics = render(text)
    assert [a.name for a in artifacts] == ["g/d/config.json"]
    unsupported = messages(diagnostics, "HG301")
    for needle in (
        "`exec` driver",
        "the network of group",
        "`ports` in the docker",
        "`vault`",
        "`kill_timeout`",
    ):
        assert any(needle in m for m in unsupported), needle
    assert all(d.span is not None for d in diagnostics if d.code == "HG301")
    assert any("privileged = true" in m for m in messages(diagnostics, "HG302"))  # Docker's privileged mode


def test_adversarial_values_survive_json_exactly() -> None:
    values = ['quote " and \\ backslash', "new\nline", "unicodé ✓ 中文 \u2028", "{{ x }}", "", "$${LITERAL}"]
    hcl = [v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") for v in values]
    args = ", ".join(f'"{v}"' for v in hcl)
    env = "\n".join(f'        V{i} = "{v}"' for i, v in enumerate(hcl))
    config, _ = one(
        job(
            f'      config {{\n        image = "x"\n        command = "c"\n        args = [{args}]\n'
            f"      }}\n      env {{\n{env}\n      }}\n"
        )
    )
    expected = [v.replace("$${", "${") for v in values]
    assert config["process"]["args"] == ["c", *expected]
    env_values = env_of(config)
    assert [env_values[f"V{i}"] for i in range(len(values))] == expected


# --------------------------------------------------------------------------- CDI


def _nvidia_spec(tmp_path: Path) -> Path:
    """The NVIDIA example spec (nvidia-ctk cdi generate) with its real kind."""
    import yaml

    example = vendored("schemas", "cdi", "examples") / "nvidia-ctk-cdi-generate.yaml"
    spec = yaml.safe_load(example.read_text())
    spec["kind"] = "nvidia.com/gpu"
    path = tmp_path / "nvidia.yaml"
    path.write_text(yaml.safe_dump(spec))
    return path


def test_the_example_spec_is_valid_cdi() -> None:
    import yaml
    from jsonschema import Draft7Validator  # type: ignore[import-untyped,unused-ignore]
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7

    folder = vendored("schemas", "cdi")
    registry: Registry[Any] = Registry().with_resources(
        (p.name, Resource.from_contents(json.loads(p.read_text()), default_specification=DRAFT7))
        for p in folder.glob("*.json")
    )
    validator = Draft7Validator(json.loads((folder / "schema.json").read_text()), registry=registry)
    spec = yaml.safe_load((folder / "examples" / "nvidia-ctk-cdi-generate.yaml").read_text())
    assert not list(validator.iter_errors(spec))
    assert check_spec(spec) == []
    for bad in (folder / "test-fixtures" / "bad").glob("*.json"):
        data = json.loads(bad.read_text() or "{}")  # empty.json: no document at all
        assert list(validator.iter_errors(data)) and check_spec(data) != []


def test_cdi_spec_is_applied_like_the_cdi_library(tmp_path: Path) -> None:
    spec = _nvidia_spec(tmp_path)
    text = job(GPU_TASK % "" + '      env {\n        NVIDIA_VISIBLE_DEVICES = "x"\n      }\n')
    config, diagnostics = one(text, oci_devices="cdi", cdi_spec=str(spec))
    validate(config)
    linux = config["linux"]
    assert linux["devices"] == [
        {"path": "/dev/nvidiactl", "type": "c", "major": 195, "minor": 255},
        {"path": "/dev/nvidia0", "type": "c", "major": 195, "minor": 0},
    ]
    assert linux["resources"]["devices"][1:] == [
        {"allow": True, "type": "c", "major": 195, "minor": 255, "access": "rwm"},
        {"allow": True, "type": "c", "major": 195, "minor": 0, "access": "rwm"},
    ]
    env = config["process"]["env"]
    assert env[-1] == "NVIDIA_CTK_LIBCUDA_DIR=/lib/x86_64-linux-gnu"
    assert env_of(config)["NVIDIA_VISIBLE_DEVICES"] == "void"  # replaced in place, as the library does
    mounts = [m for m in config["mounts"] if m.get("source", "").startswith("/lib/")]
    assert [m["destination"] for m in mounts] == [
        "/lib/x86_64-linux-gnu/libcuda.so.999.88.77",
        "/lib/x86_64-linux-gnu/vdpau/libvdpau_nvidia.so.999.88.77",
    ]
    assert mounts[0]["options"] == ["ro", "nosuid", "nodev", "rbind", "rprivate"] and "type" not in mounts[0]
    depths = [m["destination"].rstrip("/").count("/") for m in config["mounts"]]
    assert depths == sorted(depths)
    hooks = config["hooks"]["createContainer"]
    assert [h["args"][1] for h in hooks] == [
        "create-symlinks",
        "enable-cuda-compat",
        "update-ldcache",
        "disable-device-node-modification",
        "update-application-profile",
    ]
    assert all(
        h["path"] == "/usr/bin/nvidia-cdi-hook" and h["env"] == ["NVIDIA_CTK_DEBUG=false"] for h in hooks
    )
    assert config["annotations"]["io.hclgpu.cdi-spec"] == str(spec)
    # count = 2 and the spec defines only "0" and "all": gpu=0 is applied (so no longer requested,
    # which would inject it twice), gpu=1 stays requested for a CDI-aware runtime, and is reported
    assert config["annotations"]["cdi.k8s.io/hclgpu_t"] == "nvidia.com/gpu=1"
    missing = [m for m in messages(diagnostics, "HG301") if "nvidia.com/gpu=1 is not defined" in m]
    assert len(missing) == 1


def test_cdi_spec_of_another_kind_or_broken_is_not_applied(tmp_path: Path) -> None:
    example = vendored("schemas", "cdi", "examples") / "nvidia-ctk-cdi-generate.yaml"
    config, diagnostics = one(job(GPU_TASK % ""), oci_devices="cdi", cdi_spec=str(example))
    assert "devices" not in config["linux"]
    assert config["annotations"]["cdi.k8s.io/hclgpu_t"] == "nvidia.com/gpu=0,nvidia.com/gpu=1"
    assert any("kind example.com/device" in m for m in messages(diagnostics, "HG301"))
    broken = tmp_path / "broken.json"
    broken.write_text('{"cdiVersion": "0.5.0", "kind": "nvidia.com/gpu", "devices": []}')
    _, diagnostics = one(job(GPU_TASK % ""), oci_devices="cdi", cdi_spec=str(broken))
    assert any("`devices` is missing or empty" in m for m in messages(diagnostics, "HG301"))
    _, diagnostics = one(job(GPU_TASK % ""), oci_devices="cdi", cdi_spec=str(tmp_path / "absent.yaml"))
    assert any("cannot be read" in m for m in messages(diagnostics, "HG301"))


# --------------------------------------------------------------------------- Neuron and AMD


def test_neuron_sample_devices() -> None:
    bundles, diagnostics = render_sample("neuron-inference.nomad.hcl")
    config = bundles["bert/torchserve/config.json"]
    assert env_of(config)["AWS_NEURON_VISIBLE_DEVICES"] == "0"
    [node] = [m for m in config["mounts"] if m["destination"].startswith("/dev/neuron")]
    assert node == {
        "destination": "/dev/neuron0",
        "type": "bind",
        "source": "/dev/neuron0",
        "options": ["bind", "nosuid", "noexec"],
    }
    assert {"allow": True, "type": "c", "minor": 0, "access": "rwm"} in config["linux"]["resources"][
        "devices"
    ]
    assert config["hooks"] == {"prestart": [NEURON_HOOK]}
    assert any('runtime = "oci-neuron"' in m for m in messages(diagnostics, "HG302"))
    env_only, _ = render_sample("neuron-inference.nomad.hcl", oci_devices="env")
    config = env_only["bert/torchserve/config.json"]
    assert "hooks" not in config and not [
        m for m in config["mounts"] if m["destination"].startswith("/dev/neuron")
    ]


def test_amd_gpus_as_device_nodes_or_cdi() -> None:
    text = job(GPU_TASK.replace("nvidia/gpu", "amd/gpu") % "")
    config, diagnostics = one(text)
    assert env_of(config)["ROCR_VISIBLE_DEVICES"] == "0,1"
    assert {m["destination"] for m in config["mounts"]} >= {"/dev/kfd", "/dev/dri"}
    assert {"allow": True, "type": "c", "major": 226, "access": "rwm"} in config["linux"]["resources"][
        "devices"
    ]
    assert any("/dev/kfd" in m for m in messages(diagnostics, "HG302"))
    cdi, _ = one(text, oci_devices="cdi")
    assert cdi["annotations"]["cdi.k8s.io/hclgpu_t"] == "amd.com/gpu=0,amd.com/gpu=1"
    _, diagnostics = one(job(GPU_TASK.replace("nvidia/gpu", "intel/gpu") % ""))
    assert any("no OCI device mapping" in m for m in messages(diagnostics, "HG301"))


def test_privileged_is_dockers_privileged_mode() -> None:
    text = job('      config {\n        image      = "busybox"\n        privileged = true\n      }\n')
    config, diagnostics = one(text)
    caps = config["process"]["capabilities"]
    assert caps["bounding"] == caps["effective"] == caps["permitted"] and "CAP_SYS_ADMIN" in caps["bounding"]
    linux = config["linux"]
    assert linux["resources"]["devices"] == [{"allow": True, "access": "rwm"}]
    assert "maskedPaths" not in linux and "readonlyPaths" not in linux
    sysfs = next(m for m in config["mounts"] if m["destination"] == "/sys")
    assert "ro" not in sysfs["options"]
    assert any("docker run --privileged" in m for m in messages(diagnostics, "HG302"))
    assert not any("privileged" in m for m in messages(diagnostics, "HG301"))


def test_a_service_job_is_said_to_run_once_and_an_empty_group_is_left_out() -> None:
    """Nomad restarts a service's tasks whenever they exit; `runc run` runs the process once.
    A group (and a job) with no container task gives no bundle, and says so at its block."""
    text = (
        'job "j" {\n  group "g" {\n    task "t" {\n      driver = "docker"\n'
        '      config {\n        image = "busybox:1.36"\n      }\n    }\n  }\n'
        '  group "e" {\n    task "x" {\n      driver = "exec"\n    }\n  }\n}\n'
    )
    artifacts, diagnostics = render(text)
    assert [a.name for a in artifacts] == ["g/t/config.json"]
    assert any(
        '`type = "service"`' in m and "runs the process once" in m for m in messages(diagnostics, "HG302")
    )
    assert 'no task of group "e" becomes an OCI bundle; the group is left out' in messages(
        diagnostics, "HG301"
    )
    batch, found = render(
        text.replace('job "j" {\n', 'job "j" {\n  type = "batch"\n').replace('"docker"', '"exec"')
    )
    assert batch == [] and not messages(found, "HG302")
    assert 'no task of job "j" becomes an OCI bundle; the job is left out' in messages(found, "HG301")
