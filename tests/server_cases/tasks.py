"""Cases for the server checks of hclgpu.checks.tasks, task_blocks, task_files and secrets."""

from __future__ import annotations

from tests.server_cases.common import IMAGE, job

SHA256 = "a" * 64


_GPU = 'resources {\ndevice "nvidia/gpu" {\ncount = 1\n}\n}\n'
"""A task's request for one NVIDIA GPU."""


def _docker(setting: str) -> str:
    """The job with one more setting in the docker task's `config`."""
    image = 'image = "nginx:1.27"'
    return job().replace(image, f"{image}\n        {setting}")


def _csi(body: str) -> str:
    return job(task=f"csi_plugin {{\n{body}\n}}")


def _artifact(checksum: str) -> str:
    return job(
        task=f'artifact {{\nsource = "https://example.com/a.tgz"\noptions {{\nchecksum = "{checksum}"\n}}\n}}'
    )


def _mount(extra: str, volume: str = "data") -> str:
    """A mount of the group's host volume ``volume``."""
    return job(
        group=f'volume "{volume}" {{\ntype = "host"\nsource = "data"\n}}',
        task=f'volume_mount {{\nvolume = "{volume}"\ndestination = "/data"\n{extra}\n}}',
    )


def _schedule(start: str, end: str) -> str:
    return job(task=f'schedule {{\ncron {{\nstart = "{start}"\nend = "{end}"\n}}\n}}')


def _secret(name: str, body: str, task: str = "") -> str:
    return job(task=f'secret "{name}" {{\n{body}\n}}\n{task}')


NOMAD_SECRET = 'provider = "nomad"\npath = "db"'

CASES: dict[str, tuple[str, str]] = {
    # the task scaling blocks Nomad's parser refuses (HG122, from the decoder)
    "task-scaling-policy-name": (
        job(task='scaling "gpu" {\nmax = 4\n}'),
        job(task='scaling "cpu" {\nmax = 4\n}'),
    ),
    "task-scaling-policy-type": (
        job(task='scaling "cpu" {\ntype = "vertical_mem"\nmax = 4\n}'),
        job(task='scaling "cpu" {\ntype = "vertical_cpu"\nmax = 4\n}'),
    ),
    # the docker driver's own reading of `config` (hclgpu.checks.docker)
    "nvidia-runtime-without-device": (
        _docker('runtime = "nvidia"'),
        _docker('runtime = "nvidia"').replace("    }\n  }\n}", _GPU + "    }\n  }\n}"),
    ),
    "nvidia-visible-devices-without-device": (
        job(task='env {\nNVIDIA_VISIBLE_DEVICES = "all"\n}'),
        job(task=f'env {{\nNVIDIA_VISIBLE_DEVICES = "all"\n}}\n{_GPU}'),
    ),
    "shm-size-below-one-mib": (_docker("shm_size = 1024"), _docker("shm_size = 1073741824")),
    "shm-size-not-a-number": (_docker('shm_size = "16g"'), _docker('shm_size = "17179869184"')),
    # Task.Validate
    "task-missing-name": (
        job(group=f'task "" {{\ndriver = "docker"\n{IMAGE}\n}}'),
        job(group=f'task "other" {{\ndriver = "docker"\n{IMAGE}\n}}'),
    ),
    "csi-plugin-without-id": (_csi('id = ""\ntype = "node"'), _csi('id = "ebs"\ntype = "node"')),
    "csi-plugin-type": (_csi('id = "ebs"\ntype = "nodes"'), _csi('id = "ebs"\ntype = "monolith"')),
    "csi-plugin-stage-inside-mount-dir": (
        _csi('id = "ebs"\ntype = "node"\nstage_publish_base_dir = "/csi/stage"'),
        _csi('id = "ebs"\ntype = "node"\nstage_publish_base_dir = "/csi-stage"'),
    ),
    "csi-plugin-stage-starts-with-mount-dir": (
        _csi('id = "ebs"\ntype = "node"\nstage_publish_base_dir = "/csi-stage"'),
        _csi('id = "ebs"\ntype = "node"\nstage_publish_base_dir = "/local/csi"'),
    ),
    "action-name": (
        job(task='action "show date" {\ncommand = "date"\n}'),
        job(task='action "show.date" {\ncommand = "date"\n}'),
    ),
    "action-name-letters-digits-dashes": (
        job(task='action "show.date" {\ncommand = "date"\n}'),
        job(task='action "show-date" {\ncommand = "date"\n}'),
    ),
    # Resources.Validate
    "resources-negative-cores": (
        job(task="resources {\ncores = -1\n}"),
        job(task="resources {\ncores = 1\n}"),
    ),
    "resources-secrets-above-memory": (
        job(task="resources {\nsecrets = 301\n}"),
        job(task="resources {\nsecrets = 300\n}"),
    ),
    "resources-negative-secrets": (
        job(task="resources {\nsecrets = -1\n}"),
        job(task="resources {\nsecrets = 0\n}"),
    ),
    # TaskSchedule.Validate (Enterprise; Community Edition refuses any schedule)
    "schedule-cron-start-fields": (_schedule("30 9 * * MON-FRI", "0 16"), job()),
    "schedule-cron-end-fields": (_schedule("30 9 * * MON-FRI *", "0 16 *"), job()),
    "schedule-cron-start-steps-or-lists": (_schedule("30 9 * * MON,FRI *", "0 16"), job()),
    "schedule-cron-end-steps-or-lists": (_schedule("30 9 * * MON-FRI *", "*/30 16"), job()),
    # ChangeScript.Validate
    "template-script-without-command": (
        job(
            task='template {\ndata = "x"\ndestination = "local/x"\nchange_mode = "script"\n'
            'change_script {\ncommand = ""\nfail_on_error = false\n}\n}'
        ),
        job(
            task='template {\ndata = "x"\ndestination = "local/x"\nchange_mode = "script"\n'
            'change_script {\ncommand = "/bin/reload"\nfail_on_error = false\n}\n}'
        ),
    ),
    # TaskArtifact.validateChecksum
    "artifact-checksum-empty": (_artifact(" "), _artifact(f"sha256:{SHA256}")),
    "artifact-checksum-format": (_artifact(SHA256), _artifact(f"sha256:{SHA256}")),
    "artifact-checksum-not-hex": (_artifact("sha256:abc"), _artifact(f"sha256:{SHA256}")),
    "artifact-checksum-type": (_artifact(f"SHA256:{SHA256}"), _artifact(f"sha256:{SHA256}")),
    "artifact-checksum-length": (_artifact(f"sha512:{SHA256}"), _artifact(f"sha512:{SHA256 * 2}")),
    # VolumeMount.Validate
    "volume-mount-empty-volume": (_mount("", volume=""), _mount("")),  # a group volume may be named ""
    "volume-mount-selinux-label": (_mount('selinux_label = "shared"'), _mount('selinux_label = "z"')),
    # Vault.Validate, WorkloadIdentity.Validate and the task's default identities
    "vault-root-policy": (
        job(task='vault {\npolicies = ["root"]\n}'),
        job(task='vault {\npolicies = ["app"]\n}'),
    ),
    "identity-default-twice": (
        job(task="identity {}\nidentity {}\nidentity {}"),
        job(task='identity {}\nidentity {}\nidentity {\nname = "api"\naud = ["api"]\nttl = "1h"\n}'),
    ),
    "identity-default-ttl": (
        job(task='identity {\nttl = "1h"\n}'),
        job(task='identity {\nname = "api"\naud = ["api"]\nttl = "1h"\n}'),
    ),
    "identity-filepath-without-file": (
        job(task='identity {\nname = "api"\naud = ["api"]\nttl = "1h"\nfilepath = "secrets/api.jwt"\n}'),
        job(
            task='identity {\nname = "api"\naud = ["api"]\nttl = "1h"\nfile = true\n'
            'filepath = "secrets/api.jwt"\n}'
        ),
    ),
    # the task's secrets and Secret.Validate
    "secret-defined-twice": (
        job(task=f'secret "db" {{\n{NOMAD_SECRET}\n}}\nsecret "db" {{\n{NOMAD_SECRET}\n}}'),
        job(task=f'secret "db" {{\n{NOMAD_SECRET}\n}}\nsecret "cache" {{\n{NOMAD_SECRET}\n}}'),
    ),
    "secret-vault-without-vault": (
        _secret("db", 'provider = "vault"\npath = "secret/db"'),
        _secret("db", 'provider = "vault"\npath = "secret/db"', task='vault {\nchange_mode = "noop"\n}'),
    ),
    "secret-without-name": (_secret("", NOMAD_SECRET), _secret("db", NOMAD_SECRET)),
    "secret-name": (_secret("db-password", NOMAD_SECRET), _secret("db_password", NOMAD_SECRET)),
    "secret-without-provider": (_secret("db", 'path = "db"'), _secret("db", NOMAD_SECRET)),
    "secret-without-path": (_secret("db", 'provider = "nomad"'), _secret("db", NOMAD_SECRET)),
    "secret-env-with-builtin-provider": (
        _secret("db", f'{NOMAD_SECRET}\nenv {{\nDB = "x"\n}}'),
        _secret("db", 'provider = "files"\npath = "db"\nenv {\nDB = "x"\n}'),
    ),
    "secret-config-with-plugin-provider": (
        _secret("db", 'provider = "files"\npath = "db"\nconfig {\nroot = "/srv"\n}'),
        _secret("db", f'{NOMAD_SECRET}\nconfig {{\nroot = "/srv"\n}}'),
    ),
}

ALSO: dict[str, set[str]] = {
    "task-missing-name": {"task-without-name"},  # TaskGroup.Validate reports it too
    "secret-without-name": {"secret-name"},  # "" does not match the name pattern either
}

ENTERPRISE_ONLY = (
    "schedule-cron-start-fields",
    "schedule-cron-end-fields",
    "schedule-cron-start-steps-or-lists",
    "schedule-cron-end-steps-or-lists",
)
"""Checks only Nomad Enterprise runs (Community Edition refuses any schedule instead): their
cases run for a cluster the profile states is Enterprise."""
