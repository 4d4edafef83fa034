"""compose back end: one compose.yaml with a service per docker/podman task.

A Compose service describes the same engine settings as `docker run`, so the tasks are
lowered by the docker back end's lowering (:mod:`hclgpu.backends.docker.job`) and only
written differently: :mod:`~hclgpu.backends.compose.service` maps one container,
:mod:`~hclgpu.backends.compose.project` adds depends_on, networks and `$` escaping. The
template (templates/compose/compose.yaml.j2) places the values through the `json` filter
and the document is parsed back before it is returned.
"""

from __future__ import annotations

from hclgpu.backends.registry import BaseTarget

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.backends.target import Artifact, Lowering
    from hclgpu.ir import models as m

TEMPLATE = "compose.yaml.j2"
ARTIFACT = "compose.yaml"


class Compose(BaseTarget):
    name = "compose"
    takes_device_ids = True

    def render(self, job: m.Job, ctx: Lowering) -> list[Artifact]:
        """The project as one artifact, `compose.yaml`."""
        from hclgpu.backends.compose.project import project
        from hclgpu.backends.docker.container import COMPOSE, ContainerLowering
        from hclgpu.backends.docker.job import lower_job
        from hclgpu.backends.target import Artifact
        from hclgpu.backends.templating import render_yaml

        compose = ContainerLowering.of(ctx, COMPOSE)
        data = project(job, lower_job(job, compose), compose)
        text = render_yaml("compose", [TEMPLATE], data, ctx.options.templates, source=ctx.source_name)
        return [Artifact(ARTIFACT, text)]


TARGET = Compose()
