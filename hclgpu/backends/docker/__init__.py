"""docker back end: one `docker run` command line per docker/podman task.

Lowering (:mod:`~hclgpu.backends.docker.job`, shared with Compose) turns the job into
:class:`~hclgpu.backends.docker.container.Container` values; :mod:`~hclgpu.backends.docker.argv`
makes each one an argv; this module quotes every word with :func:`shlex.quote`, lets the
template (templates/docker/run.sh.j2) lay the words out, and parses the line back the way
:func:`shlex.split` does (:func:`~hclgpu.backends.docker.shell.split`, linear in the line's
length): it must give the argv again, or the template is refused. That is the shell's
version of the YAML parse-back of the other targets.

Each artifact, ``<group>-<task>.sh`` (a long name cut, see
:func:`~hclgpu.backends.target.file_name`), is a ``#!/bin/sh`` script of exactly one command
line, written executable (:mod:`hclgpu.io.output` gives ``#!`` files the execute bits):
printed together they are the commands one per line, in start order, the shebangs and
comments between them harmless, ready to paste.
"""

from __future__ import annotations

import shlex

from hclgpu.backends.registry import BaseTarget

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from hclgpu.backends.docker.container import Container
    from hclgpu.backends.target import Artifact, Lowering
    from hclgpu.ir import models as m

TEMPLATE = "run.sh.j2"


class Docker(BaseTarget):
    name = "docker"
    takes_device_ids = True

    def render(self, job: m.Job, ctx: Lowering) -> list[Artifact]:
        """One artifact per container, in the order the containers must start."""
        from hclgpu.backends.docker.argv import run_argv
        from hclgpu.backends.docker.container import DOCKER, ContainerLowering
        from hclgpu.backends.docker.job import lower_job
        from hclgpu.backends.target import Artifact, file_name

        docker = ContainerLowering.of(ctx, DOCKER)
        user_dir, source = ctx.options.templates, ctx.source_name
        return [
            Artifact(file_name(c.service, ".sh"), render_line(run_argv(c, docker), user_dir, source, role(c)))
            for c in lower_job(job, docker)
        ]


def role(c: Container) -> str:
    """When a lifecycle task's script runs among its group's (a comment in the script: each
    script is one command, and the order is what Nomad's lifecycle hooks said)."""
    if c.hook == "prestart":
        if c.sidecar:
            return "prestart sidecar: start it before the main tasks of its group; it keeps running"
        return "prestart task: run it to completion before the main tasks of its group start"
    if c.hook == "poststart":
        return "poststart task: start it once the main tasks of its group have started"
    if c.hook == "poststop":
        return "poststop task: run it after the main tasks of its group stop"
    return ""


TARGET = Docker()


def render_line(argv: list[str], user_dir: str | None, source: str, role: str = "") -> str:
    """The command line of ``argv`` through the template, checked to split back into ``argv``;
    ``role`` says when a lifecycle task runs (see :func:`role`)."""
    import jinja2

    from hclgpu.backends.docker.shell import split
    from hclgpu.backends.templating import TemplateError, environment

    words = [shlex.quote(word) for word in argv]
    try:
        template = environment("docker", user_dir).get_template(TEMPLATE)
        text = template.render(words=words, argv=argv, source=source, role=role)
    except jinja2.TemplateError as error:
        raise TemplateError(f"template {TEMPLATE}: {error}") from None
    try:
        parsed = split(text)
    except ValueError as error:
        raise TemplateError(f"template {template.name} produced an invalid shell line: {error}") from None
    if parsed != argv:
        raise TemplateError(f"template {template.name} does not reproduce the command it was given")
    return text if text.endswith("\n") else text + "\n"
