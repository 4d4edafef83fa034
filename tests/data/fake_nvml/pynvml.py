"""A stand-in for pynvml that answers from a capture's nvml.json (tests/data/nvidia-smi/h200),
so that test_fingerprint_nvml.py runs where no GPU is: only the calls that test makes."""

from __future__ import annotations

import json
import os
from types import SimpleNamespace
from typing import Any

NVML_DEVICE_MIG_ENABLE = 1
NVML_CLOCK_GRAPHICS = 0


class NVMLError(Exception):
    pass


class NVMLError_NotSupported(NVMLError):
    pass


class NVMLError_NotFound(NVMLError):
    pass


_CAPTURE: dict[str, Any] = {}


def nvmlInit() -> None:
    with open(os.environ["FAKE_NVML_JSON"], encoding="utf-8") as file:
        _CAPTURE.update(json.load(file))


def _gpu(handle: int) -> dict[str, Any]:
    return _CAPTURE["devices"][handle]


def nvmlSystemGetDriverVersion() -> str:
    return _CAPTURE["driver_version"]


def nvmlDeviceGetCount() -> int:
    return len(_CAPTURE["devices"])


def nvmlDeviceGetHandleByIndex(index: int) -> int:
    return index


def nvmlDeviceGetMigMode(handle: int) -> list[int]:
    return list(_gpu(handle)["mig_mode"])


def nvmlDeviceGetMaxMigDeviceCount(handle: int) -> int:
    return 0


def nvmlDeviceGetMigDeviceHandleByIndex(handle: int, index: int) -> int:
    raise NVMLError_NotFound()


def nvmlDeviceGetUUID(handle: int) -> str:
    return _gpu(handle)["uuid"]


def nvmlDeviceGetName(handle: int) -> bytes:  # older pynvml returns bytes
    return _gpu(handle)["name"].encode()


def nvmlDeviceGetMemoryInfo(handle: int) -> SimpleNamespace:
    return SimpleNamespace(total=_gpu(handle)["memory_MiB"] << 20)


def nvmlDeviceGetBAR1MemoryInfo(handle: int) -> SimpleNamespace:
    return SimpleNamespace(bar1Total=_gpu(handle)["bar1_MiB"] << 20)


def nvmlDeviceGetMaxPcieLinkGeneration(handle: int) -> int:
    return _gpu(handle)["pcie_max_gen"]


def nvmlDeviceGetMaxPcieLinkWidth(handle: int) -> int:
    return _gpu(handle)["pcie_max_width"]


def nvmlDeviceGetEnforcedPowerLimit(handle: int) -> int:  # milliwatts
    return _gpu(handle)["power_limit_W"] * 1000


def nvmlDeviceGetMaxClockInfo(handle: int, clock: int) -> int:
    return _gpu(handle)["cores_clock_max"]
