"""The Compose project of a job: its name, one service per container, the order Nomad's
lifecycle gives them (`depends_on`), and one network per group.

Nomad's lifecycle as start conditions: main tasks wait for the group's prestart tasks to
complete successfully and for its prestart sidecars to start; poststart tasks wait for the
main tasks to start; poststop tasks for them to complete successfully, which is as close
as Compose comes to "after they stop" (HG302).

Compose interpolates ``$VAR`` and ``${VAR}`` in every value of the file, so each ``$`` the
job writes is doubled (``$$``): a value reaches the container exactly as written.
"""

from __future__ import annotations

from typing import Any

from hclgpu.backends.compose.service import Obj, service
from hclgpu.backends.docker.container import Container, ContainerLowering, approximated, engine_name, field
from hclgpu.backends.docker.options import VOLUME_NAME
from hclgpu.backends.target import unique_name
from hclgpu.ir import models as m


def project(job: m.Job, containers: list[Container], ctx: ContainerLowering) -> Obj:
    """The whole compose.yaml as data."""
    name = engine_name(job.name or job.id or "job").replace(".", "-")
    services: Obj = {}
    networks: dict[int, str] = {}
    taken: set[str] = set()
    groups = _by_group(containers)
    for c in containers:
        joined = [] if c.network_mode else [_network(c.group, networks, taken)]
        services[c.service] = service(c, _depends_on(c, groups[id(c.group)], ctx), joined)
        _list_once(services[c.service], c, ctx)
        _note_replicas(c, ctx)
    out: Obj = {"name": name, "services": services}
    if networks:
        out["networks"] = {key: {} for key in networks.values()}
    volumes = _named_volumes(containers)
    if volumes:
        out["volumes"] = {key: {} for key in volumes}
    escaped: Obj = escape_dollars(out)
    return escaped


def _named_volumes(containers: list[Container]) -> list[str]:
    """The named volumes the services mount: Compose refuses one the file does not declare."""
    names: dict[str, None] = {}
    for c in containers:
        for volume in c.volumes:
            source, separator, _ = volume.partition(":")
            if separator and VOLUME_NAME.fullmatch(source):
                names[source] = None
    return list(names)


def _by_group(containers: list[Container]) -> dict[int, list[Container]]:
    """The containers of each group (by the group's id), in order: built once, so that
    finding a container's neighbours does not look through the whole job."""
    groups: dict[int, list[Container]] = {}
    for c in containers:
        groups.setdefault(id(c.group), []).append(c)
    return groups


def _network(group: m.TaskGroup, networks: dict[int, str], taken: set[str]) -> str:
    """The group's network: its name, as a Compose key, unique in the project (``taken``)."""
    if id(group) not in networks:
        networks[id(group)] = unique_name(engine_name(group.name or "group"), taken)
    return networks[id(group)]


def _depends_on(c: Container, same_group: list[Container], ctx: ContainerLowering) -> Obj:
    """Start conditions on the other containers of the same group (``same_group``, in order)."""
    group = [o for o in same_group if o is not c]
    out: Obj = {}
    if c.hook == "":
        for other in group:
            if other.hook == "prestart":
                condition = "service_started" if other.sidecar else "service_completed_successfully"
                out[other.service] = {"condition": condition}
    elif c.hook in ("poststart", "poststop"):
        condition = "service_started" if c.hook == "poststart" else "service_completed_successfully"
        for other in group:
            if other.hook == "":
                out[other.service] = {"condition": condition}
        if c.hook == "poststop" and c.task.lifecycle is not None:
            approximated(
                ctx,
                f'poststop task "{c.task.name}" → depends_on: service_completed_successfully: it runs only '
                "after the main tasks exit successfully; Nomad runs it after they stop however they end",
                c.task.lifecycle,
            )
    return out


UNIQUE_LISTS = (
    "cap_add", "cap_drop", "dns", "dns_opt", "dns_search", "expose", "extra_hosts",
    "group_add", "security_opt", "volumes",
)  # fmt: skip
"""The service lists whose items compose-spec requires to be unique."""


def _list_once(out: Obj, c: Container, ctx: ContainerLowering) -> None:
    """Each item of a list Compose requires unique once (``docker run`` takes a flag twice;
    Compose refuses the file), HG302 naming what was repeated."""
    for key in UNIQUE_LISTS:
        items = out.get(key)
        if not isinstance(items, list):
            continue
        kept: dict[str, Any] = {}
        repeated: set[str] = set()
        for item in items:
            if str(item) in kept:
                repeated.add(str(item))
            else:
                kept[str(item)] = item
        if not repeated:
            continue
        out[key] = list(kept.values())
        approximated(
            ctx,
            f'Compose\'s `{key}` of task "{c.task.name}" would list {", ".join(sorted(repeated))} more '
            "than once, which Compose refuses: each is listed once",
            c.task,
        )


def _note_replicas(c: Container, ctx: ContainerLowering) -> None:
    """Replicas share one host: a static host port binds once, and GPUs are not divided."""
    if c.replicas > 1 and (c.gpus is not None or c.device_nodes):
        approximated(
            ctx,
            f'group "{c.group.name}" runs {c.replicas} replicas (deploy.replicas) on one host: every replica '
            "gets the same devices, where Nomad gives each allocation its own",
            c.group,
            help="write one service per replica with its own device_ids, or count = 1",
        )
    if c.replicas > 1 and any(p.host for p in c.ports):
        approximated(
            ctx,
            f'group "{c.group.name}" runs {c.replicas} replicas (deploy.replicas) but publishes a static '
            f"host port ({field(ctx, 'ports')}): only one replica can bind it",
            c.group,
            help="use a dynamic port (no `static`), or count = 1",
        )


def escape_dollars(value: Any) -> Any:
    """Every string value with ``$`` doubled, so Compose interpolation gives it back as written."""
    if isinstance(value, str):
        return value.replace("$", "$$")
    if isinstance(value, list):
        return [escape_dollars(v) for v in value]
    if isinstance(value, dict):
        return {k: escape_dollars(v) for k, v in value.items()}
    return value
