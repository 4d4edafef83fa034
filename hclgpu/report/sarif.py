"""``--format sarif``: a SARIF 2.1.0 log for code-scanning services.

Columns count Unicode code points (``columnKind``), ``endColumn`` is exclusive, and
every rule that appears in a result is described in ``tool.driver.rules`` so that a
code-scanning UI can show its summary and documentation.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import Any
from urllib.parse import quote

from hclgpu import __version__
from hclgpu.codes import CODES, Severity
from hclgpu.diagnostics import Diagnostic
from hclgpu.report.location import region

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule(code: str) -> dict[str, Any]:
    entry = CODES[code]
    return {
        "id": entry.id,
        "name": entry.name,
        "shortDescription": {"text": entry.summary},
        "fullDescription": {"text": entry.doc},
        "help": {"text": entry.doc},
        "defaultConfiguration": {"level": _LEVELS[entry.severity]},
    }


def artifact_uri(path: str) -> str:
    """The path as an RFC 3986 URI reference: ``file:`` for an absolute path, else a relative
    reference with every character outside ``/`` and the unreserved ones percent-encoded
    (``#`` and ``?`` would start a fragment or a query, and a colon in the first segment would
    read as a scheme). Bytes are encoded as the file system spells them."""
    if path == "<stdin>":
        return "stdin"
    if os.path.isabs(path):
        return Path(path).as_uri()
    return quote(os.fsencode(PurePath(path).as_posix()), safe="/")


def _location(diagnostic: Diagnostic, span: Any, message: str | None = None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(diagnostic.path)}}
    where = region(diagnostic.source, span)
    if where is not None:
        physical["region"] = {
            "startLine": where.line,
            "startColumn": where.column,
            "endLine": where.end_line,
            "endColumn": max(where.end_column, 1),
        }
    location: dict[str, Any] = {"physicalLocation": physical}
    if message:
        location["message"] = {"text": message}
    return location


def _fingerprint(diagnostic: Diagnostic) -> str:
    where = region(diagnostic.source, diagnostic.span)
    line = diagnostic.source.line_text(where.line).strip() if where else ""
    digest = hashlib.sha256(f"{diagnostic.code}\0{line}".encode()).hexdigest()[:16]
    return f"{digest}:1"


def _result(diagnostic: Diagnostic, rule_index: dict[str, int]) -> dict[str, Any]:
    text = diagnostic.message + (f"\nhelp: {diagnostic.help}" if diagnostic.help else "")
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index[diagnostic.code],
        "level": _LEVELS[diagnostic.severity],
        "message": {"text": text},
        "locations": [_location(diagnostic, diagnostic.span)],
        "partialFingerprints": {"primaryLocationLineHash": _fingerprint(diagnostic)},
        "properties": {"check": diagnostic.check_name},
    }
    if diagnostic.related:
        result["relatedLocations"] = [
            {**_location(diagnostic, related.span, related.message), "id": i}
            for i, related in enumerate(diagnostic.related)
        ]
    if diagnostic.fix:
        result["fixes"] = [_fix(diagnostic)]
    return result


def _fix(diagnostic: Diagnostic) -> dict[str, Any]:
    """The finding's fix as SARIF's `fix` object: one artifact change, a replacement per edit
    (an empty deleted region inserts); whether it is safe goes in its properties."""
    replacements = []
    for edit in diagnostic.fix:
        deleted = _location(diagnostic, edit.span)["physicalLocation"].get("region", {})
        replacements.append({"deletedRegion": deleted, "insertedContent": {"text": edit.text}})
    return {
        "description": {"text": diagnostic.help or f"fix {diagnostic.code}"},
        "artifactChanges": [
            {"artifactLocation": {"uri": artifact_uri(diagnostic.path)}, "replacements": replacements}
        ],
        "properties": {"applicability": "safe" if diagnostic.fix_safe else "unsafe"},
    }


def render_sarif(diagnostics: Sequence[Diagnostic]) -> str:
    codes = sorted({d.code for d in diagnostics if d.code in CODES})
    rule_index = {code: i for i, code in enumerate(codes)}
    log = {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "hclgpu",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/hclgpu/",
                        "rules": [_rule(code) for code in codes],
                    }
                },
                "results": [_result(d, rule_index) for d in diagnostics if d.code in CODES],
                "columnKind": "unicodeCodePoints",
            }
        ],
    }
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"
