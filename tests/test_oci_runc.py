"""A rendered bundle really runs: runc starts it on a busybox root filesystem, the NVIDIA
prestart hook (replaced by a stub that records what it receives) is called with the
container state, and the process sees the job's args, env, /dev/shm size and rlimits.

Needs root, ``runc`` and a static ``/bin/busybox`` (Debian: ``apt-get install runc
busybox-static``); skipped otherwise. The sandbox caveats of backends.md 1.2 apply: a hook
path must exist (hence the stub), and rlimits above the host's hard limits fail without
CAP_SYS_RESOURCE, so they are clamped to what this machine allows before the run (the
expected values are clamped the same way).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

from hclgpu.backends import registry
from hclgpu.backends.oci.devices import NVIDIA_HOOK
from hclgpu.backends.oci.process import UNLIMITED
from hclgpu.backends.target import Lowering
from hclgpu.diagnostics import Sink
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile
from tests.conftest import ROOT

BUSYBOX = Path("/bin/busybox")
APPLETS = ("sh", "echo", "env", "sort", "sed", "df", "tail", "id", "pwd", "cat", "ls")
SHM_BYTES = 8 * 1024 * 1024

SCRIPT = (
    'echo "ARGS:$0:$1"; env | sort | sed "s/^/ENV:/"; '
    'echo "MEMLOCK:$(ulimit -l)"; echo "STACK:$(ulimit -s)"; echo "NOFILE:$(ulimit -n):$(ulimit -Hn)"; '
    'df -k /dev/shm | tail -n 1 | sed "s/^/SHM:/"; echo "CWD:$(pwd)"; echo "UID:$(id -u)"'
)
JOB = f"""
job "smoke" {{
  group "g" {{
    task "probe" {{
      driver = "docker"
      config {{
        image    = "busybox:1.36"
        command  = "/bin/sh"
        args     = ["-c", {json.dumps(SCRIPT)}, "zero", "${{NOMAD_TASK_NAME}}"]
        shm_size = {SHM_BYTES}
        ulimit {{
          memlock = "-1"
          stack   = "67108864"
          nofile  = "1024:2048"
        }}
      }}
      env {{
        GREETING = "hello from ${{NOMAD_JOB_NAME}}"
      }}
      resources {{
        cpu    = 200
        memory = 64
        device "nvidia/gpu" {{
          count = 1
        }}
      }}
    }}
  }}
}}
"""


def _static(path: Path) -> bool:
    """An ELF executable without a PT_INTERP program header (no dynamic loader to find)."""
    data = path.read_bytes()[:65536]
    if data[:4] != b"\x7fELF":
        return False
    order: Literal["little", "big"] = "little" if data[5] == 1 else "big"
    wide = data[4] == 2  # ELFCLASS64
    offset = int.from_bytes(data[0x20:0x28] if wide else data[0x1C:0x20], order)
    size = int.from_bytes(data[0x36:0x38] if wide else data[0x2A:0x2C], order)
    count = int.from_bytes(data[0x38:0x3A] if wide else data[0x2C:0x2E], order)
    kinds = [int.from_bytes(data[offset + i * size : offset + i * size + 4], order) for i in range(count)]
    return 3 not in kinds  # PT_INTERP


def _skip_reason() -> str | None:
    if os.geteuid() != 0:
        return "runs a container: needs root"
    if shutil.which("runc") is None:
        return "runc is not installed (apt-get install runc busybox-static)"
    if not BUSYBOX.exists() or not _static(BUSYBOX):
        return "a static /bin/busybox is needed for the root filesystem (apt-get install busybox-static)"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


def _render(rootfs: Path, text: str = JOB, **options: Any) -> dict[str, Any]:
    result = compile_source(
        SourceFile("smoke.nomad.hcl", text), EvalOptions(VariableInputs(env={}), base_dir=ROOT)
    )
    assert result.job is not None, [d.message for d in result.diagnostics]
    ctx = Lowering(
        "oci", result.source, Sink(), registry.render_options("oci", rootfs=str(rootfs), **options)
    )
    [artifact] = registry.render(result.job, "oci", ctx)
    assert artifact.name == "g/probe/config.json"
    config: dict[str, Any] = json.loads(artifact.text)
    return config


def _clamp(config: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Lower each rlimit to this machine's hard limit (no CAP_SYS_RESOURCE in a sandbox)."""
    out = {}
    for limit in config["process"]["rlimits"]:
        _, host_hard = resource.getrlimit(getattr(resource, limit["type"]))
        host = UNLIMITED if host_hard == resource.RLIM_INFINITY else host_hard
        limit["hard"] = min(limit["hard"], host)
        limit["soft"] = min(limit["soft"], limit["hard"])
        out[limit["type"]] = (limit["soft"], limit["hard"])
    return out


def _kib(value: int) -> str:
    return "unlimited" if value == UNLIMITED else str(value // 1024)


def _run(bundle_dir: Path, tmp_path: Path) -> tuple[str, str]:
    """``runc run`` under a private state root and a unique id; the id and the output."""
    container = f"hclgpu-{uuid.uuid4().hex[:12]}"
    runc = ["runc", "--root", str(tmp_path / "runc-state")]
    try:
        run = subprocess.run(
            [*runc, "run", "--bundle", str(bundle_dir), container],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        subprocess.run([*runc, "delete", "--force", container], capture_output=True, check=False)
    assert run.returncode == 0, run.stderr
    return container, run.stdout


@pytest.fixture
def bundle(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    rootfs = tmp_path / "rootfs"
    (rootfs / "bin").mkdir(parents=True)
    shutil.copy2(BUSYBOX, rootfs / "bin" / "busybox")
    for applet in APPLETS:
        (rootfs / "bin" / applet).symlink_to("busybox")
    bundle_dir = tmp_path / "bundle"
    bundle_dir.mkdir()
    yield bundle_dir, rootfs


def test_runc_runs_the_bundle_with_the_hook_args_env_shm_and_rlimits(
    bundle: tuple[Path, Path], tmp_path: Path
) -> None:
    bundle_dir, rootfs = bundle
    config = _render(rootfs, oci_devices="hook")
    assert config["root"]["path"] == str(rootfs)
    assert config["hooks"]["prestart"] == [NVIDIA_HOOK]
    record = tmp_path / "hook"
    record.mkdir()
    stub = tmp_path / "nvidia-hook-stub"
    stub.write_text(f'#!/bin/sh\necho "$@" > {record}/args\ncat > {record}/state.json\n')
    stub.chmod(0o755)
    config["hooks"]["prestart"][0]["path"] = str(stub)
    limits = _clamp(config)
    (bundle_dir / "config.json").write_text(json.dumps(config))

    container, stdout = _run(bundle_dir, tmp_path)
    lines = stdout.splitlines()
    values = {line.split(":", 1)[0]: line.split(":", 1)[1] for line in lines if not line.startswith("ENV:")}
    env = dict(line[4:].split("=", 1) for line in lines if line.startswith("ENV:"))

    assert values["ARGS"] == "zero:probe"  # the job's args, ${NOMAD_TASK_NAME} substituted
    assert env["GREETING"] == "hello from smoke"
    assert env["NVIDIA_VISIBLE_DEVICES"] == "0" and env["NVIDIA_DRIVER_CAPABILITIES"] == "compute,utility"
    assert env["NOMAD_TASK_NAME"] == "probe" and env["PATH"].startswith("/usr/local/sbin")
    assert values["CWD"] == "/" and values["UID"] == "0"

    state = json.loads((record / "state.json").read_text())
    assert state["id"] == container and state["pid"] > 0
    assert Path(state["bundle"]).resolve() == bundle_dir.resolve()
    assert state["annotations"]["io.hclgpu.task"] == "probe"
    assert (record / "args").read_text().split() == ["prestart"]

    assert values["SHM"].split()[1] == str(SHM_BYTES // 1024)  # df -k: total 1K-blocks
    memlock, stack, nofile = limits["RLIMIT_MEMLOCK"], limits["RLIMIT_STACK"], limits["RLIMIT_NOFILE"]
    assert values["MEMLOCK"] == _kib(memlock[0])
    assert values["STACK"] == _kib(stack[0]) and stack[0] == 67108864
    assert values["NOFILE"] == f"{nofile[0]}:{nofile[1]}"


CDI_JOB = """
job "smoke" {
  group "g" {
    task "probe" {
      driver = "docker"
      config {
        image   = "busybox:1.36"
        command = "/bin/sh"
        args    = ["-c", "ls -l /dev/nvidia0; cat /usr/lib/libfake.so; env | sort | sed s/^/ENV:/"]
      }
      resources {
        device "nvidia/gpu" {}
      }
    }
  }
}
"""


def test_runc_runs_a_bundle_with_a_cdi_spec_applied(bundle: tuple[Path, Path], tmp_path: Path) -> None:
    """Device node, cgroup rule, mount, env and createContainer hook of a CDI spec, applied by
    hclgpu, work in a plain runc (/dev/null stands in for the GPU: c 1:3)."""
    bundle_dir, rootfs = bundle
    library = tmp_path / "libfake.so"
    library.write_text("fake driver library\n")
    record = tmp_path / "cdi-hook"
    stub = tmp_path / "cdi-hook-stub"
    stub.write_text(f'#!/bin/sh\necho "$@" > {record}\n')
    stub.chmod(0o755)
    spec = {
        "cdiVersion": "0.5.0",
        "kind": "nvidia.com/gpu",
        "devices": [
            {
                "name": "0",
                "containerEdits": {
                    "deviceNodes": [
                        {"path": "/dev/nvidia0", "hostPath": "/dev/null", "type": "c", "major": 1, "minor": 3}
                    ]
                },
            }
        ],
        "containerEdits": {
            "env": ["NVIDIA_VISIBLE_DEVICES=void", "FROM_CDI=1"],
            "mounts": [
                {
                    "hostPath": str(library),
                    "containerPath": "/usr/lib/libfake.so",
                    "options": ["ro", "nosuid", "nodev", "bind"],
                }
            ],
            "hooks": [
                {
                    "hookName": "createContainer",
                    "path": str(stub),
                    "args": ["nvidia-cdi-hook", "create-symlinks"],
                }
            ],
        },
    }
    spec_path = tmp_path / "nvidia.json"
    spec_path.write_text(json.dumps(spec))
    config = _render(rootfs, CDI_JOB, oci_devices="cdi", cdi_spec=str(spec_path))
    assert config["linux"]["devices"] == [{"path": "/dev/nvidia0", "type": "c", "major": 1, "minor": 3}]
    (bundle_dir / "config.json").write_text(json.dumps(config))

    _, stdout = _run(bundle_dir, tmp_path)
    lines = stdout.splitlines()
    assert lines[0].startswith("crw") and "1,   3" in lines[0] and lines[0].endswith("/dev/nvidia0")
    assert lines[1] == "fake driver library"
    env = dict(line[4:].split("=", 1) for line in lines if line.startswith("ENV:"))
    assert env["FROM_CDI"] == "1" and env["NVIDIA_VISIBLE_DEVICES"] == "void"
    assert record.read_text().split() == ["create-symlinks"]
