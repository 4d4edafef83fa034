"""The options of ``render --target kubernetes`` (its own flags, see the target in
:mod:`hclgpu.backends.kubernetes`), and how the lowering reads them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hclgpu.backends.registry import options_of
from hclgpu.settings.kinds import dns_label_problem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.backends.target import Lowering


@dataclass(frozen=True, slots=True)
class KubernetesOptions:
    """The flags of ``render --target kubernetes``."""

    k8s_devices: Literal["plugin", "dra"] = "plugin"
    """Device requests as device-plugin resources with node affinity, or DRA claims."""
    mig_strategy: Literal["mixed", "single"] = "mixed"
    """How the NVIDIA device plugin advertises MIG instances (``--k8s-devices plugin``):
    ``mixed`` as ``nvidia.com/mig-<profile>`` resources, ``single`` as ``nvidia.com/gpu`` on
    nodes GPU Feature Discovery labels ``nvidia.com/gpu.product=<parent>-MIG-<profile>``."""
    node_labels: Literal["gfd", "gke", "karpenter"] = "gfd"
    """The node label a model (in)equality is written on (``--k8s-devices plugin``): GPU
    Feature Discovery's ``nvidia.com/gpu.product``, GKE's ``cloud.google.com/gke-accelerator``
    or Karpenter's ``karpenter.k8s.aws/instance-gpu-name`` (:mod:`hclgpu.units.gpu_names`).
    GKE and Karpenter nodes often run no GFD, but only GFD labels memory, driver and MIG
    products, so those keep GFD's labels."""
    namespace: str | None = None
    """The namespace written into every object (a DNS label), else none."""

    def __post_init__(self) -> None:
        problem = None if self.namespace is None else dns_label_problem(self.namespace)
        if problem:
            raise ValueError(problem)


def kubernetes_options(ctx: Lowering) -> KubernetesOptions:
    """The kubernetes options of this translation (the defaults when none were given)."""
    return options_of(ctx.options.target, KubernetesOptions)
