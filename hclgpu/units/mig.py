"""NVIDIA MIG profiles by GPU model, and the `<parent> MIG <profile>` model names of MIG devices.

Since nomad-device-nvidia 1.1.0 each MIG instance is fingerprinted as a GPU of its own
(CHANGELOG.md:12, README.md:17-18 at commit 05e83c3): the plugin asks NVML for the name of the
MIG device handle (nvml/driver_linux.go:141) and groups devices by that name
(fingerprint.go:81-96), which becomes the group's `Name` (fingerprint.go:166), Nomad's
`${device.model}`. NVML names a MIG device `<parent name> MIG <profile>`, e.g.
`NVIDIA A100-SXM4-40GB MIG 1g.5gb`.

The profiles are those of NVIDIA's Multi-Instance GPU User Guide, "Supported MIG Profiles"
(https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html): a
profile `<c>g.<m>gb` has `c` of the GPU's compute slices and `m` GB of its memory, which is
a number of memory slices (eighths; quarters on the A30). `+me` profiles add media
extensions. Only models whose NVML name and profiles are on record are listed.

Layer 1: the standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "MIG_PROFILES",
    "MigProfile",
    "gfd_mig_product",
    "gfd_parent",
    "parse_mig_model",
    "profile_from_plugin",
]

SEPARATOR = " MIG "
"""What NVML puts between a MIG device's parent name and its profile."""


@dataclass(frozen=True, slots=True)
class MigProfile:
    """One MIG profile of one GPU model: its memory (GB, as in its name) and its slices."""

    name: str
    memory_gb: int
    compute_slices: int
    memory_slices: int


def _profiles(*rows: tuple[str, int, int]) -> dict[str, MigProfile]:
    """Profiles from `(name, compute slices, memory slices)`; the memory is read from the name."""
    table = {}
    for name, compute, memory in rows:
        gb = int(name.split(".", 1)[1].split("gb", 1)[0])
        table[name] = MigProfile(name, gb, compute, memory)
    return table


def _seven_eighths(one: int) -> dict[str, MigProfile]:
    """The A100/H100 profiles (7 compute slices, 8 memory slices) whose smallest has ``one`` GB."""
    return _profiles(
        (f"1g.{one}gb", 1, 1),
        (f"1g.{one}gb+me", 1, 1),
        (f"1g.{2 * one}gb", 1, 2),
        (f"2g.{2 * one}gb", 2, 2),
        (f"3g.{4 * one}gb", 3, 4),
        (f"4g.{4 * one}gb", 4, 4),
        (f"7g.{8 * one}gb", 7, 8),
    )


MIG_PROFILES: dict[str, dict[str, MigProfile]] = {
    # "Supported MIG Profiles", A100 MIG Profiles, the A100-SXM4-40GB table: 1g.5gb,
    # 1g.5gb+me, 1g.10gb, 2g.10gb, 3g.20gb, 4g.20gb, 7g.40gb (memory 1/8 .. full, SMs 1/7 ..
    # 7/7; the guide's row gives 1g.10gb 1/8 of the memory, but it is 10 of 40 GB, two slices).
    # Compute slices and memory also NVIDIA/go-nvml pkg/nvml/mock/gpus/a100.go:84-173 at 2f9e261.
    # NVML's name, and its MIG devices': HTCondor's condor_gpu_discovery manual
    # (`NVIDIA A100-SXM4-40GB MIG 1g.5gb`).
    "NVIDIA A100-SXM4-40GB": _seven_eighths(5),
    # Same section: "For A100-SXM4-80GB, the profile names will change according to the memory
    # proportion - for example, 1g.10gb, 1g.10gb+me, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb,
    # 7g.80gb". NVML's name: go-nvml pkg/nvml/mock/dgxa100/dgxa100_test.go:557.
    "NVIDIA A100-SXM4-80GB": _seven_eighths(10),
    # "Supported MIG Profiles", A30 MIG Profiles (A30-24GB): 1g.6gb, 1g.6gb+me, 2g.12gb,
    # 2g.12gb+me, 4g.24gb, in quarters of memory and SMs.
    "NVIDIA A30": _profiles(
        ("1g.6gb", 1, 1),
        ("1g.6gb+me", 1, 1),
        ("2g.12gb", 2, 2),
        ("2g.12gb+me", 2, 2),
        ("4g.24gb", 4, 4),
    ),
    # "Supported MIG Profiles", H100 MIG Profiles (H100-SXM5-80GB): 1g.10gb, 1g.10gb+me,
    # 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb; as go-nvml pkg/nvml/mock/gpus/h100.go:48-137.
    # NVML's name: nvidia-smi -q -x, tests/data/nvidia-smi/q-x.xml.
    "NVIDIA H100 80GB HBM3": _seven_eighths(10),
    # "Supported MIG Profiles", H200 MIG Profiles (H200-SXM5-141GB): 1g.18gb, 1g.18gb+me,
    # 1g.35gb, 2g.35gb, 3g.71gb, 4g.71gb, 7g.141gb; as go-nvml pkg/nvml/mock/gpus/h200.go:48-137
    # (memory not a multiple of the smallest profile's). NVML's name: tests/data/nvidia-smi/h200.
    "NVIDIA H200": _profiles(
        ("1g.18gb", 1, 1),
        ("1g.18gb+me", 1, 1),
        ("1g.35gb", 1, 2),
        ("2g.35gb", 2, 2),
        ("3g.71gb", 3, 4),
        ("4g.71gb", 4, 4),
        ("7g.141gb", 7, 8),
    ),
}
"""Each GPU model's MIG profiles, by the model name NVML reports for the whole GPU."""


def parse_mig_model(model: str) -> tuple[str, str] | None:
    """Split a MIG device's model name, `<parent> MIG <profile>`, into parent and profile.

    None when the name is not one: no ` MIG `, or an empty parent or profile. The profile
    is the text after the last ` MIG ` and must be one word.
    """
    parent, separator, profile = model.rpartition(SEPARATOR)
    if not separator or not parent.strip() or not profile or profile != profile.strip() or " " in profile:
        return None
    return parent, profile


GFD_SEPARATOR = "-MIG-"
"""What GPU Feature Discovery's product label has between a MIG device's parent and profile
(its `nvidia.com/gpu.product` under the single strategy, `nvidia.com/mig-<profile>.product`
under the mixed one: k8s-device-plugin internal/lm/resource.go at 1b826ac)."""


def gfd_parent(dashed: str) -> str | None:
    """The NVML name of a MIG-capable GPU from GFD's spelling (spaces as ``-``), or None."""
    return next((parent for parent in MIG_PROFILES if parent.replace(" ", "-") == dashed), None)


def profile_from_plugin(parent: str | None, plugin_profile: str) -> str:
    """A profile from the device plugin's spelling, where ``+`` is ``.`` (``1g.10gb.me``): the
    ``+me`` profile where the parent's table (any table, parent unknown) has it."""
    tables = [MIG_PROFILES[parent]] if parent in MIG_PROFILES else list(MIG_PROFILES.values())
    plus = plugin_profile[: -len(".me")] + "+me"
    if plugin_profile.endswith(".me") and any(plus in table for table in tables):
        return plus
    return plugin_profile


def gfd_mig_product(value: str) -> tuple[str, str, bool] | None:
    """GFD's ``<parent>-MIG-<profile>`` as the NVML parent name, the profile, and whether the
    parent is in the table (else its spaces are guessed: only ``NVIDIA-`` becomes ``NVIDIA ``)."""
    dashed, separator, plugin_profile = value.rpartition(GFD_SEPARATOR)
    if not separator or not dashed or not plugin_profile:
        return None
    parent = gfd_parent(dashed)
    if parent is not None:
        return parent, profile_from_plugin(parent, plugin_profile), True
    guess = "NVIDIA " + dashed[len("NVIDIA-") :] if dashed.startswith("NVIDIA-") else dashed
    return guess, profile_from_plugin(None, plugin_profile), False
