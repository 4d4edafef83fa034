"""OCI back end: one runtime bundle (config.json) per docker/podman task, for runc, crun or
any OCI runtime, with GPUs as the NVIDIA prestart hook, CDI devices or environment only
(``--oci-devices hook|cdi|env``).

bundle.py builds each task's config.json from process.py (args, env, user, capabilities,
rlimits), linux.py (root, mounts, namespaces, cgroup resources) and devices.py (device
requests per vendor and mode, NVIDIA requirements from requirements.py, CDI specs applied
by cdi.py), and reports what a bundle cannot carry (reporting.py). Each config.json is then
written by templates/oci/config.json.j2 and parsed back as JSON before it is returned.
"""

from __future__ import annotations

import json
from typing import Any

from hclgpu.backends.oci.options import OciOptions
from hclgpu.backends.registry import BaseTarget

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.backends.target import Artifact, Lowering
    from hclgpu.ir import models as m

TEMPLATE = "config.json.j2"


class Oci(BaseTarget):
    name = "oci"
    Options = OciOptions
    takes_device_ids = True

    def render(self, job: m.Job, ctx: Lowering) -> list[Artifact]:
        """One ``<group>/<task>/config.json`` artifact per docker/podman task."""
        from hclgpu.backends.oci.bundle import lower_job
        from hclgpu.backends.target import Artifact

        return [
            Artifact(name, render_json(config, ctx.options.templates, source=ctx.source_name))
            for name, config in lower_job(job, ctx)
        ]

    def join(self, artifacts: list[Artifact]) -> str:
        """Every config.json, each preceded by a comment line naming it."""
        return "".join(f"// {a.name}\n{a.text}" for a in artifacts)


TARGET = Oci()


def render_json(data: dict[str, Any], user_dir: str | None, **context: Any) -> str:
    """Render ``data`` with the oci template and check the text parses back, as JSON, to it."""
    import jinja2

    from hclgpu.backends.templating import TemplateError, environment

    try:
        template = environment("oci", user_dir).get_template(TEMPLATE)
        text = template.render(object=data, **context)
    except jinja2.TemplateError as error:
        raise TemplateError(f"template {TEMPLATE}: {error}") from None
    try:
        parsed = json.loads(text)
    except ValueError as error:
        raise TemplateError(f"template {template.name} produced invalid JSON: {error}") from None
    if parsed != data:
        raise TemplateError(f"template {template.name} does not reproduce the object it was given")
    return text if text.endswith("\n") else text + "\n"
