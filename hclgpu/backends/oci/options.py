"""The options of ``render --target oci`` (its own flags, see the target in
:mod:`hclgpu.backends.oci`), and how the lowering reads them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from hclgpu.backends.registry import options_of

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.backends.target import Lowering


@dataclass(frozen=True, slots=True)
class OciOptions:
    """The flags of ``render --target oci``."""

    oci_devices: Literal["hook", "cdi", "env"] = "hook"
    """How GPUs reach the container: the NVIDIA prestart hook, CDI names, or env only."""
    cdi_spec: str | None = None
    """A CDI spec file whose edits are applied to config.json."""
    rootfs: str | None = None
    """A root filesystem directory to reference (or copy) into each bundle."""


def oci_options(ctx: Lowering) -> OciOptions:
    """The oci options of this translation (the defaults when none were given)."""
    return options_of(ctx.options.target, OciOptions)
