"""Nomad's task environment in a container: its ``NOMAD_*`` variables, its ``${...}``
references, and the task directories behind them.

Nomad sets ``NOMAD_*`` variables in every task and interpolates ``${NOMAD_*}`` in driver
config and env (:mod:`hclgpu.backends.task_env`). A container gets the static ones as env
entries, first in its env list, and its command, args and env values refer to them as
``$(NOMAD_X)``, which the kubelet expands (in command, args and env values only, and in env
values only for variables listed before). ``workingDir`` is not expanded, so there the value
itself is written. ``NOMAD_ALLOC_ID`` is the pod's UID (downward API); a group of several
allocations has no index or name per pod, so those two are not set and a reference to them
stays as text (HG302, as for any other runtime variable).

The task directories are where Nomad's docker driver mounts them: ``/alloc`` an emptyDir
shared by the pod's containers (as the allocation directory is shared by its tasks),
``/local`` and ``/secrets`` (in memory) one emptyDir per container, mounted where a task
refers to them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hclgpu.backends.kubernetes.names import dns_label
from hclgpu.backends.kubernetes.objects import Obj
from hclgpu.backends.target import Lowering
from hclgpu.backends.task_env import TASK_DIRS, nomad_env, substitute, without_node
from hclgpu.ir import models as m

__all__ = ["ContainerEnv"]

_PER_ALLOCATION = ("NOMAD_ALLOC_INDEX", "NOMAD_ALLOC_NAME")
"""Variables a Deployment's pods cannot each be given: they differ from one allocation to
the next, and pods of one template are alike."""

ALLOC_VOLUME = "alloc"
"""The pod's shared emptyDir at /alloc."""


@dataclass(slots=True)
class ContainerEnv:
    """The static ``NOMAD_*`` variables of one task, and the task directories it refers to."""

    variables: dict[str, str]
    used_dirs: set[str] = field(default_factory=set)

    node: dict[str, str] = field(default_factory=dict)
    """The values of `--node`'s attributes, meta and identity (empty without one)."""

    @classmethod
    def of(cls, job: m.Job, group: m.TaskGroup, task: m.Task, ctx: Lowering) -> ContainerEnv:
        options = ctx.options
        variables = nomad_env(job, group, task, options.cpu_mhz_per_core, options.memory_oversubscription)
        if (group.count or 1) > 1:
            for name in _PER_ALLOCATION:
                variables.pop(name, None)
        return cls(variables, node=dict(options.node_values or {}))

    def kept(self, values: list[str], where: str, task: m.Task, ctx: Lowering) -> list[str]:
        """``values`` less those naming the node the pod runs on (HG301 for each): a manifest
        would carry the reference as text."""
        return [value for value in values if without_node(ctx, task, where, value)]

    def expanded(self, text: str, unknown: set[str]) -> str:
        """``text`` (already a Kubernetes literal) with ``${NOMAD_X}`` as ``$(NOMAD_X)`` and a
        task directory as its path; anything else is added to ``unknown``."""
        return substitute(text, self._reference, unknown)

    def literal(self, text: str, unknown: set[str]) -> str:
        """``text`` with every static variable written as its value (where nothing expands)."""
        return substitute(text, self._value, unknown)

    def _reference(self, name: str) -> str | None:
        if name in TASK_DIRS:
            return self._value(name)
        if name == "NOMAD_ALLOC_ID" or name in self.variables:
            return f"$({name})"
        return self.node.get(name)

    def _value(self, name: str) -> str | None:
        if name in TASK_DIRS:
            self.used_dirs.add(name)
        return self.variables.get(name, self.node.get(name))

    def entries(self) -> list[Obj]:
        """The env entries: NOMAD_ALLOC_ID from the downward API, then the static ones."""
        uid = {"name": "NOMAD_ALLOC_ID", "valueFrom": {"fieldRef": {"fieldPath": "metadata.uid"}}}
        return [uid, *({"name": name, "value": value} for name, value in sorted(self.variables.items()))]

    def mounts(self, container: str, volumes: list[Obj]) -> list[Obj]:
        """The volumeMounts of the task directories the task refers to, adding their volumes."""
        mounts = []
        for name in sorted(self.used_dirs):
            path = TASK_DIRS[name]
            volume = (
                ALLOC_VOLUME if name == "NOMAD_ALLOC_DIR" else dns_label(f"{path.strip('/')}-{container}")
            )
            if not any(v["name"] == volume for v in volumes):
                empty: Obj = {"medium": "Memory"} if name == "NOMAD_SECRETS_DIR" else {}
                volumes.append({"name": volume, "emptyDir": empty})
            mounts.append({"name": volume, "mountPath": path})
        return mounts
