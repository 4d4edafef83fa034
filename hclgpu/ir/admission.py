"""What Nomad's server changes in a job before it stores it: its admission mutators.

After the agent's defaults (:mod:`hclgpu.ir.canonical`) the server runs its mutators in a
fixed order (``nomad/job_endpoint.go:66`` at :data:`~hclgpu.checks.server.NOMAD_COMMIT`):
canonicalize, vault, consul, connect, expose-check, implied constraints, node pool,
implicit identities and NUMA. They add constraints the job never wrote, inject Envoy
tasks for Consul Connect, add ports, and fill in names, so the job that is scheduled is
not quite the job in the file. :func:`admit` applies them to a copy of a canonical job;
``hclgpu render --target nomad --canonicalize --admission`` prints the result and
``hclgpu explain admission`` lists each change with its source.

What only the server's configuration decides is left out: identities injected from the
server's ``consul``/``vault`` blocks (none on a default cluster), and ``job_default_priority``
(the agent already set 50). Each :class:`Mutation` names the Go code it follows.
"""

from __future__ import annotations

from dataclasses import dataclass

from hclgpu.digests import sha256_hex
from hclgpu.ir import models as m
from hclgpu.ir.service_names import group_services, server_check_name, server_service_name
from hclgpu.units.durations import go_duration

SECOND = 1_000_000_000
HOOKS = "nomad/job_endpoint_hooks.go"
CONNECT = "nomad/job_endpoint_hook_connect.go"


@dataclass(frozen=True, slots=True)
class Mutation:
    """One change a server mutator makes, as ``hclgpu explain admission`` lists it."""

    id: str
    hook: str
    """The Go mutator, e.g. ``jobImpliedConstraints``."""
    source: str
    """``path:line`` in hashicorp/nomad at the registry's commit."""
    what: str


MUTATIONS = (
    Mutation("datacenters", "jobCanonicalizer", "nomad/structs/structs.go:4687",
             'a job without `datacenters` may run in every datacenter: `["*"]`'),
    Mutation("payload", "jobCanonicalizer", "nomad/structs/structs.go:6103",
             'a `parameterized` block\'s empty `payload` becomes "optional"'),
    Mutation("service-names", "jobCanonicalizer", "nomad/structs/services.go:715",
             "`${JOB}`, `${TASKGROUP}`, `${TASK}` and `${BASE}` in a service name are replaced;"
             " a sidecar or gateway service's name also gets the job's and group's variables"
             " (`${NOMAD_JOB_NAME}`, `${NOMAD_META_*}`, ...) from the connect mutator"),
    Mutation("consul-partition", "jobConsulHook", "nomad/job_endpoint_hook_consul.go:45",
             "a group or task `consul { partition }` adds the constraint"
             " `${attr.consul.partition} = <partition>` (not de-duplicated)"),
    Mutation("connect-sidecar-task", "jobConnectHook", f"{CONNECT}:300",
             "a `sidecar_service` in a group with a network gets the Envoy task"
             " `connect-proxy-<service>` (docker, or podman when only podman is used; 250 MHz,"
             " 128 MB, logs 2x2 MB, shutdown_delay 5s, prestart sidecar), `sidecar_task`"
             " merged over it, and the constraints `${attr.consul.version} semver >= 1.8.0`"
             " and `${attr.consul.grpc} > 0`"),
    Mutation("connect-sidecar-port", "jobConnectHook", f"{CONNECT}:325",
             "a sidecar without its own `port` gets the dynamic port"
             " `connect-proxy-<service>` (to = -1) in the group's network"),
    Mutation("connect-native-task", "jobConnectHook", f"{CONNECT}:333",
             "a `native = true` service sets its task's `kind` to `connect-native:<service>`"
             " and names the task in the service when it was inferred"),
    Mutation("connect-gateway", "jobConnectHook", f"{CONNECT}:345",
             "a gateway service gets a default proxy (connect_timeout 5s, bind addresses"
             " under bridge or CNI networking), a `connect-terminating-<service>` or"
             " `connect-mesh-<service>-lan` port, and the Envoy task"
             " `connect-<ingress|terminating|mesh>-<service>`"),
    Mutation("expose-check", "jobExposeCheckHook", "nomad/job_endpoint_hook_expose_check.go:45",
             "an `expose = true` http or grpc check of a sidecar service gets the dynamic port"
             " `svc_<service>_ck_<hash>` when it has no `port`, and an `expose { path }` entry"
             " in the sidecar's proxy"),
    Mutation("implied-constraints", "jobImpliedConstraints", f"{HOOKS}:260",
             "constraints on what the job uses: `${attr.vault.version}` for vault, secret"
             " plugins, NUMA (`${attr.nomad.version} >= 1.6.3-dev`, linux), signals"
             " (`${attr.os.signals} set_contains ...`), Nomad services and checks, Consul"
             " services (`${attr.consul.version} >= 1.8.0`), the five CNI plugins of bridge"
             " networking, transparent proxy and task schedules; one written on the same"
             " attribute wins (signals, NUMA and Nomad services need an equal one)"),
    Mutation("node-pool", "jobNodePoolMutatingHook", "nomad/job_endpoint_hook_node_pool_ce.go:27",
             'a job without `node_pool` runs in the pool "default"'),
    Mutation("identity-names", "jobImplicitIdentitiesHook",
             "nomad/job_endpoint_hook_implicit_identities.go:88",
             "a Consul service's `identity` is named `consul-service_[<task>-]<service>-<port>`"
             " and bound to the service"),
    Mutation("identity-constraint", "jobImplicitIdentitiesHook",
             "nomad/job_endpoint_hook_implicit_identities.go:43",
             "a group with any service or task identity gets the constraint"
             " `${attr.nomad.version} semver >= 1.7.0-a`"),
)  # fmt: skip
"""Every change :func:`admit` makes, in the order the server makes them."""


def admit(job: m.Job) -> m.Job:
    """A copy of the canonical ``job`` as Nomad's server stores it; ``job`` is left unchanged."""
    out = job.tree_copy()
    _canonicalizer(out)
    _consul_partitions(out)
    for group in out.task_groups or []:
        if group.networks:
            _connect(group, out)
    for group in out.task_groups or []:
        _expose_checks(group)
    _implied_constraints(out)
    if not out.node_pool:
        out.node_pool = "default"
    _implicit_identities(out)
    return out


def _constraint(target: str, value: str, operand: str) -> m.Constraint:
    return m.Constraint.build(l_target=target, r_target=value, operand=operand)


def with_connect_tasks(job: m.Job) -> m.Job:
    """The canonical ``job`` with only the connect mutator applied: its Envoy tasks, ports
    and service names, which rules that count or read a group's tasks must see. Groups
    the mutator leaves alone are shared with ``job``, not copied (most jobs have none to
    change, and a full :func:`admit` of a large job costs more than all its rules)."""
    out = job.model_copy()
    groups = []
    for group in job.task_groups or []:
        if group.networks and any(_injects(service) for service in group.services or []):
            group = group.tree_copy()
            _connect(group, job)
        groups.append(group)
    out.task_groups = groups if job.task_groups is not None else None
    return out


def _injects(service: m.Service) -> bool:
    connect = service.connect
    return connect is not None and (
        connect.sidecar_service is not None or connect.gateway is not None or connect.native
    )


def _semver(target: str, version: str) -> m.Constraint:
    return _constraint(target, version, "semver")


def _add(constraints: list[m.Constraint] | None, new: m.Constraint, *, full: bool) -> list[m.Constraint]:
    """``mutateConstraint``: append ``new`` unless one equal to it (``full``) or on its
    attribute exists."""
    existing = list(constraints or [])
    for old in existing:
        same = (old.l_target, old.r_target, old.operand) == (new.l_target, new.r_target, new.operand)
        if same if full else old.l_target == new.l_target:
            return existing
    return [*existing, new]


# ------------------------------------------------------------------ canonicalize, consul


def _canonicalizer(job: m.Job) -> None:
    """``structs.Job.Canonicalize``, beyond what the agent did: every datacenter, an
    optional payload, and service names with ``${JOB}``, ``${TASKGROUP}``, ``${TASK}`` and
    ``${BASE}`` replaced (`Service.Canonicalize`)."""
    for group in job.task_groups or []:
        for task, service in group_services(group):
            service.name = server_service_name(job, group, task, service, mutated=False)
    if not job.datacenters:
        job.datacenters = ["*"]
    if job.parameterized_job is not None and not job.parameterized_job.payload:
        job.parameterized_job.payload = "optional"


def _partition(consul: m.Consul) -> m.Constraint:
    """``newConsulPartitionConstraint``."""
    cluster = consul.cluster
    default = cluster in ("", "default")
    target = "${attr.consul.partition}" if default else f"${{attr.consul.{cluster}.partition}}"
    return _constraint(target, consul.partition, "=")


def _consul_partitions(job: m.Job) -> None:
    """``jobConsulHook.mutateImpl`` (clusters were defaulted by the agent already)."""
    for group in job.task_groups or []:
        if group.consul is not None and group.consul.partition:
            group.constraints = [*(group.constraints or []), _partition(group.consul)]
        for task in group.tasks or []:
            if task.consul is not None and task.consul.partition:
                task.constraints = [*(task.constraints or []), _partition(task.consul)]


# ------------------------------------------------------------------ connect


def _driver(group: m.TaskGroup) -> str:
    """``groupConnectGuessTaskDriver``."""
    drivers = {task.driver for task in group.tasks or []}
    return "podman" if "podman" in drivers and "docker" not in drivers else "docker"


def _consul_constraints(cluster: str) -> list[m.Constraint]:
    """``connectSidecarVersionConstraint`` and ``connectListenerConstraint``."""
    default = cluster in ("", "default")
    version = "${attr.consul.version}" if default else f"${{attr.consul.{cluster}.version}}"
    grpc = "${attr.consul.grpc}" if cluster == "default" else f"${{attr.consul.{cluster}.grpc}}"
    return [_semver(version, ">= 1.8.0"), _constraint(grpc, "0", ">")]


def _envoy_task(name: str, kind: str, driver: str, config: dict[str, object]) -> m.Task:
    """The task ``newConnectSidecarTask``/``newConnectGatewayTask`` build (constraints aside)."""
    return m.Task.build(
        name=name,
        kind=kind,
        driver=driver,
        config=config,
        shutdown_delay=5 * SECOND,
        log_config=m.LogConfig.build(max_files=2, max_file_size_mb=2),
        resources=m.Resources.build(cpu=250, memory_mb=128),
    )


def _envoy_config(image: str) -> dict[str, object]:
    args = ["-c", "${NOMAD_SECRETS_DIR}/envoy_bootstrap.json", "-l", "${meta.connect.log_level}"]
    args += ["--concurrency", "${meta.connect.proxy_concurrency}", "--disable-hot-restart"]
    return {"image": image, "args": args}


def _inject_port(group: m.TaskGroup, label: str) -> None:
    """``injectPort``: a dynamic port in the group's first network, once."""
    network = (group.networks or [])[0]
    if any(port.label == label for port in network.dynamic_ports or []):
        return
    network.dynamic_ports = [*(network.dynamic_ports or []), m.Port.build(label=label, to=-1)]


def _unique_name(group: m.TaskGroup, name: str, service: str) -> str:
    """A clash with a user task gets a suffix (Nomad's is random; this one is stable)."""
    if not any(task.name == name for task in group.tasks or []):
        return name
    return f"{name}-{sha256_hex(service.encode())[:6]}"


def _connect(group: m.TaskGroup, job: m.Job) -> None:
    """``groupConnectHook``, for a group with at least one network."""
    for service in group.services or []:
        connect = service.connect
        if connect is None:
            continue
        if connect.sidecar_service is not None:
            service.name = server_service_name(job, group, None, service)
            _sidecar(group, job, service, connect)
        elif connect.native:
            _native(group, service)
        elif connect.gateway is not None:
            service.name = server_service_name(job, group, None, service)
            _gateway(group, job, service, connect.gateway)
    for network in (group.networks or [])[:1]:
        for port in [*(network.dynamic_ports or []), *(network.reserved_ports or [])]:
            port.host_network = port.host_network or "default"


def _sidecar(group: m.TaskGroup, job: m.Job, service: m.Service, connect: m.ConsulConnect) -> None:
    kind = f"connect-proxy:{service.name}"
    task = next((t for t in group.tasks or [] if t.kind == kind), None)
    if task is None:
        name = _unique_name(group, f"connect-proxy-{service.name}", service.name)
        task = _envoy_task(name, kind, _driver(group), _envoy_config("${meta.connect.sidecar_image}"))
        task.lifecycle = m.TaskLifecycle.build(hook="prestart", sidecar=True)
        task.constraints = _consul_constraints(service.cluster)
        group.tasks = [*(group.tasks or []), task]
    if connect.sidecar_task is not None:
        _merge_sidecar_task(connect.sidecar_task, task)
    _canonical_task(task, group, job)
    assert connect.sidecar_service is not None
    _inject_port(group, connect.sidecar_service.port or f"connect-proxy-{service.name}")


def _native(group: m.TaskGroup, service: m.Service) -> None:
    tasks = group.tasks or []
    if service.task_name:
        task = next((t for t in tasks if t.name == service.task_name), None)
    else:
        task = tasks[0] if len(tasks) == 1 else None
    if task is None:  # Nomad's mutator fails here: HG292 reports it
        return
    task.kind = f"connect-native:{service.name}"
    service.task_name = task.name


def _merge_sidecar_task(sidecar: m.SidecarTask, task: m.Task) -> None:
    """``SidecarTask.MergeIntoTask``: what the agent defaulted in ``sidecar_task`` wins too
    (its 100 MHz / 300 MB resources and 10x10 MB logs replace the Envoy task's)."""
    task.name = sidecar.name or task.name
    if sidecar.driver and sidecar.driver != task.driver:
        task.driver, task.config = sidecar.driver, sidecar.config
    else:
        task.config = {**(task.config or {}), **(sidecar.config or {})}
    task.user = sidecar.user or task.user
    if sidecar.env is not None:
        task.env = {**(task.env or {}), **sidecar.env}
    if sidecar.resources is not None and task.resources is not None:
        for name in ("cpu", "cores", "memory_mb", "memory_max_mb", "disk_mb", "secrets_mb"):
            value = getattr(sidecar.resources, name, None)
            if value:
                setattr(task.resources, name, value)
    if sidecar.meta is not None:
        task.meta = {**(task.meta or {}), **sidecar.meta}
    if sidecar.kill_timeout is not None:
        task.kill_timeout = sidecar.kill_timeout
    if sidecar.log_config is not None and task.log_config is not None:
        task.log_config.max_files = sidecar.log_config.max_files or task.log_config.max_files
        size = sidecar.log_config.max_file_size_mb
        task.log_config.max_file_size_mb = size or task.log_config.max_file_size_mb
    if sidecar.shutdown_delay is not None:
        task.shutdown_delay = sidecar.shutdown_delay
    task.kill_signal = sidecar.kill_signal or task.kill_signal
    if sidecar.volume_mounts is not None:
        task.volume_mounts = sidecar.volume_mounts
    if sidecar.identities is not None:
        task.identities = sidecar.identities


def _canonical_task(task: m.Task, group: m.TaskGroup, job: m.Job) -> None:
    """``Task.Canonicalize`` on an injected task: the agent's task defaults."""
    from hclgpu.ir.canonical import canonicalize_task

    canonicalize_task(task, group, job)


def _gateway(group: m.TaskGroup, job: m.Job, service: m.Service, gateway: m.ConsulGateway) -> None:
    mode = (group.networks or [])[0].mode
    gateway.proxy = _gateway_proxy(gateway, mode)
    if gateway.terminating is not None and not service.port_label:
        service.port_label = f"connect-terminating-{service.name}"
        _inject_port(group, service.port_label)
    if gateway.mesh is not None:
        if not service.port_label:  # Nomad's mutator fails here: HG292 reports it
            return
        _inject_port(group, f"connect-mesh-{service.name}-lan")
    prefix = gateway_prefix(gateway)
    kind = f"{prefix}:{service.name}"
    if any(task.kind == kind for task in group.tasks or []):
        return
    config = _envoy_config("${meta.connect.gateway_image}")
    if mode == "host":
        config["network_mode"] = "host"
    task = _envoy_task(f"{prefix}-{service.name}", kind, _driver(group), config)
    task.constraints = _consul_constraints(service.cluster)
    if _customized_tls(gateway):
        cluster = service.cluster
        target = "${attr.consul.version}" if cluster == "default" else f"${{attr.consul.{cluster}.version}}"
        task.constraints.append(_semver(target, ">= 1.11.2"))
    group.tasks = [*(group.tasks or []), task]
    connect = service.connect
    if connect is not None and connect.sidecar_task is not None:
        _merge_sidecar_task(connect.sidecar_task, task)
    _canonical_task(task, group, job)


def gateway_prefix(gateway: m.ConsulGateway) -> str:
    """`ConsulGateway.Prefix`: the kind of the gateway's Envoy task."""
    if gateway.mesh is not None:
        return "connect-mesh"
    return "connect-ingress" if gateway.ingress is not None else "connect-terminating"


def _customized_tls(gateway: m.ConsulGateway) -> bool:
    """``ConsulConnect.IsCustomizedTLS``."""
    tls = gateway.ingress.tls if gateway.ingress is not None else None
    return tls is not None and bool(tls.tls_min_version or tls.tls_max_version or tls.cipher_suites)


def _gateway_proxy(gateway: m.ConsulGateway, mode: str) -> m.ConsulGatewayProxy:
    """``gatewayProxy``: the written proxy when it binds anything, else the default one."""
    written = gateway.proxy
    if written is not None and (
        written.envoy_gateway_no_default_bind
        or written.envoy_gateway_bind_tagged_addresses
        or written.envoy_gateway_bind_addresses
    ):
        return written
    proxy = m.ConsulGatewayProxy.build()
    if written is not None:
        proxy.connect_timeout = written.connect_timeout
        proxy.envoy_dns_discovery_type = written.envoy_dns_discovery_type
        proxy.config = written.config
    if proxy.connect_timeout is None:
        proxy.connect_timeout = 5 * SECOND
    if mode == "bridge" or mode.startswith("cni/"):
        proxy.envoy_gateway_no_default_bind = True
        proxy.envoy_gateway_bind_tagged_addresses = False
        proxy.envoy_gateway_bind_addresses = _bind_addresses(gateway)
    return proxy


def _bind_addresses(gateway: m.ConsulGateway) -> dict[str, m.ConsulGatewayBindAddress]:
    def bind(port: int) -> m.ConsulGatewayBindAddress:
        return m.ConsulGatewayBindAddress.build(address="0.0.0.0", port=port)

    if gateway.ingress is not None:
        return {
            service.name: bind(listener.port)
            for listener in gateway.ingress.listeners or []
            for service in listener.services or []
        }
    if gateway.terminating is not None:
        return {"default": bind(-1)}
    return {"wan": bind(-1), "lan": bind(-1)}


# ------------------------------------------------------------------ expose checks


def _expose_checks(group: m.TaskGroup) -> None:
    """``jobExposeCheckHook.Mutate``."""
    for service in group.services or []:
        connect = service.connect
        if connect is None or connect.sidecar_service is None:
            continue
        for index, check in enumerate(service.checks or []):
            if check.expose and check.type.lower() in ("http", "grpc") and check.path.startswith("/"):
                _expose(group, service, connect.sidecar_service, check, index)


def _expose(
    group: m.TaskGroup, service: m.Service, sidecar: m.ConsulSidecarService, check: m.ServiceCheck, index: int
) -> None:
    networks = group.networks or []
    if len(networks) != 1 or not (networks[0].mode == "bridge" or networks[0].mode.startswith("cni/")):
        return  # the expose-check hook fails here: HG292 reports it
    if not check.port_label:
        named = check.model_copy()
        named.name = server_check_name(service.name, check)
        check.port_label = f"svc_{service.name}_ck_{check_hash(named, f'{service.name}_{index}')[:6]}"
        port = m.Port.build(label=check.port_label, to=-1, host_network="default")
        networks[0].dynamic_ports = [*(networks[0].dynamic_ports or []), port]
    local = _port_value(networks[0], service.port_label)
    if local <= 0:  # "unable to determine local service port": HG292 reports it
        return
    proxy = sidecar.proxy = sidecar.proxy or m.ConsulProxy.build()
    expose = proxy.expose = proxy.expose or m.ConsulExposeConfig.build()
    path = m.ConsulExposePath.build(
        path=check.path, protocol=check.protocol, local_path_port=local, listener_port=check.port_label
    )
    if not any(old == path for old in expose.paths or []):
        expose.paths = [*(expose.paths or []), path]


def _port_value(network: m.NetworkResource, label: str) -> int:
    """``Networks.Port(label).Value``, else the label read as a number."""
    for port in [*(network.reserved_ports or []), *(network.dynamic_ports or [])]:
        if port.label == label and port.value > 0:
            return port.value
    return int(label) if label.isdigit() else 0


def check_hash(check: m.ServiceCheck, service_id: str) -> str:
    """``ServiceCheck.Hash`` (nomad/structs/services.go), hex SHA-256 over its fields."""
    parts = [service_id, check.name, check.type, check.command, "".join(check.args or []), check.path]
    parts += [check.protocol, check.port_label, go_duration(check.interval or 0)]
    parts += [go_duration(check.timeout or 0), check.method, check.body, check.on_update, check.notes]
    parts += ["true"] if check.tls_skip_verify else []
    parts += [check.tls_server_name]
    if check.header:
        parts.append("".join(sorted(key + "".join(values) for key, values in check.header.items())))
    parts += [check.address_mode, check.grpc_service, "true" if check.grpc_use_tls else ""]
    for name, value in (
        ("success", check.success_before_passing),
        ("failures", check.failures_before_critical),
        ("failures-before-warning", check.failures_before_warning),
    ):
        parts += [f"{name}:{value}"] if value else []
    return sha256_hex("".join(parts).encode())


# ------------------------------------------------------------------ implied constraints


def _signals(group: m.TaskGroup) -> list[str]:
    """``RequiredSignals`` of one group, flattened and sorted."""
    found: set[str] = set()
    for task in group.tasks or []:
        if task.vault is not None and task.vault.change_mode == "signal":
            found.add(task.vault.change_signal or "")
        if task.kill_signal:
            found.add(task.kill_signal)
        found.update(t.change_signal or "" for t in task.templates or [] if t.change_mode == "signal")
    return sorted(found)


def _is_consul(service: m.Service) -> bool:
    return service.provider in ("", "consul")


CNI_PLUGINS = ("bridge", "firewall", "host-local", "loopback", "portmap")


def _implied_constraints(job: m.Job) -> None:
    """``jobImpliedConstraints.Mutate``, group by group, in Nomad's order."""
    secrets = (s for g in job.task_groups or [] for t in g.tasks or [] for s in t.secrets or [])
    providers = list(dict.fromkeys(secret.provider for secret in secrets))
    for group in job.task_groups or []:
        add = _Adder(group)
        for task in sorted((t for t in group.tasks or [] if t.vault is not None), key=lambda t: t.name):
            assert task.vault is not None
            add(_vault_constraint(task.vault.cluster))
        for provider in providers:  # every group gets every provider of the job, as in Nomad
            add(_constraint(f"${{attr.plugins.secrets.{provider}.version}}", "", "is_set"))
        if any(t.resources is not None and _numa(t.resources) for t in group.tasks or []):
            add(_semver("${attr.nomad.version}", ">= 1.6.3-dev"), full=True)
            add(_constraint("${attr.kernel.name}", "linux", "="), full=True)
        signals = _signals(group)
        if signals:
            add(_constraint("${attr.os.signals}", ",".join(signals), "set_contains"), full=True)
        _service_constraints(group, add)
        if any(network.mode == "bridge" for network in group.networks or []):
            for plugin in CNI_PLUGINS:
                add(_semver(f"${{attr.plugins.cni.version.{plugin}}}", ">= 0.4.0"))
        if any(_tproxy(service) for service in group.services or []):
            add(_semver("${attr.plugins.cni.version.consul-cni}", ">= 1.4.2"))
            add(_semver("${attr.nomad.version}", ">= 1.8.0-dev"))
        if any(task.schedule is not None for task in group.tasks or []):
            add(_semver("${attr.nomad.version}", ">= 1.8.0-dev"))


class _Adder:
    """``mutateConstraint`` on one group."""

    def __init__(self, group: m.TaskGroup) -> None:
        self.group = group

    def __call__(self, constraint: m.Constraint, *, full: bool = False) -> None:
        self.group.constraints = _add(self.group.constraints, constraint, full=full)


def _service_constraints(group: m.TaskGroup, add: _Adder) -> None:
    services = list(group_services(group))
    nomad = [service for _, service in services if service.provider == "nomad"]
    if nomad:
        add(_constraint("${attr.nomad.service_discovery}", "true", "="), full=True)
    if any(service.checks for service in nomad):
        add(_semver("${attr.nomad.version}", ">= 1.4.0"), full=True)
    if not any(_is_consul(service) for _, service in services):
        return
    for task, service in services:
        if not _is_consul(service):
            continue
        constraint = _consul_constraints(service.cluster)[0]
        if task is None:
            add(constraint)
        else:
            task.constraints = _add(task.constraints, constraint, full=False)


def _vault_constraint(cluster: str) -> m.Constraint:
    if cluster not in ("", "default"):
        return _semver(f"${{attr.vault.{cluster}.version}}", ">= 1.11.0")
    return _semver("${attr.vault.version}", ">= 0.6.1")


def _numa(resources: m.Resources) -> bool:
    """``NUMA.Requested``: an affinity other than none."""
    return resources.numa is not None and resources.numa.affinity not in ("", "none")


def _tproxy(service: m.Service) -> bool:
    connect = service.connect
    sidecar = connect.sidecar_service if connect is not None else None
    return sidecar is not None and sidecar.proxy is not None and sidecar.proxy.transparent_proxy is not None


# ------------------------------------------------------------------ implicit identities


def _implicit_identities(job: m.Job) -> None:
    """``jobImplicitIdentitiesHook.Mutate`` on a cluster whose config injects none."""
    for group in job.task_groups or []:
        has_identity = False
        for task, service in group_services(group):
            if service.identity is not None and _is_consul(service):
                owner = task.name if task is not None else service.task_name
                stem = f"{owner}-{service.name}" if owner else service.name
                service.identity.name = f"consul-service_{stem}-{service.port_label}"
                service.identity.service_name = service.name
            has_identity = has_identity or service.identity is not None
        has_identity = has_identity or any(task.identities for task in group.tasks or [])
        if has_identity:
            constraint = _semver("${attr.nomad.version}", ">= 1.7.0-a")
            group.constraints = [*(group.constraints or []), constraint]


__all__ = ["MUTATIONS", "Mutation", "admit", "check_hash", "gateway_prefix", "with_connect_tasks"]
