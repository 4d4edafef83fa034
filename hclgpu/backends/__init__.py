"""Back ends: one module per target, each lowering the IR job to that target's documents."""

from __future__ import annotations

from hclgpu.backends.target import Artifact, Lowering, file_name
from hclgpu.gc_pause import paused_gc
from hclgpu.ir import models as m

TARGETS = ("nomad", "kubernetes", "oci", "docker", "compose")


def render_target(job: m.Job, target: str, ctx: Lowering) -> list[Artifact]:
    """The artifacts of ``target`` for ``job``; problems go to ``ctx``'s sink as HG3xx."""
    with paused_gc():  # documents are acyclic trees (see hclgpu.gc_pause)
        return _render(job, target, ctx)


def _render(job: m.Job, target: str, ctx: Lowering) -> list[Artifact]:
    if target == "nomad":
        from hclgpu.backends import nomad

        return [Artifact(file_name(job.id or "job", ".json"), nomad.render(job))]
    if target == "kubernetes":
        from hclgpu.backends import kubernetes

        return kubernetes.render(job, ctx)
    if target == "oci":
        from hclgpu.backends import oci

        return oci.render(job, ctx)
    if target == "docker":
        from hclgpu.backends import docker

        return docker.render(job, ctx)
    if target == "compose":
        from hclgpu.backends import compose

        return compose.render(job, ctx)
    raise ValueError(f"unknown target {target!r}")


def join(target: str, artifacts: list[Artifact]) -> str:
    """What `render` prints without --out: the one document, or YAML documents separated by `---`."""
    if target in ("nomad", "docker", "compose"):
        return "".join(a.text for a in artifacts)
    if target == "oci":  # several config.json files: each preceded by a comment line naming it
        return "".join(f"// {a.name}\n{a.text}" for a in artifacts)
    return "---\n".join(a.text for a in artifacts)
