"""NVIDIA GPU models under each name Kubernetes nodes are labelled with: one table, read by the
Kubernetes back end (``render --node-labels``) and by ``import`` alike, so that a label written
for a model reads back as that model.

A Nomad job names a GPU by its NVML name, which nomad-device-nvidia reports as
``${device.model}`` (``Tesla T4``, ``NVIDIA H100 80GB HBM3``). Kubernetes nodes carry it in
one of three vocabularies:

* ``gfd``: GPU Feature Discovery's ``nvidia.com/gpu.product``, the NVML name sanitised
  (:func:`gfd_product`), so every model has one;
* ``gke``: GKE's ``cloud.google.com/gke-accelerator``, the Compute Engine accelerator type;
* ``karpenter``: Karpenter's ``karpenter.k8s.aws/instance-gpu-name``, the EC2 GPU name in
  lower case.

The clouds' names are coarser than NVML's: Karpenter's ``a100`` is on p4d (A100 40 GB) and
p4de (A100 80 GB) instances, its ``v100`` on p3 (16 GB) and p3dn (32 GB), and GKE's
``nvidia-h100-80gb`` and ``nvidia-h100-mega-80gb`` both carry the same H100 SXM. So a model
has any number of values in a vocabulary and a value stands for any number of models:
:func:`label_values` and :func:`models_of` give both directions, and callers report where
one label says more or less than one model.

Only models whose NVML name and cloud names are on record are listed (sources at each row).

Layer 1: the standard library (and :mod:`hclgpu.units.mig`) only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hclgpu.units.mig import parse_mig_model

__all__ = [
    "GKE_LABEL",
    "GPU_NAMES",
    "KARPENTER_LABEL",
    "LABELS",
    "PRODUCT_LABEL",
    "GpuName",
    "Vocabulary",
    "gfd_product",
    "label_values",
    "models_of",
    "vocabulary_of",
]

Vocabulary = Literal["gfd", "gke", "karpenter"]

PRODUCT_LABEL = "nvidia.com/gpu.product"
"""GPU Feature Discovery's product label (k8s-device-plugin internal/lm/resource.go)."""
GKE_LABEL = "cloud.google.com/gke-accelerator"
"""GKE's node label naming the accelerator type of a GPU node pool
(https://cloud.google.com/kubernetes-engine/docs/how-to/gpus, "Multiple GPUs")."""
KARPENTER_LABEL = "karpenter.k8s.aws/instance-gpu-name"
"""Karpenter's well-known label "Name of the GPU on the instance, if available"
(aws/karpenter-provider-aws website/content/en/docs/concepts/scheduling.md:180 at 1d92708)."""
LABELS: dict[Vocabulary, str] = {"gfd": PRODUCT_LABEL, "gke": GKE_LABEL, "karpenter": KARPENTER_LABEL}
"""Each vocabulary's node label."""


def gfd_product(model: str) -> str:
    """GPU Feature Discovery's ``nvidia.com/gpu.product`` spelling of an NVML model name:
    characters outside ``[A-Za-z0-9-_. ]`` dropped, spaces turned into ``-``; a MIG model's
    profile has ``+`` as ``.`` (``<parent>-MIG-1g.10gb.me``, the single strategy's label,
    k8s-device-plugin internal/rm/rm.go:145 at 1b826ac)."""
    mig = parse_mig_model(model)
    if mig is not None:
        model = f"{mig[0]} MIG {mig[1].replace('+', '.')}"
    kept = "".join(c for c in model if c.isascii() and (c.isalnum() or c in "-_. "))
    return kept.replace(" ", "-")


@dataclass(frozen=True, slots=True)
class GpuName:
    """One GPU model: its NVML name and its value in each vocabulary (none: that cloud has
    no such GPU, or none is on record)."""

    model: str
    """The NVML name, Nomad's ``${device.model}``."""
    gke: tuple[str, ...] = ()
    """Its ``cloud.google.com/gke-accelerator`` values."""
    karpenter: tuple[str, ...] = ()
    """Its ``karpenter.k8s.aws/instance-gpu-name`` values."""

    @property
    def gfd(self) -> str:
        """Its ``nvidia.com/gpu.product`` value (computed: GFD's rule is one function)."""
        return gfd_product(self.model)


# Sources.
# NVML names: the `nvidia-smi` tables of public repositories (find_string on the code corpus:
#   "|   0  Tesla T4 ...", "NVIDIA A10G", "NVIDIA L4", "NVIDIA L40S", "NVIDIA B200", "Tesla P4",
#   "Tesla K80", "Tesla M60"; `Tesla V100-SXM2-16GB`/`-32GB` and `Tesla P100-PCIE-16GB` from
#   `nvidia-smi --list-gpus` and framework device logs, the latter on Kaggle, which runs on
#   Compute Engine); A100, H100 and H200 names as hclgpu/units/mig.py:62-89 records them.
# GKE: https://cloud.google.com/kubernetes-engine/docs/how-to/gpus, "Create a GPU node pool":
#   "NVIDIA B200 GPUs (corresponding to the nvidia-b200 accelerator type and A4 machine series)",
#   "NVIDIA H200 141 GB GPUs (... nvidia-h200-141gb ... A3 Ultra)", "NVIDIA H100 80 GB GPUs
#   (... nvidia-h100-80gb ... A3 High)", "NVIDIA H100 80GB Mega GPUs (... nvidia-h100-mega-80gb
#   ... A3 Mega)", "NVIDIA A100 40 GB GPUs (... nvidia-tesla-a100 ... A2 Standard)", "NVIDIA
#   A100 80GB GPUs (... nvidia-a100-80gb ... A2 Ultra)", "NVIDIA L4 GPUs (... nvidia-l4 ...)",
#   and its example `--accelerator type=nvidia-tesla-p100`; `nvidia-tesla-t4` (its Terraform
#   GPU_TYPE example), `nvidia-tesla-v100`, `nvidia-tesla-p4`, `nvidia-tesla-k80`: the same
#   accelerator types as Vertex AI's AcceleratorType enum (NvidiaTeslaT4, ...V100, ...P4,
#   ...K80; https://cloud.google.com/dotnet/docs/reference/Google.Cloud.AIPlatform.V1/latest/
#   Google.Cloud.AIPlatform.V1.AcceleratorType). A3 High and Mega both carry the H100 SXM
#   (NVML `NVIDIA H100 80GB HBM3`), A3 Ultra the H200 SXM, A2 the A100 SXM4 boards.
# Karpenter: aws/karpenter-provider-aws website/content/en/docs/reference/instance-types.md at
#   1d92708 (`karpenter.k8s.aws/instance-gpu-name` and `-gpu-memory` per instance type):
#   g4dn t4, g5 a10g, g6/gr6 l4, g6e l40s, p3dn v100 (32768 MiB), p4d a100 (40960 MiB), p4de
#   a100 (81920 MiB), p5 h100, p5e/p5en h200, p6-b200 b200; retired types in
#   website/content/en/v1.0/reference/instance-types.md: p2 k80, g3 m60, p3 v100 (16384 MiB).
#   (g6f's fractional L4s are labelled `l4` too; NVML may name those vGPUs otherwise.)
GPU_NAMES: tuple[GpuName, ...] = (
    GpuName("Tesla K80", gke=("nvidia-tesla-k80",), karpenter=("k80",)),
    GpuName("Tesla M60", karpenter=("m60",)),
    GpuName("Tesla P4", gke=("nvidia-tesla-p4",)),
    GpuName("Tesla P100-PCIE-16GB", gke=("nvidia-tesla-p100",)),
    GpuName("Tesla V100-SXM2-16GB", gke=("nvidia-tesla-v100",), karpenter=("v100",)),
    GpuName("Tesla V100-SXM2-32GB", karpenter=("v100",)),
    GpuName("Tesla T4", gke=("nvidia-tesla-t4",), karpenter=("t4",)),
    GpuName("NVIDIA A10G", karpenter=("a10g",)),
    GpuName("NVIDIA A100-SXM4-40GB", gke=("nvidia-tesla-a100",), karpenter=("a100",)),
    GpuName("NVIDIA A100-SXM4-80GB", gke=("nvidia-a100-80gb",), karpenter=("a100",)),
    GpuName("NVIDIA A100 80GB PCIe"),
    GpuName("NVIDIA L4", gke=("nvidia-l4",), karpenter=("l4",)),
    GpuName("NVIDIA L40S", karpenter=("l40s",)),
    GpuName("NVIDIA H100 80GB HBM3", gke=("nvidia-h100-80gb", "nvidia-h100-mega-80gb"), karpenter=("h100",)),
    GpuName("NVIDIA H200", gke=("nvidia-h200-141gb",), karpenter=("h200",)),
    GpuName("NVIDIA B200", gke=("nvidia-b200",), karpenter=("b200",)),
)
"""The GPU models whose names are on record, oldest first."""

_BY_MODEL: dict[str, GpuName] = {row.model: row for row in GPU_NAMES}


def _values(row: GpuName, vocabulary: Vocabulary) -> tuple[str, ...]:
    """The row's values in one vocabulary."""
    return (row.gfd,) if vocabulary == "gfd" else row.gke if vocabulary == "gke" else row.karpenter


def label_values(model: str, vocabulary: Vocabulary) -> tuple[str, ...]:
    """The values nodes with ``model`` carry in ``vocabulary``'s label: GFD's spelling for any
    model; the table's cloud names (none for a model the table does not list)."""
    if vocabulary == "gfd":
        return (gfd_product(model),)
    row = _BY_MODEL.get(model)
    return _values(row, vocabulary) if row is not None else ()


def models_of(value: str, vocabulary: Vocabulary) -> tuple[str, ...]:
    """The NVML names of the table's models labelled ``value`` in ``vocabulary`` (empty for a
    value not on record); several where the cloud's name is coarser than NVML's."""
    return tuple(row.model for row in GPU_NAMES if value in _values(row, vocabulary))


def vocabulary_of(label: str) -> Vocabulary | None:
    """The vocabulary whose node label is ``label``, or None."""
    return next((v for v, key in LABELS.items() if key == label), None)
