"""The options of ``render --target kubernetes`` (its own flags, see the target in
:mod:`hclgpu.backends.kubernetes`), and how the lowering reads them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from hclgpu.backends.registry import options_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.backends.target import Lowering


@dataclass(frozen=True, slots=True)
class KubernetesOptions:
    """The flags of ``render --target kubernetes``."""

    k8s_devices: Literal["plugin", "dra"] = "plugin"
    """Device requests as device-plugin resources with node affinity, or DRA claims."""
    namespace: str | None = None
    """The namespace written into every object (a DNS label), else none."""

    def __post_init__(self) -> None:
        problem = None if self.namespace is None else namespace_problem(self.namespace)
        if problem:
            raise ValueError(problem)


_DNS_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")


def namespace_problem(text: str) -> str | None:
    """Why ``text`` cannot be a namespace: Kubernetes requires an RFC 1123 label, and it is
    written into every manifest as it is given."""
    if _DNS_LABEL.fullmatch(text):
        return None
    return (
        f"{text!r} is not a DNS label (at most 63 lowercase letters, digits and '-', "
        "starting and ending with a letter or digit)"
    )


def namespace_argument(text: str) -> str:
    """An argparse type for ``--namespace``: a usage error unless a DNS label."""
    import argparse

    problem = namespace_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text


def kubernetes_options(ctx: Lowering) -> KubernetesOptions:
    """The kubernetes options of this translation (the defaults when none were given)."""
    return options_of(ctx.options.target, KubernetesOptions)
