"""Kubernetes back end: workloads, Services and ConfigMaps, devices as device-plugin resources
with node affinity, or as DRA ResourceClaimTemplates with CEL selectors.

Lowering turns the job into plain Kubernetes objects: workloads.py builds each group's
objects, pod.py assembles its pod from containers.py, probes.py, configmaps.py and
placement.py, and devices.py lowers device requests (devices_plugin.py, devices_dra.py).
Each object is then written by a template (templates/kubernetes/<kind>.yaml.j2, else
object.yaml.j2) and parsed back before it is returned.
"""

from __future__ import annotations

from hclgpu.backends.kubernetes.options import KubernetesOptions
from hclgpu.backends.registry import BaseTarget

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.backends.target import Artifact, Lowering
    from hclgpu.ir import models as m


class Kubernetes(BaseTarget):
    name = "kubernetes"
    Options = KubernetesOptions

    def render(self, job: m.Job, ctx: Lowering) -> list[Artifact]:
        """One YAML artifact per object, named `<kind>-<name>.yaml`."""
        from hclgpu.backends.kubernetes.workloads import lower_job
        from hclgpu.backends.target import Artifact
        from hclgpu.backends.templating import render_yaml

        artifacts = []
        for obj in lower_job(job, ctx):
            kind = str(obj["kind"]).lower()
            name = str(obj["metadata"]["name"])
            names = [f"{kind}.yaml.j2", "object.yaml.j2"]
            text = render_yaml("kubernetes", names, obj, ctx.options.templates, source=ctx.source_name)
            artifacts.append(Artifact(f"{kind}-{name}.yaml", text))
        return artifacts

    def join(self, artifacts: list[Artifact]) -> str:
        """The objects as one YAML stream, documents separated by ``---``."""
        return "---\n".join(a.text for a in artifacts)


TARGET = Kubernetes()
