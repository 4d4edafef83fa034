"""The MIG profile table and the `<parent> MIG <profile>` model names (hclgpu.units.mig)."""

from __future__ import annotations

import pytest

from hclgpu.units.mig import MIG_PROFILES, MigProfile, parse_mig_model


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("NVIDIA A100-SXM4-40GB MIG 1g.5gb", ("NVIDIA A100-SXM4-40GB", "1g.5gb")),
        ("NVIDIA H100 80GB HBM3 MIG 1g.10gb+me", ("NVIDIA H100 80GB HBM3", "1g.10gb+me")),
        ("NVIDIA H200 MIG 7g.141gb", ("NVIDIA H200", "7g.141gb")),
        ("NVIDIA H200", None),
        ("NVIDIA A100-SXM4-40GB MIG ", None),
        (" MIG 1g.5gb", None),
        ("NVIDIA A100-SXM4-40GB MIG 1g.5gb extra", None),
        ("NVIDIA A100-SXM4-40GB mig 1g.5gb", None),
    ],
)
def test_parse_mig_model(model: str, expected: tuple[str, str] | None) -> None:
    assert parse_mig_model(model) == expected


def test_a100_40gb_profiles() -> None:
    profiles = MIG_PROFILES["NVIDIA A100-SXM4-40GB"]
    assert set(profiles) == {"1g.5gb", "1g.5gb+me", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"}
    assert profiles["3g.20gb"] == MigProfile("3g.20gb", 20, 3, 4)
    assert profiles["7g.40gb"] == MigProfile("7g.40gb", 40, 7, 8)


@pytest.mark.parametrize("parent", list(MIG_PROFILES))
def test_profiles_are_consistent(parent: str) -> None:
    profiles = MIG_PROFILES[parent]
    whole = max(p.memory_slices for p in profiles.values())
    largest = max(profiles.values(), key=lambda p: p.memory_gb)
    for name, profile in profiles.items():
        assert name == profile.name
        assert name.startswith(f"{profile.compute_slices}g.{profile.memory_gb}gb")
        assert 1 <= profile.compute_slices <= profile.memory_slices
        assert profile.memory_slices <= whole
        assert parse_mig_model(f"{parent} MIG {name}") == (parent, name)
    assert largest.memory_slices == whole
