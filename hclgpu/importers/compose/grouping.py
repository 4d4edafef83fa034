"""Compose services put into Nomad groups, with the lifecycle hooks their `depends_on` says.

A file the compose back end wrote names each service's job, group and task in its labels
(``io.hclgpu.group``...), so the groups come back as they were. Inside a group the back
end wrote Nomad's lifecycle as start conditions (:mod:`hclgpu.backends.compose.project`):
main tasks wait for prestart tasks (`service_completed_successfully`, or `service_started`
for sidecars); poststart tasks wait for the main tasks to start, poststop tasks for them to
complete. Prestart tasks depend on nothing, so a dependency that has dependencies of its
own is a main task; when none has, either reading fits the start conditions, and the
restart policy decides, since the back end gives one to every task except one-shot hooks.

Any other file: each service is a group of its own, except a service that only one other
service waits for with `service_completed_successfully` (a model download, a migration):
that is a prestart task in the waiting service's group. Other dependencies cross groups,
which Nomad starts independently (HG301).
"""

from __future__ import annotations

from dataclasses import dataclass

from hclgpu.importers.compose.draft import Draft
from hclgpu.importers.compose.findings import Findings

STARTED = "service_started"
COMPLETED = "service_completed_successfully"


@dataclass(slots=True)
class Group:
    name: str
    drafts: list[Draft]


def generated(drafts: list[Draft]) -> bool:
    """Whether every service carries the back end's job, group and task labels."""
    return all({"job", "group", "task"} <= set(d.identity) for d in drafts)


def plan_groups(drafts: list[Draft], findings: Findings) -> list[Group]:
    """The groups, each draft's hook set; dependencies no hook carries are reported."""
    if generated(drafts):
        groups = _labelled(drafts)
        for group in groups:
            _classify(group.drafts)
    else:
        groups = _own_groups(drafts)
    for group in groups:
        _report_dependencies(group, {d.name for d in drafts}, findings)
    return groups


def _labelled(drafts: list[Draft]) -> list[Group]:
    groups: dict[str, Group] = {}
    for draft in drafts:
        draft.task_name = draft.identity["task"]
        name = draft.identity["group"]
        groups.setdefault(name, Group(name, [])).drafts.append(draft)
    return list(groups.values())


def _classify(drafts: list[Draft]) -> None:
    """Hooks from the start conditions inside one group (see the module docstring)."""
    names = {d.name for d in drafts}
    deps = {d.name: [t for t in d.depends_on if t in names and t != d.name] for d in drafts}
    free = [d for d in drafts if not deps[d.name]]
    bound = [d for d in drafts if deps[d.name]]
    if not bound:
        return
    bound_names = {d.name for d in bound}
    prestart_exists = any(t in bound_names for d in bound for t in deps[d.name])
    if not prestart_exists:
        prestart_exists = not (any(d.keeps_running for d in free) and not any(d.keeps_running for d in bound))
    if prestart_exists:
        for d in free:
            conditions = [o.depends_on[d.name] for o in bound if d.name in deps[o.name]]
            if conditions:
                d.hook, d.sidecar = "prestart", STARTED in conditions
        mains = {d.name for d in bound if all(t not in bound_names for t in deps[d.name])}
        post = [d for d in bound if d.name not in mains]
    else:
        post = bound
    for d in post:
        started = STARTED in d.depends_on.values()
        d.hook, d.sidecar = ("poststart", d.keeps_running) if started else ("poststop", False)


def _own_groups(drafts: list[Draft]) -> list[Group]:
    """A group per service, with the services that only it waits on to complete as prestart."""
    waiting: dict[str, list[Draft]] = {}
    for d in drafts:
        for target in d.depends_on:
            waiting.setdefault(target, []).append(d)
    by_name = {d.name: d for d in drafts}
    host: dict[str, str] = {}
    for target, dependents in waiting.items():
        found = by_name.get(target)
        only = dependents[0] if len(dependents) == 1 else None
        if found and only and not found.depends_on and only.depends_on[target] == COMPLETED:
            host[target] = only.name
            found.hook = "prestart"
    groups = []
    for d in drafts:
        d.task_name = d.name
        if d.name not in host:
            pre = [p for p in drafts if host.get(p.name) == d.name]
            groups.append(Group(d.name, [*pre, d]))
    return groups


def _expected(draft: Draft, other: Draft) -> str | None:
    """The condition the back end writes for ``draft`` waiting on ``other`` in one group."""
    if draft.hook == "" and other.hook == "prestart":
        return STARTED if other.sidecar else COMPLETED
    if draft.hook in ("poststart", "poststop") and other.hook == "":
        return STARTED if draft.hook == "poststart" else COMPLETED
    return None


def _report_dependencies(group: Group, known: set[str], findings: Findings) -> None:
    here = {d.name: d for d in group.drafts}
    for draft in group.drafts:
        for target, condition in draft.depends_on.items():
            where = draft.at("depends_on", target)
            other = here.get(target)
            expected = _expected(draft, other) if other is not None else None
            if target not in known:
                findings.left_out(where, f"`{target}` is not a service of this file; left out")
            elif expected is None:
                findings.left_out(
                    where,
                    f"`{draft.name}` waits for `{target}` ({condition}); Nomad starts groups, and tasks of a "
                    "group that are not lifecycle hooks, independently: left out",
                )
            elif expected != condition:
                findings.approximated(
                    where, f"{condition} → {expected}: what Nomad's lifecycle hook for `{target}` gives"
                )
