# ruff: noqa: E501  (the cases are job texts, one per line, easier to read whole)
"""Cases for the server checks of hclgpu.checks.services and hclgpu.checks.service_checks."""

from __future__ import annotations

from tests.server_cases.common import CHECK, DELAY, NETWORK, job, service

BRIDGE = 'network {\nmode = "bridge"\nport "http" {\nto = 8080\n}\n}'
"""A group network Consul Connect sidecars accept."""
SCRIPT = f'type = "script"\ncommand = "/bin/true"\n{CHECK}'
"""A check that needs no port: the task services' cases stay free of port rules."""
HTTP = f'type = "http"\npath = "/health"\n{CHECK}'
TCP = f'type = "tcp"\n{CHECK}'
DRIVER = 'address_mode = "driver"'
IGNORE_WARNINGS = f'{HTTP}\non_update = "ignore_warnings"'


def sidecar_service(check: str) -> str:
    """A bridge network and a Connect service with a sidecar and one check."""
    return f'{DELAY}\n{BRIDGE}\nservice {{\nname = "web"\nport = "http"\nconnect {{\nsidecar_service {{}}\n}}\ncheck {{\n{check}\n}}\n}}'


def nomad_check(check: str) -> str:
    """A group service registered with Nomad, with one check."""
    return service('provider = "nomad"', check)


def nomad_bridge_check(check: str) -> str:
    """A Nomad service with one check in a bridge network, where an exposed check is in place."""
    return f'{DELAY}\n{BRIDGE}\nservice {{\nname = "web"\nport = "http"\nprovider = "nomad"\ncheck {{\n{check}\n}}\n}}'


def task_service(body: str, *checks: str) -> str:
    """A task service named `a` with ``body`` and a check per argument (and the task's
    ``shutdown_delay``)."""
    blocks = "".join(f"\ncheck {{\n{check}\n}}" for check in checks)
    return f'{DELAY}\nservice {{\nname = "a"\n{body}{blocks}\n}}'


CASES: dict[str, tuple[str, str]] = {
    # Service.Validate
    "service-kind": (job(group=service('kind = "connect-proxy"')), job(group=service(""))),
    "service-identity-without-aud": (
        job(group=service("identity {\nenv = true\n}")),
        job(group=service('identity {\naud = ["consul.io"]\nttl = "1h"\n}')),
    ),
    "check-without-port": (
        job(group=f'service {{\nname = "web"\ncheck {{\ntype = "tcp"\n{CHECK}\n}}\n}}'),
        job(group=service("", TCP)),
    ),
    "check-tcp-with-sidecar": (
        job(group=sidecar_service(TCP)),
        job(group=sidecar_service(HTTP)),
    ),
    # ServiceCheck.validateCommon
    "check-http-path-parses": (
        job(group=service("", f'type = "http"\npath = "/health%zz"\n{CHECK}')),
        job(group=service("", f'type = "http"\npath = "/health%20"\n{CHECK}')),
    ),
    "check-on-update-ignore-warnings-with-restart": (
        job(group=service("", f"{IGNORE_WARNINGS}\ncheck_restart {{\nlimit = 3\n}}")),
        job(group=service("", f"{IGNORE_WARNINGS}\ncheck_restart {{\nlimit = 3\nignore_warnings = true\n}}")),
    ),
    # ServiceCheck.validateNomad
    "nomad-check-expose": (
        job(group=nomad_bridge_check(f"{HTTP}\nexpose = true")),
        job(group=nomad_bridge_check(HTTP)),
    ),
    "nomad-check-on-update-ignore-warnings": (
        job(group=nomad_check(f'{HTTP}\non_update = "ignore_warnings"')),
        job(group=nomad_check(f'{HTTP}\non_update = "ignore"')),
    ),
    "nomad-check-restart-ignore-warnings": (
        job(group=nomad_check(f"{HTTP}\ncheck_restart {{\nlimit = 3\nignore_warnings = true\n}}")),
        job(group=nomad_check(f"{HTTP}\ncheck_restart {{\nlimit = 3\n}}")),
    ),
    "nomad-check-driver-address-mode": (
        job(group=nomad_check(f'{HTTP}\naddress_mode = "driver"')),
        job(group=nomad_check(f'{HTTP}\naddress_mode = "host"')),
    ),
    "nomad-check-http-method": (
        job(group=nomad_check(f'{HTTP}\nmethod = "FETCH"')),
        job(group=nomad_check(f'{HTTP}\nmethod = "get"')),
    ),
    "nomad-check-success-before-passing": (
        job(group=nomad_check(f"{HTTP}\nsuccess_before_passing = 2")),
        job(group=nomad_check(f"{HTTP}\nsuccess_before_passing = 0")),
    ),
    "nomad-check-failures-before-critical": (
        job(group=nomad_check(f"{HTTP}\nfailures_before_critical = 2")),
        job(group=nomad_check(f"{HTTP}\nfailures_before_critical = 0")),
    ),
    "nomad-check-failures-before-warning": (
        job(group=nomad_check(f"{HTTP}\nfailures_before_warning = 2")),
        job(group=nomad_check(f"{HTTP}\nfailures_before_warning = 0")),
    ),
    "nomad-check-tls-server-name": (
        job(group=nomad_check(f'{HTTP}\ntls_server_name = "web.example"')),
        job(group=nomad_check(HTTP)),
    ),
    "nomad-check-tls-skip-verify": (
        job(group=nomad_check(f"{HTTP}\ntls_skip_verify = true")),
        job(group=nomad_check(f"{HTTP}\ntls_skip_verify = false")),
    ),
    # ServiceCheck.validateConsul
    "check-expose-type": (
        job(group=sidecar_service(f'{SCRIPT}\ntask = "server"\nexpose = true')),
        job(group=sidecar_service(f'{SCRIPT}\ntask = "server"\nexpose = false')),
    ),
    "check-success-before-passing-type": (
        job(group=service("", f'{SCRIPT}\ntask = "server"\nsuccess_before_passing = 2')),
        job(group=service("", f'{SCRIPT}\ntask = "server"')),
    ),
    "check-failures-before-critical-type": (
        job(group=service("", f'{SCRIPT}\ntask = "server"\nfailures_before_critical = 2')),
        job(group=service("", f'{SCRIPT}\ntask = "server"')),
    ),
    "check-failures-before-warning-type": (
        job(group=service("", f'{SCRIPT}\ntask = "server"\nfailures_before_warning = 2')),
        job(group=service("", f'{SCRIPT}\ntask = "server"')),
    ),
    "check-notes-length": (
        job(group=service("", f'{HTTP}\nnotes = "{"n" * 256}"')),
        job(group=service("", f'{HTTP}\nnotes = "{"n" * 255}"')),
    ),
    # TaskGroup.validateServices, validateScriptChecksInGroupServices
    "task-service-other-task": (
        job(task=task_service('task = "side"')),
        job(task=task_service('task = "server"')),
    ),
    "task-service-check-other-task": (
        job(task=task_service('task = "side"', SCRIPT)),
        job(task=task_service('task = "server"', SCRIPT)),
    ),
    "group-service-driver-address-mode": (
        job(group=service('address_mode = "driver"')),
        job(group=service('address_mode = "host"')),
    ),
    "group-check-driver-address-mode": (
        job(group=service("", f'type = "tcp"\n{CHECK}\ntask = "server"\naddress_mode = "driver"')),
        job(group=service("", f'type = "tcp"\n{CHECK}\ntask = "server"\naddress_mode = "host"')),
    ),
    "group-check-unknown-task": (
        job(group=service('task = "nope"', TCP)),
        job(group=service('task = "server"', TCP), task=DELAY),
    ),
    "group-services-not-unique": (
        job(group=service("") + '\nservice {\nname = "web"\nport = "http"\n}'),
        job(group=service("") + '\nservice {\nname = "web2"\nport = "http"\n}'),
    ),
    "group-script-check-without-task": (
        job(group=service("", SCRIPT)),
        job(group=service("", f'{SCRIPT}\ntask = "server"')),
    ),
    # validateServices (the services of a task)
    "task-service-alloc-ipv6-address-mode": (
        job(task=task_service('address_mode = "alloc_ipv6"')),
        job(task=task_service('address_mode = "host"')),
    ),
    "task-check-duplicate": (
        job(task=task_service("", SCRIPT, SCRIPT)),
        job(task=task_service("", SCRIPT, f'name = "second"\n{SCRIPT}')),
    ),
    "task-check-alloc-address-mode": (
        job(task=task_service("", f'{SCRIPT}\naddress_mode = "alloc"')),
        job(task=task_service("", f'{SCRIPT}\naddress_mode = "host"')),
    ),
    "task-check-alloc-ipv6-address-mode": (
        job(task=task_service("", f'{SCRIPT}\naddress_mode = "alloc_ipv6"')),
        job(task=task_service("", f'{SCRIPT}\naddress_mode = "host"')),
    ),
    "task-check-missing-port": (
        job(group=NETWORK, task=task_service("", TCP)),
        job(group=NETWORK, task=task_service('port = "http"', TCP)),
    ),
    "task-check-invalid-numeric-port": (
        job(group=NETWORK, task=task_service('port = "http"', f'{TCP}\nport = "0"\n{DRIVER}')),
        job(group=NETWORK, task=task_service('port = "http"', f'{TCP}\nport = "8080"\n{DRIVER}')),
    ),
    "task-check-inherited-numeric-port": (
        job(task=task_service(f'port = "8080"\n{DRIVER}', TCP)),
        job(task=task_service(f'port = "8080"\n{DRIVER}', f"{TCP}\n{DRIVER}")),
    ),
}

ALSO: dict[str, set[str]] = {
    # tests/test_server_rules.py's case: two services `a` of one task are also not unique in the group
    "task-service-duplicate": {"group-services-not-unique"},
    # the check takes the service's foreign `task`
    "task-service-check-other-task": {"task-service-other-task"},
    # `Service.Validate` refuses the check as well as the task's `validateServices`
    "task-check-missing-port": {"check-without-port"},
    # the expose hook wants a sidecar whatever the provider; a Nomad service cannot have one
    "nomad-check-expose": {"expose-check-without-sidecar"},
    # tests/test_server_rules.py's case: its native service has no port (1.10 and later)
    "task-service-with-connect": {"connect-native-without-port"},
}
"""The checks the same wrong value always trips too, in Nomad as here."""
