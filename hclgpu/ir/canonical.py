"""The defaults Nomad's ``api.Job.Canonicalize()`` fills in, applied to a copy of an IR job.

Why this exists: what ``nomad job run -output`` prints (and what :mod:`hclgpu.backends.nomad`
reproduces) is the parsed ``api.Job`` *before* canonicalization, so every optional field the
job file left out is ``null``. The HTTP agent does not validate or register that document as
is: its job endpoints (register, plan, validate, parse with ``canonicalize``) first call
``job.Canonicalize()``, which fills in the client-side defaults — region "global", namespace
"default", type "service", priority 50, a group count of 1, the restart/reschedule/update/
migrate policies of the job's type, task resources, log rotation, template delimiters,
service provider "consul" and so on — and merges job-level update/reschedule/migrate
strategies into each group. Only then does the server convert and validate it (and add
its own, further defaults, which are not modelled here). ``hclgpu render --canonicalize``
shows the job the way the agent sees it; ``nomad-jobspec -canonicalize`` printed the same.

One function per Go ``Canonicalize`` method, in the Go call order, each named after the Go
method it mirrors (``api/jobs.go``, ``api/tasks.go``, ``api/resources.go``,
``api/services.go``, ``api/consul.go``, ``api/scaling.go``). The Go code of Nomad 2.0.x is the
reference; ``shared/conformance/nomad/derived/*.canonical.json`` is the ground truth.
"""

from __future__ import annotations

import posixpath
from functools import cache
from typing import TypeVar

from hclgpu.ir import models as m
from hclgpu.ir.base import Node, copied_toward

__all__ = ["canonicalize", "canonicalize_task"]

SECOND = 1_000_000_000
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE

N = TypeVar("N", bound=Node)


def canonicalize(job: m.Job) -> m.Job:
    """A new job with the defaults ``api.Job.Canonicalize()`` applies; ``job`` is left unchanged.

    The new job shares with ``job`` every node that no default can change: treat both as
    read-only, or copy (:meth:`~hclgpu.ir.base.Node.tree_copy`) before changing either."""
    out = copied_toward(job, CHANGED)
    _job(out)
    return out


CHANGED: frozenset[type[Node]] = frozenset({
    m.Affinity, m.ChangeScript, m.CheckRestart, m.Consul, m.ConsulExposeConfig,
    m.ConsulGatewayProxy, m.ConsulIngressConfigEntry, m.ConsulIngressListener, m.ConsulProxy,
    m.ConsulSidecarService, m.ConsulTerminatingConfigEntry, m.ConsulTransparentProxy,
    m.ConsulUpstream, m.DisconnectStrategy, m.EphemeralDisk, m.Job, m.JobUIConfig, m.LogConfig,
    m.MigrateStrategy, m.Multiregion, m.MultiregionRegion, m.MultiregionStrategy, m.NUMAResource,
    m.PeriodicConfig, m.RequestedDevice, m.ReschedulePolicy, m.Resources, m.RestartPolicy,
    m.ScalingPolicy, m.Secret, m.Service, m.ServiceCheck, m.ServiceWeights, m.SidecarTask,
    m.Spread, m.Task, m.TaskArtifact, m.TaskCSIPluginConfig, m.TaskGroup, m.Template,
    m.UpdateStrategy, m.Vault, m.VolumeMount,
})  # fmt: skip
"""Every model a field of which the functions below assign; they assign fields only, never
change a list or a dict in place (tests/test_canonical.py derives this set from jobs that
hold every model and checks it)."""


def canonicalize_task(task: m.Task, group: m.TaskGroup, job: m.Job) -> None:
    """The task defaults alone, in place, for a task added to a canonical ``group``: the
    Envoy tasks Nomad's server injects for Consul Connect (hclgpu.ir.admission)."""
    _task(task, group, job)


# --------------------------------------------------------------------------- helpers


def _fields(node: Node) -> tuple[str, ...]:
    return _field_names(type(node))


@cache
def _field_names(model: type[Node]) -> tuple[str, ...]:
    return tuple(name for name in model.model_fields if name != "span")


Defaults = tuple[tuple[str, object], ...]


def _defaults(defaults: Node) -> Defaults:
    """The fields a default struct sets, as (name, value) pairs: what :func:`_fill` reads,
    built once per default (a 1 MB job fills 3,000 nodes)."""
    return tuple((name, value) for name, value in defaults.__dict__.items() if value is not None)


def _fill(node: N, defaults: Defaults) -> N:
    """The ``if x.F == nil { x.F = default.F }`` block of a Canonicalize, for every field."""
    fields, filled = node.__dict__, node.model_fields_set
    for name, value in defaults:
        if fields[name] is None:
            fields[name] = value
            filled.add(name)
    return node


def _overlay(base: N, top: N | None) -> N:
    """Go's ``base.Merge(top)`` on an all-pointer struct: every field ``top`` sets wins."""
    if top is not None:
        for name in _fields(top):
            value = getattr(top, name)
            if value is not None:
                setattr(base, name, value)
    return base


def _go_upper(text: str) -> str:
    """Go's ``strings.ToUpper``: simple (one rune to one rune) case mapping, unlike ``str.upper``."""
    if text.isascii():
        return text.upper()
    return "".join(up if len(up := c.upper()) == 1 else c for c in text)


def _go_base(path: str) -> str:
    """Go's ``path.Base``."""
    path = path.rstrip("/") if path else "."
    if not path:
        return "/"
    return path.rsplit("/", 1)[-1] or "/"


# --------------------------------------------------------------------------- job (api/jobs.go)


def _job(job: m.Job) -> None:
    """``func (j *Job) Canonicalize()``."""
    if job.id is None:
        job.id = ""
    if job.name is None:
        job.name = job.id
    _fill(job, _JOB_DEFAULTS)
    job_type = job.type or "service"
    if job.periodic is not None:
        _periodic(job.periodic)
    if job.update is not None:
        _update(job.update)
    elif job_type == "service":
        job.update = _default_update()
    if job.multiregion is not None:
        _multiregion(job.multiregion)
    if job.ui is not None and not job.ui.links:
        job.ui.links = None  # JobUIConfig.Canonicalize: empty Links -> nil
    for group in job.task_groups or []:
        _task_group(group, job, job_type)
    for spread in job.spreads or []:
        _spread(spread)
    for affinity in job.affinities or []:
        _affinity(affinity)


# Job.Canonicalize's plain defaults (ID and Name are handled first, Name copies ID).
_JOB_DEFAULTS = _defaults(
    m.Job.build(
        parent_id="",
        namespace="default",  # DefaultNamespace
        priority=50,  # JobDefaultPriority
        stop=False,
        region="global",  # GlobalRegion
        node_pool="",
        type="service",
        all_at_once=False,
        consul_namespace="",
        vault_namespace="",
        nomad_token_id="",
        status="",
        status_description="",
        stable=False,
        version=0,
        create_index=0,
        modify_index=0,
        job_modify_index=0,
    )
)


def _periodic(periodic: m.PeriodicConfig) -> None:
    """``func (p *PeriodicConfig) Canonicalize()``."""
    if periodic.enabled is None:
        periodic.enabled = True
    if periodic.spec is None:
        periodic.spec = ""
    if periodic.specs is None:
        periodic.specs = []
    if periodic.spec_type is None:
        periodic.spec_type = "cron"  # PeriodicSpecCron
    if periodic.prohibit_overlap is None:
        periodic.prohibit_overlap = False
    if not periodic.time_zone:
        periodic.time_zone = "UTC"


def _default_update() -> m.UpdateStrategy:
    """``DefaultUpdateStrategy()``."""
    return m.UpdateStrategy.build(
        stagger=30 * SECOND,
        max_parallel=1,
        health_check="checks",
        min_healthy_time=10 * SECOND,
        healthy_deadline=5 * MINUTE,
        progress_deadline=10 * MINUTE,
        auto_revert=False,
        canary=0,
        auto_promote=False,
    )


def _update(update: m.UpdateStrategy) -> None:
    """``func (u *UpdateStrategy) Canonicalize()``: each unset field from the default strategy."""
    _fill(update, _DEFAULT_UPDATE)


_DEFAULT_UPDATE = _defaults(_default_update())
"""Only read: every unset field of a strategy is filled from it."""


def _update_empty(update: m.UpdateStrategy) -> bool:
    """``func (u *UpdateStrategy) Empty()``: no field set to a non-zero value."""
    return not any(getattr(update, name) for name in _fields(update))


def _multiregion(multiregion: m.Multiregion) -> None:
    """``func (m *Multiregion) Canonicalize()``."""
    if multiregion.strategy is None:
        multiregion.strategy = m.MultiregionStrategy.build()
    _fill(multiregion.strategy, _MULTIREGION_STRATEGY)
    if multiregion.regions is None:
        multiregion.regions = []
    for region in multiregion.regions:
        if region.count is None:
            region.count = 1
        if region.datacenters is None:
            region.datacenters = []
        if region.meta is None:
            region.meta = {}


# --------------------------------------------------------------------------- group (api/tasks.go)


_MULTIREGION_STRATEGY = _defaults(m.MultiregionStrategy.build(max_parallel=0, on_failure=""))


def _task_group(group: m.TaskGroup, job: m.Job, job_type: str) -> None:
    """``func (g *TaskGroup) Canonicalize(job *Job)``."""
    if group.name is None:
        group.name = ""
    if group.count is None:
        scaling_min = group.scaling.min if group.scaling is not None else None
        group.count = scaling_min if scaling_min is not None else 1
    if group.scaling is not None:
        _scaling_policy(group.scaling, group.count)
    if group.ephemeral_disk is None:
        group.ephemeral_disk = m.EphemeralDisk.build()
    _fill(group.ephemeral_disk, _EPHEMERAL_DISK)
    if group.consul is not None:
        if group.consul.namespace == "" and job.consul_namespace is not None:
            group.consul.namespace = job.consul_namespace  # Consul.MergeNamespace
        _consul(group.consul)
    _group_update(group, job)
    _group_reschedule(group, job, job_type)
    _group_migrate(group, job, job_type)
    group.restart_policy = _overlay(_default_restart_policy(job_type), group.restart_policy)
    for task in group.tasks or []:
        _task(task, group, job)
    for spread in group.spreads or []:
        _spread(spread)
    for affinity in group.affinities or []:
        _affinity(affinity)
    for service in group.services or []:
        _service(service, None, group, job)
    if group.disconnect is not None:
        _disconnect(group.disconnect)


# DefaultEphemeralDisk() and EphemeralDisk.Canonicalize.
_EPHEMERAL_DISK = _defaults(m.EphemeralDisk.build(sticky=False, migrate=False, size_mb=300))


def _group_update(group: m.TaskGroup, job: m.Job) -> None:
    """TaskGroup.Canonicalize: merge the job's update strategy into the group's."""
    if job.update is not None and group.update is not None:
        group.update = _overlay(job.update.model_copy(), group.update)
    elif job.update is not None and not _update_empty(job.update):
        group.update = job.update.model_copy()
    if group.update is not None:
        _update(group.update)


def _group_reschedule(group: m.TaskGroup, job: m.Job, job_type: str) -> None:
    """TaskGroup.Canonicalize: the job's reschedule policy, then the type's defaults."""
    if job.reschedule is not None:
        group.reschedule_policy = _overlay(job.reschedule.model_copy(), group.reschedule_policy)
    if group.reschedule_policy is None and job_type not in ("system", "sysbatch"):
        group.reschedule_policy = _default_reschedule_policy(job_type)
    if group.reschedule_policy is not None:
        _fill(group.reschedule_policy, _reschedule_defaults(job_type))


def _default_reschedule_policy(job_type: str) -> m.ReschedulePolicy:
    """``NewDefaultReschedulePolicy(jobType)``."""
    if job_type == "service":
        return m.ReschedulePolicy.build(
            delay=30 * SECOND,
            delay_function="exponential",
            max_delay=HOUR,
            unlimited=True,
            attempts=0,
            interval=0,
        )
    if job_type == "batch":
        return m.ReschedulePolicy.build(
            attempts=1,
            interval=24 * HOUR,
            delay=5 * SECOND,
            delay_function="constant",
            max_delay=0,
            unlimited=False,
        )
    return m.ReschedulePolicy.build(
        attempts=0, interval=0, delay=0, delay_function="", max_delay=0, unlimited=False
    )


@cache
def _reschedule_defaults(job_type: str) -> Defaults:
    """The type's default policy, only read (a group's own policy is a new one)."""
    return _defaults(_default_reschedule_policy(job_type))


def _group_migrate(group: m.TaskGroup, job: m.Job, job_type: str) -> None:
    """TaskGroup.Canonicalize: the job's migrate strategy; service groups always get one."""
    if job.migrate is not None:
        group.migrate = _overlay(job.migrate.model_copy(), group.migrate)
    if group.migrate is None and job_type == "service":
        group.migrate = m.MigrateStrategy.build()
    if group.migrate is not None:
        _fill(group.migrate, _MIGRATE)


# DefaultMigrateStrategy()
_MIGRATE = _defaults(
    m.MigrateStrategy.build(
        max_parallel=1, health_check="checks", min_healthy_time=10 * SECOND, healthy_deadline=5 * MINUTE
    )
)


def _default_restart_policy(job_type: str) -> m.RestartPolicy:
    """``defaultServiceJobRestartPolicy()`` (service, system) or ``defaultBatchJobRestartPolicy()``."""
    if job_type in ("service", "system"):
        return m.RestartPolicy.build(
            delay=15 * SECOND, attempts=2, interval=30 * MINUTE, mode="fail", render_templates=False
        )
    return m.RestartPolicy.build(
        delay=15 * SECOND, attempts=3, interval=24 * HOUR, mode="fail", render_templates=False
    )


def _scaling_policy(policy: m.ScalingPolicy, count: int) -> None:
    """``func (p *ScalingPolicy) Canonicalize(taskGroupCount int)`` (api/scaling.go)."""
    if policy.enabled is None:
        policy.enabled = True
    if policy.min is None:
        policy.min = count
    if policy.type == "":
        policy.type = "horizontal"  # ScalingPolicyTypeHorizontal


def _disconnect(disconnect: m.DisconnectStrategy) -> None:
    """``func (ds *DisconnectStrategy) Canonicalize()``."""
    if disconnect.replace is None:
        disconnect.replace = True
    if disconnect.reconcile is None:
        disconnect.reconcile = "best_score"  # ReconcileOptionBestScore


def _spread(spread: m.Spread) -> None:
    """``func (s *Spread) Canonicalize()``."""
    if spread.weight is None:
        spread.weight = 50


def _affinity(affinity: m.Affinity) -> None:
    """``func (a *Affinity) Canonicalize()``."""
    if affinity.weight is None:
        affinity.weight = 50


# --------------------------------------------------------------------------- task (api/tasks.go)


def _task(task: m.Task, group: m.TaskGroup, job: m.Job) -> None:
    """``func (t *Task) Canonicalize(tg *TaskGroup, job *Job)``."""
    if task.resources is None:
        task.resources = m.Resources.build()
    _resources(task.resources)
    if task.kill_timeout is None:
        task.kill_timeout = 5 * SECOND
    task.log_config = _fill(task.log_config or m.LogConfig.build(), _LOG_CONFIG)
    for artifact in task.artifacts or []:
        _artifact(artifact)
    if task.vault is not None:
        _vault(task.vault)
    if task.consul is not None:
        _consul(task.consul)
    for template in task.templates or []:
        _template(template)
    for secret in task.secrets or []:
        _secret(secret)
    for service in task.services or []:
        _service(service, task, group, job)
    for affinity in task.affinities or []:
        _affinity(affinity)
    for mount in task.volume_mounts or []:
        _volume_mount(mount)
    # t.Lifecycle.Empty() is `l == nil` in 2.0: nothing to drop.
    if task.csi_plugin_config is not None:
        _csi_plugin(task.csi_plugin_config)
    assert group.restart_policy is not None  # set by _task_group before its tasks
    task.restart_policy = _overlay(group.restart_policy.model_copy(), task.restart_policy)


# DefaultLogConfig() and LogConfig.Canonicalize (Enabled is left alone).
_LOG_CONFIG = _defaults(m.LogConfig.build(max_files=10, max_file_size_mb=10, disabled=False))


def _artifact(artifact: m.TaskArtifact) -> None:
    """``func (a *TaskArtifact) Canonicalize()``."""
    if artifact.getter_mode is None:
        artifact.getter_mode = "any"
    if artifact.getter_insecure is None:
        artifact.getter_insecure = False
    if artifact.getter_source is None:
        artifact.getter_source = ""
    if not artifact.getter_options:
        artifact.getter_options = None
    if not artifact.getter_headers:
        artifact.getter_headers = None
    if artifact.relative_dest is None:
        if artifact.getter_mode == "file":
            # filepath.Join("local", path.Base(source)), which cleans the result.
            artifact.relative_dest = posixpath.normpath("local/" + _go_base(artifact.getter_source))
        else:
            artifact.relative_dest = "local/"


def _template(template: m.Template) -> None:
    """``func (tmpl *Template) Canonicalize()``."""
    if template.change_mode is None:
        template.change_mode = "restart"
    if template.change_signal is None:
        template.change_signal = "SIGHUP" if template.change_mode == "signal" else ""
    else:
        template.change_signal = _go_upper(template.change_signal)
    if template.change_script is not None:
        _change_script(template.change_script)
    _fill(template, _TEMPLATE)


# Template.Canonicalize's plain defaults (ChangeMode/ChangeSignal are handled above).
_TEMPLATE = _defaults(
    m.Template.build(
        source_path="",
        dest_path="",
        embedded_tmpl="",
        once=False,
        splay=5 * SECOND,
        perms="0644",
        left_delim="{{",
        right_delim="}}",
        envvars=False,
        err_missing_key=False,
        vault_grace=0,
    )
)


def _change_script(script: m.ChangeScript) -> None:
    """``func (ch *ChangeScript) Canonicalize()``."""
    if script.command is None:
        script.command = ""
    if script.args is None:
        script.args = []
    if script.timeout is None:
        script.timeout = 5 * SECOND
    if script.fail_on_error is None:
        script.fail_on_error = False
    if script.run_on_first_render is None:
        script.run_on_first_render = False


def _vault(vault: m.Vault) -> None:
    """``func (v *Vault) Canonicalize()``."""
    if vault.cluster == "":
        vault.cluster = "default"
    _fill(vault, _VAULT)


_VAULT = _defaults(
    m.Vault.build(
        env=True,
        disable_file=False,
        namespace="",
        change_mode="restart",
        change_signal="SIGHUP",
        allow_token_expiration=False,
    )
)


def _consul(consul: m.Consul) -> None:
    """``func (c *Consul) Canonicalize()`` (api/consul.go); Partition is never defaulted."""
    if consul.cluster == "":
        consul.cluster = "default"


def _secret(secret: m.Secret) -> None:
    """``func (s *Secret) Canonicalize()``."""
    if not secret.config:
        secret.config = None
    if not secret.env:
        secret.env = None


def _volume_mount(mount: m.VolumeMount) -> None:
    """``func (vm *VolumeMount) Canonicalize()``."""
    _fill(mount, _VOLUME_MOUNT)


_VOLUME_MOUNT = _defaults(m.VolumeMount.build(propagation_mode="private", read_only=False, selinux_label=""))


def _csi_plugin(plugin: m.TaskCSIPluginConfig) -> None:
    """``func (t *TaskCSIPluginConfig) Canonicalize()``."""
    if plugin.mount_dir == "":
        plugin.mount_dir = "/csi"
    if plugin.stage_publish_base_dir == "":
        plugin.stage_publish_base_dir = "/local/csi"  # filepath.Join("/local", "csi")
    if plugin.health_timeout == 0:
        plugin.health_timeout = 30 * SECOND


# --------------------------------------------------------------------------- resources (api/resources.go)


def _resources(resources: m.Resources) -> None:
    """``func (r *Resources) Canonicalize()``: CPU 100 unless cores are asked for, 300 MB."""
    if resources.cores is None:
        resources.cores = 0
        if resources.cpu is None:
            resources.cpu = 100
    if resources.cpu is None:
        resources.cpu = 0
    if resources.memory_mb is None:
        resources.memory_mb = 300
    for device in resources.devices or []:
        _requested_device(device)
    if resources.numa is not None and resources.numa.affinity == "":
        resources.numa.affinity = "none"  # NUMAResource.Canonicalize


def _default_resources() -> m.Resources:
    """``DefaultResources()``."""
    return m.Resources.build(cpu=100, cores=0, memory_mb=300)


def _requested_device(device: m.RequestedDevice) -> None:
    """``func (d *RequestedDevice) Canonicalize()``."""
    if device.count is None:
        device.count = 1
    for affinity in device.affinities or []:
        _affinity(affinity)


# --------------------------------------------------------------------------- services (api/services.go)


def _service(service: m.Service, task: m.Task | None, group: m.TaskGroup, job: m.Job) -> None:
    """``func (s *Service) Canonicalize(t *Task, tg *TaskGroup, job *Job)``; task is None for a group."""
    if service.name == "":
        prefix = f"{job.name}-{group.name}"
        service.name = f"{prefix}-{task.name}" if task is not None else prefix
    if service.address_mode == "":
        service.address_mode = "auto"
    if service.on_update == "":
        service.on_update = "require_healthy"  # OnUpdateRequireHealthy
    if service.provider == "":
        service.provider = "consul"  # ServiceProviderConsul
    if service.cluster == "":
        service.cluster = "default"
    service.meta = service.meta or None
    service.canary_meta = service.canary_meta or None
    service.tagged_addresses = service.tagged_addresses or None
    if service.connect is not None:
        _consul_connect(service.connect)
    if service.weights is not None:
        _service_weights(service.weights)
    for check in service.checks or []:
        _service_check(check, service)


def _service_check(check: m.ServiceCheck, service: m.Service) -> None:
    """The per-check part of Service.Canonicalize: check_restart merged from the service."""
    check.check_restart = _merge_check_restart(service.check_restart, check.check_restart)
    if check.check_restart is not None and check.check_restart.grace is None:
        check.check_restart.grace = SECOND  # CheckRestart.Canonicalize
    check.success_before_passing = max(check.success_before_passing, 0)
    check.failures_before_critical = max(check.failures_before_critical, 0)
    check.failures_before_warning = max(check.failures_before_warning, 0)
    if check.on_update == "":
        check.on_update = service.on_update


def _merge_check_restart(base: m.CheckRestart | None, other: m.CheckRestart | None) -> m.CheckRestart | None:
    """``func (c *CheckRestart) Merge(o *CheckRestart) *CheckRestart``: a copy of ``base``, overridden."""
    if base is None:
        return other
    merged = base.model_copy()
    if other is None:
        return merged
    if other.limit > 0:
        merged.limit = other.limit
    if other.grace is not None:
        merged.grace = other.grace
    if other.ignore_warnings:
        merged.ignore_warnings = other.ignore_warnings
    return merged


def _service_weights(weights: m.ServiceWeights) -> None:
    """``func (weights *ServiceWeights) Canonicalize()``."""
    if weights.passing <= 0:
        weights.passing = 1
    if weights.warning <= 0:
        weights.warning = 1


# --------------------------------------------------------------------------- connect (api/consul.go)


def _consul_connect(connect: m.ConsulConnect) -> None:
    """``func (cc *ConsulConnect) Canonicalize()``."""
    if connect.sidecar_service is not None:
        _sidecar_service(connect.sidecar_service)
    if connect.sidecar_task is not None:
        _sidecar_task(connect.sidecar_task)
    if connect.gateway is not None:
        _gateway(connect.gateway)


def _sidecar_service(sidecar: m.ConsulSidecarService) -> None:
    """``func (css *ConsulSidecarService) Canonicalize()``."""
    sidecar.tags = sidecar.tags or None
    sidecar.meta = sidecar.meta or None
    if sidecar.proxy is not None:
        _consul_proxy(sidecar.proxy)


def _sidecar_task(task: m.SidecarTask) -> None:
    """``func (st *SidecarTask) Canonicalize()``."""
    task.config = task.config or None
    task.env = task.env or None
    if task.resources is None:
        task.resources = _default_resources()
    else:
        _resources(task.resources)
    task.log_config = _fill(task.log_config or m.LogConfig.build(), _LOG_CONFIG)
    task.meta = task.meta or None
    if task.kill_timeout is None:
        task.kill_timeout = 5 * SECOND
    if task.shutdown_delay is None:
        task.shutdown_delay = 0
    for mount in task.volume_mounts or []:
        _volume_mount(mount)


def _consul_proxy(proxy: m.ConsulProxy) -> None:
    """``func (cp *ConsulProxy) Canonicalize()``."""
    if proxy.expose is not None:
        proxy.expose.paths = proxy.expose.paths or None  # ConsulExposeConfig.Canonicalize
        proxy.expose.path = proxy.expose.path or None
    proxy.upstreams = proxy.upstreams or None
    if proxy.transparent_proxy is not None:
        _transparent_proxy(proxy.transparent_proxy)
    for upstream in proxy.upstreams or []:
        upstream.config = upstream.config or None  # ConsulUpstream.Canonicalize
    proxy.config = proxy.config or None


def _transparent_proxy(tproxy: m.ConsulTransparentProxy) -> None:
    """``func (tp *ConsulTransparentProxy) Canonicalize()``: empty lists become nil."""
    tproxy.exclude_inbound_ports = tproxy.exclude_inbound_ports or None
    tproxy.exclude_outbound_cidrs = tproxy.exclude_outbound_cidrs or None
    tproxy.exclude_outbound_ports = tproxy.exclude_outbound_ports or None
    tproxy.exclude_uids = tproxy.exclude_uids or None


def _gateway(gateway: m.ConsulGateway) -> None:
    """``func (g *ConsulGateway) Canonicalize()``."""
    if gateway.proxy is not None:
        proxy = gateway.proxy
        if proxy.connect_timeout is None:
            proxy.connect_timeout = 5 * SECOND  # defaultGatewayConnectTimeout
        proxy.envoy_gateway_bind_addresses = proxy.envoy_gateway_bind_addresses or None
        proxy.config = proxy.config or None
    if gateway.ingress is not None:
        _ingress(gateway.ingress)
    if gateway.terminating is not None:
        gateway.terminating.services = gateway.terminating.services or None


def _ingress(ingress: m.ConsulIngressConfigEntry) -> None:
    """``func (e *ConsulIngressConfigEntry) Canonicalize()`` and its listeners'."""
    ingress.listeners = ingress.listeners or None
    for listener in ingress.listeners or []:
        if listener.protocol == "":
            listener.protocol = "tcp"  # defaultIngressListenerProtocol
        listener.services = listener.services or None
