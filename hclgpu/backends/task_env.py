"""Nomad's task environment, for targets that do not have one.

Nomad starts a task with ``NOMAD_*`` variables set and ``${...}`` in its driver config and
env interpolated (client/taskenv/env.go at aa026cc99c); the docker driver mounts the
allocation, task and secrets directories at ``/alloc``, ``/local`` and ``/secrets``
(client/allocdir/alloc_dir.go ``SharedAllocContainerPath``, task_dir.go
``TaskLocalContainerPath``/``TaskSecretsContainerPath``) and sets ``NOMAD_ALLOC_DIR``,
``NOMAD_TASK_DIR`` and ``NOMAD_SECRETS_DIR`` to them. Other targets interpolate nothing,
so each substitutes what is static here (names, limits, the directories) and reports the
rest; this module says what is static and does the substitution.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from hclgpu.backends.reporting import unsupported
from hclgpu.backends.target import Lowering
from hclgpu.ir import models as m

__all__ = [
    "DEFAULT_CPU_MHZ",
    "DEFAULT_MEMORY_MB",
    "TASK_DIRS",
    "named_dirs",
    "node_references",
    "nomad_env",
    "nomad_sets",
    "references",
    "substitute",
    "without_node",
]

DEFAULT_CPU_MHZ = 100
"""Nomad reserves 100 MHz when a task sets no `cpu` (api.Resources.Canonicalize)."""
DEFAULT_MEMORY_MB = 300
"""Nomad reserves, and enforces, 300 MiB when a task sets no `memory`."""
TASK_DIRS = {"NOMAD_ALLOC_DIR": "/alloc", "NOMAD_TASK_DIR": "/local", "NOMAD_SECRETS_DIR": "/secrets"}
"""Where Nomad's docker driver mounts the allocation, task and secrets directories."""

_REFERENCE = re.compile(r"\$\{([^}]*)\}")
_DIR_PATH = re.compile(r"(?<![\w./-])(/alloc|/local|/secrets)(?![\w.-])")
"""A task directory's path as a word or a path's start (``/local/models``, ``--out=/alloc``),
not inside another path (``/usr/local``)."""
_ENV_NAME_BAD = re.compile(r"[^A-Za-z0-9_]")


def nomad_env(
    job: m.Job, group: m.TaskGroup, task: m.Task, mhz_per_core: int, oversubscription: bool | None = None
) -> dict[str, str]:
    """The ``NOMAD_*`` variables Nomad sets whose values do not depend on the node or the
    allocation; NOMAD_ALLOC_INDEX and NOMAD_ALLOC_NAME are those of the first allocation.
    NOMAD_MEMORY_MAX_LIMIT only where memory oversubscription is on (else Nomad allocates no
    maximum, and sets none)."""
    job_id = job.id or job.name or ""
    env = dict(TASK_DIRS)
    env.update(
        {
            "NOMAD_JOB_ID": job_id,
            "NOMAD_JOB_NAME": job.name or job_id,
            "NOMAD_NAMESPACE": job.namespace or "default",
            "NOMAD_REGION": job.region or "global",
            "NOMAD_GROUP_NAME": group.name or "",
            "NOMAD_TASK_NAME": task.name,
            "NOMAD_ALLOC_INDEX": "0",
            "NOMAD_ALLOC_NAME": f"{job_id}.{group.name or ''}[0]",
        }
    )
    res = task.resources
    if res is not None and res.cores:
        env["NOMAD_CPU_LIMIT"] = str(res.cores * mhz_per_core)
    else:
        env["NOMAD_CPU_LIMIT"] = str(res.cpu if res is not None and res.cpu is not None else DEFAULT_CPU_MHZ)
    env["NOMAD_MEMORY_LIMIT"] = str(res.memory_mb if res and res.memory_mb is not None else DEFAULT_MEMORY_MB)
    if oversubscription and res is not None and res.memory_max_mb:
        env["NOMAD_MEMORY_MAX_LIMIT"] = str(res.memory_max_mb)
    for meta in (job.meta, group.meta, task.meta):  # the task's wins, as in Nomad
        for key, value in (meta or {}).items():
            clean = _ENV_NAME_BAD.sub("_", key)
            env[f"NOMAD_META_{clean}"] = value
            env[f"NOMAD_META_{clean.upper()}"] = value
    return env


def substitute(text: str, value_of: Callable[[str], str | None], unknown: set[str]) -> str:
    """``text`` with each ``${name}`` replaced by ``value_of(name)``; a reference it has no
    value for stays as written and is added to ``unknown``."""

    def resolve(match: re.Match[str]) -> str:
        value = value_of(match.group(1).strip())
        if value is None:
            unknown.add(match.group(0))
            return match.group(0)
        return value

    return _REFERENCE.sub(resolve, text)


def references(values: Iterable[str]) -> set[str]:
    """The names the ``${...}`` references of ``values`` name."""
    return {match.group(1).strip() for value in values for match in _REFERENCE.finditer(value)}


def named_dirs(values: Iterable[str]) -> set[str]:
    """The task directories ``values`` name by their path: a task that writes ``/local/x``
    uses its task directory as surely as one that writes ``${NOMAD_TASK_DIR}/x``."""
    paths = {path: name for name, path in TASK_DIRS.items()}
    return {paths[match] for value in values for match in _DIR_PATH.findall(value)}


_NODE_REFERENCE = re.compile(r"\$\{\s*(?:attr|meta|node)\.[^}]*\}")
"""A reference to the node the task runs on: only that node knows its value."""


def node_references(text: str) -> list[str]:
    """The node attribute, meta and identity references ``text`` still holds."""
    return _NODE_REFERENCE.findall(text)


_NOMAD_VARIABLES = frozenset(
    {*TASK_DIRS, "NOMAD_ALLOC_ID", "NOMAD_ALLOC_INDEX", "NOMAD_ALLOC_NAME", "NOMAD_CPU_LIMIT",
     "NOMAD_GROUP_NAME", "NOMAD_JOB_ID", "NOMAD_JOB_NAME", "NOMAD_MEMORY_LIMIT", "NOMAD_MEMORY_MAX_LIMIT",
     "NOMAD_NAMESPACE", "NOMAD_REGION", "NOMAD_TASK_NAME"}
)  # fmt: skip
"""The variables Nomad sets in every task (the ones the back ends write as env)."""


def nomad_sets(name: str) -> bool:
    """Whether Nomad sets the variable ``name`` in every task itself (so an imported task
    need not, and its env entry is dropped)."""
    return name in _NOMAD_VARIABLES or name.startswith("NOMAD_META_")


def without_node(ctx: Lowering, task: m.Task, where: str, value: str) -> bool:
    """Whether ``value`` can be written: not while it names something of the node that runs
    it, which only that node knows (HG301 at the task: the value is left out)."""
    found = node_references(value)
    if found:
        unsupported(
            ctx,
            f'{where} of task "{task.name}", "{value}", names {", ".join(found)}, which only the node '
            "that runs it knows; it is left out",
            task,
            help="render for one node with --nodes FILE --node NAME, or write the value",
        )
    return not found
