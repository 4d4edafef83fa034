"""Node inventories: hclgpu/Nomad/kubectl loading, format detection, and nvidia-smi fingerprints."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hclgpu.plan import fingerprint as fp
from hclgpu.plan.inventory import (
    InventoryError,
    convert,
    detect_format,
    inventory_schema,
    load_inventory,
    nomad_attribute_string,
)
from hclgpu.plan.model import MAX_DEVICE_INSTANCES, DeviceGroup, Instance, Inventory, Node
from hclgpu.units.gpu_names import GPU_NAMES
from tests.work import work_of

ROOT = Path(__file__).resolve().parent.parent
NODES = ROOT / "samples" / "nodes"
SMI = ROOT / "tests" / "data" / "nvidia-smi"


# --- fingerprints -------------------------------------------------------------------------------


def test_fingerprint_csv_groups_by_model() -> None:
    a10g = {
        "memory": "23028 MiB",
        "power": "300 W",
        "cores_clock": "1710 MHz",
        "memory_clock": "6251 MHz",
        "pci_bandwidth": "32768 MB/s",
        "driver_version": "535.161.08",
        "display_state": "0",
        "persistence_mode": "1",
    }
    t4 = {
        "memory": "15360 MiB",
        "power": "70 W",
        "cores_clock": "1590 MHz",
        "memory_clock": "5001 MHz",
        "pci_bandwidth": "16384 MB/s",
        "driver_version": "535.161.08",
        "display_state": "0",
        "persistence_mode": "0",
    }
    expected = Inventory(
        version=1,
        nodes=[
            Node.model_validate(
                {
                    "name": "gpu-box",
                    "attributes": {"unique.hostname": "gpu-box"},
                    "devices": [
                        DeviceGroup(
                            vendor="nvidia",
                            type="gpu",
                            model="NVIDIA A10G",
                            instances=[
                                Instance(id="GPU-5b4a9c1e-7d2f-4e8a-b3c6-0f1e2d3c4b5a"),
                                Instance(id="GPU-a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"),
                            ],
                            attributes=a10g,
                        ),
                        DeviceGroup(
                            vendor="nvidia",
                            type="gpu",
                            model="Tesla T4",
                            instances=[Instance(id="GPU-0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f")],
                            attributes=t4,
                        ),
                    ],
                }
            )
        ],
    )
    text = (SMI / "query-gpu.csv").read_text(encoding="utf-8")
    assert fp.fingerprint_csv(text, "gpu-box") == expected


def test_fingerprint_csv_tolerates_header_and_units() -> None:
    header = ", ".join(fp.QUERY_FIELDS) + "\n"
    line = "GPU-1, Tesla T4, 15360 MiB, 70.00 W, 1590 MHz, [N/A], 00000000:00:1E.0, 535.1, "
    line += "Disabled, Enabled, 3, 16\n"
    inventory = fp.fingerprint_csv(header + line, "n")
    group = inventory.nodes[0].devices[0]
    assert group.attributes["memory"] == "15360 MiB"
    assert group.attributes["power"] == "70 W"
    assert "memory_clock" not in group.attributes


def test_fingerprint_xml_reads_bar1_and_both_power_layouts() -> None:
    h100 = {  # the power draw (71.42 W, truncated as the plugin's mW / 1000), current clocks
        "memory": "81559 MiB",
        "bar1": "131072 MiB",
        "power": "71 W",
        "cores_clock": "1980 MHz",
        "memory_clock": "2619 MHz",
        "pci_bandwidth": "49152 MB/s",
        "driver_version": "550.54.15",
        "display_state": "0",
        "persistence_mode": "1",
    }
    t4 = {  # older <power_readings> layout (draw 9.86 W); no <clocks>: both clocks left out
        "memory": "15360 MiB",
        "bar1": "256 MiB",
        "power": "9 W",
        "pci_bandwidth": "16384 MB/s",
        "driver_version": "550.54.15",
        "display_state": "0",
        "persistence_mode": "0",
    }
    expected = Inventory(
        nodes=[
            Node.model_validate(
                {
                    "name": "h100-box",
                    "attributes": {"unique.hostname": "h100-box"},
                    "devices": [
                        DeviceGroup(
                            vendor="nvidia",
                            type="gpu",
                            model="NVIDIA H100 80GB HBM3",
                            instances=[
                                Instance(id="GPU-2c1e8f43-9a7b-4d61-8e0f-3b5a6c7d8e91"),
                                Instance(id="GPU-7d3f0a12-4b5c-4e6d-9f70-8a9b0c1d2e3f"),
                            ],
                            attributes=h100,
                        ),
                        DeviceGroup(
                            vendor="nvidia",
                            type="gpu",
                            model="Tesla T4",
                            instances=[Instance(id="GPU-0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f")],
                            attributes=t4,
                        ),
                    ],
                }
            )
        ]
    )
    assert fp.fingerprint_xml((SMI / "q-x.xml").read_text(encoding="utf-8"), "h100-box") == expected


@pytest.mark.parametrize(
    ("generation", "width", "expected"),
    [(3, 16, 16384), (4, 16, 32768), (5, 16, 49152), (6, 8, 32768), (2, 16, 0), (None, 16, 0)],
)
def test_pci_bandwidth_follows_the_plugin(generation: int | None, width: int | None, expected: int) -> None:
    assert fp.pci_bandwidth(generation, width) == expected


def test_query_fields_match_the_command() -> None:
    command = fp.nvidia_smi_command()
    assert command[1] == "--query-gpu=" + ",".join(fp.QUERY_FIELDS)
    assert command[2] == "--format=csv,noheader,nounits"
    assert len(fp.QUERY_FIELDS) == 12


@pytest.mark.parametrize(
    "text",
    [
        "",
        "GPU-1, Tesla T4, 15360\n",
        "GPU-1, Tesla T4, lots, 70, 1590, 5001, 0:0:0, 535, Disabled, Enabled, 3, 16\n",
    ],
)
def test_fingerprint_csv_errors(text: str) -> None:
    with pytest.raises(ValueError, match="nvidia-smi CSV"):
        fp.fingerprint_csv(text, "n")


def test_a_csv_field_longer_than_the_csv_module_reads_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hclgpu.cli import main

    text = "uuid, name\n" + '"' + "a" * 200_000 + '",1\n'
    with pytest.raises(ValueError, match="nvidia-smi CSV line 2: field larger than field limit"):
        fp.fingerprint_csv(text, "n")
    saved = tmp_path / "smi.csv"
    saved.write_text(text)
    assert main(["fingerprint", "--from", str(saved), "--name", "n"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hclgpu fingerprint: nvidia-smi CSV line 2:") and "Traceback" not in err


@pytest.mark.parametrize("text", ["<nvidia_smi_log><gpu>", "<other/>", "<nvidia_smi_log></nvidia_smi_log>"])
def test_fingerprint_xml_errors(text: str) -> None:
    with pytest.raises(ValueError):
        fp.fingerprint_xml(text, "n")


def test_run_nvidia_smi_without_the_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(OSError, match="nvidia-smi not found"):
        fp.run_nvidia_smi()


# --- sample node files --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "format"),
    [
        ("v100.yaml", "hclgpu"),
        ("cluster.yaml", "hclgpu"),
        ("cluster.nomad.json", "nomad"),
        ("cluster.kubernetes.json", "kubernetes"),
    ],
)
def test_every_sample_loads(name: str, format: str) -> None:
    data = json.loads((NODES / name).read_text()) if name.endswith(".json") else None
    if data is not None:
        assert detect_format(data) == format
    inventory, _ = load_inventory(NODES / name)
    assert inventory.nodes
    again, _ = load_inventory(NODES / name, format)
    assert again == inventory


def test_v100_is_the_articles_node() -> None:
    inventory, notes = load_inventory(NODES / "v100.yaml")
    assert notes == []
    group = inventory.nodes[0].devices[0]
    assert f"{group.vendor}/{group.type}/{group.model}" == "nvidia/gpu/Tesla V100-SXM2-16GB"
    assert group.attributes["memory"] == "16130 MiB"
    assert group.attributes["bar1"] == "16384 MiB"
    assert group.attributes["cores_clock"] == "1530 MHz"
    assert group.attributes["pci_bandwidth"] == "15760 MB/s"
    assert group.attributes["power"] == "300 W"
    assert group.attributes["driver_version"] == "418.39"


def test_nomad_json_is_the_same_cluster() -> None:
    ours, _ = load_inventory(NODES / "cluster.yaml")
    nomad, notes = load_inventory(NODES / "cluster.nomad.json")
    assert notes == []
    assert nomad == ours


KUBECTL_ATTRIBUTES = (
    "kernel.name",
    "kernel.version",
    "cpu.arch",
    "unique.hostname",
    "platform.aws.instance-type",
)
"""The node attributes a Kubernetes Node object can give (the Consul and Nomad versions it cannot)."""


def _sanitised(model: str) -> str:
    return re.sub(r"[^A-Za-z0-9_. -]", "", model).replace(" ", "-")


def test_kubernetes_json_is_the_same_cluster_less_what_kubectl_cannot_say() -> None:
    ours, _ = load_inventory(NODES / "cluster.yaml")
    kube, notes = load_inventory(NODES / "cluster.kubernetes.json")
    assert [node.name for node in kube.nodes] == [node.name for node in ours.nodes]
    for mine, theirs in zip(ours.nodes, kube.nodes, strict=True):
        assert theirs.datacenter == mine.datacenter
        assert theirs.attributes == {k: v for k, v in mine.attributes.items() if k in KUBECTL_ATTRIBUTES}
        assert theirs.meta == mine.meta
        assert len(theirs.devices) == len(mine.devices)
        for group, converted in zip(mine.devices, theirs.devices, strict=True):
            assert (converted.vendor, converted.type) == (group.vendor, group.type)
            # GFD's spelling is read back as the NVML name for models of units/gpu_names.py
            on_record = group.model in {row.model for row in GPU_NAMES}
            expected_model = (
                _sanitised(group.model) if group.vendor == "nvidia" and not on_record else group.model
            )
            assert converted.model == expected_model
            assert [i.healthy for i in converted.instances] == [i.healthy for i in group.instances]
            kept = {"memory", "driver_version"} if group.vendor == "nvidia" else {"cores"}
            assert converted.attributes == {k: v for k, v in group.attributes.items() if k in kept}
    assert any("no real" in note or "UUIDs are not" in note for note in notes)
    assert any("sanitises" in note for note in notes)
    assert any("g6-euw1a-01: 2 of 4" in note for note in notes)


def test_cluster_places_every_sample_datacenter() -> None:
    """Every datacenter a sample job names has a node (the samples' defaults included)."""
    inventory, _ = load_inventory(NODES / "cluster.yaml")
    datacenters = {node.datacenter for node in inventory.nodes}
    for path in sorted((ROOT / "samples").glob("*.nomad.hcl")):
        text = path.read_text(encoding="utf-8")
        for block in re.findall(r"datacenters\s*=\s*\[([^\]]*)\]", text):
            names = set(re.findall(r'"([^"]+)"', block))
            assert names & datacenters, f"{path.name}: none of {sorted(names)} in cluster.yaml"
        match = re.search(r'variable "datacenters"[^}]*default\s*=\s*\[([^\]]*)\]', text)
        if match:
            assert set(re.findall(r'"([^"]+)"', match.group(1))) & datacenters


# --- conversion details -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"Int": 16130, "Unit": "MiB"}, "16130 MiB"),
        ({"Float": 1.5, "Unit": "GHz"}, "1.5 GHz"),
        ({"Float": 2.0}, "2.0"),
        ({"Bool": True}, "true"),
        ({"String": "418.39"}, "418.39"),
        ("535.104.05", "535.104.05"),
    ],
)
def test_nomad_attribute_strings(value: object, expected: str) -> None:
    assert nomad_attribute_string(value) == expected


def _nomad_node(**extra: object) -> dict[str, object]:
    node: dict[str, object] = {
        "ID": "1d6",
        "Name": "client-1",
        "Datacenter": "dc2",
        "NodeClass": "gpu",
        "NodePool": "gpus",
        "Attributes": {"kernel.name": "linux"},
        "Meta": {"rack": "r1"},
        "NodeResources": {
            "Devices": [
                {
                    "Vendor": "nvidia",
                    "Type": "gpu",
                    "Name": "Tesla V100-SXM2-16GB",
                    "Instances": [{"ID": "GPU-a", "Healthy": True}, {"ID": "GPU-b", "Healthy": False}],
                    "Attributes": {
                        "memory": {"Int": 16130, "Unit": "MiB"},
                        "driver_version": {"String": "418.39"},
                    },
                }
            ]
        },
    }
    node.update(extra)
    return node


@pytest.mark.parametrize("wrap", ["single", "list", "Nodes"])
def test_nomad_shapes(wrap: str) -> None:
    node = _nomad_node()
    data: object = {"single": node, "list": [node], "Nodes": {"Nodes": [node]}}[wrap]
    assert detect_format(data) == "nomad"
    inventory, notes = convert(data)
    assert notes == []
    (converted,) = inventory.nodes
    assert (converted.name, converted.datacenter, converted.node_pool, converted.node_class) == (
        "client-1",
        "dc2",
        "gpus",
        "gpu",
    )
    assert converted.meta == {"rack": "r1"}
    group = converted.devices[0]
    assert group.attributes == {"memory": "16130 MiB", "driver_version": "418.39"}
    assert [(i.id, i.healthy) for i in group.instances] == [("GPU-a", True), ("GPU-b", False)]


def test_nomad_leaves_out_nodes_nomad_would_not_use() -> None:
    inventory, notes = convert([_nomad_node(), _nomad_node(Name="down-1", Status="down")])
    assert [node.name for node in inventory.nodes] == ["client-1"]
    assert any("down-1" in note for note in notes)


def test_kubernetes_single_node_and_defaults() -> None:
    node = {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "name": "k1",
            "labels": {
                "kubernetes.io/os": "linux",
                "nvidia.com/gpu.product": "Tesla-T4",
                "nvidia.com/gpu.memory": "15360",
                "nvidia.com/cuda.driver.major": "535",
                "nvidia.com/cuda.driver.minor": "104",
                "nvidia.com/cuda.driver.rev": "05",
            },
        },
        "status": {"capacity": {"nvidia.com/gpu": "2", "nvidia.com/mig-1g.5gb": "1"}},
    }
    assert detect_format(node) == "kubernetes"
    inventory, notes = convert(node)
    (converted,) = inventory.nodes
    assert converted.datacenter == "dc1"
    group = converted.devices[0]
    assert group.model == "Tesla T4"  # GFD's Tesla-T4, a model on record
    assert [i.id for i in group.instances] == ["gpu-0", "gpu-1"]
    assert group.attributes == {"memory": "15360 MiB", "driver_version": "535.104.05"}
    assert any("datacenter set to dc1" in note for note in notes)
    mig = converted.devices[1]  # no product label: the one GPU with a 1g.5gb profile
    assert (mig.model, [i.id for i in mig.instances]) == (
        "NVIDIA A100-SXM4-40GB MIG 1g.5gb",
        ["mig-1g.5gb-0"],
    )
    assert any("only GPU with that profile, is assumed" in note for note in notes)


def test_hclgpu_json_is_detected() -> None:
    data = {"version": 1, "nodes": [{"name": "a", "class": "gpu"}]}
    assert detect_format(data) == "hclgpu"
    inventory, notes = convert(data)
    assert inventory.nodes[0].node_class == "gpu"
    assert notes == []


def test_schema_describes_the_format() -> None:
    schema = inventory_schema()
    assert "nodes" in schema["properties"]
    assert "Node" in schema["$defs"]
    json.dumps(schema)


# --- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "empty file"),
        ("nodes: [\n", "not valid YAML or JSON"),
        ("just a string\n", "unrecognised inventory"),
        ("[]", "empty list"),
        ("version: 2\nnodes: []\n", "unsupported inventory version"),
        ("nodes:\n- datacenter: dc1\n", "nodes.0.name"),
        ("nodes:\n- name: a\n  colour: red\n", "colour"),
        ("nodes:\n- name: a\n- name: a\n", "duplicate node"),
        ('{"kind": "List", "items": [{"kind": "Pod"}]}', "expected a Node"),
        (
            '{"Name": "n", "Attributes": {}, "NodeResources": {"Devices": [{"Attributes": {"m": {}}}]}}',
            "none of",
        ),
    ],
)
def test_broken_files_raise_inventory_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "nodes.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InventoryError, match=re.escape(message)) as caught:
        load_inventory(path)
    assert str(caught.value).startswith(str(path))


def test_missing_and_binary_files(tmp_path: Path) -> None:
    with pytest.raises(InventoryError, match="no such file"):
        load_inventory(tmp_path / "absent.yaml")
    binary = tmp_path / "nodes.bin"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(InventoryError, match="not UTF-8"):
        load_inventory(binary)
    with pytest.raises(InventoryError, match="directory"):
        load_inventory(tmp_path)
    with pytest.raises(InventoryError, match="unknown inventory format"):
        load_inventory(tmp_path / "absent.yaml", "terraform")


def _kube_node(capacity: dict[str, str]) -> dict[str, object]:
    return {"kind": "Node", "metadata": {"name": "k1"}, "status": {"capacity": capacity}}


def _instances(count: int) -> list[dict[str, object]]:
    return [{"id": f"GPU-{i}", "healthy": True} for i in range(count)]


@pytest.mark.parametrize(
    "data",
    [
        _kube_node({"nvidia.com/gpu": "100000000"}),
        _kube_node({"nvidia.com/gpu": "600", "amd.com/gpu": "600"}),
        {"version": 1, "nodes": [{"name": "k1", "devices": [
            {"vendor": "nvidia", "type": "gpu", "model": "x", "instances": _instances(1025)}]}]},
        _nomad_node(Name="k1", NodeResources={"Devices": [
            {"Vendor": "nvidia", "Type": "gpu", "Name": "x",
             "Instances": [{"ID": f"GPU-{i}"} for i in range(1025)]}]}),
    ],
    ids=["kubernetes", "kubernetes-two-kinds", "hclgpu", "nomad"],
)  # fmt: skip
def test_a_node_has_at_most_1024_device_instances(data: object) -> None:
    """A Kubernetes count is expanded into one instance per device: 100 million must not be."""
    with pytest.raises(InventoryError, match=r"node k1: \d+ device instances; hclgpu models at most 1024"):
        convert(data)
    assert MAX_DEVICE_INSTANCES == 1024  # the README's documented limit


def test_a_kubernetes_quantity_beyond_int64_is_an_error() -> None:
    with pytest.raises(InventoryError, match=re.escape("status.capacity: `nvidia.com/gpu` is out of range")):
        convert(_kube_node({"nvidia.com/gpu": "9" * 5000}))


class _CountedName(str):
    """A node name that counts how often it is hashed or compared."""

    work = 0

    def __eq__(self, other: object) -> bool:
        _CountedName.work += 1
        return str.__eq__(self, other)

    def __hash__(self) -> int:
        _CountedName.work += 1
        return str.__hash__(self)


def test_many_nodes_are_checked_for_duplicate_names_in_linear_work() -> None:
    """One hash per name; comparing each name with every other would be 4.5 million."""
    from hclgpu.plan.inventory import _checked

    _CountedName.work = 0
    nodes = [Node.model_construct(name=_CountedName(f"n{i}")) for i in range(3_000)]
    assert len(_checked(nodes).nodes) == 3_000
    assert 3_000 <= _CountedName.work <= 2 * 3_000


def _calls_converting(count: int) -> int:
    """The Python and C function calls made reading an inventory of ``count`` nodes."""
    data = {"version": 1, "nodes": [{"name": f"n{i}"} for i in range(count)]}
    (inventory, _), calls = work_of(lambda: convert(data))
    assert len(inventory.nodes) == count
    return calls


def test_reading_twice_the_nodes_is_twice_the_work() -> None:
    small, large = _calls_converting(3_000), _calls_converting(6_000)
    assert large <= 2.1 * small, (small, large)


@pytest.mark.parametrize("where", ["attributes", "meta", "device"])
def test_an_attribute_number_beyond_4300_digits_is_an_error(where: str) -> None:
    """The planner compares attributes as numbers: Python cannot convert such a one."""
    value = "9" * 5000 + " MiB"
    node: dict[str, object] = {"name": "k1", "attributes": {}, "meta": {}, "devices": []}
    if where == "device":
        node["devices"] = [{"vendor": "nvidia", "type": "gpu", "model": "x", "attributes": {"memory": value}}]
    else:
        node[where] = {"memory": value}
    with pytest.raises(InventoryError, match=r"node k1: .*`memory`: a number of more than 4300 digits"):
        convert({"version": 1, "nodes": [node]})


def _gpu_node(labels: dict[str, str], capacity: dict[str, str]) -> dict[str, object]:
    return {"kind": "Node", "metadata": {"name": "k", "labels": labels}, "status": {"capacity": capacity}}


def test_kubernetes_mig_mixed_strategy_gives_a_group_per_profile() -> None:
    # GFD's labels for the mixed strategy: `<resource>.product` = `<parent>-MIG-<profile>`,
    # `<resource>.memory` (k8s-device-plugin internal/lm/resource.go at 1b826ac)
    labels = {
        "topology.kubernetes.io/zone": "z",
        "nvidia.com/mig-1g.10gb.product": "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb",
        "nvidia.com/mig-1g.10gb.memory": "9856",
        "nvidia.com/mig-3g.40gb.product": "NVIDIA-H100-80GB-HBM3-MIG-3g.40gb",
        "nvidia.com/mig-3g.40gb.memory": "40192",
    }
    capacity = {"nvidia.com/mig-1g.10gb": "4", "nvidia.com/mig-3g.40gb": "1"}
    inventory, _ = convert(_gpu_node(labels, capacity))
    (node,) = inventory.nodes
    groups = {g.model: (len(g.instances), g.attributes["memory"]) for g in node.devices}
    assert groups == {
        "NVIDIA H100 80GB HBM3 MIG 1g.10gb": (4, "9856 MiB"),
        "NVIDIA H100 80GB HBM3 MIG 3g.40gb": (1, "40192 MiB"),
    }


def test_kubernetes_mig_single_strategy_names_the_instances_by_the_product() -> None:
    labels = {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb", "nvidia.com/gpu.memory": "9728"}
    inventory, notes = convert(_gpu_node(labels, {"nvidia.com/gpu": "7"}))
    (group,) = inventory.nodes[0].devices
    assert (group.model, len(group.instances)) == ("NVIDIA A100-SXM4-80GB MIG 1g.10gb", 7)
    assert not any("sanitises" in note for note in notes)  # an NVML name, not GFD's


def test_kubernetes_time_slicing_counts_whole_gpus() -> None:
    # time-slicing with 4 replicas: the plugin offers each GPU 4 times and GFD appends -SHARED
    labels = {
        "nvidia.com/gpu.product": "Tesla-T4-SHARED",
        "nvidia.com/gpu.replicas": "4",
        "nvidia.com/gpu.sharing-strategy": "time-slicing",
    }
    inventory, notes = convert(_gpu_node(labels, {"nvidia.com/gpu": "8"}))
    (group,) = inventory.nodes[0].devices
    assert (group.model, len(group.instances)) == ("Tesla T4", 2)
    assert any("shared (time-slicing, 4 replicas per device)" in note for note in notes)


MIG_JOB = """job "j" {
  group "g" {
    count = %d
    task "t" {
      driver = "docker"
      config { image = "x" }
      resources {
        device "nvidia/gpu/NVIDIA H100 80GB HBM3 MIG 1g.10gb" { count = 1 }
      }
    }
  }
}
"""


def test_plan_counts_mixed_strategy_mig_instances_of_kubernetes_nodes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from hclgpu.cli import main

    labels = {"nvidia.com/mig-1g.10gb.product": "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb"}
    nodes = tmp_path / "nodes.json"
    nodes.write_text(json.dumps(_gpu_node(labels, {"nvidia.com/mig-1g.10gb": "2", "cpu": "8"})))
    job = tmp_path / "j.nomad.hcl"
    for count, status, placed in ((2, 0, "2/2 placed"), (3, 1, "2/3 placed")):
        job.write_text(MIG_JOB % count, encoding="utf-8")
        argv = ["plan", str(job), "--nodes", str(nodes), "--nodes-format", "kubernetes", "--color", "never"]
        assert main(argv) == status
        assert placed in capsys.readouterr().out


@pytest.mark.parametrize(
    ("label", "value", "model"),
    [
        ("cloud.google.com/gke-accelerator", "nvidia-l4", "NVIDIA L4"),
        ("karpenter.k8s.aws/instance-gpu-name", "h100", "NVIDIA H100 80GB HBM3"),
        ("karpenter.k8s.aws/instance-gpu-name", "a100", "N/A"),  # p4d 40 GB or p4de 80 GB
    ],
)
def test_kubernetes_nodes_without_gfd_are_named_by_their_cloud_label(
    label: str, value: str, model: str
) -> None:
    inventory, notes = convert(_gpu_node({label: value}, {"nvidia.com/gpu": "2"}))
    assert inventory.nodes[0].devices[0].model == model
    assert (model == "N/A") == any("NVIDIA A100-SXM4-40GB or NVIDIA A100-SXM4-80GB" in n for n in notes)


def test_nomad_node_json_mig_groups_are_planned_by_their_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Nomad client of nomad-device-nvidia 1.1+ lists each MIG profile as its own device group
    named `<parent> MIG <profile>` (fingerprint.go:81-96, 166 at 05e83c3): plan counts them."""
    from hclgpu.cli import main

    nodes = json.loads((NODES / "cluster.nomad.json").read_text(encoding="utf-8"))
    node = next(n for n in nodes if n["Name"] == "p5-use1a-01")
    mig = {
        "Vendor": "nvidia", "Type": "gpu", "Name": "NVIDIA H100 80GB HBM3 MIG 1g.10gb",
        "Instances": [{"ID": f"MIG-{i}", "Healthy": True} for i in range(3)],
        "Attributes": {"memory": {"Int": 9856, "Unit": "MiB"}},
    }  # fmt: skip
    node["NodeResources"]["Devices"] = [mig]
    path = tmp_path / "nodes.json"
    path.write_text(json.dumps([node]), encoding="utf-8")
    job = tmp_path / "j.nomad.hcl"
    for count, status, placed in ((3, 0, "3/3 placed"), (4, 1, "3/4 placed")):
        job.write_text(MIG_JOB % count, encoding="utf-8")
        assert main(["plan", str(job), "--nodes", str(path), "--color", "never"]) == status
        assert placed in capsys.readouterr().out
