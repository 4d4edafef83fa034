"""A Connect gateway as Nomad's server validates it (HG292).

`ConsulGateway.Validate` (nomad/structs/services.go) and what it calls, for a service whose
`connect` block holds a `gateway`: the gateway's Envoy `proxy` (its DNS discovery type and
bind addresses), exactly one kind, and that kind's configuration entry: an `ingress`
gateway's listeners and the services they route to, a `terminating` gateway's linked
services and their TLS files (a `mesh` gateway has none). Nomad returns the first error
only: :func:`gateway_problem` gives it to the rule of the `connect` block
(:mod:`hclgpu.checks.connect`).

A gateway is judged as the connect mutator leaves it: in a group with a network, a group
service's default `proxy` is replaced by one whose bind addresses fit the network mode.
"""

from __future__ import annotations

from hclgpu.checks.context import Context
from hclgpu.checks.findings import Finding
from hclgpu.checks.server import Condition, at
from hclgpu.codes.base import Code, E
from hclgpu.ir import models as m

HG292 = Code(
    "HG292",
    "invalid-connect",
    E,
    summary="A Consul Connect block Nomad refuses",
    doc="""What: a service's `connect` block, or the group around it, breaks a rule of Nomad's
server: a `connect` block that is not exactly one of `sidecar_service`, `native` and
`gateway`; a gateway that is not exactly one of ingress, terminating and mesh, or whose
listeners, services, TLS files or bind addresses are incomplete; a transparent proxy with
an unparsable CIDR or user ID, with network `dns` but not `no_dns`, or beside another
`connect` block; a sidecar, gateway or exposed check in a group without exactly one bridge
or CNI network (gateways may use host); upper case in a sidecar's service or group name;
two upstreams on one local address; a native service without its task or port; a mesh
gateway without `port`; an exposed check outside a group sidecar service, or on a dynamic
port; a hand-written `connect-proxy:<service>` task with services, `leader`, or no such
sidecar service.

Why: Nomad rejects the job at registration (`ConsulConnect.Validate` and the gateway
blocks' `Validate`, nomad/structs/services.go and connect.go; `Task.Validate`; the
`jobConnectHook` and `jobExposeCheckHook` admission hooks,
nomad/job_endpoint_hook_connect.go and job_endpoint_hook_expose_check.go). The hooks'
mutators stop the registration at their first error, and their validators report only
their first one, so a fix can uncover the next.

Example:
    network {
      mode = "host"
    }
    service {
      name = "api"
      connect {
        sidecar_service {}
      }
    }

Fix: give the group one `network { mode = "bridge" }`, or write what the message asks.""",
)

SV = "nomad/structs/services.go"

DNS_DISCOVERY = Condition(
    "gateway-dns-discovery-type",
    code=HG292,
    nomad="ConsulGatewayProxy.Validate",
    source=f"{SV}:2170",
    condition="a gateway `proxy { envoy_dns_discovery_type }` is not STRICT_DNS or LOGICAL_DNS (case"
    " matters)",
    message="Consul Gateway Proxy Envoy DNS Discovery type must be STRICT_DNS or LOGICAL_DNS",
)
BIND_ADDRESS = Condition(
    "gateway-bind-address-missing",
    code=HG292,
    nomad="ConsulGatewayBindAddress.Validate",
    source=f"{SV}:2053",
    condition="an `envoy_gateway_bind_addresses` block has no `address`",
    message="Consul Gateway Bind Address must be set",
)
BIND_PORT = Condition(
    "gateway-bind-address-port",
    code=HG292,
    nomad="ConsulGatewayBindAddress.Validate",
    source=f"{SV}:2057",
    condition="an `envoy_gateway_bind_addresses` block has a `port` of 0 or below other than -1; also an"
    " ingress listener's `port` below 1 in a bridge or CNI group whose gateway `proxy` binds"
    " nothing itself (the server binds each listener service at the listener's port, and"
    " checks that before the listener)",
    message="Consul Gateway Bind Address must set valid Port",
)
NO_LISTENER = Condition(
    "ingress-without-listener",
    code=HG292,
    nomad="ConsulIngressConfigEntry.Validate",
    source=f"{SV}:2568",
    condition="a gateway `ingress` block has no `listener`",
    message="Consul Ingress Gateway requires at least one listener",
)
LISTENER_PORT = Condition(
    "ingress-listener-port",
    code=HG292,
    nomad="ConsulIngressListener.Validate",
    source=f"{SV}:2492",
    condition="an ingress `listener` has no `port`, or one below 1",
    message="Consul Ingress Listener requires valid Port",
)
LISTENER_PROTOCOL = Condition(
    "ingress-listener-protocol",
    code=HG292,
    nomad="ConsulIngressListener.Validate",
    source=f"{SV}:2497",
    condition="an ingress `listener { protocol }` is not tcp (the default), http, http2 or grpc",
    message="Consul Ingress Listener requires protocol of tcp, http, http2, grpc, got {protocol!r}",
)
LISTENER_SERVICES = Condition(
    "ingress-listener-without-service",
    code=HG292,
    nomad="ConsulIngressListener.Validate",
    source=f"{SV}:2501",
    condition="an ingress `listener` has no `service` block",
    message="Consul Ingress Listener requires one or more services",
)
INGRESS_NAME = Condition(
    "ingress-service-without-name",
    code=HG292,
    nomad="ConsulIngressService.Validate",
    source=f"{SV}:2421",
    condition="an ingress listener's `service` has no `name`",
    message="Consul Ingress Service requires a name",
)
TCP_WILDCARD = Condition(
    "ingress-service-tcp-wildcard",
    code=HG292,
    nomad="ConsulIngressService.Validate",
    source=f"{SV}:2427",
    condition='an ingress service is named "*" on a tcp listener',
    message='Consul Ingress Service doesn\'t support wildcard name for "tcp" protocol',
)
TCP_HOSTS = Condition(
    "ingress-service-tcp-hosts",
    code=HG292,
    nomad="ConsulIngressService.Validate",
    source=f"{SV}:2431",
    condition="an ingress service of a tcp listener lists `hosts`",
    message='Consul Ingress Service doesn\'t support associating hosts to a service for the "tcp" protocol',
)
WILDCARD_HOSTS = Condition(
    "ingress-service-wildcard-hosts",
    code=HG292,
    nomad="ConsulIngressService.Validate",
    source=f"{SV}:2435",
    condition='an ingress service named "*" lists `hosts` (on a listener other than tcp)',
    message='Consul Ingress Service with a wildcard "*" service name can not also specify hosts',
)
NO_LINKED_SERVICE = Condition(
    "terminating-without-service",
    code=HG292,
    nomad="ConsulTerminatingConfigEntry.Validate",
    source=f"{SV}:2696",
    condition="a gateway `terminating` block has no `service`",
    message="Consul Terminating Gateway requires at least one service",
)
LINKED_NAME = Condition(
    "linked-service-without-name",
    code=HG292,
    nomad="ConsulLinkedService.Validate",
    source=f"{SV}:2633",
    condition="a terminating gateway's `service` has no `name`",
    message="Consul Linked Service requires Name",
)
LINKED_CA = Condition(
    "linked-service-tls-without-ca",
    code=HG292,
    nomad="ConsulLinkedService.Validate",
    source=f"{SV}:2642",
    condition="a terminating gateway's `service` sets `cert_file` or `key_file` without `ca_file`",
    message="Consul Linked Service TLS requires CAFile",
)
LINKED_PAIR = Condition(
    "linked-service-cert-without-key",
    code=HG292,
    nomad="ConsulLinkedService.Validate",
    source=f"{SV}:2646",
    condition="a terminating gateway's `service` sets one of `cert_file` and `key_file` without the other",
    message="Consul Linked Service TLS Cert and Key must both be set",
)
LINKED_SNI = Condition(
    "linked-service-sni-without-ca",
    code=HG292,
    nomad="ConsulLinkedService.Validate",
    source=f"{SV}:2650",
    condition="a terminating gateway's `service` sets `sni` without `ca_file`",
    message="Consul Linked Service TLS SNI requires CAFile",
)
GATEWAY_KIND = Condition(
    "gateway-not-one-kind",
    code=HG292,
    nomad="ConsulGateway.Validate",
    source=f"{SV}:2007",
    condition="a `gateway` block has not exactly one of `ingress`, `terminating` and `mesh`",
    message="One Consul Gateway Configuration must be set",
)

INGRESS_PROTOCOLS = ("tcp", "http", "http2", "grpc")
DNS_TYPES = ("", "STRICT_DNS", "LOGICAL_DNS")


def gateway_problem(ctx: Context, gateway: m.ConsulGateway, mode: str | None) -> Finding | None:
    """The first error of `ConsulGateway.Validate`: proxy, ingress, terminating, then the kind.
    ``mode`` is the group's network mode when the connect mutator ran on the gateway."""
    problem = (
        _proxy_problem(ctx, gateway, mode)
        or _ingress_problem(ctx, gateway.ingress)
        or _terminating_problem(ctx, gateway.terminating)
    )
    if problem is not None:
        return problem
    if [gateway.ingress, gateway.terminating, gateway.mesh].count(None) != 2:
        return Finding(
            GATEWAY_KIND, ctx.header_span(gateway), "keep one of `ingress`, `terminating` and `mesh`"
        )
    return None


def _proxy_problem(ctx: Context, gateway: m.ConsulGateway, mode: str | None) -> Finding | None:
    """`ConsulGatewayProxy.Validate` on the proxy the connect mutator leaves (`gatewayProxy`):
    the written one when it binds anything itself, else a default with bind addresses
    generated for bridge and CNI groups."""
    proxy = gateway.proxy
    if proxy is not None and proxy.envoy_dns_discovery_type not in DNS_TYPES:
        span = at(ctx, [proxy], "envoy_dns_discovery_type")
        return Finding(DNS_DISCOVERY, span, "use STRICT_DNS or LOGICAL_DNS, in capitals")
    if mode is None or _binds_itself(proxy):
        return _bind_problem(ctx, proxy)
    if gateway.ingress is None or not (mode == "bridge" or mode.startswith("cni/")):
        return None  # the generated addresses are 0.0.0.0, on port -1 but an ingress's
    for listener in gateway.ingress.listeners or []:
        if listener.services and listener.port <= 0 and listener.port != -1:
            span = at(ctx, [listener], "port")
            return Finding(
                BIND_PORT, span, "give the listener a `port`: the gateway binds its services there"
            )
    return None


def _binds_itself(proxy: m.ConsulGatewayProxy | None) -> bool:
    """The opposite of `gatewayProxyIsDefault`."""
    return proxy is not None and bool(
        proxy.envoy_gateway_no_default_bind
        or proxy.envoy_gateway_bind_tagged_addresses
        or proxy.envoy_gateway_bind_addresses
    )


def _bind_problem(ctx: Context, proxy: m.ConsulGatewayProxy | None) -> Finding | None:
    addresses = (proxy.envoy_gateway_bind_addresses if proxy is not None else None) or {}
    for address in addresses.values():
        if not address.address:
            return Finding(BIND_ADDRESS, at(ctx, [address], "address"), 'set `address`, e.g. "0.0.0.0"')
        if address.port <= 0 and address.port != -1:
            return Finding(
                BIND_PORT, at(ctx, [address], "port"), "use a port above 0, or -1 to let Nomad fill it in"
            )
    return None


def _ingress_problem(ctx: Context, ingress: m.ConsulIngressConfigEntry | None) -> Finding | None:
    if ingress is None:
        return None
    if not ingress.listeners:
        return Finding(
            NO_LISTENER, ctx.header_span(ingress), "add a `listener { port = ... service { ... } }`"
        )
    for listener in ingress.listeners:
        if listener.port <= 0:
            return Finding(LISTENER_PORT, at(ctx, [listener], "port"), "give the listener a `port` above 0")
        if listener.protocol not in INGRESS_PROTOCOLS:
            span = at(ctx, [listener], "protocol")
            values = {"protocol": listener.protocol}
            return Finding(LISTENER_PROTOCOL, span, "use tcp, http, http2 or grpc", values)
        if not listener.services:
            return Finding(LISTENER_SERVICES, ctx.header_span(listener), "add a `service { name = ... }`")
        for service in listener.services:
            problem = _ingress_service_problem(ctx, service, listener.protocol)
            if problem is not None:
                return problem
    return None


def _ingress_service_problem(ctx: Context, service: m.ConsulIngressService, protocol: str) -> Finding | None:
    if not service.name:
        return Finding(INGRESS_NAME, at(ctx, [service], "name"), "name the Consul service to route to")
    if protocol == "tcp" and service.name == "*":
        return Finding(TCP_WILDCARD, at(ctx, [service], "name"), "name the service, or use an http listener")
    if protocol == "tcp" and service.hosts:
        return Finding(TCP_HOSTS, at(ctx, [service], "hosts"), "remove `hosts`, or use an http listener")
    if service.name == "*" and service.hosts:
        return Finding(
            WILDCARD_HOSTS, at(ctx, [service], "hosts"), 'remove `hosts`, or name the service instead of "*"'
        )
    return None


def _terminating_problem(ctx: Context, terminating: m.ConsulTerminatingConfigEntry | None) -> Finding | None:
    if terminating is None:
        return None
    if not terminating.services:
        return Finding(NO_LINKED_SERVICE, ctx.header_span(terminating), "add a `service { name = ... }`")
    for service in terminating.services:
        if not service.name:
            return Finding(LINKED_NAME, at(ctx, [service], "name"), "name the service the gateway links to")
        tls = bool(service.cert_file or service.key_file)
        if tls and not service.ca_file:
            return Finding(LINKED_CA, at(ctx, [service], "cert_file", "key_file"), "add the `ca_file`")
        if bool(service.cert_file) != bool(service.key_file):
            return Finding(LINKED_PAIR, ctx.header_span(service), "set both `cert_file` and `key_file`")
        if service.sni and not service.ca_file:
            return Finding(LINKED_SNI, at(ctx, [service], "sni"), "add the `ca_file`, or remove `sni`")
    return None
