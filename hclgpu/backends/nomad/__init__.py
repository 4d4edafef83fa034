"""Nomad back end: the job as Nomad API JSON (:mod:`~hclgpu.backends.nomad.api`), one file
named after the job."""

from __future__ import annotations

from hclgpu.backends.registry import BaseTarget

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.backends.target import Artifact, Lowering
    from hclgpu.ir.models import Job


class Nomad(BaseTarget):
    name = "nomad"

    def render(self, job: Job, ctx: Lowering) -> list[Artifact]:
        """One artifact, ``<job id>.json``."""
        from hclgpu.backends.nomad.api import render
        from hclgpu.backends.target import Artifact, file_name

        return [Artifact(file_name(job.id or "job", ".json"), render(job))]


TARGET = Nomad()
