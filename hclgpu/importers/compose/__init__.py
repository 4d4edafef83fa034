"""A Docker Compose file as a Nomad job file (``hclgpu import FILE --from compose``).

The inverse of the compose back end (:mod:`hclgpu.backends.compose`): each service is read
into a draft task (:mod:`~.service`), the drafts are grouped with their lifecycle hooks
(:mod:`~.grouping`) and assembled into a job in API JSON (:mod:`~.job`), which
:func:`~hclgpu.importers.common.finish` validates and prints. A file the back end wrote
reads back into a job that renders to the same compose file; any other file gets the
closest job, with every key that has no Nomad form reported where it is (HG301 left out,
HG302 approximated).
"""

from __future__ import annotations

import re
from typing import Any

from hclgpu.backends.docker.container import engine_name
from hclgpu.importers.common import Imported, ImportFailure, ImportOptions, finish
from hclgpu.importers.compose.document import interpolate, read
from hclgpu.importers.compose.draft import Draft
from hclgpu.importers.compose.findings import Findings
from hclgpu.importers.compose.grouping import Group, generated, plan_groups
from hclgpu.importers.compose.job import build_job
from hclgpu.importers.compose.service import read_service

_TOP_LEVEL = ("name", "services", "networks", "version")


def import_compose(text: str, options: ImportOptions | None = None) -> Imported:
    """The job file of a compose file, and what it could not carry."""
    findings = Findings(options or ImportOptions())
    doc = interpolate(read(text), findings)
    project = project_name(doc, findings.options)
    drafts = [read_service(str(name), data, findings, project) for name, data in doc["services"].items()]
    groups = plan_groups(drafts, findings)
    is_generated = generated(drafts)
    _report_networks(doc, groups, is_generated, findings)
    _report_top_level(doc, findings)
    if is_generated:
        _report_first_gpus(drafts, findings)
    job = build_job(_job_name(doc, drafts, is_generated), groups, is_generated, findings)
    try:
        return finish(job, findings.items)
    except (ValueError, TypeError) as error:  # pydantic's ValidationError is a ValueError
        raise ImportFailure(f"the job built from this file is not valid: {error}") from None


def project_name(doc: dict[str, Any], options: ImportOptions) -> str:
    """Compose's project name: the file's `name`, else its directory's name, normalized as
    compose-go does (loader/loader.go NormalizeProjectName, f72979427: lower case, only
    `a-z0-9_-`, no leading `_` or `-`); "compose" when neither gives one."""
    given = doc.get("name")
    for candidate in (given if isinstance(given, str) else None, options.directory):
        name = re.sub(r"[^a-z0-9_-]", "", (candidate or "").lower()).lstrip("_-")
        if name:
            return name
    return "compose"


def _job_name(doc: dict[str, Any], drafts: list[Draft], is_generated: bool) -> str:
    """The back end's job label, else the project `name`, else "compose"."""
    if is_generated:
        return str(drafts[0].identity["job"])
    name = doc.get("name")
    return name.strip() if isinstance(name, str) and name.strip() else "compose"


def _report_first_gpus(drafts: list[Draft], findings: Findings) -> None:
    """The back end writes ids only for GPUs a plan chose on one node: the constraints the plan
    satisfied are not in the file."""
    for draft in drafts:
        for where in draft.first_gpus:
            findings.approximated(
                where,
                "hclgpu writes GPU ids only for the GPUs a node inventory's plan chose; the constraints "
                "they were chosen by are not in the compose file: the block asks for any GPUs of that count",
            )


def _report_top_level(doc: dict[str, Any], findings: Findings) -> None:
    for key in doc:
        key = str(key)
        if key == "volumes" and isinstance(doc[key], dict):
            _report_volumes(doc[key], findings)
        elif key not in _TOP_LEVEL and not key.startswith("x-"):
            findings.left_out((key,), f"top-level `{key}` has no Nomad job equivalent; it is left out")


def _report_volumes(volumes: dict[str, Any], findings: Findings) -> None:
    """A plain named volume needs no declaration in Nomad: the docker driver creates it where a
    task mounts it, as Compose does. One with a driver, options or a name is left out."""
    for name, settings in volumes.items():
        if settings not in (None, {}):
            findings.left_out(
                ("volumes", str(name)),
                f"volume `{name}` has settings the docker driver's `volumes` cannot give it; "
                "they are left out",
            )


def _report_networks(
    doc: dict[str, Any], groups: list[Group], is_generated: bool, findings: Findings
) -> None:
    """Each group gets its own network back (the back end names it after the group); other
    user-defined networks have no Nomad form."""
    own = {engine_name(g.name) for g in groups} if is_generated else {"default"}
    for group in groups:
        for draft in group.drafts:
            expected = [engine_name(group.name)] if is_generated else ["default"]
            if draft.networks is not None and draft.networks != expected:
                findings.left_out(
                    draft.at("networks"),
                    "user-defined networks are left out: a Nomad group reaches another through its published "
                    "ports and service discovery",
                )
    declared = doc.get("networks")
    if isinstance(declared, dict):
        for name, spec in declared.items():
            if str(name) not in own or spec:
                findings.left_out(("networks", str(name)), f"network `{name}` is not created; left out")
    elif declared is not None:
        findings.left_out(("networks",), "`networks` is not a mapping; left out")
