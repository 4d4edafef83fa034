"""`hclgpu fingerprint` on a machine with an NVIDIA GPU, against NVML itself (pynvml).

Runs only where `nvidia-smi` and the `pynvml` module (pip `nvidia-ml-py`) are present and
NVML finds a GPU; elsewhere it is skipped: the captures in tests/data/nvidia-smi stand in
(test_fingerprint_h200.py, test_fingerprint_mig.py). Each value is read the way
nomad-device-nvidia reads it (nvml/driver_linux.go `DeviceInfoByUUID` at 05e83c3); the
sampled ones (power draw, clocks) can only be bounded, not compared.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from typing import Any

import pytest

from hclgpu.cli import main
from hclgpu.plan.fingerprint import pci_bandwidth

pynvml = pytest.importorskip("pynvml", reason="pynvml (nvidia-ml-py) is not installed")
if shutil.which("nvidia-smi") is None:
    pytest.skip("no nvidia-smi on this machine", allow_module_level=True)
try:
    pynvml.nvmlInit()
except pynvml.NVMLError as error:  # no driver, or no GPU
    pytest.skip(f"NVML cannot start here: {error}", allow_module_level=True)

MIB = 1 << 20


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _expected() -> dict[str, dict[str, Any]]:
    """UUID → what the plugin reports for that device: whole GPUs, or each MIG instance of a
    GPU in MIG mode (the parent left out), as nvml/client.go and driver_linux.go do."""
    devices: dict[str, dict[str, Any]] = {}
    for index in range(pynvml.nvmlDeviceGetCount()):
        gpu = pynvml.nvmlDeviceGetHandleByIndex(index)
        try:
            mig = pynvml.nvmlDeviceGetMigMode(gpu)[0] == pynvml.NVML_DEVICE_MIG_ENABLE
        except pynvml.NVMLError_NotSupported:
            mig = False
        handles = [gpu]
        if mig:
            handles = []
            for slot in range(pynvml.nvmlDeviceGetMaxMigDeviceCount(gpu)):
                try:
                    handles.append(pynvml.nvmlDeviceGetMigDeviceHandleByIndex(gpu, slot))
                except pynvml.NVMLError_NotFound:
                    continue
        for handle in handles:
            devices[_text(pynvml.nvmlDeviceGetUUID(handle))] = _device(handle, gpu)
    return devices


def _device(handle: Any, parent: Any) -> dict[str, Any]:
    """The plugin's exact attributes of one device (memory its own, the rest its parent's)."""
    expected: dict[str, Any] = {
        "model": _text(pynvml.nvmlDeviceGetName(handle)),
        "memory": f"{pynvml.nvmlDeviceGetMemoryInfo(handle).total // MIB} MiB",
        "pci_bandwidth": f"{_bandwidth(parent)} MB/s",
        "power_limit": pynvml.nvmlDeviceGetEnforcedPowerLimit(parent) // 1000,
        "max_graphics": pynvml.nvmlDeviceGetMaxClockInfo(parent, pynvml.NVML_CLOCK_GRAPHICS),
    }
    with contextlib.suppress(pynvml.NVMLError_NotSupported):  # the plugin leaves bar1 out then
        expected["bar1"] = f"{pynvml.nvmlDeviceGetBAR1MemoryInfo(parent).bar1Total // MIB} MiB"
    return expected


def _bandwidth(gpu: Any) -> int:
    generation = pynvml.nvmlDeviceGetMaxPcieLinkGeneration(gpu)
    return pci_bandwidth(generation, pynvml.nvmlDeviceGetMaxPcieLinkWidth(gpu))


def test_fingerprint_reports_what_nvml_reports(capsys: pytest.CaptureFixture[str]) -> None:
    expected = _expected()
    assert main(["fingerprint", "--output", "json", "--name", "here"]) == 0
    node = json.loads(capsys.readouterr().out)["nodes"][0]
    found = {i["id"]: g for g in node["devices"] for i in g["instances"]}
    assert sorted(found) == sorted(expected)
    driver = _text(pynvml.nvmlSystemGetDriverVersion())
    for uuid, device in expected.items():
        group = found[uuid]
        attributes = group["attributes"]
        assert group["model"] == device["model"], uuid
        assert attributes["memory"] == device["memory"], uuid
        assert attributes["pci_bandwidth"] == device["pci_bandwidth"], uuid
        assert attributes["driver_version"] == driver
        assert attributes.get("bar1") == device.get("bar1"), uuid
        # sampled: the draw is at most the enforced limit, the clock at most its maximum
        assert 0 <= int(attributes["power"].split()[0]) <= device["power_limit"], uuid
        assert 0 < int(attributes["cores_clock"].split()[0]) <= device["max_graphics"], uuid
