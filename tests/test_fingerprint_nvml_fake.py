"""test_fingerprint_nvml.py run here, against the H200 capture: a stand-in `nvidia-smi` prints
the capture's `nvidia-smi -q -x` and a stand-in `pynvml` answers from its nvml.json (what
pynvml read on that machine), so the comparison itself, and the live mode's path through
`nvidia-smi`, are exercised on machines without a GPU."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
FAKE = TESTS / "data" / "fake_nvml"
H200 = TESTS / "data" / "nvidia-smi" / "h200"


def _run(xml: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": f"{FAKE}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join([str(FAKE), str(TESTS.parent)]),
        "FAKE_NVML_JSON": str(H200 / "nvml.json"),
        "FAKE_NVSMI_XML": str(xml),
        "HCLGPU_NO_CACHE": "1",
    }
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        str(TESTS / "test_fingerprint_nvml.py"),
    ]
    return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_the_live_comparison_passes_on_the_h200_capture() -> None:
    done = _run(H200 / "nvsmi.xml")
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr


def test_the_live_comparison_fails_when_fingerprint_disagrees_with_nvml(tmp_path: Path) -> None:
    wrong = tmp_path / "nvsmi.xml"  # BAR1 as a plugin that misread it would report
    wrong.write_text(
        (H200 / "nvsmi.xml").read_text().replace("<total>262144 MiB</total>", "<total>256 MiB</total>")
    )
    done = _run(wrong)
    assert done.returncode == 1 and "bar1" in done.stdout, done.stdout + done.stderr
