"""Cases for the server checks of hclgpu.checks.hooks (admission hooks) and
hclgpu.checks.warnings (HG264: what the server accepts with a warning)."""

from __future__ import annotations

from tests.server_cases.common import DELAY, IMAGE, job, service

NOMAD_SERVICE = 'provider = "nomad"\nidentity {\n%s\naud = ["nomad.io"]\n}'
VAULT_IDENTITY = 'identity {\nname = "vault_default"\naud = ["vault.io"]\nttl = "1h"\n}'
SCHEDULE = 'schedule {\ncron {\nstart = "0 30 9 * * *"\nend = "0 17"\n}\n}'
CANARY_GROUP = f'group "api" {{\nupdate {{\ncanary = 1\n}}\ntask "api" {{\ndriver = "docker"\n{IMAGE}\n}}\n}}'
BIG_COMMENT = "# " + "x" * 1_000_000 + "\n"

CASES: dict[str, tuple[str, str]] = {
    # hooks.py: jobValidate, jobVaultHook, jobConsulHook, jobSchedHook
    "job-max-count": (job(group="count = 50001"), job(group="count = 50000")),
    "service-identity-without-name": (
        job(group=service(NOMAD_SERVICE % "")),
        job(group=service(NOMAD_SERVICE % 'name = "web"\nttl = "1h"')),
    ),
    "vault-namespace-requires-enterprise": (
        job(task='vault {\nnamespace = "team-a"\n}'),
        job(task='vault {\nnamespace = ""\n}'),
    ),
    "vault-cluster-requires-enterprise": (
        job(task='vault {\ncluster = "eu"\n}'),
        job(task='vault {\ncluster = "default"\n}'),
    ),
    "consul-cluster-requires-enterprise": (
        job(group='consul {\ncluster = "eu"\n}'),
        job(group='consul {\ncluster = "default"\n}'),
    ),
    "consul-partition-mismatch": (
        job(group='consul {\npartition = "a"\n}', task='consul {\npartition = "b"\n}'),
        job(group='consul {\npartition = "a"\n}', task='consul {\npartition = "a"\n}'),
    ),
    "task-schedule-requires-enterprise": (job(task=SCHEDULE), job()),
    # warnings.py (HG264)
    "memory-oversubscription-disabled": (
        job(task="resources {\nmemory_max = 600\n}"),
        job(task="resources {\nmemory_max = 0\n}"),
    ),
    "job-source-too-large": (BIG_COMMENT + job(), "# small\n" + job()),
    "vault-identity-without-vault": (job(task=VAULT_IDENTITY), job(task=f"vault {{}}\n{VAULT_IDENTITY}")),
    "vault-policies-with-identity": (
        job(task=f'vault {{\npolicies = ["web"]\n}}\n{VAULT_IDENTITY}'),
        job(task=f"vault {{}}\n{VAULT_IDENTITY}"),
    ),
    "service-task-without-shutdown-delay": (
        job(group=service('task = "server"'), task=""),
        job(group=service('task = "server"'), task=DELAY),
    ),
    "task-services-without-shutdown-delay": (
        job(task='service {\nname = "web"\n}'),
        job(task=f'{DELAY}\nservice {{\nname = "web"\n}}'),
    ),
    "group-services-without-shutdown-delay": (
        job(group=service("").replace(f"{DELAY}\n", "", 1)),
        job(group=service("")),
    ),
    "auto-promote-not-everywhere": (
        job(CANARY_GROUP, group="update {\ncanary = 1\nauto_promote = true\n}"),
        job(CANARY_GROUP, group="update {\ncanary = 1\nauto_promote = false\n}"),
    ),
}

ALSO: dict[str, set[str]] = {}
