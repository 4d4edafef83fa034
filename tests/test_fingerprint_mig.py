"""`hclgpu fingerprint` of GPUs in MIG mode (tests/data/nvidia-smi/a100-mig, h200-mig).

nomad-device-nvidia 1.1.0 and later make each MIG instance a device named `<parent> MIG
<profile>` with its own memory and its parent's other attributes, and leave the parent out
(nvml/client.go:118-121, nvml/driver_linux.go:85-100 and 141-160 at 05e83c3). The memory
and engine figures in the captures are go-nvml's (see the captures' README); the expected
values below are read from that README's table, not from hclgpu.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hclgpu.cli import main
from hclgpu.plan import fingerprint as fp

DATA = Path(__file__).resolve().parent / "data" / "nvidia-smi"
A100 = DATA / "a100-mig"
H200 = DATA / "h200-mig"
A100_SXM4 = "NVIDIA A100-SXM4-40GB"


def _groups(folder: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    inventory = fp.fingerprint_xml(
        (folder / "nvsmi.xml").read_text(encoding="utf-8"),
        "n",
        (folder / "nvidia-smi-L.txt").read_text(encoding="utf-8"),
    )
    return {g.model: ([i.id for i in g.instances], g.attributes) for g in inventory.nodes[0].devices}


def test_each_mig_instance_is_a_device_named_by_its_profile_and_the_parent_is_not() -> None:
    groups = _groups(A100)
    assert sorted(groups) == [
        A100_SXM4,  # the second GPU, not in MIG mode
        f"{A100_SXM4} MIG 1g.5gb",
        f"{A100_SXM4} MIG 2g.10gb",
        f"{A100_SXM4} MIG 3g.20gb",
    ]
    assert groups[f"{A100_SXM4} MIG 1g.5gb"][0] == [  # sorted by UUID, as client.go:141-143
        "MIG-3a5c7e9f-2b4d-5f6a-8c1e-0d2f4a6b8c93",
        "MIG-7d2e4f6a-1c3b-5a9e-8f0d-6b4c2a0e9f82",
    ]
    assert groups[A100_SXM4][0] == ["GPU-9b47c2d8-0e3f-4a61-8c5d-3f2e1b7a6c02"]


@pytest.mark.parametrize(
    ("folder", "model", "memory"),
    [
        (A100, f"{A100_SXM4} MIG 1g.5gb", 4864),
        (A100, f"{A100_SXM4} MIG 2g.10gb", 9856),
        (A100, f"{A100_SXM4} MIG 3g.20gb", 19968),
        (A100, A100_SXM4, 40960),
        (H200, "NVIDIA H200 MIG 1g.18gb", 18432),
        (H200, "NVIDIA H200 MIG 2g.35gb", 35840),
        (H200, "NVIDIA H200 MIG 3g.71gb", 72704),
    ],
)
def test_an_instance_has_its_own_memory_and_its_parents_other_attributes(
    folder: Path, model: str, memory: int
) -> None:
    attributes = _groups(folder)[model][1]
    assert attributes["memory"] == f"{memory} MiB"
    parent_bar1 = "65536 MiB" if folder is A100 else "262144 MiB"  # the parent's, not the slice's
    assert attributes["bar1"] == parent_bar1
    assert attributes["pci_bandwidth"] == (
        "32768 MB/s" if folder is A100 else "49152 MB/s"
    )  # gen 4 x16, gen 5 x16
    assert attributes["driver_version"] == "580.159.04"


def test_the_listing_is_required_when_the_xml_has_mig_instances(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fingerprint", "--from", str(A100 / "nvsmi.xml"), "--name", "n"]) == 2
    err = capsys.readouterr().err
    assert "MIG device 0: the XML names neither its profile nor its UUID" in err and "--mig-list" in err
    whole = (DATA / "h200" / "nvsmi.xml").read_text(encoding="utf-8")
    assert not fp.has_mig_instances(whole) and fp.has_mig_instances((H200 / "nvsmi.xml").read_text())


def test_a_listing_without_the_instance_is_an_error_naming_it() -> None:
    listing = (A100 / "nvidia-smi-L.txt").read_text(encoding="utf-8")
    short = "\n".join(line for line in listing.splitlines() if "Device  3:" not in line)
    with pytest.raises(ValueError, match=r"MIG device 3: .*missing from the `nvidia-smi -L` output"):
        fp.fingerprint_xml((A100 / "nvsmi.xml").read_text(encoding="utf-8"), "n", short)


def test_a_gpu_in_mig_mode_without_instances_offers_no_device() -> None:
    text = (A100 / "nvsmi.xml").read_text(encoding="utf-8")
    start, end = text.index("<mig_devices>"), text.index("</mig_devices>")
    empty = text[:start] + "<mig_devices>\n\t\t\tNone\n\t\t" + text[end:]
    models = [g.model for g in fp.fingerprint_xml(empty, "n").nodes[0].devices]
    assert models == [A100_SXM4]


JOB = """job "slices" {
  group "g" {
    count = %d
    task "t" {
      driver = "docker"
      config { image = "x" }
      resources {
        device "nvidia/gpu/NVIDIA H200 MIG 1g.18gb" { count = 1 }
      }
    }
  }
}
"""


def test_plan_places_on_the_fingerprinted_mig_instances(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["fingerprint", "--from", str(H200 / "nvsmi.xml"), "--mig-list", str(H200 / "nvidia-smi-L.txt")]
    assert main([*argv, "--name", "h200"]) == 0
    nodes = tmp_path / "nodes.yaml"
    nodes.write_text(capsys.readouterr().out, encoding="utf-8")
    assert yaml.safe_load(nodes.read_text())["nodes"][0]["devices"][2]["model"] == "NVIDIA H200 MIG 1g.18gb"
    job = tmp_path / "slices.nomad.hcl"
    job.write_text(JOB % 2, encoding="utf-8")
    assert main(["plan", str(job), "--nodes", str(nodes), "--color", "never"]) == 0
    assert "2/2 placed" in capsys.readouterr().out
    job.write_text(JOB % 3, encoding="utf-8")  # two 1g.18gb instances on that node
    assert main(["plan", str(job), "--nodes", str(nodes), "--color", "never"]) == 1
    assert "2/3 placed" in capsys.readouterr().out
