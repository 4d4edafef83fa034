# ruff: noqa: E501  (the cases are job texts, one per line, easier to read whole)
"""Every check of Nomad's server (hclgpu.checks.server): a minimal job that trips only it, and
its valid twin that passes.

A case is the condition's id and two jobs built by :func:`job` from the same parts, one of
them changed: the first must give exactly one finding, that condition's code and message (as
Nomad words it), the second none at all. The conditions that the older rules report
(hclgpu.checks.covered) have their own tests (tests/cases, test_checks_*).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hclgpu.checks import load_rules
from hclgpu.checks.server import CONDITIONS, OWN_CHECKS, Check, Condition
from hclgpu.cli import main
from hclgpu.diagnostics import Diagnostic
from hclgpu.eval.program import EvalOptions
from hclgpu.pipeline import compile_source
from hclgpu.settings.profile import Profile
from hclgpu.settings.releases import NEWEST, Release, all_releases, parse_release
from hclgpu.source import SourceFile
from tests.server_cases import EXTRA_ALSO, EXTRA_CASES
from tests.server_cases.common import CHECK, DELAY, IMAGE, job, service
from tests.server_cases.tasks import ENTERPRISE_ONLY

CASES: dict[str, tuple[str, str]] = {
    **EXTRA_CASES,
    # the job (jobs.py)
    "missing-job-id": (job(job_body='id = ""'), job(job_body='id = "web"')),
    "missing-job-name": (job(job_body='name = ""'), job(job_body='name = "web"')),
    "invalid-job-type": (job(kind="services"), job(kind="service")),
    "core-job-type": (job(kind="_core"), job(kind="batch")),
    "empty-datacenter": (job(job_body='datacenters = ["dc1", ""]'), job(job_body='datacenters = ["dc1"]')),
    "system-job-affinity": (
        job('affinity {\nattribute = "${node.class}"\nvalue = "gpu"\n}', kind="system"),
        job('affinity {\nattribute = "${node.class}"\nvalue = "gpu"\n}', kind="service"),
    ),
    "system-job-spread": (
        job('spread {\nattribute = "${node.datacenter}"\n}', kind="system"),
        job('spread {\nattribute = "${node.datacenter}"\n}', kind="service"),
    ),
    "ui-description-too-long": (
        job(f'ui {{\ndescription = "{"x" * 1001}"\n}}'),
        job(f'ui {{\ndescription = "{"x" * 999}"\n}}'),
    ),
    "job-priority-range": (job(job_body="priority = 101"), job(job_body="priority = 100")),
    "periodic-cron-and-crons": (
        job('periodic {\ncron = "0 * * * *"\ncrons = ["0 * * * *"]\n}', kind="batch"),
        job('periodic {\ncrons = ["0 * * * *"]\n}', kind="batch"),
    ),
    "periodic-without-spec": (
        job("periodic {\nprohibit_overlap = true\n}", kind="batch"),
        job('periodic {\nprohibit_overlap = true\ncrons = ["@daily"]\n}', kind="batch"),
    ),
    "periodic-time-zone": (
        job('periodic {\ncrons = ["@daily"]\ntime_zone = "Mars/Olympus"\n}', kind="batch"),
        job('periodic {\ncrons = ["@daily"]\ntime_zone = "Europe/Berlin"\n}', kind="batch"),
    ),
    "periodic-cron-spec": (
        job('periodic {\ncrons = ["*/5 * * *"]\n}', kind="batch"),
        job('periodic {\ncrons = ["*/5 * * * *"]\n}', kind="batch"),
    ),
    "parameterized-payload": (
        job('parameterized {\npayload = "needed"\n}', kind="batch"),
        job('parameterized {\npayload = "required"\n}', kind="batch"),
    ),
    "parameterized-meta-overlap": (
        job('parameterized {\nmeta_required = ["a"]\nmeta_optional = ["a"]\n}', kind="batch"),
        job('parameterized {\nmeta_required = ["a"]\nmeta_optional = ["b"]\n}', kind="batch"),
    ),
    "dispatch-payload-escapes": (
        job(
            'parameterized {\npayload = "required"\n}',
            task='dispatch_payload {\nfile = "../../../x"\n}',
            kind="batch",
        ),
        job(
            'parameterized {\npayload = "required"\n}',
            task='dispatch_payload {\nfile = "input.txt"\n}',
            kind="batch",
        ),
    ),
    "spread-without-attribute": (
        job("spread {\nweight = 10\n}"),
        job('spread {\nattribute = "${node.datacenter}"\nweight = 10\n}'),
    ),
    "spread-weight": (
        job('spread {\nattribute = "${node.datacenter}"\nweight = 0\n}'),
        job('spread {\nattribute = "${node.datacenter}"\nweight = 100\n}'),
    ),
    "spread-target-twice": (
        job(
            'spread {\nattribute = "${node.datacenter}"\ntarget "a" {\npercent = 10\n}\ntarget "a" {\npercent = 10\n}\n}'
        ),
        job(
            'spread {\nattribute = "${node.datacenter}"\ntarget "a" {\npercent = 10\n}\ntarget "b" {\npercent = 10\n}\n}'
        ),
    ),
    "spread-target-percent": (
        job('spread {\nattribute = "${node.datacenter}"\ntarget "a" {\npercent = 101\n}\n}'),
        job('spread {\nattribute = "${node.datacenter}"\ntarget "a" {\npercent = 100\n}\n}'),
    ),
    "spread-percent-sum": (
        job(
            'spread {\nattribute = "${node.datacenter}"\ntarget "a" {\npercent = 70\n}\ntarget "b" {\npercent = 40\n}\n}'
        ),
        job(
            'spread {\nattribute = "${node.datacenter}"\ntarget "a" {\npercent = 60\n}\ntarget "b" {\npercent = 40\n}\n}'
        ),
    ),
    "constraint-attribute-opening-brace": (
        job('constraint {\nattribute = "$attr.kernel.name"\nvalue = "linux"\n}'),
        job('constraint {\nattribute = "${attr.kernel.name}"\nvalue = "linux"\n}'),
    ),
    "constraint-attribute-closing-brace": (
        job('constraint {\nattribute = "$${attr.kernel.name"\nvalue = "linux"\n}'),
        job('constraint {\nattribute = "${attr.kernel.name}"\nvalue = "linux"\n}'),
    ),
    "constraint-attribute-unsupported": (
        job('constraint {\nattribute = "${node.region}"\nvalue = "eu"\n}'),
        job('constraint {\nattribute = "${node.datacenter}"\nvalue = "eu"\n}'),
    ),
    "distinct-property-count-number": (
        job('constraint {\noperator = "distinct_property"\nattribute = "${meta.rack}"\nvalue = "two"\n}'),
        job('constraint {\noperator = "distinct_property"\nattribute = "${meta.rack}"\nvalue = "2"\n}'),
    ),
    "distinct-property-count-zero": (
        job('constraint {\noperator = "distinct_property"\nattribute = "${meta.rack}"\nvalue = "0"\n}'),
        job('constraint {\noperator = "distinct_property"\nattribute = "${meta.rack}"\nvalue = "1"\n}'),
    ),
    # groups (groups.py, policies.py, strategies.py)
    "negative-group-count": (job(group="count = -1"), job(group="count = 0")),
    "max-run-duration-not-positive": (
        job(group='max_run_duration = "-1s"', kind="batch"),
        job(group='max_run_duration = "1h"', kind="batch"),
    ),
    "max-run-duration-job-type": (
        job(group='max_run_duration = "1h"', kind="service"),
        job(group='max_run_duration = "1h"', kind="batch"),
    ),
    "system-group-affinity": (
        job(group='affinity {\nattribute = "${node.class}"\nvalue = "gpu"\n}', kind="system"),
        job(group='affinity {\nattribute = "${node.class}"\nvalue = "gpu"\n}', kind="batch"),
    ),
    "system-group-spread": (
        job(group='spread {\nattribute = "${node.datacenter}"\n}', kind="system"),
        job(group='spread {\nattribute = "${node.datacenter}"\n}', kind="batch"),
    ),
    "system-reschedule": (
        job(group="reschedule {\nattempts = 0\n}", kind="sysbatch"),
        job(group="reschedule {\nattempts = 0\n}", kind="batch"),
    ),
    "update-job-type": (
        job(group="update {\nmax_parallel = 2\n}", kind="batch"),
        job(group="update {\nmax_parallel = 2\n}", kind="service"),
    ),
    "migrate-job-type": (
        job(group="migrate {\nmax_parallel = 2\n}", kind="batch"),
        job(group="migrate {\nmax_parallel = 2\n}", kind="service"),
    ),
    "task-defined-twice": (
        job(group=f'task "server" {{\ndriver = "docker"\n{IMAGE}\n}}'),
        job(group=f'task "other" {{\ndriver = "docker"\n{IMAGE}\n}}'),
    ),
    "several-leaders": (
        job(task="leader = true", second_task="leader = true"),
        job(task="leader = true", second_task="leader = false"),
    ),
    "group-shutdown-delay-negative": (
        job(group='shutdown_delay = "-1s"'),
        job(group='shutdown_delay = "5s"'),
    ),
    "restart-mode": (job(group='restart {\nmode = "retry"\n}'), job(group='restart {\nmode = "delay"\n}')),
    "restart-zero-attempts": (
        job(group='restart {\nattempts = 0\nmode = "delay"\n}'),
        job(group='restart {\nattempts = 0\nmode = "fail"\n}'),
    ),
    "restart-interval": (
        job(group='restart {\ninterval = "4s"\nattempts = 1\ndelay = "1s"\n}'),
        job(group='restart {\ninterval = "5s"\nattempts = 1\ndelay = "1s"\n}'),
    ),
    "restart-attempts-do-not-fit": (
        job(group='restart {\nattempts = 10\ninterval = "1m"\n}'),
        job(group='restart {\nattempts = 4\ninterval = "1m"\n}'),
    ),
    "reschedule-attempts-without-interval": (
        job(group="reschedule {\nattempts = 2\nunlimited = false\ninterval = 0\n}", kind="batch"),
        job(group='reschedule {\nattempts = 2\nunlimited = false\ninterval = "1h"\n}', kind="batch"),
    ),
    "reschedule-attempts-and-unlimited": (
        job(group='reschedule {\nattempts = 2\ninterval = "1h"\n}'),
        job(group='reschedule {\nattempts = 2\ninterval = "1h"\nunlimited = false\n}'),
    ),
    "reschedule-attempts-do-not-fit": (
        job(group='reschedule {\nattempts = 5\ninterval = "20s"\n}', kind="batch"),
        job(group='reschedule {\nattempts = 4\ninterval = "20s"\n}', kind="batch"),
    ),
    "reschedule-delay": (
        job(group='reschedule {\ndelay = "1s"\n}'),
        job(group='reschedule {\ndelay = "5s"\n}'),
    ),
    "reschedule-delay-function": (
        job(group='reschedule {\ndelay_function = "linear"\n}'),
        job(group='reschedule {\ndelay_function = "fibonacci"\n}'),
    ),
    "reschedule-max-delay": (
        job(group='reschedule {\ndelay = "5s"\nmax_delay = "4s"\n}'),
        job(group='reschedule {\ndelay = "5s"\nmax_delay = "5s"\n}'),
    ),
    "reschedule-max-delay-below-delay": (
        job(group='reschedule {\ndelay = "1m"\nmax_delay = "30s"\n}'),
        job(group='reschedule {\ndelay = "30s"\nmax_delay = "30s"\n}'),
    ),
    "reschedule-interval": (
        job(group='reschedule {\nattempts = 1\ninterval = "10s"\n}', kind="batch"),
        job(group='reschedule {\nattempts = 1\ninterval = "15s"\n}', kind="batch"),
    ),
    "ephemeral-disk-size": (
        job(group="ephemeral_disk {\nsize = 5\n}", task="logs {\nmax_files = 1\nmax_file_size = 1\n}"),
        job(group="ephemeral_disk {\nsize = 10\n}", task="logs {\nmax_files = 1\nmax_file_size = 1\n}"),
    ),
    "update-health-check": (
        job(group='update {\nhealth_check = "tasks"\n}'),
        job(group='update {\nhealth_check = "task_states"\n}'),
    ),
    "update-max-parallel": (
        job(group="update {\nmax_parallel = -1\n}"),
        job(group="update {\nmax_parallel = 0\n}"),
    ),
    "update-canary": (job(group="update {\ncanary = -1\n}"), job(group="update {\ncanary = 1\n}")),
    "update-auto-promote-without-canary": (
        job(group="update {\nauto_promote = true\n}"),
        job(group="update {\nauto_promote = true\ncanary = 1\n}"),
    ),
    "update-min-healthy-time": (
        job(group='update {\nmin_healthy_time = "-1s"\n}'),
        job(group='update {\nmin_healthy_time = "0s"\n}'),
    ),
    "update-healthy-deadline": (
        job(group='update {\nhealthy_deadline = "-1s"\nmin_healthy_time = "-2s"\n}'),
        job(group='update {\nhealthy_deadline = "1s"\nmin_healthy_time = "0s"\n}'),
    ),
    "update-progress-deadline": (
        job(group='update {\nprogress_deadline = "-1s"\n}'),
        job(group='update {\nprogress_deadline = "0s"\n}'),
    ),
    "update-min-healthy-not-below-deadline": (
        job(group='update {\nmin_healthy_time = "5m"\n}'),
        job(group='update {\nmin_healthy_time = "4m"\n}'),
    ),
    "update-deadline-not-below-progress": (
        job(group='update {\nhealthy_deadline = "10m"\n}'),
        job(group='update {\nhealthy_deadline = "9m"\n}'),
    ),
    "update-stagger": (job(group='update {\nstagger = "0s"\n}'), job(group='update {\nstagger = "30s"\n}')),
    "migrate-max-parallel": (
        job(group="migrate {\nmax_parallel = -1\n}"),
        job(group="migrate {\nmax_parallel = 0\n}"),
    ),
    "migrate-health-check": (
        job(group='migrate {\nhealth_check = "tasks"\n}'),
        job(group='migrate {\nhealth_check = "task_states"\n}'),
    ),
    "migrate-negative-duration": (
        job(group='migrate {\nmin_healthy_time = "-1s"\n}'),
        job(group='migrate {\nmin_healthy_time = "0s"\n}'),
    ),
    "migrate-min-healthy-above-deadline": (
        job(group='migrate {\nmin_healthy_time = "6m"\n}'),
        job(group='migrate {\nmin_healthy_time = "5m"\n}'),
    ),
    "disconnect-stop-negative": (
        job(group='disconnect {\nstop_on_client_after = "-1s"\n}'),
        job(group='disconnect {\nstop_on_client_after = "1m"\n}'),
    ),
    "disconnect-stop-job-type": (
        job(group='disconnect {\nstop_on_client_after = "1m"\n}', kind="system"),
        job(group='disconnect {\nstop_on_client_after = "1m"\n}', kind="batch"),
    ),
    "disconnect-lost-negative": (
        job(group='disconnect {\nlost_after = "-1s"\n}'),
        job(group='disconnect {\nlost_after = "1h"\n}'),
    ),
    "disconnect-stop-and-lost": (
        job(group='disconnect {\nlost_after = "1h"\nstop_on_client_after = "1m"\n}'),
        job(group='disconnect {\nlost_after = "1h"\n}'),
    ),
    "disconnect-reconcile": (
        job(group='disconnect {\nreconcile = "newest"\n}'),
        job(group='disconnect {\nreconcile = "keep_original"\n}'),
    ),
    "volume-without-source": (
        job(group='volume "data" {\ntype = "host"\nsource = ""\n}'),
        job(group='volume "data" {\ntype = "host"\nsource = "data"\n}'),
    ),
    "volume-per-alloc-in-system-job": (
        job(group='volume "data" {\ntype = "host"\nsource = "data"\nper_alloc = true\n}', kind="system"),
        job(group='volume "data" {\ntype = "host"\nsource = "data"\nper_alloc = true\n}', kind="batch"),
    ),
    "volume-per-alloc-with-canaries": (
        job(
            group='volume "data" {\ntype = "host"\nsource = "data"\nper_alloc = true\n}\nupdate {\ncanary = 1\n}'
        ),
        job(
            group='volume "data" {\ntype = "host"\nsource = "data"\nper_alloc = true\n}\nupdate {\ncanary = 0\n}'
        ),
    ),
    "csi-volume-without-attachment-mode": (
        job(group='volume "data" {\ntype = "csi"\nsource = "data"\naccess_mode = "single-node-writer"\n}'),
        job(
            group='volume "data" {\ntype = "csi"\nsource = "data"\naccess_mode = "single-node-writer"\n'
            'attachment_mode = "file-system"\n}'
        ),
    ),
    "csi-volume-without-access-mode": (
        job(group='volume "data" {\ntype = "csi"\nsource = "data"\nattachment_mode = "file-system"\n}'),
        job(
            group='volume "data" {\ntype = "csi"\nsource = "data"\nattachment_mode = "file-system"\n'
            'access_mode = "single-node-writer"\n}'
        ),
    ),
    "count-above-scaling-max": (
        job(group="count = 6\nscaling {\nmin = 1\nmax = 5\n}"),
        job(group="count = 5\nscaling {\nmin = 1\nmax = 5\n}"),
    ),
    "count-below-scaling-min": (
        job(group="count = 1\nscaling {\nmin = 2\nmax = 5\n}"),
        job(group="count = 2\nscaling {\nmin = 2\nmax = 5\n}"),
    ),
    "scaling-max-below-min": (
        job(group="count = 3\nscaling {\nmin = 4\nmax = 2\n}"),
        job(group="count = 3\nscaling {\nmin = 2\nmax = 4\n}"),
    ),
    "scaling-negative-bound": (
        job(group="count = 0\nscaling {\nmin = -1\nmax = 2\n}"),
        job(group="count = 0\nscaling {\nmin = 0\nmax = 2\n}"),
    ),
    # tasks (tasks.py, task_blocks.py, task_files.py)
    "numa-affinity": (
        job(task='resources {\nnuma {\naffinity = "sometimes"\n}\n}'),
        job(task='resources {\nnuma {\naffinity = "none"\n}\n}'),
    ),
    "numa-device-not-requested": (
        job(task='resources {\nnuma {\naffinity = "none"\ndevices = ["amd/gpu"]\n}\n}'),
        job(task='resources {\ndevice "amd/gpu" {}\nnuma {\naffinity = "none"\ndevices = ["amd/gpu"]\n}\n}'),
    ),
    "numa-requires-enterprise": (
        job(task='resources {\nnuma {\naffinity = "prefer"\n}\n}'),
        job(task='resources {\nnuma {\naffinity = "none"\n}\n}'),
    ),
    "task-missing-driver": (job(driver=""), job()),
    "task-named-alloc": (
        job(group=f'task "alloc" {{\ndriver = "docker"\n{IMAGE}\n}}'),
        job(group=f'task "allocs" {{\ndriver = "docker"\n{IMAGE}\n}}'),
    ),
    "kill-timeout-negative": (job(task='kill_timeout = "-1s"'), job(task='kill_timeout = "30s"')),
    "kill-timeout-over-progress-deadline": (
        job(task='kill_timeout = "11m"'),
        job(task='kill_timeout = "10m"'),
    ),
    "task-shutdown-delay-negative": (job(task='shutdown_delay = "-1s"'), job(task='shutdown_delay = "1s"')),
    "distinct-constraint-in-task": (
        job(task='constraint {\noperator = "distinct_hosts"\nvalue = "true"\n}'),
        job(group='constraint {\noperator = "distinct_hosts"\nvalue = "true"\n}'),
    ),
    "system-task-affinity": (
        job(task='affinity {\nattribute = "${node.class}"\nvalue = "gpu"\n}', kind="system"),
        job(task='affinity {\nattribute = "${node.class}"\nvalue = "gpu"\n}', kind="batch"),
    ),
    "template-same-destination": (
        job(
            task='template {\ndata = "a"\ndestination = "local/x"\n}\ntemplate {\ndata = "b"\ndestination = "local/x"\n}'
        ),
        job(
            task='template {\ndata = "a"\ndestination = "local/x"\n}\ntemplate {\ndata = "b"\ndestination = "local/y"\n}'
        ),
    ),
    "action-defined-twice": (
        job(task='action "a" {\ncommand = "date"\n}\naction "a" {\ncommand = "uptime"\n}'),
        job(task='action "a" {\ncommand = "date"\n}\naction "b" {\ncommand = "uptime"\n}'),
    ),
    "action-without-command": (
        job(task='action "a" {\ncommand = ""\n}'),
        job(task='action "a" {\ncommand = "date"\n}'),
    ),
    "lifecycle-without-hook": (
        job(second_task='lifecycle {\nhook = ""\n}'),
        job(second_task='lifecycle {\nhook = "prestart"\n}'),
    ),
    "lifecycle-invalid-hook": (
        job(second_task='lifecycle {\nhook = "before"\n}'),
        job(second_task='lifecycle {\nhook = "poststop"\n}'),
    ),
    "logs-max-files": (job(task="logs {\nmax_files = 0\n}"), job(task="logs {\nmax_files = 1\n}")),
    "logs-max-file-size": (
        job(task="logs {\nmax_file_size = 0\n}"),
        job(task="logs {\nmax_file_size = 1\n}"),
    ),
    "logs-exceed-disk": (
        job(group="ephemeral_disk {\nsize = 100\n}"),
        job(group="ephemeral_disk {\nsize = 101\n}"),
    ),
    "template-without-source": (
        job(task='template {\ndestination = "local/x"\n}'),
        job(task='template {\ndata = "x"\ndestination = "local/x"\n}'),
    ),
    "template-without-destination": (
        job(task='template {\ndata = "x"\n}'),
        job(task='template {\ndata = "x"\ndestination = "local/x"\n}'),
    ),
    "template-destination-escapes": (
        job(task='template {\ndata = "x"\ndestination = "../../../etc/x"\n}'),
        job(task='template {\ndata = "x"\ndestination = "../alloc/x"\n}'),
    ),
    "template-signal-without-signal": (
        job(
            task='template {\ndata = "x"\ndestination = "local/x"\nchange_mode = "signal"\nchange_signal = ""\n}'
        ),
        job(
            task='template {\ndata = "x"\ndestination = "local/x"\nchange_mode = "signal"\nchange_signal = "SIGHUP"\n}'
        ),
    ),
    "template-signal-with-env": (
        job(task='template {\ndata = "x=1"\ndestination = "local/x"\nchange_mode = "signal"\nenv = true\n}'),
        job(task='template {\ndata = "x=1"\ndestination = "local/x"\nchange_mode = "restart"\nenv = true\n}'),
    ),
    "template-script-without-script": (
        job(task='template {\ndata = "x"\ndestination = "local/x"\nchange_mode = "script"\n}'),
        job(
            task='template {\ndata = "x"\ndestination = "local/x"\nchange_mode = "script"\n'
            'change_script {\ncommand = "/bin/reload"\nfail_on_error = false\n}\n}'
        ),
    ),
    "template-change-mode": (
        job(task='template {\ndata = "x"\ndestination = "local/x"\nchange_mode = "reload"\n}'),
        job(task='template {\ndata = "x"\ndestination = "local/x"\nchange_mode = "noop"\n}'),
    ),
    "template-negative-splay": (
        job(task='template {\ndata = "x"\ndestination = "local/x"\nsplay = "-1s"\n}'),
        job(task='template {\ndata = "x"\ndestination = "local/x"\nsplay = "1s"\n}'),
    ),
    "template-perms-not-octal": (
        job(task='template {\ndata = "x"\ndestination = "local/x"\nperms = "0648"\n}'),
        job(task='template {\ndata = "x"\ndestination = "local/x"\nperms = "0640"\n}'),
    ),
    "template-wait-min-above-max": (
        job(task='template {\ndata = "x"\ndestination = "local/x"\nwait {\nmin = "10s"\nmax = "5s"\n}\n}'),
        job(task='template {\ndata = "x"\ndestination = "local/x"\nwait {\nmin = "5s"\nmax = "10s"\n}\n}'),
    ),
    "artifact-without-source": (
        job(task='artifact {\nsource = ""\n}'),
        job(task='artifact {\nsource = "https://example.com/a.tgz"\n}'),
    ),
    "artifact-mode": (
        job(task='artifact {\nsource = "https://example.com/a.tgz"\nmode = "archive"\n}'),
        job(task='artifact {\nsource = "https://example.com/a.tgz"\nmode = "dir"\n}'),
    ),
    "artifact-destination-escapes": (
        job(task='artifact {\nsource = "https://example.com/a.tgz"\ndestination = "../../x"\n}'),
        job(task='artifact {\nsource = "https://example.com/a.tgz"\ndestination = "local/x"\n}'),
    ),
    "volume-mount-undefined-volume": (
        job(task='volume_mount {\nvolume = "data"\ndestination = "/data"\n}'),
        job(
            group='volume "data" {\ntype = "host"\nsource = "data"\n}',
            task='volume_mount {\nvolume = "data"\ndestination = "/data"\n}',
        ),
    ),
    "volume-mount-propagation": (
        job(
            group='volume "data" {\ntype = "host"\nsource = "data"\n}',
            task='volume_mount {\nvolume = "data"\ndestination = "/data"\npropagation_mode = "shared"\n}',
        ),
        job(
            group='volume "data" {\ntype = "host"\nsource = "data"\n}',
            task='volume_mount {\nvolume = "data"\ndestination = "/data"\npropagation_mode = "bidirectional"\n}',
        ),
    ),
    "vault-signal-without-signal": (
        job(task='vault {\nchange_mode = "signal"\nchange_signal = ""\n}'),
        job(task='vault {\nchange_mode = "signal"\nchange_signal = "SIGHUP"\n}'),
    ),
    "vault-change-mode": (
        job(task='vault {\nchange_mode = "reload"\n}'),
        job(task='vault {\nchange_mode = "noop"\n}'),
    ),
    "identity-name": (
        job(task='identity {\nname = "my identity"\naud = ["x"]\nttl = "1h"\n}'),
        job(task='identity {\nname = "my-identity"\naud = ["x"]\nttl = "1h"\n}'),
    ),
    "identity-empty-audience": (
        job(task='identity {\nname = "x"\naud = [""]\nttl = "1h"\n}'),
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\n}'),
    ),
    "identity-signal-without-mode": (
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\nchange_signal = "SIGHUP"\n}'),
        job(
            task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\nchange_signal = "SIGHUP"\nchange_mode = "signal"\n}'
        ),
    ),
    "identity-signal-without-signal": (
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\nchange_mode = "signal"\n}'),
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\nchange_mode = "restart"\n}'),
    ),
    "identity-change-mode": (
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\nchange_mode = "reload"\n}'),
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\nchange_mode = "restart"\n}'),
    ),
    "identity-negative-ttl": (
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "-1h"\n}'),
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\n}'),
    ),
    # WorkloadIdentity.Warnings and Template.Warnings (warnings.py)
    "identity-without-audience": (
        job(task='identity {\nname = "x"\naud = []\nttl = "1h"\n}'),
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\n}'),
    ),
    "identity-multiple-audiences": (
        job(task='identity {\nname = "x"\naud = ["y", "z"]\nttl = "1h"\n}'),
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\n}'),
    ),
    "identity-without-expiration": (
        job(task='identity {\nname = "x"\naud = ["y"]\n}'),
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\n}'),
    ),
    "identity-env-without-restart": (
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\nenv = true\n}'),
        job(task='identity {\nname = "x"\naud = ["y"]\nttl = "1h"\nenv = true\nchange_mode = "restart"\n}'),
    ),
    "template-vault-grace": (
        job(task='template {\ndata = "x"\ndestination = "local/x"\nvault_grace = "5s"\n}'),
        job(task='template {\ndata = "x"\ndestination = "local/x"\n}'),
    ),
    # services (services.py)
    "service-address-without-auto": (
        job(group=service('address = "10.0.0.1"\naddress_mode = "host"')),
        job(group=service('address = "10.0.0.1"\naddress_mode = "auto"')),
    ),
    "service-address-mode": (
        job(group=service('address_mode = "public"')),
        job(group=service('address_mode = "host"')),
    ),
    "service-on-update": (
        job(group=service('on_update = "never"')),
        job(group=service('on_update = "ignore"')),
    ),
    "service-provider": (job(group=service('provider = "k8s"')), job(group=service('provider = "nomad"'))),
    "nomad-service-with-connect": (
        job(group=service('provider = "nomad"\nconnect {\nnative = true\n}')),
        job(group=service('provider = "nomad"')),
    ),
    "group-mixes-service-providers": (
        job(
            group=service('provider = "nomad"'),
            task=f'{DELAY}\nservice {{\nname = "other"\nprovider = "consul"\n}}',
        ),
        job(
            group=service('provider = "nomad"'),
            task=f'{DELAY}\nservice {{\nname = "other"\nprovider = "nomad"\n}}',
        ),
    ),
    "task-service-alloc-address-mode": (
        job(task=f'{DELAY}\nservice {{\nname = "task"\naddress_mode = "alloc"\n}}'),
        job(task=f'{DELAY}\nservice {{\nname = "task"\naddress_mode = "host"\n}}'),
    ),
    "task-service-duplicate": (
        job(task=f'{DELAY}\nservice {{\nname = "a"\n}}\nservice {{\nname = "a"\n}}'),
        job(task=f'{DELAY}\nservice {{\nname = "a"\n}}\nservice {{\nname = "b"\n}}'),
    ),
    "task-service-with-connect": (
        job(task=f'{DELAY}\nservice {{\nname = "a"\nconnect {{\nnative = true\n}}\n}}'),
        job(task=f'{DELAY}\nservice {{\nname = "a"\n}}'),
    ),
    "check-type": (
        job(group=service("", f'type = "udp"\n{CHECK}')),
        job(group=service("", f'type = "tcp"\n{CHECK}')),
    ),
    "check-http-without-path": (
        job(group=service("", f'type = "http"\n{CHECK}')),
        job(group=service("", f'type = "http"\npath = "/health"\n{CHECK}')),
    ),
    "check-http-absolute-path": (
        job(group=service("", f'type = "http"\npath = "http://localhost/health"\n{CHECK}')),
        job(group=service("", f'type = "http"\npath = "/health"\n{CHECK}')),
    ),
    "check-script-without-command": (
        job(group=service("", f'type = "script"\ntask = "server"\n{CHECK}')),
        job(group=service("", f'type = "script"\ntask = "server"\ncommand = "/bin/true"\n{CHECK}')),
    ),
    "check-without-interval": (
        job(group=service("", 'type = "tcp"\ntimeout = "2s"')),
        job(group=service("", 'type = "tcp"\ntimeout = "2s"\ninterval = "5s"')),
    ),
    "check-interval": (
        job(group=service("", 'type = "tcp"\ntimeout = "2s"\ninterval = "500ms"')),
        job(group=service("", 'type = "tcp"\ntimeout = "2s"\ninterval = "1s"')),
    ),
    "check-without-timeout": (
        job(group=service("", 'type = "tcp"\ninterval = "5s"')),
        job(group=service("", 'type = "tcp"\ninterval = "5s"\ntimeout = "1s"')),
    ),
    "check-timeout": (
        job(group=service("", 'type = "tcp"\ninterval = "5s"\ntimeout = "100ms"')),
        job(group=service("", 'type = "tcp"\ninterval = "5s"\ntimeout = "1s"')),
    ),
    "check-initial-status": (
        job(group=service("", f'type = "tcp"\n{CHECK}\ninitial_status = "ok"')),
        job(group=service("", f'type = "tcp"\n{CHECK}\ninitial_status = "passing"')),
    ),
    "check-address-mode-auto": (
        job(group=service("", f'type = "tcp"\n{CHECK}\naddress_mode = "auto"')),
        job(group=service("", f'type = "tcp"\n{CHECK}\naddress_mode = "host"')),
    ),
    "check-address-mode": (
        job(group=service("", f'type = "tcp"\n{CHECK}\naddress_mode = "public"')),
        job(group=service("", f'type = "tcp"\n{CHECK}\naddress_mode = "alloc"')),
    ),
    "check-on-update": (
        job(group=service("", f'type = "tcp"\n{CHECK}\non_update = "never"')),
        job(group=service("", f'type = "tcp"\n{CHECK}\non_update = "ignore"')),
    ),
    "check-on-update-ignore-with-restart": (
        job(
            group=service("", f'type = "tcp"\n{CHECK}\non_update = "ignore"\ncheck_restart {{\nlimit = 3\n}}')
        ),
        job(group=service("", f'type = "tcp"\n{CHECK}\ncheck_restart {{\nlimit = 3\n}}')),
    ),
    "check-restart-negative-limit": (
        job(group=service("", f'type = "tcp"\n{CHECK}\ncheck_restart {{\nlimit = -1\n}}')),
        job(group=service("", f'type = "tcp"\n{CHECK}\ncheck_restart {{\nlimit = 0\n}}')),
    ),
    "check-restart-negative-grace": (
        job(group=service("", f'type = "tcp"\n{CHECK}\ncheck_restart {{\ngrace = "-1s"\n}}')),
        job(group=service("", f'type = "tcp"\n{CHECK}\ncheck_restart {{\ngrace = "1s"\n}}')),
    ),
}

ALSO: dict[str, set[str]] = {
    **EXTRA_ALSO,
    "numa-affinity": {"numa-requires-enterprise"},  # CE refuses any affinity but "none"
    "reschedule-attempts-without-interval": {
        "reschedule-interval",
        "reschedule-attempts-do-not-fit",
        "reschedule-constant-delays-do-not-fit",
    },
    "reschedule-max-delay": {"reschedule-max-delay-below-delay"},  # delay is at least 5s
    "scaling-max-below-min": {"count-above-scaling-max", "count-below-scaling-min"},
    "spread-target-percent": {"spread-percent-sum"},
    "update-healthy-deadline": {"update-min-healthy-time"},  # it must be below the deadline
    "update-progress-deadline": {"update-deadline-not-below-progress"},
}
"""The checks the same wrong value always trips too, in Nomad as here."""

TESTED_ELSEWHERE = {
    "group-without-name", "group-defined-twice", "task-without-name", "scaling-policy-type",
    "count-above-every-node-group", "fleet-inventory-unreadable",
}  # fmt: skip
"""Conditions a job file cannot reach without other errors first (an empty label is HG105;
Nomad's parser refuses a group scaling type other than horizontal before the server sees it,
which the decoder reports as HG122 under this check: test_the_parser_refuses_a_group_scaling_type),
and hclgpu's checks that need the fleet's inventory (tests/cases/HG209_*, tests/test_fleet.py)."""


def _pattern(condition: Condition) -> re.Pattern[str]:
    words = re.escape(condition.message.replace("{{", "{").replace("}}", "}"))
    return re.compile(r"(?:.*: )?" + re.sub(r"\\\{[a-z_]+(?:!r)?\\\}", ".+", words) + r"$", re.DOTALL)


COMMUNITY = {"enterprise": False, "memory_oversubscription": False}
"""The profile the cases run with: every cluster fact stated, as it makes each check report."""


def _diagnostics(text: str, release: Release = NEWEST, **facts: bool | None) -> list[Diagnostic]:
    profile = Profile(release, **{**COMMUNITY, **facts})  # type: ignore[arg-type]
    return compile_source(SourceFile("job.nomad.hcl", text), EvalOptions(profile=profile)).diagnostics


def _findings(text: str, release: Release = NEWEST, **facts: bool | None) -> list[tuple[str, str, str]]:
    return [(d.code, d.message, str(d.severity)) for d in _diagnostics(text, release, **facts)]


def _release(condition: Condition) -> Release:
    """The newest release that has the check: a case is run against it."""
    return next(release for release in reversed(all_releases()) if condition.holds_in(release))


def _named(ident: str) -> Condition | Check:
    """The check named ``ident``: one of Nomad's (a condition) or hclgpu's own."""
    return CONDITIONS.get(ident) or OWN_CHECKS[ident]


def _case_release(ident: str) -> Release:
    named = _named(ident)
    return _release(named) if isinstance(named, Condition) else NEWEST


@pytest.mark.parametrize("ident", sorted(CASES))
def test_a_minimal_job_trips_only_its_check_and_its_twin_passes(ident: str) -> None:
    """The finding names its check (what `ignore` takes), in Nomad's words for Nomad's checks."""
    load_rules()
    bad, good = CASES[ident]
    release = _case_release(ident)
    code = _named(ident).code
    assert code is not None
    facts = {"enterprise": True} if ident in ENTERPRISE_ONLY else {}
    found = [  # a check may report below its code's severity (HG248's group service ports: warnings)
        d
        for d in _diagnostics(bad, release, **facts)
        if str(d.severity) == str(code.severity) or d.check_name == ident
    ]
    expected = sorted({ident, *ALSO.get(ident, set())})
    assert sorted(d.check_name for d in found) == expected, [(d.check_name, d.message) for d in found]
    for diagnostic in found:
        named = _named(diagnostic.check_name)
        assert diagnostic.code == named.code
        if isinstance(named, Condition):
            assert _pattern(named).match(diagnostic.message), diagnostic.message
    assert _findings(good, release, **facts) == []


@pytest.mark.parametrize("ident", ENTERPRISE_ONLY)
def test_community_edition_refuses_the_schedule_without_its_enterprise_checks(ident: str) -> None:
    """Community Edition never calls TaskSchedule.Validate: the schedule itself is refused."""
    load_rules()
    found = [code for code, _, level in _findings(CASES[ident][0]) if level == "error"]
    assert found == ["HG289"]


def test_a_check_gone_from_a_release_is_left_out_for_newer_ones() -> None:
    """A check Nomad removed (``until``) trips in the releases before, not in the newest."""
    load_rules()
    gone = [c for c in CONDITIONS.values() if c.until is not None and c.id in CASES]
    for condition in gone:
        found = _findings(CASES[condition.id][0])
        assert not any(c == condition.code and _pattern(condition).match(m) for c, m, _ in found), (
            condition.id
        )


def test_a_check_new_in_a_release_is_left_out_before_it() -> None:
    """A check Nomad added (``since``) does not trip in the release before (the group
    attributes `disconnect` replaced are "deprecated and ignored" from 1.10 on; 1.9 still
    honours them and says they "will be deprecated")."""
    load_rules()
    new = [c for c in CONDITIONS.values() if c.since is not None and c.id in CASES]
    assert len(new) > 10
    for condition in new:
        before = [r for r in all_releases() if r < condition.since]
        if not before:
            continue
        found = _diagnostics(CASES[condition.id][0], before[-1])
        assert condition.id not in {d.check_name for d in found}, condition.id


def test_a_check_of_the_cluster_configuration_is_documented_not_reported() -> None:
    load_rules()
    for condition in CONDITIONS.values():
        assert not condition.needs or condition.id not in CASES, condition.id


def test_every_named_check_has_a_case() -> None:
    """Nomad's checks (but those of the cluster's configuration) and hclgpu's own named ones."""
    load_rules()
    cluster = {ident for ident, condition in CONDITIONS.items() if condition.needs}
    assert sorted({*CONDITIONS, *OWN_CHECKS} - TESTED_ELSEWHERE - cluster) == sorted(CASES)


def test_a_check_new_in_a_release_is_left_out_for_older_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "job.nomad.hcl"
    path.write_text(CASES["constraint-attribute-unsupported"][0])
    assert main(["check", "--no-cache", "--nomad-version", "1.10", str(path)]) == 0
    assert main(["check", "--no-cache", "--nomad-version", "1.11.1", str(path)]) == 0
    assert main(["check", "--no-cache", "--nomad-version", "1.11.2", str(path)]) == 1
    assert main(["check", "--no-cache", "--nomad-version", "2.0", str(path)]) == 1
    assert "HG288" in capsys.readouterr().err


def test_an_unknown_release_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "job.nomad.hcl"
    path.write_text(job())
    with pytest.raises(SystemExit) as stopped:
        main(["check", "--nomad-version", "3.1", str(path)])
    assert stopped.value.code == 2


def test_every_release_a_check_names_is_one_the_settings_accept() -> None:
    load_rules()
    named = {r for c in CONDITIONS.values() for r in (c.since, c.until) if r is not None}
    assert len(named) > 10
    for release in named:
        assert parse_release(".".join(map(str, release))) == release
    assert NEWEST == all_releases()[-1] == parse_release("2.0")


@pytest.mark.parametrize(
    ("text", "release"),
    [
        ("2.0", (2, 0, 6)),
        ("2.0.5", (2, 0, 5)),
        ("1.8", (1, 8, 4)),
        ("1.8.0", (1, 8, 0)),
        ("v1.11.2", (1, 11, 2)),
    ],
)
def test_a_release_is_read_to_the_patch(text: str, release: Release) -> None:
    assert parse_release(text) == release


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2.0.7", "its newest 2.0 release is 2.0.6"),
        ("1.7", "hclgpu does not know Nomad 1.7; it knows 1.8.0-1.8.4, 1.9.0-1.9.7"),
        ("2", "is not a Nomad release such as 2.0 or 2.0.5"),
        ("2.0.x", "is not a Nomad release"),
    ],
)
def test_a_release_hclgpu_does_not_know_says_which_it_knows(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_release(text)


def test_the_main_task_check_is_new_in_2_0_6() -> None:
    """A group whose only task is a lifecycle hook: refused by 2.0.6, accepted by 2.0.5."""
    load_rules()
    bad, _ = CASES["group-without-main-task"]
    assert _findings(bad, (2, 0, 5)) == []
    assert [code for code, _, _ in _findings(bad, (2, 0, 6))] == ["HG269"]


def test_every_fact_a_check_depends_on_is_one_the_profile_states() -> None:
    load_rules()
    facts = {c.fact for c in CONDITIONS.values() if c.fact}
    assert facts == {"enterprise", "memory-oversubscription"}
    for fact in facts:
        assert Profile().fact(fact) is None  # the default profile states none of them


@pytest.mark.parametrize(("ident", "fact"), [("memory-oversubscription-disabled", "memory_oversubscription"),
                                             ("multiregion-unlicensed", "enterprise"),
                                             ("numa-requires-enterprise", "enterprise")])  # fmt: skip
def test_a_check_of_a_cluster_fact_is_reported_only_when_the_profile_states_the_fact(
    ident: str, fact: str
) -> None:
    load_rules()
    bad, _ = CASES[ident]
    code = CONDITIONS[ident].code
    assert code in {c for c, _, _ in _findings(bad, _release(CONDITIONS[ident]), **{fact: False})}
    assert code not in {c for c, _, _ in _findings(bad, _release(CONDITIONS[ident]), **{fact: None})}
    assert code not in {c for c, _, _ in _findings(bad, _release(CONDITIONS[ident]), **{fact: True})}


def test_the_parser_refuses_a_group_scaling_type() -> None:
    """Nomad's parser refuses a group scaling type but horizontal before the server's
    `ScalingPolicy.validateType` could: HG122, under that check's name."""
    bad = job(group='scaling {\ntype = "vertical"\nmin = 1\nmax = 3\n}')
    assert [(d.code, d.check_name) for d in _diagnostics(bad)] == [("HG122", "scaling-policy-type")]
    assert _diagnostics(job(group='scaling {\ntype = "horizontal"\nmin = 1\nmax = 3\n}')) == []
