# ruff: noqa: E501  (the cases are job texts, one per line, easier to read whole)
"""Cases for the server checks of hclgpu.checks.groups, policies, strategies and volumes."""

from __future__ import annotations

from tests.server_cases.common import IMAGE, job

TASK = f'task "server" {{\ndriver = "docker"\n{IMAGE}\n}}'
PRESTART = 'lifecycle {\nhook = "prestart"\n}'


def labelled(group_label: str, group: str = "") -> str:
    """A service job whose one group has the label ``group_label`` (the job parts fix "web")."""
    return f'job "web" {{\n  group "{group_label}" {{\n{group}\n{TASK}\n  }}\n}}\n'


def volume(body: str) -> str:
    """A group `volume "data"` block with ``body``."""
    return f'volume "data" {{\nsource = "data"\n{body}\n}}'


def shared(body: str) -> str:
    """A volume with ``body`` in a group of two allocations."""
    return f"count = 2\n{volume(body)}"


HOST = 'type = "host"'
CSI = 'type = "csi"\nattachment_mode = "file-system"'
MOUNT = 'mount_options {\nfs_type = "ext4"\n}'
SHARED_PORT = 'port "http" {\nstatic = 8080\nignore_collision = true\n}'

CASES: dict[str, tuple[str, str]] = {
    # TaskGroup.Validate
    "task-group-missing-name": (labelled(""), labelled("web")),
    "group-without-tasks": ('job "web" {\n  group "web" {\n    count = 1\n  }\n}\n', job(group="count = 1")),
    "group-without-main-task": (
        job(task=PRESTART, second_task='lifecycle {\nhook = "poststop"\n}'),
        job(task=PRESTART, second_task='kill_timeout = "5s"'),
    ),
    "port-collision-ignored-off-host": (
        job(group=f'network {{\nmode = "bridge"\n{SHARED_PORT}\n}}'),
        job(group=f'network {{\nmode = "host"\n{SHARED_PORT}\n}}'),
    ),
    "cni-arg-twice": (
        job(
            group='network {\nmode = "cni/mesh"\ncni {\nargs = { a = "1" }\n}\n}\nnetwork {\nmode = "cni/mesh"\ncni {\nargs = { a = "2" }\n}\n}'
        ),
        job(
            group='network {\nmode = "cni/mesh"\ncni {\nargs = { a = "1" }\n}\n}\nnetwork {\nmode = "cni/mesh"\ncni {\nargs = { b = "2" }\n}\n}'
        ),
    ),
    "cni-arg-key-semicolon": (
        job(group='network {\nmode = "cni/mesh"\ncni {\nargs = { "a;b" = "1" }\n}\n}'),
        job(group='network {\nmode = "cni/mesh"\ncni {\nargs = { "a_b" = "1" }\n}\n}'),
    ),
    "cni-arg-value-semicolon": (
        job(group='network {\nmode = "cni/mesh"\ncni {\nargs = { a = "1;2" }\n}\n}'),
        job(group='network {\nmode = "cni/mesh"\ncni {\nargs = { a = "1,2" }\n}\n}'),
    ),
    "network-hostname": (
        job(group='network {\nmode = "bridge"\nhostname = "web..local"\n}'),
        job(group='network {\nmode = "bridge"\nhostname = "web.local"\n}'),
    ),
    # ReschedulePolicy.Validate
    "reschedule-unlimited-with-attempts": (
        job(group='reschedule {\nattempts = 2\ninterval = "1h"\n}'),
        job(group='reschedule {\nattempts = 2\ninterval = "1h"\nunlimited = false\n}'),
    ),
    "reschedule-constant-delays-do-not-fit": (
        job(group='reschedule {\nattempts = 5\ninterval = "20s"\n}', kind="batch"),
        job(group='reschedule {\nattempts = 4\ninterval = "20s"\n}', kind="batch"),
    ),
    "reschedule-growing-delays-do-not-fit": (
        job(group='reschedule {\nattempts = 3\ninterval = "1m"\nunlimited = false\n}'),
        job(group='reschedule {\nattempts = 3\ninterval = "1h"\nunlimited = false\n}'),
    ),
    "system-job-reschedule": (
        job(group="reschedule {\nattempts = 0\n}", kind="system"),
        job(kind="system"),
    ),
    # MigrateStrategy.Validate
    "migrate-healthy-deadline-negative": (
        job(group='migrate {\nhealthy_deadline = "-1s"\n}'),
        job(group='migrate {\nhealthy_deadline = "1m"\n}'),
    ),
    "migrate-missing-health-check": (
        job(group='migrate {\nhealth_check = ""\n}'),
        job(group='migrate {\nhealth_check = "checks"\n}'),
    ),
    # the group attributes `disconnect` replaced (Nomad 1.8-1.9; 1.10 ignores them, HG258 warns)
    "stop-after-client-disconnect-job-type": (
        job(group='stop_after_client_disconnect = "1m"', kind="system"),
        job(kind="system"),
    ),
    "stop-after-client-disconnect-negative": (job(group='stop_after_client_disconnect = "-1m"'), job()),
    "max-client-disconnect-prevent-reschedule": (
        job(group='max_client_disconnect = "1h"\nprevent_reschedule_on_lost = true', kind="batch"),
        job(group='disconnect {\nlost_after = "1h"\nreplace = false\n}', kind="batch"),
    ),
    "max-and-stop-after-client-disconnect": (
        job(group='max_client_disconnect = "1h"\nstop_after_client_disconnect = "1m"'),
        job(group='disconnect {\nlost_after = "1h"\n}'),
    ),
    "max-client-disconnect-negative": (
        job(group='max_client_disconnect = "-1h"'),
        job(group='disconnect {\nlost_after = "1h"\n}'),
    ),
    "disconnect-with-max-client-disconnect": (
        job(group='max_client_disconnect = "1h"\ndisconnect {\nlost_after = "1h"\n}'),
        job(group='disconnect {\nlost_after = "1h"\n}'),
    ),
    "disconnect-with-stop-after-client-disconnect": (
        job(group='stop_after_client_disconnect = "1m"\ndisconnect {\nlost_after = "1h"\n}'),
        job(group='disconnect {\nlost_after = "1h"\n}'),
    ),
    "disconnect-with-prevent-reschedule-on-lost": (
        job(group='prevent_reschedule_on_lost = true\ndisconnect {\nlost_after = "1h"\n}'),
        job(group='disconnect {\nlost_after = "1h"\n}'),
    ),
    # VolumeRequest.Validate
    "volume-per-alloc-and-sticky": (
        job(group=volume(f"{HOST}\nper_alloc = true\nsticky = true")),
        job(group=volume(f"{HOST}\nper_alloc = true\nsticky = false")),
    ),
    "host-volume-mount-options": (job(group=volume(f"{HOST}\n{MOUNT}")), job(group=volume(HOST))),
    "host-volume-reader-not-read-only": (
        job(group=volume(f'{HOST}\naccess_mode = "single-node-reader-only"')),
        job(group=volume(f'{HOST}\naccess_mode = "single-node-reader-only"\nread_only = true')),
    ),
    "host-volume-access-mode": (
        job(group=volume(f'{HOST}\naccess_mode = "multi-node-multi-writer"')),
        job(group=volume(f'{HOST}\naccess_mode = "single-node-multi-writer"')),
    ),
    "host-volume-with-attachment-mode": (
        job(group=volume(f'{HOST}\nattachment_mode = "file-system"')),
        job(group=volume(HOST)),
    ),
    "host-volume-with-access-mode": (
        job(group=volume(f'{HOST}\naccess_mode = "single-node-writer"')),
        job(group=volume(HOST)),
    ),
    "block-device-mount-options": (
        job(
            group=volume(
                f'type = "csi"\nattachment_mode = "block-device"\naccess_mode = "single-node-writer"\n{MOUNT}'
            )
        ),
        job(
            group=volume(
                f'type = "csi"\nattachment_mode = "file-system"\naccess_mode = "single-node-writer"\n{MOUNT}'
            )
        ),
    ),
    "csi-volume-reader-not-read-only": (
        job(group=volume(f'{CSI}\naccess_mode = "single-node-reader-only"')),
        job(group=volume(f'{CSI}\naccess_mode = "single-node-reader-only"\nread_only = true')),
    ),
    "csi-volume-one-reader": (
        job(group=shared(f'{CSI}\naccess_mode = "single-node-reader-only"\nread_only = true')),
        job(
            group=shared(
                f'{CSI}\naccess_mode = "single-node-reader-only"\nread_only = true\nper_alloc = true'
            )
        ),
    ),
    "csi-volume-one-reader-or-writer": (
        job(group=shared(f'{CSI}\naccess_mode = "single-node-writer"')),
        job(group=shared(f'{CSI}\naccess_mode = "single-node-writer"\nper_alloc = true')),
    ),
    "csi-volume-multi-reader-not-read-only": (
        job(group=volume(f'{CSI}\naccess_mode = "multi-node-reader-only"')),
        job(group=volume(f'{CSI}\naccess_mode = "multi-node-reader-only"\nread_only = true')),
    ),
    "csi-volume-one-writer": (
        job(group=shared(f'{CSI}\naccess_mode = "multi-node-single-writer"')),
        job(group=shared(f'{CSI}\naccess_mode = "multi-node-single-writer"\nread_only = true')),
    ),
    # ScalingPolicy.Validate
    "scaling-max-negative": (
        job(group="count = 0\nscaling {\nmin = 0\nmax = -1\n}"),
        job(group="count = 0\nscaling {\nmin = 0\nmax = 1\n}"),
    ),
}

ALSO: dict[str, set[str]] = {
    "task-group-missing-name": {"group-without-name"},  # Job.Validate reports the empty label too
    "reschedule-unlimited-with-attempts": {"reschedule-attempts-and-unlimited"},
    "reschedule-attempts-and-unlimited": {"reschedule-unlimited-with-attempts"},
    "reschedule-constant-delays-do-not-fit": {"reschedule-attempts-do-not-fit"},
    "reschedule-growing-delays-do-not-fit": {"reschedule-attempts-do-not-fit"},
    "reschedule-attempts-do-not-fit": {"reschedule-constant-delays-do-not-fit"},
    "migrate-healthy-deadline-negative": {"migrate-min-healthy-above-deadline"},  # 10s > -1s
    "scaling-max-negative": {"count-above-scaling-max"},  # a count is never below 0
}
