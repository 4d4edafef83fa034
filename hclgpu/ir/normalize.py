"""What jobspec2 itself fills in after decoding (``normalizeJob``), and nothing more.

ID and Name default to the job's label; a periodic ``cron`` gets ``SpecType``
"cron"; each job-level ``task`` becomes a group of its own, placed first; ports with a
static value move from DynamicPorts to ReservedPorts; templates get ChangeMode
"restart", Perms "0644", Splay 5s and ErrMissingKey false (a change script: no args,
timeout 5s, fail_on_error and run_on_first_render false); every vault gets Env true
and ChangeMode "restart", and tasks without one inherit the job's.
"""

from __future__ import annotations

from hclgpu.ir import models as m

SECOND = 1_000_000_000


def normalize(job: m.Job, label: str, vault: m.Vault | None, tasks: list[m.Task]) -> None:
    if job.name is None:
        job.name = label
    if job.id is None:
        job.id = label
    if job.periodic is not None and (job.periodic.spec is not None or job.periodic.specs):
        job.periodic.spec_type = "cron"
    _vault(vault)
    if tasks:
        alone = [m.TaskGroup.build(name=t.name, tasks=[t], span=t.span) for t in tasks]
        job.task_groups = alone + (job.task_groups or [])
    for group in job.task_groups or []:
        _ports(group.networks)
        for task in group.tasks or []:
            if task.resources is not None:
                _ports(task.resources.networks)
            _templates(task.templates)
            _vault(task.vault)
            if task.vault is None:
                task.vault = vault


def _vault(vault: m.Vault | None) -> None:
    if vault is None:
        return
    if vault.env is None:
        vault.env = True
    if vault.disable_file is None:
        vault.disable_file = False
    if vault.change_mode is None:
        vault.change_mode = "restart"


def _ports(networks: list[m.NetworkResource] | None) -> None:
    for network in networks or []:
        if not network.dynamic_ports:
            continue
        reserved = [p for p in network.dynamic_ports if p.value > 0]
        dynamic = [p for p in network.dynamic_ports if p.value <= 0]
        network.dynamic_ports = dynamic or None
        network.reserved_ports = reserved or None


def _templates(templates: list[m.Template] | None) -> None:
    for template in templates or []:
        if template.change_mode is None:
            template.change_mode = "restart"
        if template.perms is None:
            template.perms = "0644"
        if template.splay is None:
            template.splay = 5 * SECOND
        if template.err_missing_key is None:
            template.err_missing_key = False
        script = template.change_script
        if script is not None:
            if script.args is None:
                script.args = []
            if script.timeout is None:
                script.timeout = 5 * SECOND
            if script.fail_on_error is None:
                script.fail_on_error = False
            if script.run_on_first_render is None:
                script.run_on_first_render = False
