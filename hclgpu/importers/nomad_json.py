"""Nomad API JSON (``nomad job run -output``, ``nomad job inspect``, the HTTP API) to HCL.

The IR models mirror the API structs, with the Go field names as aliases, so the JSON
validates straight into an IR job; :mod:`hclgpu.importers.hcl_writer` then prints it.
Server-set fields (Status, SubmitTime, ...) have no HCL form: they come back as
:class:`~hclgpu.importers.hcl_writer.Dropped` entries for the caller to warn about.
"""

from __future__ import annotations

import json

from pydantic import ValidationError

from hclgpu.importers.common import Imported, ImportFailure, ImportOptions
from hclgpu.importers.hcl_writer import write_job
from hclgpu.io.documents import DocumentError, load_json
from hclgpu.ir import models as m
from hclgpu.ir.validate import validate


class NomadJsonError(ImportFailure):
    """The input is not a Nomad job in API JSON; ``str()`` says why."""


def import_nomad_json(text: str, options: ImportOptions | None = None) -> Imported:
    """Read a job as API JSON (``{"Job": {...}}`` or the bare job object) and write HCL
    (``options`` are not needed: the JSON holds Nomad's own units)."""
    try:
        data = load_json(text)
    except json.JSONDecodeError as error:
        raise NomadJsonError(f"not valid JSON: {error.msg}", error.lineno, error.colno) from None
    except DocumentError as error:  # too deep, or an integer out of range
        raise NomadJsonError(str(error), error.line, error.column) from None
    root = ""
    if isinstance(data, dict) and isinstance(data.get("Job"), dict) and "ID" not in data:
        data, root = data["Job"], "/Job"
    if not isinstance(data, dict):
        raise NomadJsonError("expected a JSON object holding a Nomad job")
    try:
        job = validate(m.Job, data)
    except ValidationError as error:
        problems = "; ".join(
            f"{root}/{'/'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()[:5]
        )
        raise NomadJsonError(f"not a Nomad job: {problems}") from None
    hcl, dropped = write_job(job, root)
    return Imported(hcl, dropped)
