"""What every importer shares: reading the input, locating findings in it, and the last step.

Each importer turns its format into a Nomad job in API JSON form (Go field names, as
``nomad job run -output`` prints it) plus its findings; :func:`finish` validates that into
the IR and prints HCL with :func:`~hclgpu.importers.hcl_writer.write_job`. Findings carry a
JSON pointer into the input document, and :func:`locate` turns it into a line and column.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hclgpu.importers.hcl_writer import Dropped, write_job


class ImportFailure(Exception):
    """The input cannot be imported at all; ``str()`` says why, ``line``/``column`` where."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


@dataclass(frozen=True, slots=True)
class ImportOptions:
    """What an importer needs to know that the input does not say."""

    cpu_mhz_per_core: int = 1000
    """Kubernetes and Compose count CPU in cores, Nomad in MHz: one core is this many MHz
    (the render option of the same name, so that a round trip is exact)."""
    directory: str | None = None
    """The name of the input file's directory: Compose's project name when the file sets no
    `name` (the command line passes it; None for standard input or text)."""


@dataclass(frozen=True, slots=True)
class Imported:
    """The job file, and what it could not carry (HG301) or carries only approximately (HG302)."""

    hcl: str
    dropped: list[Dropped]


def finish(api_job: dict[str, Any], findings: list[Dropped]) -> Imported:
    """The API-JSON job as HCL; what the writer cannot print joins the importer's findings.

    The writer's own pointers refer to the job built here, not to the input, so they are
    reported at the document root with the field named in the message.
    """
    from hclgpu.ir import models as m
    from hclgpu.ir.validate import validate

    job = validate(m.Job, api_job)
    hcl, dropped = write_job(job, "")
    extra = [Dropped("", f"{d.pointer}: {d.message}", code=d.code) for d in dropped]
    return Imported(hcl, [*findings, *extra])


def load_documents(text: str, yaml_1_2: bool = False) -> list[Any]:
    """Every YAML (or JSON) document of ``text``, empty ones left out; syntax errors and
    input beyond hclgpu's limits (nesting, huge integers, alias bombs) located.

    ``yaml_1_2``: read scalars as YAML 1.2 does (Compose's parser): only ``true``/``false``
    are booleans and ``8080:80`` is text, not a base-60 number as YAML 1.1 (Kubernetes'
    parser, and PyYAML's) has it.
    """
    import yaml

    from hclgpu.io.documents import DocumentError, load_yaml

    try:
        return [doc for doc in load_yaml(text, yaml_1_2) if doc is not None]
    except DocumentError as error:
        raise ImportFailure(str(error), error.line, error.column) from None
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        raise ImportFailure(f"not valid YAML: {error.problem}", line, column) from None
    except yaml.YAMLError as error:
        raise ImportFailure(f"not valid YAML: {error}") from None


def whole_number(value: Any, low: int = 0, high: int = 2**31 - 1) -> int | None:
    """An integer field within ``low..high`` (the Nomad field's sensible range), else None:
    a number beyond it is no real request, and would overflow Nomad's int64 fields."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return None


def pointer(*parts: str | int) -> str:
    """A JSON pointer (RFC 6901) from its reference tokens."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def locate(text: str, document: int, where: str) -> tuple[int, int] | None:
    """The 1-based line and column of the node at pointer ``where`` in document ``document``
    (counting non-empty documents); None when the input does not hold it."""
    nodes = _composed(text)
    if document >= len(nodes):
        return None
    node = nodes[document]
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in where.split("/")[1:]] if where else []
    for token in tokens:
        child = _child(node, token)
        if child is None:
            break
        node = child
    return node.start_mark.line + 1, node.start_mark.column + 1


@lru_cache(maxsize=2)
def _composed(text: str) -> list[Any]:
    """The YAML node trees of ``text`` (kept: one input is located many times)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return [n for n in yaml.compose_all(text, Loader=loader) if n is not None]
    except (yaml.YAMLError, RecursionError):
        return []


def _child(node: Any, token: str) -> Any:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == token:
                return value
        return None
    if isinstance(node, yaml.SequenceNode) and token.isdigit() and int(token) < len(node.value):
        return node.value[int(token)]
    return None
