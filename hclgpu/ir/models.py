"""Mirrors of the structs in Nomad's ``api`` package: ``api.Job`` and all it carries.

Why mirror ``api`` rather than design a nicer model: what Nomad's own parser produces
(``jobspec2``, printed by ``nomad job run -output``) *is* an ``api.Job`` marshalled with Go's
``encoding/json``. Keeping one model per Go struct, with fields in Go declaration order, the Go
field name as the alias, Go's zero values as defaults (``None`` for pointers, slices and maps;
``""``/``0``/``False`` for plain scalars) and ``omitempty`` recorded on the field, makes the Nomad
back end a plain walk over the fields: no per-struct code, no ordering tables, no special cases
for null versus zero. The :class:`~hclgpu.ir.base.Hcl` marker on each field carries the gohcl
struct tag, so the decoder is the same kind of walk from HCL blocks and attributes into models.

Conventions (see :mod:`hclgpu.ir.base`): ``time.Duration`` fields are ``int`` nanoseconds with
``go="duration"``; ``map[string]interface{}`` fields are ``dict[str, Any]`` with ``go="any"``;
Go unsigned / narrow ints carry their Go type in ``go`` so the decoder can range-check them.
Fields without an ``Hcl`` marker have no ``hcl`` tag in Go (server-set or filled in by jobspec2's
own code) but are still printed.

The ground truth for which fields exist, their order and null-vs-zero defaults is the API JSON
that Nomad 2.0.6-dev prints (``shared/conformance/nomad/**/*.json``); the ``hcl`` tags come from
the Go source of the same era.

Classes are declared before use and annotations are real objects (no ``from __future__ import
annotations``): :class:`~hclgpu.ir.base.Node` reads each field's type and markers from them
as the class is created, with no string to evaluate.
"""

from typing import Any

from hclgpu.ir.base import Annotated, Field, Hcl, Node

__all__ = [
    "Action",
    "Affinity",
    "CNIConfig",
    "CSIMountOptions",
    "ChangeScript",
    "CheckRestart",
    "Constraint",
    "Consul",
    "ConsulConnect",
    "ConsulExposeConfig",
    "ConsulExposePath",
    "ConsulGateway",
    "ConsulGatewayBindAddress",
    "ConsulGatewayProxy",
    "ConsulGatewayTLSConfig",
    "ConsulGatewayTLSSDSConfig",
    "ConsulHTTPHeaderModifiers",
    "ConsulIngressConfigEntry",
    "ConsulIngressListener",
    "ConsulIngressService",
    "ConsulLinkedService",
    "ConsulMeshConfigEntry",
    "ConsulMeshGateway",
    "ConsulProxy",
    "ConsulSidecarService",
    "ConsulTerminatingConfigEntry",
    "ConsulTransparentProxy",
    "ConsulUpstream",
    "DNSConfig",
    "DisconnectStrategy",
    "DispatchPayloadConfig",
    "EphemeralDisk",
    "Job",
    "JobUIConfig",
    "JobUILink",
    "JobVersionTag",
    "LogConfig",
    "MigrateStrategy",
    "Multiregion",
    "MultiregionRegion",
    "MultiregionStrategy",
    "NUMAResource",
    "NetworkResource",
    "ParameterizedJobConfig",
    "PeriodicConfig",
    "Port",
    "RequestedDevice",
    "ReschedulePolicy",
    "Resources",
    "RestartPolicy",
    "ScalingPolicy",
    "Secret",
    "Service",
    "ServiceCheck",
    "ServiceWeights",
    "SidecarTask",
    "Spread",
    "SpreadTarget",
    "Task",
    "TaskArtifact",
    "TaskCSIPluginConfig",
    "TaskGroup",
    "TaskLifecycle",
    "TaskSchedule",
    "TaskScheduleCron",
    "Template",
    "UpdateStrategy",
    "Vault",
    "VolumeMount",
    "VolumeRequest",
    "WaitConfig",
    "WorkloadIdentity",
]


# --------------------------------------------------------------------------- placement


class Constraint(Node):
    """A `constraint { }` block (api.Constraint)."""

    l_target: Annotated[str, Hcl("attribute")] = Field("", alias="LTarget")
    r_target: Annotated[str, Hcl("value")] = Field("", alias="RTarget")
    operand: Annotated[str, Hcl("operator")] = Field("", alias="Operand")


class Affinity(Node):
    """An `affinity { }` block (api.Affinity)."""

    l_target: Annotated[str, Hcl("attribute")] = Field("", alias="LTarget")
    r_target: Annotated[str, Hcl("value")] = Field("", alias="RTarget")
    operand: Annotated[str, Hcl("operator")] = Field("", alias="Operand")
    weight: Annotated[int | None, Hcl("weight", go="int8")] = Field(None, alias="Weight")


class SpreadTarget(Node):
    """A `target "<value>" { }` block inside `spread` (api.SpreadTarget)."""

    value: Annotated[str, Hcl("", kind="label")] = Field("", alias="Value")
    percent: Annotated[int, Hcl("percent", go="uint8")] = Field(0, alias="Percent")


class Spread(Node):
    """A `spread { }` block (api.Spread)."""

    attribute: Annotated[str, Hcl("attribute")] = Field("", alias="Attribute")
    weight: Annotated[int | None, Hcl("weight", go="int8")] = Field(None, alias="Weight")
    spread_target: Annotated[list[SpreadTarget] | None, Hcl("target", kind="block")] = Field(
        None, alias="SpreadTarget"
    )


# --------------------------------------------------------------------------- network


class Port(Node):
    """A `port "<label>" { }` (or `reserved_ports "<label>" { }`) block in `network` (api.Port)."""

    label: Annotated[str, Hcl("", kind="label")] = Field("", alias="Label")
    value: Annotated[int, Hcl("static")] = Field(0, alias="Value")
    to: Annotated[int, Hcl("to")] = Field(0, alias="To")
    host_network: Annotated[str, Hcl("host_network")] = Field("", alias="HostNetwork")
    ignore_collision: Annotated[bool, Hcl("ignore_collision")] = Field(False, alias="IgnoreCollision")


class DNSConfig(Node):
    """A `dns { }` block in `network` (api.DNSConfig)."""

    servers: Annotated[list[str] | None, Hcl("servers")] = Field(None, alias="Servers")
    searches: Annotated[list[str] | None, Hcl("searches")] = Field(None, alias="Searches")
    options: Annotated[list[str] | None, Hcl("options")] = Field(None, alias="Options")


class CNIConfig(Node):
    """A `cni { }` block in `network` (api.CNIConfig)."""

    args: Annotated[dict[str, str] | None, Hcl("args")] = Field(None, alias="Args")


class NetworkResource(Node):
    """A `network { }` block in a group or task `resources` (api.NetworkResource)."""

    mode: Annotated[str, Hcl("mode")] = Field("", alias="Mode")
    device: Annotated[str, Hcl("device")] = Field("", alias="Device")
    cidr: Annotated[str, Hcl("cidr")] = Field("", alias="CIDR")
    ip: Annotated[str, Hcl("ip")] = Field("", alias="IP")
    dns: Annotated[DNSConfig | None, Hcl("dns", kind="block")] = Field(None, alias="DNS")
    reserved_ports: Annotated[list[Port] | None, Hcl("reserved_ports", kind="block")] = Field(
        None, alias="ReservedPorts"
    )
    dynamic_ports: Annotated[list[Port] | None, Hcl("port", kind="block")] = Field(None, alias="DynamicPorts")
    hostname: Annotated[str, Hcl("hostname")] = Field("", alias="Hostname")
    mbits: Annotated[int | None, Hcl("mbits")] = Field(None, alias="MBits")
    cni: Annotated[CNIConfig | None, Hcl("cni", kind="block")] = Field(None, alias="CNI")


# --------------------------------------------------------------------------- resources


class NUMAResource(Node):
    """A `numa { }` block in `resources` (api.NUMAResource)."""

    affinity: Annotated[str, Hcl("affinity")] = Field("", alias="Affinity")
    devices: Annotated[list[str] | None, Hcl("devices")] = Field(None, alias="Devices")


class RequestedDevice(Node):
    """A `device "<name>" { }` block in `resources` (api.RequestedDevice)."""

    name: Annotated[str, Hcl("", kind="label")] = Field("", alias="Name")
    count: Annotated[int | None, Hcl("count", go="uint64")] = Field(None, alias="Count")
    constraints: Annotated[list[Constraint] | None, Hcl("constraint", kind="block")] = Field(
        None, alias="Constraints"
    )
    affinities: Annotated[list[Affinity] | None, Hcl("affinity", kind="block")] = Field(
        None, alias="Affinities"
    )


class Resources(Node):
    """A `resources { }` block in a task or `sidecar_task` (api.Resources)."""

    cpu: Annotated[int | None, Hcl("cpu")] = Field(None, alias="CPU")
    cores: Annotated[int | None, Hcl("cores")] = Field(None, alias="Cores")
    memory_mb: Annotated[int | None, Hcl("memory")] = Field(None, alias="MemoryMB")
    memory_max_mb: Annotated[int | None, Hcl("memory_max")] = Field(None, alias="MemoryMaxMB")
    disk_mb: Annotated[int | None, Hcl("disk")] = Field(None, alias="DiskMB")
    networks: Annotated[list[NetworkResource] | None, Hcl("network", kind="block")] = Field(
        None, alias="Networks"
    )
    devices: Annotated[list[RequestedDevice] | None, Hcl("device", kind="block")] = Field(
        None, alias="Devices"
    )
    numa: Annotated[NUMAResource | None, Hcl("numa", kind="block")] = Field(None, alias="NUMA")
    secrets_mb: Annotated[int | None, Hcl("secrets")] = Field(None, alias="SecretsMB")
    iops: Annotated[int | None, Hcl("iops")] = Field(None, alias="IOPS")


# --------------------------------------------------------------------------- services


class CheckRestart(Node):
    """A `check_restart { }` block in a `service` or `check` (api.CheckRestart)."""

    limit: Annotated[int, Hcl("limit")] = Field(0, alias="Limit")
    grace: Annotated[int | None, Hcl("grace", go="duration")] = Field(None, alias="Grace")
    ignore_warnings: Annotated[bool, Hcl("ignore_warnings")] = Field(False, alias="IgnoreWarnings")


class ServiceCheck(Node):
    """A `check { }` block in a `service` (api.ServiceCheck)."""

    name: Annotated[str, Hcl("name")] = Field("", alias="Name")
    type: Annotated[str, Hcl("type")] = Field("", alias="Type")
    command: Annotated[str, Hcl("command")] = Field("", alias="Command")
    args: Annotated[list[str] | None, Hcl("args")] = Field(None, alias="Args")
    path: Annotated[str, Hcl("path")] = Field("", alias="Path")
    protocol: Annotated[str, Hcl("protocol")] = Field("", alias="Protocol")
    port_label: Annotated[str, Hcl("port")] = Field("", alias="PortLabel")
    expose: Annotated[bool, Hcl("expose")] = Field(False, alias="Expose")
    address_mode: Annotated[str, Hcl("address_mode")] = Field("", alias="AddressMode")
    advertise: Annotated[str, Hcl("advertise")] = Field("", alias="Advertise")
    interval: Annotated[int, Hcl("interval", go="duration")] = Field(0, alias="Interval")
    timeout: Annotated[int, Hcl("timeout", go="duration")] = Field(0, alias="Timeout")
    initial_status: Annotated[str, Hcl("initial_status")] = Field("", alias="InitialStatus")
    notes: Annotated[str, Hcl("notes")] = Field("", alias="Notes")
    tls_server_name: Annotated[str, Hcl("tls_server_name")] = Field("", alias="TLSServerName")
    tls_skip_verify: Annotated[bool, Hcl("tls_skip_verify")] = Field(False, alias="TLSSkipVerify")
    header: Annotated[dict[str, list[str]] | None, Hcl("header", kind="block")] = Field(None, alias="Header")
    method: Annotated[str, Hcl("method")] = Field("", alias="Method")
    check_restart: Annotated[CheckRestart | None, Hcl("check_restart", kind="block")] = Field(
        None, alias="CheckRestart"
    )
    grpc_service: Annotated[str, Hcl("grpc_service")] = Field("", alias="GRPCService")
    grpc_use_tls: Annotated[bool, Hcl("grpc_use_tls")] = Field(False, alias="GRPCUseTLS")
    task_name: Annotated[str, Hcl("task")] = Field("", alias="TaskName")
    success_before_passing: Annotated[int, Hcl("success_before_passing")] = Field(
        0, alias="SuccessBeforePassing"
    )
    failures_before_critical: Annotated[int, Hcl("failures_before_critical")] = Field(
        0, alias="FailuresBeforeCritical"
    )
    failures_before_warning: Annotated[int, Hcl("failures_before_warning")] = Field(
        0, alias="FailuresBeforeWarning"
    )
    body: Annotated[str, Hcl("body")] = Field("", alias="Body")
    on_update: Annotated[str, Hcl("on_update")] = Field("", alias="OnUpdate")


class ServiceWeights(Node):
    """A `weights { }` block in a `service` (api.ServiceWeights)."""

    passing: Annotated[int, Hcl("passing")] = Field(0, alias="Passing")
    warning: Annotated[int, Hcl("warning")] = Field(0, alias="Warning")


class WorkloadIdentity(Node):
    """An `identity { }` block in a task, `sidecar_task` or `service` (api.WorkloadIdentity)."""

    name: Annotated[str, Hcl("name")] = Field("", alias="Name")
    audience: Annotated[list[str] | None, Hcl("aud")] = Field(None, alias="Audience")
    change_mode: Annotated[str, Hcl("change_mode")] = Field("", alias="ChangeMode")
    change_signal: Annotated[str, Hcl("change_signal")] = Field("", alias="ChangeSignal")
    env: Annotated[bool, Hcl("env")] = Field(False, alias="Env")
    file: Annotated[bool, Hcl("file")] = Field(False, alias="File")
    filepath: Annotated[str, Hcl("filepath")] = Field("", alias="Filepath")
    service_name: Annotated[str, Hcl("service_name")] = Field("", alias="ServiceName")
    ttl: Annotated[int, Hcl("ttl", go="duration")] = Field(0, alias="TTL")
    extra_claims: Annotated[list[str] | None, Hcl("extra_claims")] = Field(None, alias="ExtraClaims")


# --------------------------------------------------------------------------- consul connect


class ConsulMeshGateway(Node):
    """A `mesh_gateway { }` block in `upstreams` (api.ConsulMeshGateway)."""

    mode: Annotated[str, Hcl("mode")] = Field("", alias="Mode")


class ConsulUpstream(Node):
    """An `upstreams { }` block in a connect `proxy` (api.ConsulUpstream)."""

    destination_name: Annotated[str, Hcl("destination_name")] = Field("", alias="DestinationName")
    destination_namespace: Annotated[str, Hcl("destination_namespace")] = Field(
        "", alias="DestinationNamespace"
    )
    destination_peer: Annotated[str, Hcl("destination_peer")] = Field("", alias="DestinationPeer")
    destination_partition: Annotated[str, Hcl("destination_partition")] = Field(
        "", alias="DestinationPartition"
    )
    destination_type: Annotated[str, Hcl("destination_type")] = Field("", alias="DestinationType")
    local_bind_port: Annotated[int, Hcl("local_bind_port")] = Field(0, alias="LocalBindPort")
    datacenter: Annotated[str, Hcl("datacenter")] = Field("", alias="Datacenter")
    local_bind_address: Annotated[str, Hcl("local_bind_address")] = Field("", alias="LocalBindAddress")
    local_bind_socket_path: Annotated[str, Hcl("local_bind_socket_path")] = Field(
        "", alias="LocalBindSocketPath"
    )
    local_bind_socket_mode: Annotated[str, Hcl("local_bind_socket_mode")] = Field(
        "", alias="LocalBindSocketMode"
    )
    mesh_gateway: Annotated[ConsulMeshGateway | None, Hcl("mesh_gateway", kind="block")] = Field(
        None, alias="MeshGateway"
    )
    config: Annotated[dict[str, Any] | None, Hcl("config", kind="block", go="any")] = Field(
        None, alias="Config"
    )


class ConsulExposePath(Node):
    """A `path { }` block in `expose` (api.ConsulExposePath)."""

    path: Annotated[str, Hcl("path")] = Field("", alias="Path")
    protocol: Annotated[str, Hcl("protocol")] = Field("", alias="Protocol")
    local_path_port: Annotated[int, Hcl("local_path_port")] = Field(0, alias="LocalPathPort")
    listener_port: Annotated[str, Hcl("listener_port")] = Field("", alias="ListenerPort")


class ConsulExposeConfig(Node):
    """An `expose { }` block in a connect `proxy` (api.ConsulExposeConfig)."""

    paths: Annotated[list[ConsulExposePath] | None, Hcl("path", kind="block")] = Field(None, alias="Paths")
    path: list[ConsulExposePath] | None = Field(None, alias="Path")


class ConsulTransparentProxy(Node):
    """A `transparent_proxy { }` block in a connect `proxy` (api.ConsulTransparentProxy)."""

    uid: Annotated[str, Hcl("uid")] = Field("", alias="UID")
    outbound_port: Annotated[int, Hcl("outbound_port", go="uint16")] = Field(0, alias="OutboundPort")
    exclude_inbound_ports: Annotated[list[str] | None, Hcl("exclude_inbound_ports")] = Field(
        None, alias="ExcludeInboundPorts"
    )
    exclude_outbound_ports: Annotated[list[int] | None, Hcl("exclude_outbound_ports", go="uint16")] = Field(
        None, alias="ExcludeOutboundPorts"
    )
    exclude_outbound_cidrs: Annotated[list[str] | None, Hcl("exclude_outbound_cidrs")] = Field(
        None, alias="ExcludeOutboundCIDRs"
    )
    exclude_uids: Annotated[list[str] | None, Hcl("exclude_uids")] = Field(None, alias="ExcludeUIDs")
    no_dns: Annotated[bool, Hcl("no_dns")] = Field(False, alias="NoDNS")


class ConsulProxy(Node):
    """A `proxy { }` block in `sidecar_service` (api.ConsulProxy)."""

    local_service_address: Annotated[str, Hcl("local_service_address")] = Field(
        "", alias="LocalServiceAddress"
    )
    local_service_port: Annotated[int, Hcl("local_service_port")] = Field(0, alias="LocalServicePort")
    expose: Annotated[ConsulExposeConfig | None, Hcl("expose", kind="block")] = Field(None, alias="Expose")
    expose_config: ConsulExposeConfig | None = Field(None, alias="ExposeConfig")
    upstreams: Annotated[list[ConsulUpstream] | None, Hcl("upstreams", kind="block")] = Field(
        None, alias="Upstreams"
    )
    transparent_proxy: Annotated[ConsulTransparentProxy | None, Hcl("transparent_proxy", kind="block")] = (
        Field(None, alias="TransparentProxy")
    )
    config: Annotated[dict[str, Any] | None, Hcl("config", kind="block", go="any")] = Field(
        None, alias="Config"
    )


class ConsulSidecarService(Node):
    """A `sidecar_service { }` block in `connect` (api.ConsulSidecarService)."""

    tags: Annotated[list[str] | None, Hcl("tags")] = Field(None, alias="Tags")
    port: Annotated[str, Hcl("port")] = Field("", alias="Port")
    proxy: Annotated[ConsulProxy | None, Hcl("proxy", kind="block")] = Field(None, alias="Proxy")
    disable_default_tcp_check: Annotated[bool, Hcl("disable_default_tcp_check")] = Field(
        False, alias="DisableDefaultTCPCheck"
    )
    meta: Annotated[dict[str, str] | None, Hcl("meta", kind="block")] = Field(None, alias="Meta")


class LogConfig(Node):
    """A `logs { }` block in a task or `sidecar_task` (api.LogConfig)."""

    max_files: Annotated[int | None, Hcl("max_files")] = Field(None, alias="MaxFiles")
    max_file_size_mb: Annotated[int | None, Hcl("max_file_size")] = Field(None, alias="MaxFileSizeMB")
    enabled: Annotated[bool | None, Hcl("enabled")] = Field(None, alias="Enabled")
    disabled: Annotated[bool | None, Hcl("disabled")] = Field(None, alias="Disabled")


class VolumeMount(Node):
    """A `volume_mount { }` block in a task or `sidecar_task` (api.VolumeMount)."""

    volume: Annotated[str | None, Hcl("volume")] = Field(None, alias="Volume")
    destination: Annotated[str | None, Hcl("destination")] = Field(None, alias="Destination")
    read_only: Annotated[bool | None, Hcl("read_only")] = Field(None, alias="ReadOnly")
    propagation_mode: Annotated[str | None, Hcl("propagation_mode")] = Field(None, alias="PropagationMode")
    selinux_label: Annotated[str | None, Hcl("selinux_label")] = Field(None, alias="SELinuxLabel")


class SidecarTask(Node):
    """A `sidecar_task { }` block in `connect` (api.SidecarTask)."""

    name: Annotated[str, Hcl("name")] = Field("", alias="Name")
    driver: Annotated[str, Hcl("driver")] = Field("", alias="Driver")
    user: Annotated[str, Hcl("user")] = Field("", alias="User")
    config: Annotated[dict[str, Any] | None, Hcl("config", kind="block", go="any")] = Field(
        None, alias="Config"
    )
    env: Annotated[dict[str, str] | None, Hcl("env", kind="block")] = Field(None, alias="Env")
    resources: Annotated[Resources | None, Hcl("resources", kind="block")] = Field(None, alias="Resources")
    meta: Annotated[dict[str, str] | None, Hcl("meta", kind="block")] = Field(None, alias="Meta")
    kill_timeout: Annotated[int | None, Hcl("kill_timeout", go="duration")] = Field(None, alias="KillTimeout")
    log_config: Annotated[LogConfig | None, Hcl("logs", kind="block")] = Field(None, alias="LogConfig")
    shutdown_delay: Annotated[int | None, Hcl("shutdown_delay", go="duration")] = Field(
        None, alias="ShutdownDelay"
    )
    kill_signal: Annotated[str, Hcl("kill_signal")] = Field("", alias="KillSignal")
    volume_mounts: Annotated[list[VolumeMount] | None, Hcl("volume_mount", kind="block")] = Field(
        None, alias="VolumeMounts"
    )
    identities: Annotated[list[WorkloadIdentity] | None, Hcl("identity", kind="block")] = Field(
        None, alias="Identities"
    )


# --------------------------------------------------------------------------- consul gateways


class ConsulGatewayBindAddress(Node):
    """A `<listener> { }` block in `envoy_gateway_bind_addresses` (api.ConsulGatewayBindAddress)."""

    name: Annotated[str, Hcl("", kind="label")] = Field("", alias="Name")
    address: Annotated[str, Hcl("address")] = Field("", alias="Address")
    port: Annotated[int, Hcl("port")] = Field(0, alias="Port")


class ConsulGatewayProxy(Node):
    """A `proxy { }` block in a connect `gateway` (api.ConsulGatewayProxy)."""

    connect_timeout: Annotated[int | None, Hcl("connect_timeout", go="duration")] = Field(
        None, alias="ConnectTimeout"
    )
    envoy_gateway_bind_tagged_addresses: Annotated[bool, Hcl("envoy_gateway_bind_tagged_addresses")] = Field(
        False, alias="EnvoyGatewayBindTaggedAddresses"
    )
    envoy_gateway_bind_addresses: Annotated[
        dict[str, ConsulGatewayBindAddress] | None, Hcl("envoy_gateway_bind_addresses", kind="block")
    ] = Field(None, alias="EnvoyGatewayBindAddresses")
    envoy_gateway_no_default_bind: Annotated[bool, Hcl("envoy_gateway_no_default_bind")] = Field(
        False, alias="EnvoyGatewayNoDefaultBind"
    )
    envoy_dns_discovery_type: Annotated[str, Hcl("envoy_dns_discovery_type")] = Field(
        "", alias="EnvoyDNSDiscoveryType"
    )
    config: Annotated[dict[str, Any] | None, Hcl("config", kind="block", go="any")] = Field(
        None, alias="Config"
    )


class ConsulGatewayTLSSDSConfig(Node):
    """An `sds { }` block in a gateway `tls` (api.ConsulGatewayTLSSDSConfig)."""

    cluster_name: Annotated[str, Hcl("cluster_name")] = Field("", alias="ClusterName")
    cert_resource: Annotated[str, Hcl("cert_resource")] = Field("", alias="CertResource")


class ConsulGatewayTLSConfig(Node):
    """A `tls { }` block in an `ingress` gateway or ingress `service` (api.ConsulGatewayTLSConfig)."""

    enabled: Annotated[bool, Hcl("enabled")] = Field(False, alias="Enabled")
    tls_min_version: Annotated[str, Hcl("tls_min_version")] = Field("", alias="TLSMinVersion")
    tls_max_version: Annotated[str, Hcl("tls_max_version")] = Field("", alias="TLSMaxVersion")
    cipher_suites: Annotated[list[str] | None, Hcl("cipher_suites")] = Field(None, alias="CipherSuites")
    sds: Annotated[ConsulGatewayTLSSDSConfig | None, Hcl("sds", kind="block")] = Field(None, alias="SDS")


class ConsulHTTPHeaderModifiers(Node):
    """A `request_headers { }` / `response_headers { }` block (api.ConsulHTTPHeaderModifiers)."""

    add: Annotated[dict[str, str] | None, Hcl("add", kind="block")] = Field(None, alias="Add")
    set: Annotated[dict[str, str] | None, Hcl("set", kind="block")] = Field(None, alias="Set")
    remove: Annotated[list[str] | None, Hcl("remove")] = Field(None, alias="Remove")


class ConsulIngressService(Node):
    """A `service { }` block in an ingress `listener` (api.ConsulIngressService)."""

    name: Annotated[str, Hcl("name")] = Field("", alias="Name")
    hosts: Annotated[list[str] | None, Hcl("hosts")] = Field(None, alias="Hosts")
    tls: Annotated[ConsulGatewayTLSConfig | None, Hcl("tls", kind="block")] = Field(None, alias="TLS")
    request_headers: Annotated[ConsulHTTPHeaderModifiers | None, Hcl("request_headers", kind="block")] = (
        Field(None, alias="RequestHeaders")
    )
    response_headers: Annotated[ConsulHTTPHeaderModifiers | None, Hcl("response_headers", kind="block")] = (
        Field(None, alias="ResponseHeaders")
    )
    # Go type *uint32; base.GoType has no "uint32", so the decoder gets the nearest unsigned hint.
    max_connections: Annotated[int | None, Hcl("max_connections", go="uint64")] = Field(
        None, alias="MaxConnections"
    )
    max_pending_requests: Annotated[int | None, Hcl("max_pending_requests", go="uint64")] = Field(
        None, alias="MaxPendingRequests"
    )
    max_concurrent_requests: Annotated[int | None, Hcl("max_concurrent_requests", go="uint64")] = Field(
        None, alias="MaxConcurrentRequests"
    )


class ConsulIngressListener(Node):
    """A `listener { }` block in an `ingress` gateway (api.ConsulIngressListener)."""

    port: Annotated[int, Hcl("port")] = Field(0, alias="Port")
    protocol: Annotated[str, Hcl("protocol")] = Field("", alias="Protocol")
    services: Annotated[list[ConsulIngressService] | None, Hcl("service", kind="block")] = Field(
        None, alias="Services"
    )


class ConsulIngressConfigEntry(Node):
    """An `ingress { }` block in a connect `gateway` (api.ConsulIngressConfigEntry)."""

    tls: Annotated[ConsulGatewayTLSConfig | None, Hcl("tls", kind="block")] = Field(None, alias="TLS")
    listeners: Annotated[list[ConsulIngressListener] | None, Hcl("listener", kind="block")] = Field(
        None, alias="Listeners"
    )


class ConsulLinkedService(Node):
    """A `service { }` block in a `terminating` gateway (api.ConsulLinkedService)."""

    name: Annotated[str, Hcl("name")] = Field("", alias="Name")
    ca_file: Annotated[str, Hcl("ca_file")] = Field("", alias="CAFile")
    cert_file: Annotated[str, Hcl("cert_file")] = Field("", alias="CertFile")
    key_file: Annotated[str, Hcl("key_file")] = Field("", alias="KeyFile")
    sni: Annotated[str, Hcl("sni")] = Field("", alias="SNI")


class ConsulTerminatingConfigEntry(Node):
    """A `terminating { }` block in a connect `gateway` (api.ConsulTerminatingConfigEntry)."""

    services: Annotated[list[ConsulLinkedService] | None, Hcl("service", kind="block")] = Field(
        None, alias="Services"
    )


class ConsulMeshConfigEntry(Node):
    """A `mesh { }` block in a connect `gateway`; it has no fields (api.ConsulMeshConfigEntry)."""


class ConsulGateway(Node):
    """A `gateway { }` block in `connect` (api.ConsulGateway)."""

    proxy: Annotated[ConsulGatewayProxy | None, Hcl("proxy", kind="block")] = Field(None, alias="Proxy")
    ingress: Annotated[ConsulIngressConfigEntry | None, Hcl("ingress", kind="block")] = Field(
        None, alias="Ingress"
    )
    terminating: Annotated[ConsulTerminatingConfigEntry | None, Hcl("terminating", kind="block")] = Field(
        None, alias="Terminating"
    )
    mesh: Annotated[ConsulMeshConfigEntry | None, Hcl("mesh", kind="block")] = Field(None, alias="Mesh")


class ConsulConnect(Node):
    """A `connect { }` block in a `service` (api.ConsulConnect)."""

    native: Annotated[bool, Hcl("native")] = Field(False, alias="Native")
    gateway: Annotated[ConsulGateway | None, Hcl("gateway", kind="block")] = Field(None, alias="Gateway")
    sidecar_service: Annotated[ConsulSidecarService | None, Hcl("sidecar_service", kind="block")] = Field(
        None, alias="SidecarService"
    )
    sidecar_task: Annotated[SidecarTask | None, Hcl("sidecar_task", kind="block")] = Field(
        None, alias="SidecarTask"
    )


class Service(Node):
    """A `service { }` block in a group or task (api.Service)."""

    name: Annotated[str, Hcl("name")] = Field("", alias="Name")
    tags: Annotated[list[str] | None, Hcl("tags")] = Field(None, alias="Tags")
    canary_tags: Annotated[list[str] | None, Hcl("canary_tags")] = Field(None, alias="CanaryTags")
    enable_tag_override: Annotated[bool, Hcl("enable_tag_override")] = Field(False, alias="EnableTagOverride")
    port_label: Annotated[str, Hcl("port")] = Field("", alias="PortLabel")
    address_mode: Annotated[str, Hcl("address_mode")] = Field("", alias="AddressMode")
    address: Annotated[str, Hcl("address")] = Field("", alias="Address")
    checks: Annotated[list[ServiceCheck] | None, Hcl("check", kind="block")] = Field(None, alias="Checks")
    check_restart: Annotated[CheckRestart | None, Hcl("check_restart", kind="block")] = Field(
        None, alias="CheckRestart"
    )
    connect: Annotated[ConsulConnect | None, Hcl("connect", kind="block")] = Field(None, alias="Connect")
    meta: Annotated[dict[str, str] | None, Hcl("meta", kind="block")] = Field(None, alias="Meta")
    canary_meta: Annotated[dict[str, str] | None, Hcl("canary_meta", kind="block")] = Field(
        None, alias="CanaryMeta"
    )
    tagged_addresses: Annotated[dict[str, str] | None, Hcl("tagged_addresses", kind="block")] = Field(
        None, alias="TaggedAddresses"
    )
    task_name: Annotated[str, Hcl("task")] = Field("", alias="TaskName")
    on_update: Annotated[str, Hcl("on_update")] = Field("", alias="OnUpdate")
    identity: Annotated[WorkloadIdentity | None, Hcl("identity", kind="block")] = Field(
        None, alias="Identity"
    )
    weights: Annotated[ServiceWeights | None, Hcl("weights", kind="block")] = Field(None, alias="Weights")
    provider: Annotated[str, Hcl("provider")] = Field("", alias="Provider")
    cluster: Annotated[str, Hcl("cluster")] = Field("", alias="Cluster")
    kind: Annotated[str, Hcl("kind")] = Field("", alias="Kind")


class Consul(Node):
    """A `consul { }` block in a group or task (api.Consul)."""

    namespace: Annotated[str, Hcl("namespace")] = Field("", alias="Namespace")
    cluster: Annotated[str, Hcl("cluster")] = Field("", alias="Cluster")
    partition: Annotated[str, Hcl("partition")] = Field("", alias="Partition")


# --------------------------------------------------------------------------- task


class TaskLifecycle(Node):
    """A `lifecycle { }` block in a task (api.TaskLifecycle)."""

    hook: Annotated[str, Hcl("hook", required=True)] = Field("", alias="Hook")
    sidecar: Annotated[bool, Hcl("sidecar")] = Field(False, alias="Sidecar")


class RestartPolicy(Node):
    """A `restart { }` block in a group or task (api.RestartPolicy)."""

    interval: Annotated[int | None, Hcl("interval", go="duration")] = Field(None, alias="Interval")
    attempts: Annotated[int | None, Hcl("attempts")] = Field(None, alias="Attempts")
    delay: Annotated[int | None, Hcl("delay", go="duration")] = Field(None, alias="Delay")
    mode: Annotated[str | None, Hcl("mode")] = Field(None, alias="Mode")
    render_templates: Annotated[bool | None, Hcl("render_templates")] = Field(None, alias="RenderTemplates")


class TaskArtifact(Node):
    """An `artifact { }` block in a task (api.TaskArtifact)."""

    getter_source: Annotated[str | None, Hcl("source")] = Field(None, alias="GetterSource")
    getter_options: Annotated[dict[str, str] | None, Hcl("options", kind="block")] = Field(
        None, alias="GetterOptions"
    )
    getter_headers: Annotated[dict[str, str] | None, Hcl("headers", kind="block")] = Field(
        None, alias="GetterHeaders"
    )
    getter_mode: Annotated[str | None, Hcl("mode")] = Field(None, alias="GetterMode")
    getter_insecure: Annotated[bool | None, Hcl("insecure")] = Field(None, alias="GetterInsecure")
    relative_dest: Annotated[str | None, Hcl("destination")] = Field(None, alias="RelativeDest")
    chown: Annotated[bool, Hcl("chown")] = Field(False, alias="Chown")


class Vault(Node):
    """A `vault { }` block in a job, group or task (api.Vault)."""

    policies: Annotated[list[str] | None, Hcl("policies")] = Field(None, alias="Policies")
    role: Annotated[str, Hcl("role")] = Field("", alias="Role")
    namespace: Annotated[str | None, Hcl("namespace")] = Field(None, alias="Namespace")
    cluster: Annotated[str, Hcl("cluster")] = Field("", alias="Cluster")
    env: Annotated[bool | None, Hcl("env")] = Field(None, alias="Env")
    disable_file: Annotated[bool | None, Hcl("disable_file")] = Field(None, alias="DisableFile")
    change_mode: Annotated[str | None, Hcl("change_mode")] = Field(None, alias="ChangeMode")
    change_signal: Annotated[str | None, Hcl("change_signal")] = Field(None, alias="ChangeSignal")
    allow_token_expiration: Annotated[bool | None, Hcl("allow_token_expiration")] = Field(
        None, alias="AllowTokenExpiration"
    )


class WaitConfig(Node):
    """A `wait { }` block in a `template` (api.WaitConfig)."""

    min: Annotated[int | None, Hcl("min", required=True, go="duration")] = Field(None, alias="Min")
    max: Annotated[int | None, Hcl("max", required=True, go="duration")] = Field(None, alias="Max")


class ChangeScript(Node):
    """A `change_script { }` block in a `template` (api.ChangeScript)."""

    command: Annotated[str | None, Hcl("command", required=True)] = Field(None, alias="Command")
    args: Annotated[list[str] | None, Hcl("args")] = Field(None, alias="Args")
    timeout: Annotated[int | None, Hcl("timeout", go="duration")] = Field(None, alias="Timeout")
    fail_on_error: Annotated[bool | None, Hcl("fail_on_error", required=True)] = Field(
        None, alias="FailOnError"
    )
    run_on_first_render: Annotated[bool | None, Hcl("run_on_first_render")] = Field(
        None, alias="RunOnFirstRender"
    )


class Template(Node):
    """A `template { }` block in a task (api.Template)."""

    source_path: Annotated[str | None, Hcl("source")] = Field(None, alias="SourcePath")
    dest_path: Annotated[str | None, Hcl("destination")] = Field(None, alias="DestPath")
    embedded_tmpl: Annotated[str | None, Hcl("data")] = Field(None, alias="EmbeddedTmpl")
    change_mode: Annotated[str | None, Hcl("change_mode")] = Field(None, alias="ChangeMode")
    change_script: Annotated[ChangeScript | None, Hcl("change_script", kind="block")] = Field(
        None, alias="ChangeScript"
    )
    change_signal: Annotated[str | None, Hcl("change_signal")] = Field(None, alias="ChangeSignal")
    once: Annotated[bool | None, Hcl("once")] = Field(None, alias="Once")
    splay: Annotated[int | None, Hcl("splay", go="duration")] = Field(None, alias="Splay")
    perms: Annotated[str | None, Hcl("perms")] = Field(None, alias="Perms")
    uid: Annotated[int | None, Hcl("uid")] = Field(None, alias="Uid")
    gid: Annotated[int | None, Hcl("gid")] = Field(None, alias="Gid")
    left_delim: Annotated[str | None, Hcl("left_delimiter")] = Field(None, alias="LeftDelim")
    right_delim: Annotated[str | None, Hcl("right_delimiter")] = Field(None, alias="RightDelim")
    envvars: Annotated[bool | None, Hcl("env")] = Field(None, alias="Envvars")
    vault_grace: Annotated[int | None, Hcl("vault_grace", go="duration")] = Field(None, alias="VaultGrace")
    wait: Annotated[WaitConfig | None, Hcl("wait", kind="block")] = Field(None, alias="Wait")
    err_missing_key: Annotated[bool | None, Hcl("error_on_missing_key")] = Field(None, alias="ErrMissingKey")


class DispatchPayloadConfig(Node):
    """A `dispatch_payload { }` block in a task (api.DispatchPayloadConfig)."""

    file: Annotated[str, Hcl("file")] = Field("", alias="File")


class TaskCSIPluginConfig(Node):
    """A `csi_plugin { }` block in a task (api.TaskCSIPluginConfig)."""

    id: Annotated[str, Hcl("id")] = Field("", alias="ID")
    type: Annotated[str, Hcl("type")] = Field("", alias="Type")
    mount_dir: Annotated[str, Hcl("mount_dir")] = Field("", alias="MountDir")
    stage_publish_base_dir: Annotated[str, Hcl("stage_publish_base_dir")] = Field(
        "", alias="StagePublishBaseDir"
    )
    health_timeout: Annotated[int, Hcl("health_timeout", go="duration")] = Field(0, alias="HealthTimeout")


class ScalingPolicy(Node):
    """A `scaling { }` block in a group, or `scaling "cpu"|"mem" { }` in a task (api.ScalingPolicy)."""

    min: Annotated[int | None, Hcl("min", go="int64")] = Field(None, alias="Min")
    max: Annotated[int | None, Hcl("max", go="int64")] = Field(None, alias="Max")
    policy: Annotated[dict[str, Any] | None, Hcl("policy", kind="block", go="any")] = Field(
        None, alias="Policy"
    )
    enabled: Annotated[bool | None, Hcl("enabled")] = Field(None, alias="Enabled")
    type: Annotated[str, Hcl("type")] = Field("", alias="Type")
    id: str = Field("", alias="ID")
    namespace: str = Field("", alias="Namespace")
    target: dict[str, str] | None = Field(None, alias="Target")
    create_index: int = Field(0, alias="CreateIndex")
    modify_index: int = Field(0, alias="ModifyIndex")


class Secret(Node):
    """A `secret "<name>" { }` block in a task (api.Secret)."""

    name: Annotated[str, Hcl("name", kind="label")] = Field("", alias="Name")
    provider: Annotated[str, Hcl("provider")] = Field("", alias="Provider")
    path: Annotated[str, Hcl("path")] = Field("", alias="Path")
    config: Annotated[dict[str, Any] | None, Hcl("config", kind="block", go="any")] = Field(
        None, alias="Config"
    )
    env: Annotated[dict[str, str] | None, Hcl("env", kind="block")] = Field(None, alias="Env")


class Action(Node):
    """An `action "<name>" { }` block in a task (api.Action)."""

    name: Annotated[str, Hcl("name", kind="label")] = Field("", alias="Name")
    command: Annotated[str, Hcl("command", required=True)] = Field("", alias="Command")
    args: Annotated[list[str] | None, Hcl("args")] = Field(None, alias="Args")


class TaskScheduleCron(Node):
    """A `cron { }` block in a task `schedule` (api.TaskScheduleCron)."""

    start: Annotated[str, Hcl("start")] = Field("", alias="Start")
    end: Annotated[str, Hcl("end")] = Field("", alias="End")
    timezone: Annotated[str, Hcl("timezone")] = Field("", alias="Timezone")


class TaskSchedule(Node):
    """A `schedule { }` block in a task (api.TaskSchedule)."""

    cron: Annotated[TaskScheduleCron | None, Hcl("cron", kind="block")] = Field(None, alias="Cron")


class Task(Node):
    """A `task "<name>" { }` block (api.Task)."""

    name: Annotated[str, Hcl("name", kind="label")] = Field("", alias="Name")
    driver: Annotated[str, Hcl("driver")] = Field("", alias="Driver")
    user: Annotated[str, Hcl("user")] = Field("", alias="User")
    lifecycle: Annotated[TaskLifecycle | None, Hcl("lifecycle", kind="block")] = Field(
        None, alias="Lifecycle"
    )
    config: Annotated[dict[str, Any] | None, Hcl("config", kind="block", go="any")] = Field(
        None, alias="Config"
    )
    constraints: Annotated[list[Constraint] | None, Hcl("constraint", kind="block")] = Field(
        None, alias="Constraints"
    )
    affinities: Annotated[list[Affinity] | None, Hcl("affinity", kind="block")] = Field(
        None, alias="Affinities"
    )
    env: Annotated[dict[str, str] | None, Hcl("env", kind="block")] = Field(None, alias="Env")
    services: Annotated[list[Service] | None, Hcl("service", kind="block")] = Field(None, alias="Services")
    resources: Annotated[Resources | None, Hcl("resources", kind="block")] = Field(None, alias="Resources")
    restart_policy: Annotated[RestartPolicy | None, Hcl("restart", kind="block")] = Field(
        None, alias="RestartPolicy"
    )
    meta: Annotated[dict[str, str] | None, Hcl("meta", kind="block")] = Field(None, alias="Meta")
    kill_timeout: Annotated[int | None, Hcl("kill_timeout", go="duration")] = Field(None, alias="KillTimeout")
    log_config: Annotated[LogConfig | None, Hcl("logs", kind="block")] = Field(None, alias="LogConfig")
    artifacts: Annotated[list[TaskArtifact] | None, Hcl("artifact", kind="block")] = Field(
        None, alias="Artifacts"
    )
    vault: Annotated[Vault | None, Hcl("vault", kind="block")] = Field(None, alias="Vault")
    consul: Annotated[Consul | None, Hcl("consul", kind="block")] = Field(None, alias="Consul")
    templates: Annotated[list[Template] | None, Hcl("template", kind="block")] = Field(
        None, alias="Templates"
    )
    dispatch_payload: Annotated[DispatchPayloadConfig | None, Hcl("dispatch_payload", kind="block")] = Field(
        None, alias="DispatchPayload"
    )
    volume_mounts: Annotated[list[VolumeMount] | None, Hcl("volume_mount", kind="block")] = Field(
        None, alias="VolumeMounts"
    )
    csi_plugin_config: Annotated[
        TaskCSIPluginConfig | None, Hcl("csi_plugin", kind="block", omitempty=True)
    ] = Field(None, alias="CSIPluginConfig")
    leader: Annotated[bool, Hcl("leader")] = Field(False, alias="Leader")
    shutdown_delay: Annotated[int, Hcl("shutdown_delay", go="duration")] = Field(0, alias="ShutdownDelay")
    kill_signal: Annotated[str, Hcl("kill_signal")] = Field("", alias="KillSignal")
    kind: Annotated[str, Hcl("kind")] = Field("", alias="Kind")
    scaling_policies: Annotated[list[ScalingPolicy] | None, Hcl("scaling", kind="block")] = Field(
        None, alias="ScalingPolicies"
    )
    secrets: Annotated[list[Secret] | None, Hcl("secret", kind="block")] = Field(None, alias="Secrets")
    identity: WorkloadIdentity | None = Field(None, alias="Identity")
    identities: Annotated[list[WorkloadIdentity] | None, Hcl("identity", kind="block")] = Field(
        None, alias="Identities"
    )
    actions: Annotated[list[Action] | None, Hcl("action", kind="block")] = Field(None, alias="Actions")
    schedule: Annotated[TaskSchedule | None, Hcl("schedule", kind="block")] = Field(None, alias="Schedule")


# --------------------------------------------------------------------------- group


class CSIMountOptions(Node):
    """A `mount_options { }` block in a group `volume` (api.CSIMountOptions)."""

    fs_type: Annotated[str, Hcl("fs_type")] = Field("", alias="FSType")
    mount_flags: Annotated[list[str] | None, Hcl("mount_flags")] = Field(None, alias="MountFlags")


class VolumeRequest(Node):
    """A `volume "<name>" { }` block in a group (api.VolumeRequest)."""

    name: Annotated[str, Hcl("name", kind="label")] = Field("", alias="Name")
    type: Annotated[str, Hcl("type")] = Field("", alias="Type")
    source: Annotated[str, Hcl("source")] = Field("", alias="Source")
    read_only: Annotated[bool, Hcl("read_only")] = Field(False, alias="ReadOnly")
    sticky: Annotated[bool, Hcl("sticky")] = Field(False, alias="Sticky")
    access_mode: Annotated[str, Hcl("access_mode")] = Field("", alias="AccessMode")
    attachment_mode: Annotated[str, Hcl("attachment_mode")] = Field("", alias="AttachmentMode")
    mount_options: Annotated[CSIMountOptions | None, Hcl("mount_options", kind="block")] = Field(
        None, alias="MountOptions"
    )
    per_alloc: Annotated[bool, Hcl("per_alloc")] = Field(False, alias="PerAlloc")


class DisconnectStrategy(Node):
    """A `disconnect { }` block in a group (api.DisconnectStrategy)."""

    lost_after: Annotated[int | None, Hcl("lost_after", go="duration")] = Field(None, alias="LostAfter")
    stop_on_client_after: Annotated[int | None, Hcl("stop_on_client_after", go="duration")] = Field(
        None, alias="StopOnClientAfter"
    )
    replace: Annotated[bool | None, Hcl("replace")] = Field(None, alias="Replace")
    reconcile: Annotated[str | None, Hcl("reconcile")] = Field(None, alias="Reconcile")


class ReschedulePolicy(Node):
    """A `reschedule { }` block in a job or group (api.ReschedulePolicy)."""

    attempts: Annotated[int | None, Hcl("attempts")] = Field(None, alias="Attempts")
    interval: Annotated[int | None, Hcl("interval", go="duration")] = Field(None, alias="Interval")
    delay: Annotated[int | None, Hcl("delay", go="duration")] = Field(None, alias="Delay")
    delay_function: Annotated[str | None, Hcl("delay_function")] = Field(None, alias="DelayFunction")
    max_delay: Annotated[int | None, Hcl("max_delay", go="duration")] = Field(None, alias="MaxDelay")
    unlimited: Annotated[bool | None, Hcl("unlimited")] = Field(None, alias="Unlimited")


class EphemeralDisk(Node):
    """An `ephemeral_disk { }` block in a group (api.EphemeralDisk)."""

    sticky: Annotated[bool | None, Hcl("sticky")] = Field(None, alias="Sticky")
    migrate: Annotated[bool | None, Hcl("migrate")] = Field(None, alias="Migrate")
    size_mb: Annotated[int | None, Hcl("size")] = Field(None, alias="SizeMB")


class UpdateStrategy(Node):
    """An `update { }` block in a job or group (api.UpdateStrategy)."""

    stagger: Annotated[int | None, Hcl("stagger", go="duration")] = Field(None, alias="Stagger")
    max_parallel: Annotated[int | None, Hcl("max_parallel")] = Field(None, alias="MaxParallel")
    health_check: Annotated[str | None, Hcl("health_check")] = Field(None, alias="HealthCheck")
    min_healthy_time: Annotated[int | None, Hcl("min_healthy_time", go="duration")] = Field(
        None, alias="MinHealthyTime"
    )
    healthy_deadline: Annotated[int | None, Hcl("healthy_deadline", go="duration")] = Field(
        None, alias="HealthyDeadline"
    )
    progress_deadline: Annotated[int | None, Hcl("progress_deadline", go="duration")] = Field(
        None, alias="ProgressDeadline"
    )
    canary: Annotated[int | None, Hcl("canary")] = Field(None, alias="Canary")
    auto_revert: Annotated[bool | None, Hcl("auto_revert")] = Field(None, alias="AutoRevert")
    auto_promote: Annotated[bool | None, Hcl("auto_promote")] = Field(None, alias="AutoPromote")


class MigrateStrategy(Node):
    """A `migrate { }` block in a job or group (api.MigrateStrategy)."""

    max_parallel: Annotated[int | None, Hcl("max_parallel")] = Field(None, alias="MaxParallel")
    health_check: Annotated[str | None, Hcl("health_check")] = Field(None, alias="HealthCheck")
    min_healthy_time: Annotated[int | None, Hcl("min_healthy_time", go="duration")] = Field(
        None, alias="MinHealthyTime"
    )
    healthy_deadline: Annotated[int | None, Hcl("healthy_deadline", go="duration")] = Field(
        None, alias="HealthyDeadline"
    )


class TaskGroup(Node):
    """A `group "<name>" { }` block (api.TaskGroup)."""

    name: Annotated[str | None, Hcl("name", kind="label")] = Field(None, alias="Name")
    count: Annotated[int | None, Hcl("count")] = Field(None, alias="Count")
    constraints: Annotated[list[Constraint] | None, Hcl("constraint", kind="block")] = Field(
        None, alias="Constraints"
    )
    affinities: Annotated[list[Affinity] | None, Hcl("affinity", kind="block")] = Field(
        None, alias="Affinities"
    )
    tasks: Annotated[list[Task] | None, Hcl("task", kind="block")] = Field(None, alias="Tasks")
    spreads: Annotated[list[Spread] | None, Hcl("spread", kind="block")] = Field(None, alias="Spreads")
    volumes: Annotated[dict[str, VolumeRequest] | None, Hcl("volume", kind="block")] = Field(
        None, alias="Volumes"
    )
    restart_policy: Annotated[RestartPolicy | None, Hcl("restart", kind="block")] = Field(
        None, alias="RestartPolicy"
    )
    disconnect: Annotated[DisconnectStrategy | None, Hcl("disconnect", kind="block")] = Field(
        None, alias="Disconnect"
    )
    reschedule_policy: Annotated[ReschedulePolicy | None, Hcl("reschedule", kind="block")] = Field(
        None, alias="ReschedulePolicy"
    )
    ephemeral_disk: Annotated[EphemeralDisk | None, Hcl("ephemeral_disk", kind="block")] = Field(
        None, alias="EphemeralDisk"
    )
    update: Annotated[UpdateStrategy | None, Hcl("update", kind="block")] = Field(None, alias="Update")
    migrate: Annotated[MigrateStrategy | None, Hcl("migrate", kind="block")] = Field(None, alias="Migrate")
    networks: Annotated[list[NetworkResource] | None, Hcl("network", kind="block")] = Field(
        None, alias="Networks"
    )
    meta: Annotated[dict[str, str] | None, Hcl("meta", kind="block")] = Field(None, alias="Meta")
    services: Annotated[list[Service] | None, Hcl("service", kind="block")] = Field(None, alias="Services")
    shutdown_delay: Annotated[int | None, Hcl("shutdown_delay", go="duration")] = Field(
        None, alias="ShutdownDelay"
    )
    max_run_duration: Annotated[int | None, Hcl("max_run_duration", go="duration")] = Field(
        None, alias="MaxRunDuration"
    )
    stop_after_client_disconnect: Annotated[
        int | None, Hcl("stop_after_client_disconnect", go="duration")
    ] = Field(None, alias="StopAfterClientDisconnect")
    max_client_disconnect: Annotated[int | None, Hcl("max_client_disconnect", go="duration")] = Field(
        None, alias="MaxClientDisconnect"
    )
    scaling: Annotated[ScalingPolicy | None, Hcl("scaling", kind="block")] = Field(None, alias="Scaling")
    consul: Annotated[Consul | None, Hcl("consul", kind="block")] = Field(None, alias="Consul")
    prevent_reschedule_on_lost: Annotated[bool | None, Hcl("prevent_reschedule_on_lost")] = Field(
        None, alias="PreventRescheduleOnLost"
    )


# --------------------------------------------------------------------------- job


class MultiregionStrategy(Node):
    """A `strategy { }` block in `multiregion` (api.MultiregionStrategy)."""

    max_parallel: Annotated[int | None, Hcl("max_parallel")] = Field(None, alias="MaxParallel")
    on_failure: Annotated[str | None, Hcl("on_failure")] = Field(None, alias="OnFailure")


class MultiregionRegion(Node):
    """A `region "<name>" { }` block in `multiregion` (api.MultiregionRegion)."""

    name: Annotated[str, Hcl("", kind="label")] = Field("", alias="Name")
    count: Annotated[int | None, Hcl("count")] = Field(None, alias="Count")
    datacenters: Annotated[list[str] | None, Hcl("datacenters")] = Field(None, alias="Datacenters")
    node_pool: Annotated[str, Hcl("node_pool")] = Field("", alias="NodePool")
    meta: Annotated[dict[str, str] | None, Hcl("meta", kind="block")] = Field(None, alias="Meta")


class Multiregion(Node):
    """A `multiregion { }` block in a job (api.Multiregion)."""

    strategy: Annotated[MultiregionStrategy | None, Hcl("strategy", kind="block")] = Field(
        None, alias="Strategy"
    )
    regions: Annotated[list[MultiregionRegion] | None, Hcl("region", kind="block")] = Field(
        None, alias="Regions"
    )


class PeriodicConfig(Node):
    """A `periodic { }` block in a job (api.PeriodicConfig)."""

    enabled: Annotated[bool | None, Hcl("enabled")] = Field(None, alias="Enabled")
    spec: Annotated[str | None, Hcl("cron")] = Field(None, alias="Spec")
    specs: Annotated[list[str] | None, Hcl("crons")] = Field(None, alias="Specs")
    spec_type: str | None = Field(None, alias="SpecType")
    prohibit_overlap: Annotated[bool | None, Hcl("prohibit_overlap")] = Field(None, alias="ProhibitOverlap")
    time_zone: Annotated[str | None, Hcl("time_zone")] = Field(None, alias="TimeZone")


class ParameterizedJobConfig(Node):
    """A `parameterized { }` block in a job (api.ParameterizedJobConfig)."""

    payload: Annotated[str, Hcl("payload")] = Field("", alias="Payload")
    meta_required: Annotated[list[str] | None, Hcl("meta_required")] = Field(None, alias="MetaRequired")
    meta_optional: Annotated[list[str] | None, Hcl("meta_optional")] = Field(None, alias="MetaOptional")


class JobUILink(Node):
    """A `link { }` block in a job `ui` (api.JobUILink)."""

    label: Annotated[str, Hcl("label")] = Field("", alias="Label")
    url: Annotated[str, Hcl("url")] = Field("", alias="URL")


class JobUIConfig(Node):
    """A `ui { }` block in a job (api.JobUIConfig)."""

    description: Annotated[str, Hcl("description")] = Field("", alias="Description")
    links: Annotated[list[JobUILink] | None, Hcl("link", kind="block")] = Field(None, alias="Links")


class JobVersionTag(Node):
    """A job version tag; server-set, no HCL block (api.JobVersionTag)."""

    name: str = Field("", alias="Name")
    description: str = Field("", alias="Description")
    tagged_time: int = Field(0, alias="TaggedTime")


class Job(Node):
    """A `job "<id>" { }` block (api.Job); the label becomes ID and, when unset, Name."""

    region: Annotated[str | None, Hcl("region")] = Field(None, alias="Region")
    namespace: Annotated[str | None, Hcl("namespace")] = Field(None, alias="Namespace")
    id: Annotated[str | None, Hcl("id")] = Field(None, alias="ID")
    name: Annotated[str | None, Hcl("name")] = Field(None, alias="Name")
    type: Annotated[str | None, Hcl("type")] = Field(None, alias="Type")
    priority: Annotated[int | None, Hcl("priority")] = Field(None, alias="Priority")
    all_at_once: Annotated[bool | None, Hcl("all_at_once")] = Field(None, alias="AllAtOnce")
    datacenters: Annotated[list[str] | None, Hcl("datacenters")] = Field(None, alias="Datacenters")
    node_pool: Annotated[str | None, Hcl("node_pool")] = Field(None, alias="NodePool")
    constraints: Annotated[list[Constraint] | None, Hcl("constraint", kind="block")] = Field(
        None, alias="Constraints"
    )
    affinities: Annotated[list[Affinity] | None, Hcl("affinity", kind="block")] = Field(
        None, alias="Affinities"
    )
    task_groups: Annotated[list[TaskGroup] | None, Hcl("group", kind="block")] = Field(
        None, alias="TaskGroups"
    )
    update: Annotated[UpdateStrategy | None, Hcl("update", kind="block")] = Field(None, alias="Update")
    multiregion: Annotated[Multiregion | None, Hcl("multiregion", kind="block")] = Field(
        None, alias="Multiregion"
    )
    spreads: Annotated[list[Spread] | None, Hcl("spread", kind="block")] = Field(None, alias="Spreads")
    periodic: Annotated[PeriodicConfig | None, Hcl("periodic", kind="block")] = Field(None, alias="Periodic")
    parameterized_job: Annotated[ParameterizedJobConfig | None, Hcl("parameterized", kind="block")] = Field(
        None, alias="ParameterizedJob"
    )
    reschedule: Annotated[ReschedulePolicy | None, Hcl("reschedule", kind="block")] = Field(
        None, alias="Reschedule"
    )
    migrate: Annotated[MigrateStrategy | None, Hcl("migrate", kind="block")] = Field(None, alias="Migrate")
    meta: Annotated[dict[str, str] | None, Hcl("meta", kind="block")] = Field(None, alias="Meta")
    ui: Annotated[JobUIConfig | None, Hcl("ui", kind="block")] = Field(None, alias="UI")
    # Server-set fields: no hcl tag, always printed (null / false from the parser).
    stop: bool | None = Field(None, alias="Stop")
    parent_id: str | None = Field(None, alias="ParentID")
    dispatched: bool = Field(False, alias="Dispatched")
    dispatch_idempotency_token: str | None = Field(None, alias="DispatchIdempotencyToken")
    payload: bytes | None = Field(None, alias="Payload")
    consul_namespace: str | None = Field(None, alias="ConsulNamespace")
    vault_namespace: str | None = Field(None, alias="VaultNamespace")
    nomad_token_id: str | None = Field(None, alias="NomadTokenID")
    status: str | None = Field(None, alias="Status")
    status_description: str | None = Field(None, alias="StatusDescription")
    stable: bool | None = Field(None, alias="Stable")
    version: int | None = Field(None, alias="Version")
    submit_time: int | None = Field(None, alias="SubmitTime")
    create_index: int | None = Field(None, alias="CreateIndex")
    modify_index: int | None = Field(None, alias="ModifyIndex")
    job_modify_index: int | None = Field(None, alias="JobModifyIndex")
    version_tag: JobVersionTag | None = Field(None, alias="VersionTag")
