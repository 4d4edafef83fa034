"""Cases for the server checks of hclgpu.checks.connect, gateways and connect_admission."""

from __future__ import annotations

from tests.server_cases.common import CHECK, DELAY, job

BRIDGE = 'network {\nmode = "bridge"\nport "http" {\nto = 8080\n}\n}'
STATIC = 'network {\nmode = "bridge"\nport "http" {\nstatic = 8080\n}\n}'
SIDECAR = "sidecar_service {}"
EXPOSED = f'check {{\ntype = "http"\npath = "/health"\nexpose = true\n{CHECK}\n}}'
UNEXPOSED = EXPOSED.replace("expose = true", "expose = false")


def network(mode: str, extra: str = "") -> str:
    return f'network {{\nmode = "{mode}"\nport "http" {{\nto = 8080\n}}\n{extra}\n}}'


def connect(body: str, extra: str = "", name: str = "web", port: str = "http") -> str:
    """A group service with ``body`` in its `connect` block."""
    port_line = f'port = "{port}"\n' if port else ""
    return f'service {{\nname = "{name}"\n{port_line}{extra}\nconnect {{\n{body}\n}}\n}}'


def sidecar(group: str, name: str = "web", port: str = "http", extra: str = "") -> str:
    """A group with ``group`` (a network) and a sidecar service."""
    return f"{group}\n{connect(SIDECAR, extra, name, port)}"


def tproxy(body: str, group: str = BRIDGE) -> str:
    proxy = "sidecar_service {\nproxy {\ntransparent_proxy {\n" + body + "\n}\n}\n}"
    return f"{group}\n{connect(proxy)}"


def gateway(body: str, group: str = BRIDGE, port: str = "http") -> str:
    block = "gateway {\n" + body + "\n}"
    return f"{group}\n{connect(block, name='gateway', port=port)}"


def ingress(listener: str, proxy: str = "", group: str = BRIDGE) -> str:
    return gateway(f"{proxy}\ningress {{\nlistener {{\n{listener}\n}}\n}}", group)


def terminating(service: str) -> str:
    return gateway(f"terminating {{\nservice {{\n{service}\n}}\n}}")


def upstreams(*ports: int) -> str:
    blocks = "\n".join(
        f'upstreams {{\ndestination_name = "db{i}"\nlocal_bind_port = {p}\n}}' for i, p in enumerate(ports)
    )
    proxy = "sidecar_service {\nproxy {\n" + blocks + "\n}\n}"
    return f"{BRIDGE}\n{connect(proxy)}"


def native(extra: str, group: str = "") -> str:
    return f"{group}\n{connect('native = true', extra, port='8080')}"


def proxy_task(kind: str, extra: str = "") -> str:
    """A job whose second task is the Envoy of a sidecar, written by hand."""
    return job(group=sidecar(BRIDGE), second_task=f'kind = "{kind}"\n{DELAY}\n{extra}')


def plain_service(check: str) -> str:
    """A service without `connect`, on the port "http"."""
    return f'service {{\nname = "web"\nport = "http"\n{check}\n}}'


def exposed(group: str, port: str = "http", check: str = EXPOSED) -> str:
    return f'{group}\nservice {{\nname = "web"\nport = "{port}"\nconnect {{\n{SIDECAR}\n}}\n{check}\n}}'


LISTENER = 'port = 8080\nservice {\nname = "api"\n}'
HOST = network("host")

CASES: dict[str, tuple[str, str]] = {
    # ConsulConnect.Validate
    "connect-not-exclusive": (
        job(group=f"{BRIDGE}\n{connect('')}"),
        job(group=f"{BRIDGE}\n{connect(SIDECAR)}"),
    ),
    "transparent-proxy-outbound-cidr": (
        job(group=tproxy('exclude_outbound_cidrs = ["10.0.0.0"]')),
        job(group=tproxy('exclude_outbound_cidrs = ["10.0.0.0/8"]')),
    ),
    "transparent-proxy-uid": (job(group=tproxy('uid = "nobody"')), job(group=tproxy('uid = "101"'))),
    "transparent-proxy-exclude-uid": (
        job(group=tproxy('exclude_uids = ["70000"]')),
        job(group=tproxy('exclude_uids = ["7000"]')),
    ),
    # ConsulGateway.Validate and the blocks it holds
    "gateway-dns-discovery-type": (
        job(group=ingress(LISTENER, 'proxy {\nenvoy_dns_discovery_type = "strict_dns"\n}')),
        job(group=ingress(LISTENER, 'proxy {\nenvoy_dns_discovery_type = "STRICT_DNS"\n}')),
    ),
    "gateway-bind-address-missing": (
        job(group=ingress(LISTENER, 'proxy {\nenvoy_gateway_bind_addresses "api" {\nport = 8080\n}\n}')),
        job(
            group=ingress(
                LISTENER,
                'proxy {\nenvoy_gateway_bind_addresses "api" {\naddress = "0.0.0.0"\nport = 8080\n}\n}',
            )
        ),
    ),
    "gateway-bind-address-port": (
        job(
            group=ingress(
                LISTENER, 'proxy {\nenvoy_gateway_bind_addresses "api" {\naddress = "0.0.0.0"\nport = 0\n}\n}'
            )
        ),
        job(
            group=ingress(
                LISTENER,
                'proxy {\nenvoy_gateway_bind_addresses "api" {\naddress = "0.0.0.0"\nport = -1\n}\n}',
            )
        ),
    ),
    "ingress-without-listener": (
        job(group=gateway("ingress {}")),
        job(group=gateway(f"ingress {{\nlistener {{\n{LISTENER}\n}}\n}}")),
    ),
    "ingress-listener-port": (
        job(group=ingress('service {\nname = "api"\n}', group=HOST)),
        job(group=ingress(LISTENER, group=HOST)),
    ),
    "ingress-listener-protocol": (
        job(group=ingress(f'{LISTENER}\nprotocol = "udp"')),
        job(group=ingress(f'{LISTENER}\nprotocol = "http2"')),
    ),
    "ingress-listener-without-service": (job(group=ingress("port = 8080")), job(group=ingress(LISTENER))),
    "ingress-service-without-name": (
        job(group=ingress('port = 8080\nservice {\nname = ""\n}')),
        job(group=ingress(LISTENER)),
    ),
    "ingress-service-tcp-wildcard": (
        job(group=ingress('port = 8080\nservice {\nname = "*"\n}')),
        job(group=ingress('port = 8080\nprotocol = "http"\nservice {\nname = "*"\n}')),
    ),
    "ingress-service-tcp-hosts": (
        job(group=ingress('port = 8080\nservice {\nname = "api"\nhosts = ["api.example.com"]\n}')),
        job(
            group=ingress(
                'port = 8080\nprotocol = "http"\nservice {\nname = "api"\nhosts = ["api.example.com"]\n}'
            )
        ),
    ),
    "ingress-service-wildcard-hosts": (
        job(
            group=ingress(
                'port = 8080\nprotocol = "http"\nservice {\nname = "*"\nhosts = ["api.example.com"]\n}'
            )
        ),
        job(group=ingress('port = 8080\nprotocol = "http"\nservice {\nname = "*"\n}')),
    ),
    "terminating-without-service": (
        job(group=gateway("terminating {}")),
        job(group=terminating('name = "db"')),
    ),
    "linked-service-without-name": (
        job(group=terminating('name = ""')),
        job(group=terminating('name = "db"')),
    ),
    "linked-service-tls-without-ca": (
        job(group=terminating('name = "db"\ncert_file = "c.pem"\nkey_file = "k.pem"')),
        job(group=terminating('name = "db"\nca_file = "ca.pem"\ncert_file = "c.pem"\nkey_file = "k.pem"')),
    ),
    "linked-service-cert-without-key": (
        job(group=terminating('name = "db"\nca_file = "ca.pem"\ncert_file = "c.pem"')),
        job(group=terminating('name = "db"\nca_file = "ca.pem"')),
    ),
    "linked-service-sni-without-ca": (
        job(group=terminating('name = "db"\nsni = "db.example.com"')),
        job(group=terminating('name = "db"\nca_file = "ca.pem"\nsni = "db.example.com"')),
    ),
    "gateway-not-one-kind": (job(group=gateway("proxy {}")), job(group=gateway("proxy {}\nmesh {}"))),
    # Service.validateConsulService on a connect-native service
    "connect-native-without-task": (
        job(group=native(""), task=DELAY),
        job(group=native('task = "server"'), task=DELAY),
    ),
    "connect-native-without-port": (
        job(group=connect("native = true", 'task = "server"', port=""), task=DELAY),
        job(group=connect("native = true", 'task = "server"', port="8080"), task=DELAY),
    ),
    # jobConnectHook: the group around the connect blocks
    "connect-sidecar-network-count": (
        job(group=sidecar("", port="8080")),
        job(group=sidecar(BRIDGE, port="8080")),
    ),
    "connect-sidecar-network-count-legacy": (
        job(group=sidecar("", port="8080")),
        job(group=sidecar(BRIDGE, port="8080")),
    ),
    "connect-sidecar-network-mode": (job(group=sidecar(HOST)), job(group=sidecar(network("cni/mesh")))),
    "connect-sidecar-network-mode-legacy": (
        job(group=sidecar(network("cni/mesh"))),
        job(group=sidecar(BRIDGE)),
    ),
    "connect-gateway-network-count": (
        job(group=gateway(f"ingress {{\nlistener {{\n{LISTENER}\n}}\n}}", group="", port="8080")),
        job(group=gateway(f"ingress {{\nlistener {{\n{LISTENER}\n}}\n}}", port="8080")),
    ),
    "connect-gateway-network-count-legacy": (
        job(group=gateway(f"ingress {{\nlistener {{\n{LISTENER}\n}}\n}}", group="", port="8080")),
        job(group=gateway(f"ingress {{\nlistener {{\n{LISTENER}\n}}\n}}", port="8080")),
    ),
    "connect-gateway-network-mode": (
        job(group=ingress(LISTENER, group=network("none"))),
        job(group=ingress(LISTENER, group=network("cni/mesh"))),
    ),
    "connect-gateway-network-mode-legacy": (
        job(group=ingress(LISTENER, group=network("cni/mesh"))),
        job(group=ingress(LISTENER, group=HOST)),
    ),
    "connect-service-name-uppercase": (job(group=sidecar(BRIDGE, name="Web")), job(group=sidecar(BRIDGE))),
    "connect-group-name-uppercase": (
        job(group=sidecar(BRIDGE)).replace('group "web"', 'group "Web"'),
        job(group=sidecar(BRIDGE)),
    ),
    "connect-native-task-ambiguous": (
        job(group=native("", BRIDGE), task=DELAY, second_task="leader = false"),
        job(group=native('task = "server"', BRIDGE), task=DELAY, second_task="leader = false"),
    ),
    "connect-native-task-missing": (
        job(group=native('task = "proxy"', BRIDGE), task=DELAY),
        job(group=native('task = "server"', BRIDGE), task=DELAY),
    ),
    "mesh-gateway-without-port": (
        job(group=gateway("mesh {}", port="")),
        job(group=gateway("mesh {}")),
    ),
    "connect-upstreams-same-address": (job(group=upstreams(5432, 5432)), job(group=upstreams(5432, 5433))),
    "transparent-proxy-with-dns": (
        job(group=tproxy("", network("bridge", 'dns {\nservers = ["1.1.1.1"]\n}'))),
        job(group=tproxy("no_dns = true", network("bridge", 'dns {\nservers = ["1.1.1.1"]\n}'))),
    ),
    "transparent-proxy-inbound-port-label": (
        job(group=tproxy('exclude_inbound_ports = ["http"]')),
        job(group=tproxy('exclude_inbound_ports = ["http"]', STATIC)),
    ),
    "transparent-proxy-one-connect-block": (
        job(group=f"{tproxy('')}\n{connect(SIDECAR, name='api', port='8081')}"),
        job(group=f'{tproxy("")}\nservice {{\nname = "api"\nport = "8081"\n}}'),
    ),
    # jobExposeCheckHook
    "expose-check-network-count": (
        job(group=exposed("", port="8080")),
        job(group=exposed(STATIC, port="8080")),
    ),
    "expose-check-network-count-legacy": (
        job(group=exposed("", port="8080")),
        job(group=exposed(STATIC, port="8080")),
    ),
    "expose-check-network-mode": (
        job(group=exposed('network {\nmode = "host"\nport "http" {\nstatic = 8080\n}\n}')),
        job(group=exposed('network {\nmode = "cni/mesh"\nport "http" {\nstatic = 8080\n}\n}')),
    ),
    "expose-check-network-mode-legacy": (
        job(group=exposed('network {\nmode = "cni/mesh"\nport "http" {\nstatic = 8080\n}\n}')),
        job(group=exposed(STATIC)),
    ),
    "expose-check-without-sidecar": (
        job(group=f"{STATIC}\n{DELAY}\n{plain_service(EXPOSED)}"),
        job(group=f"{STATIC}\n{DELAY}\n{plain_service(UNEXPOSED)}"),
    ),
    "expose-check-task-service": (
        job(group=STATIC, task=f"{DELAY}\n{plain_service(EXPOSED)}"),
        job(group=STATIC, task=f"{DELAY}\n{plain_service(UNEXPOSED)}"),
    ),
    "expose-check-local-port": (job(group=exposed(BRIDGE)), job(group=exposed(STATIC))),
    # Task.Validate on a connect-proxy task
    "connect-proxy-task-service": (
        proxy_task("connect-proxy:web", 'service {\nname = "side"\nport = "http"\n}'),
        proxy_task("connect-proxy:web"),
    ),
    "connect-proxy-task-leader": (
        proxy_task("connect-proxy:web", "leader = true"),
        proxy_task("connect-proxy:web", "leader = false"),
    ),
    "connect-proxy-without-connect-service": (
        job(group=BRIDGE, second_task=f'kind = "connect-proxy:web"\n{DELAY}'),
        proxy_task("connect-proxy:web"),
    ),
    "connect-proxy-service-not-found": (proxy_task("connect-proxy:api"), proxy_task("connect-proxy:web")),
}

ALSO: dict[str, set[str]] = {}
