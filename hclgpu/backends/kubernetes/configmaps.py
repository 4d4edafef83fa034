"""A group's embedded templates as one ConfigMap, each file mounted where Nomad would render
it (``${NOMAD_TASK_DIR}`` and friends resolved to the task's directories).

Kubernetes does not render Go templates, so their text is copied verbatim and the loss is
reported (HG302); a template the Nomad client reads from disk (``source``) is left out.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass

from hclgpu.backends.containers import SECOND
from hclgpu.backends.kubernetes.objects import Obj, config_map_name, pod_labels
from hclgpu.backends.kubernetes.reporting import approximated, report_leftovers, unsupported
from hclgpu.backends.kubernetes.tasks import translatable
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m

TEMPLATES_VOLUME = "templates"


@dataclass(frozen=True, slots=True)
class TemplateFile:
    """One embedded template: its ConfigMap key and where the container sees it."""

    task: m.Task
    template: m.Template
    key: str
    path: str


_TASK_DIRS = {"${NOMAD_TASK_DIR}": "local", "${NOMAD_SECRETS_DIR}": "secrets", "${NOMAD_ALLOC_DIR}": "alloc"}


_MOUNTED = frozenset(_TASK_DIRS.values())


def _container_path(template: m.Template) -> str | None:
    """Where the container finds an embedded template's file (without the leading ``/``), or
    None when it has none there.

    Nomad renders every destination inside the task directory, an absolute one included
    (``TaskEnv.ClientPath``, client/taskenv/env.go:405-413 at aa026cc99c), and the docker
    driver mounts only the directory's ``alloc``, ``local`` and ``secrets``
    (drivers/docker/driver.go:771-773): ``/etc/shadow`` is rendered to
    ``<task dir>/etc/shadow``, which the container never sees, so it is no ``mountPath``."""
    if template.embedded_tmpl is None or not template.dest_path:
        return None
    dest = template.dest_path
    for variable, directory in _TASK_DIRS.items():
        dest = dest.replace(variable, directory)
    cleaned = posixpath.normpath(dest.lstrip("/"))
    return cleaned if cleaned.split("/", 1)[0] in _MOUNTED else None


def template_files(job: m.Job, group: m.TaskGroup) -> list[TemplateFile]:
    """The group's embedded templates, keyed by their sanitised destination (unique)."""
    files: list[TemplateFile] = []
    keys: set[str] = set()
    for task in group.tasks or []:
        if not translatable(task):
            continue
        for template in task.templates or []:
            dest = _container_path(template)
            if dest is None:
                continue
            key = re.sub(r"[^-._a-zA-Z0-9]+", "_", dest)[:240].lstrip(".") or "template"
            unique, n = key, 2
            while unique in keys:
                unique, n = f"{key}-{n}", n + 1
            keys.add(unique)
            files.append(TemplateFile(task, template, unique, "/" + dest))
    return files


def mount_templates(container: Obj, files: Sequence[TemplateFile]) -> None:
    """Each file at its destination, via subPath, so the rest of the directory stays."""
    for f in files:
        mount = {"name": TEMPLATES_VOLUME, "mountPath": f.path, "subPath": f.key, "readOnly": True}
        container.setdefault("volumeMounts", []).append(mount)


def config_map(job: m.Job, group: m.TaskGroup, ctx: Lowering) -> Obj | None:
    """The group's templates, copied verbatim into one ConfigMap (None when it has none)."""
    files = template_files(job, group)
    for task in group.tasks or []:
        if translatable(task):
            for template in task.templates or []:
                _report_template(task, template, ctx)
    if not files:
        return None
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": config_map_name(job, group), "labels": pod_labels(job, group)},
        "data": {f.key: f.template.embedded_tmpl or "" for f in files},
    }


_TEMPLATE_DEFAULTS: dict[str, object] = {"change_mode": "restart", "perms": "0644", "splay": 5 * SECOND}
"""What jobspec2 fills in: the ConfigMap's default mode is 0644 too, and nothing re-renders."""


def _report_template(task: m.Task, template: m.Template, ctx: Lowering) -> None:
    """What a copied, unrendered template loses."""
    where = f'a template of task "{task.name}"'
    if template.embedded_tmpl is None or not template.dest_path:
        unsupported(
            ctx,
            f"{where} reads `source` on the Nomad client (or has no destination); it is left out",
            template,
            help="inline it with `data`",
        )
        return
    if _container_path(template) is None:
        unsupported(
            ctx,
            f'{where} renders to "{template.dest_path}" inside the task directory, where the '
            "container does not see it (Nomad mounts only its local/, secrets/ and alloc/); it is left out",
            template,
            help='render it under "local/" and point the program there',
        )
        return
    if (template.left_delim or "{{") in template.embedded_tmpl:
        approximated(
            ctx,
            f"{where} is copied verbatim into a ConfigMap: Go templates are not rendered in Kubernetes",
            template,
            help="render it before deploying, or run a templating init container",
        )
    if template.envvars:
        unsupported(
            ctx,
            f"`env = true` in {where}: the file is mounted, but its variables are not set in the "
            "environment (envFrom cannot read an unrendered template)",
            template,
        )
    handled = ["source_path", "dest_path", "embedded_tmpl", "envvars", "left_delim", "right_delim"]
    handled += [f for f, default in _TEMPLATE_DEFAULTS.items() if getattr(template, f) == default]
    report_leftovers(ctx, template, handled, where)
