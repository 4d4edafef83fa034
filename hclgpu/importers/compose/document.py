"""The compose file as data: parsed, checked for the shape every import needs, and with
Compose's own interpolation applied.

Compose replaces ``$VAR``/``${VAR}`` in every value from the shell environment when it
loads a file, and ``$$`` stands for one ``$``. The importer has no such environment: a
variable with a default (``${VAR:-x}``) gets its default, any other is kept as written, and
both are reported (HG302) where they occur; ``$$`` becomes ``$`` silently, since that is
exactly what Compose does (the compose back end escapes every ``$`` of the job that way).
"""

from __future__ import annotations

import re
from typing import Any

from hclgpu.importers.common import ImportFailure, load_documents, locate, pointer
from hclgpu.importers.compose.findings import Findings, Path

_REFERENCE = re.compile(r"\$(?:(\$)|\{([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_BRACED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])(.*))?", re.DOTALL)
_BUDGET = 200_000
"""Values walked at most: YAML aliases can multiply a small file into a huge one."""


def read(text: str) -> dict[str, Any]:
    """The one document of ``text``, a mapping with a mapping of services, each a mapping
    with an image; anything else is an :class:`ImportFailure` at its line."""
    documents = load_documents(text, yaml_1_2=True)
    if not documents:
        raise ImportFailure("the file is empty: expected a Compose file with `services`")
    if len(documents) > 1:
        raise failure(text, (), f"a Compose file is one YAML document; this file has {len(documents)}")
    doc = documents[0]
    if not isinstance(doc, dict):
        raise failure(text, (), f"expected a Compose file (a mapping), found {_kind(doc)}")
    services = doc.get("services")
    if "services" not in doc:
        raise failure(text, (), "no `services`: a Compose file needs at least one service")
    if not isinstance(services, dict) or not services:
        raise failure(text, ("services",), "`services` must be a mapping of service names to services")
    for name, service in services.items():
        _check_service(text, str(name), service)
    return doc


def _check_service(text: str, name: str, service: Any) -> None:
    where = ("services", name)
    if not isinstance(service, dict):
        raise failure(text, where, f"service `{name}` must be a mapping, found {_kind(service)}")
    image = service.get("image")
    if isinstance(image, str) and image.strip():
        return
    if "build" in service and image is None:
        return  # the job runs the image `docker compose build` tags (see service.read_service)
    at = (*where, "image") if "image" in service else where
    raise failure(text, at, f"service `{name}` has no `image` (a non-empty string)")


def failure(text: str, path: Path, message: str) -> ImportFailure:
    """An :class:`ImportFailure` at the line of ``path`` in ``text`` (line 1 when it is not there)."""
    spot = locate(text, 0, pointer(*path))
    line, column = spot if spot is not None else (1, 1)
    return ImportFailure(message, line, column)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    names: dict[type, str] = {dict: "a mapping", list: "a list", str: "a string"}
    return names.get(type(value), f"a {type(value).__name__}")


def interpolate(doc: Any, findings: Findings) -> Any:
    """``doc`` with Compose's interpolation applied to every string value (keys stay as they
    are, as in Compose); ``x-`` extension fields are left alone, Compose ignores them."""
    walker = _Walker(findings)
    try:
        return walker.value(doc, ())
    except RecursionError:
        raise ImportFailure("the document nests too deeply") from None


class _Walker:
    def __init__(self, findings: Findings) -> None:
        self.findings = findings
        self.seen = 0
        self.open: set[int] = set()

    def value(self, value: Any, path: Path) -> Any:
        self.seen += 1
        if self.seen > _BUDGET:
            raise ImportFailure(f"the document has more than {_BUDGET} values (YAML aliases?)")
        if isinstance(value, str):
            return substitute(value, path, self.findings)
        if not isinstance(value, (dict, list)):
            return value
        if id(value) in self.open:
            raise ImportFailure(f"{pointer(*path)} contains itself (a YAML alias cycle)")
        self.open.add(id(value))
        try:
            if isinstance(value, list):
                return [self.value(item, (*path, i)) for i, item in enumerate(value)]
            return {
                key: item if str(key).startswith("x-") else self.value(item, (*path, str(key)))
                for key, item in value.items()
            }
        finally:
            self.open.discard(id(value))


def substitute(text: str, path: Path, findings: Findings) -> str:
    """One string interpolated as Compose would without any variable set."""

    def replace(match: re.Match[str]) -> str:
        if match.group(1):
            return "$"
        if match.group(3):
            findings.approximated(
                path, f"`${match.group(3)}` is a Compose variable with no value here; it is kept as written"
            )
            return match.group(0)
        return _braced(match.group(0), match.group(2), path, findings)

    return _REFERENCE.sub(replace, text)


def _braced(whole: str, inner: str, path: Path, findings: Findings) -> str:
    """``${VAR}``, ``${VAR:-default}``, ``${VAR-default}``, ``${VAR:+alt}``, ``${VAR:?error}``."""
    match = _BRACED.fullmatch(inner)
    if match is None or match.group(2) is None or "?" in match.group(2):
        findings.approximated(
            path,
            f"`{whole}` is a Compose variable with no value here; it is kept as written (Nomad replaces "
            "`${...}` at run time only with its own variables)",
        )
        return whole
    name, operator, word = match.group(1), match.group(2), match.group(3)
    if "+" in operator:
        findings.approximated(path, f"`{whole}`: `{name}` is not set here, so this is empty")
        return ""
    findings.approximated(path, f"`{whole}`: `{name}` is not set here; its default `{word}` is written")
    return str(word)
