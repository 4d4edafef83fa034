"""No silent loss: every field a job sets reaches each target's output or is reported.

Every sample and corpus job is rendered to every target. Each field the job file writes
(an attribute, a block's label, an item of a map, a key of a driver's `config`) must then
either be found in the rendered files, in the form the target writes it, or be reported by
the translation (HG301 left out, HG302 approximated) where the field is:

- a finding on the field's own text reports it;
- a finding over an enclosing block reports the fields it names or whose value it quotes
  (``restart `interval`, `delay`: ...`` reports those two, not the block's `attempts`), and
  every field of a block it names that lies within it (``the group is left out``,
  ``a template of task "web" is copied verbatim``).

"Found" is deliberately textual: a string is in the output when some rendered text or value
holds it (after the interpolations Nomad substitutes at run time are cut out of it); a number
when its digits are (durations also as seconds); a map when its keys and values are. The few
fields a target expresses by form rather than by text (a job's type is the kind of workload)
are in :data:`FORMS`, each with the form it takes, and that form is checked instead.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from hclgpu.backends import registry
from hclgpu.backends.target import Artifact, Lowering
from hclgpu.codes.targets import HG301, HG302
from hclgpu.diagnostics import Diagnostic, Sink
from hclgpu.eval.program import EvalOptions
from hclgpu.eval.variables import VariableInputs
from hclgpu.ir.base import Node
from hclgpu.ir.schema import schema_of
from hclgpu.pipeline import compile_source
from hclgpu.source import SourceFile, Span
from hclgpu.syntax import ast
from tests.conftest import ROOT

TARGETS = ("kubernetes", "docker", "compose", "oci")

_WILD = ROOT / "tests" / "data" / "wild"
_CONFORMANCE = ROOT / "tests" / "data" / "conformance" / "nomad"
JOBS = [
    *sorted((ROOT / "samples").glob("*.nomad.hcl")),
    *sorted(p for p in _WILD.iterdir() if p.suffix in (".hcl", ".nomad")),
    *sorted(p for p in _CONFORMANCE.rglob("*") if p.suffix in (".hcl", ".nomad")),
]


@dataclass(frozen=True, slots=True)
class Field:
    """One thing the job file writes: its place (``Task.config.image``), its value, where
    its text is, the HCL name a finding would call it by, and its Go type."""

    where: str
    name: str
    value: Any
    span: Span
    go: str = ""
    blocks: tuple[tuple[int, int, str], ...] = ()
    """The enclosing blocks (span and type), innermost last."""
    keys: bool = True
    """Whether the keys of a map value are written data (`env`, `meta`) rather than the
    names of a driver's options (`devices = [{host_path = ...}]`), which take other forms."""


# ------------------------------------------------------------------ the job's fields


def _blocks_by_span(body: ast.Body, found: dict[tuple[int, int], ast.Block]) -> dict:
    for block in body.blocks():
        found[(block.span.start, block.span.end)] = block
        _blocks_by_span(block.body, found)
    return found


def job_fields(
    node: Node, blocks: dict[tuple[int, int], ast.Block], outer: tuple[tuple[int, int, str], ...] = ()
) -> Iterator[Field]:
    """The fields ``node`` and the blocks under it set, each at its own text (an IR node's
    span is its block's, which finds the block's attributes and labels)."""
    block = blocks.get((node.span.start, node.span.end)) if node.span else None
    if block is None:
        return
    outer = (*outer, (block.span.start, block.span.end, block.type))
    schema = schema_of(type(node))
    specs = {s.name: s for s in (*schema.attributes.values(), *schema.blocks.values(), *schema.labels)}
    attributes = {a.name: a for a in block.body.attributes()}
    for name, value in node:
        if name == "span" or name not in node.model_fields_set:
            continue
        items = value if isinstance(value, list) else [value]
        if items and all(isinstance(item, Node) for item in items):
            for item in items:
                yield from job_fields(item, blocks, outer)
            continue
        spec = specs.get(name)
        if spec is None:
            continue
        here = f"{type(node).__name__}.{name}"
        if spec.hcl.kind == "label":
            label = block.labels[schema.labels.index(spec)] if block.labels else None
            if label is not None:
                yield Field(here, block.type, value, label.span, blocks=outer)
        elif spec.hcl.kind == "attr" and spec.hcl.name in attributes:
            attribute = attributes[spec.hcl.name]
            for one in _attribute(here, spec.hcl.name, value, attribute, spec.hcl.go):
                yield Field(one.where, one.name, one.value, one.span, one.go, outer)
        elif spec.hcl.kind == "block" and isinstance(value, dict):  # `config {}`, `env {}`, `meta {}`
            for inner in block.body.blocks(spec.hcl.name):
                inside = (*outer, (inner.span.start, inner.span.end, inner.type))
                data = spec.hcl.go != "any"  # `meta {}`, `env {}`; not a driver's `config {}`
                for one in _free_form(here, inner.body, value, data):
                    yield Field(one.where, one.name, one.value, one.span, one.go, inside, data)


def _attribute(where: str, name: str, value: Any, attribute: ast.Attribute, go: str) -> Iterator[Field]:
    """An attribute; a map written as an object, item by item (each at its own line)."""
    if isinstance(value, dict) and isinstance(attribute.value, ast.Object):
        for item in attribute.value.items:
            key = _key(item.key)
            if key in value:
                yield Field(f"{where}[]", key, {key: value[key]}, item.span)
        return
    yield Field(where, name, value, attribute.span, go)


def _key(expr: ast.Expr) -> str | None:
    """An object key as written: a bare name or a literal string."""
    if isinstance(expr, ast.Variable):
        return expr.name
    if isinstance(expr, ast.Template) and all(isinstance(p, ast.TemplateText) for p in expr.parts):
        return "".join(p.text for p in expr.parts)  # type: ignore[union-attr]
    if isinstance(expr, ast.Literal) and isinstance(expr.value, str):
        return expr.value
    return None


def _free_form(where: str, body: ast.Body, value: Any, data: bool = False) -> Iterator[Field]:
    """A block of free keys: each attribute, and the blocks in it (the n-th block of a type
    is the n-th decoded value of that key). In a map of ``data`` (`env {}`), a key is data."""
    for attribute in body.attributes():
        inner = value.get(attribute.name) if isinstance(value, dict) else None
        if data:
            yield Field(f"{where}[]", attribute.name, {attribute.name: inner}, attribute.span)
            continue
        yield Field(f"{where}.{attribute.name}", attribute.name, inner, attribute.span)
    seen: dict[str, int] = {}
    for block in body.blocks():
        inner = value.get(block.type) if isinstance(value, dict) else None
        index = seen[block.type] = seen.get(block.type, -1) + 1
        if isinstance(inner, list):
            inner = inner[index] if index < len(inner) else None
        yield from _free_form(f"{where}.{block.type}", block.body, inner)


# ------------------------------------------------------------------ the output


def output_texts(artifacts: list[Artifact]) -> list[str]:
    """Every text an output holds: each file whole, and each key and scalar of its documents
    (YAML, JSON, or a shell script's words), so that quoting and escaping do not hide a value."""
    texts: list[str] = []
    for artifact in artifacts:
        texts += [artifact.name, artifact.text]
        if artifact.name.endswith((".yaml", ".yml")):
            documents = list(yaml.safe_load_all(artifact.text))
        elif artifact.name.endswith(".json"):
            documents = [json.loads(artifact.text)]
        else:
            documents = [shlex.split(artifact.text, comments=True)]
        texts += [str(atom) for atom in _atoms(documents)]
    return texts


def _atoms(value: Any, keys: bool = True) -> Iterator[Any]:
    """The scalars of a value, depth first, and the keys of its maps unless ``keys`` is
    false."""
    if isinstance(value, dict):
        for key, item in value.items():
            if keys:
                yield key
            yield from _atoms(item, keys)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _atoms(item, keys)
    elif value is not None:
        yield value


_INTERPOLATION = re.compile(r"\$\{[^}]*\}|%\{[^}]*\}")
"""What Nomad fills in when the task starts (`${NOMAD_TASK_DIR}`, `${attr.x}`), and template
directives: the text around them is the written value."""


def _pieces(atom: Any, go: str) -> list[str]:
    """What of one written scalar must be in the output."""
    if isinstance(atom, bool) or atom is None:
        return []  # a switch: its effect, not its text (see FORMS for those that matter)
    if isinstance(atom, (int, float)):
        if go == "duration":
            return [] if atom % 1_000_000_000 else [str(atom // 1_000_000_000)]
        return [str(atom)]
    return [piece for piece in _INTERPOLATION.split(str(atom)) if piece.strip()]


def carried(field: Field, texts: list[str]) -> list[str]:
    """The written pieces of ``field`` that no output text holds."""
    missing = []
    for atom in _atoms(field.value, keys=field.keys):
        for piece in _pieces(atom, field.go):
            if not any(piece in text for text in texts):
                missing.append(piece)
    return missing


# ------------------------------------------------------------------ the findings


def reported(field: Field, findings: list[Diagnostic]) -> bool:
    """Whether a finding reports ``field``: one on its text, or one over it that names the
    field, quotes its value, or names a block around the field that the finding spans."""
    start, end = field.span.start, field.span.end
    for finding in findings:
        assert finding.span is not None
        at, to = finding.span.start, finding.span.end
        if to <= start or at >= end:
            continue  # elsewhere
        if not (at <= start and end <= to):
            return True  # on the field's own text
        if _names(finding.message, field.name) or _quotes(finding.message, field.value):
            return True
        if any(
            at <= b_start and b_end <= to and _names(finding.message, kind)
            for b_start, b_end, kind in field.blocks
        ):
            return True
    return False


def _quotes(message: str, value: Any) -> bool:
    """Whether the message quotes the field's value (`poststop task "x"`, `port "http"`)."""
    return isinstance(value, str) and len(value) > 1 and value in message


def _names(message: str, name: str) -> bool:
    """Whether the message names ``name`` (a word of its own, or its plural)."""
    return re.search(rf"(?<![\w-]){re.escape(name)}s?(?![\w-])", message) is not None


# ------------------------------------------------------------------ the run


@dataclass(slots=True)
class Compiled:
    path: Path
    source: SourceFile
    job: Any
    fields: list[Field]


def compiled(path: Path) -> Compiled | None:
    """The job of one file and the fields it writes, or None where it is no job hclgpu
    compiles (a variable file, a file Nomad itself rejects)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    result = compile_source(
        SourceFile(path.name, text), EvalOptions(VariableInputs(env={}), base_dir=path.parent)
    )
    if result.job is None or result.tree is None:
        return None
    blocks = _blocks_by_span(result.tree.body, {})
    return Compiled(path, result.source, result.job, list(job_fields(result.job, blocks)))


def losses(one: Compiled, target: str) -> list[str]:
    """Each field of the job that the target's output lacks and no finding reports."""
    sink = Sink()
    ctx = Lowering(target, one.source, sink, registry.render_options(target))
    texts = output_texts(registry.render(one.job, target, ctx))
    findings = [d for d in sink.sorted() if d.code in (HG301, HG302) and d.span is not None]
    out = []
    for field in one.fields:
        if reported(field, findings):
            continue
        form = FORMS.get(target, {}).get(field.where) or FORMS["*"].get(field.where)
        missing = carried(field, texts)
        if missing and form is not None and form(field.value, texts):
            missing = []
        if missing:
            line = one.source.position(field.span.start).line
            out.append(f"{one.path.name}:{line}: {field.where} {', '.join(missing)[:120]}")
    return out


def _any(*words: str) -> Callable[[Any, list[str]], bool]:
    """The form: one of ``words`` is in the output."""
    return lambda value, texts: any(word in text for word in words for text in texts)


def _when(table: dict[Any, tuple[str, ...]]) -> Callable[[Any, list[str]], bool]:
    """The form by value: one of the words the value maps to is in the output (a value not in
    the table must be reported)."""
    return lambda value, texts: value in table and (not table[value] or _any(*table[value])(value, texts))


_SIZE_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


def _bytes(value: Any) -> int | None:
    """Docker's `shm_size` (`"1024g"`, or bytes) in bytes."""
    found = re.fullmatch(r"(\d+)([bkmg]?)", str(value).strip().lower())
    return int(found[1]) * _SIZE_UNITS[found[2]] if found else None


_MIB = {"": 1, "mib": 1, "mb": 1, "gib": 1024, "gb": 1024}


def _bound(value: Any, texts: list[str]) -> bool:
    """The form of a device bound (`>= "8192 MiB"`): node affinity has only Gt and Lt, on whole
    MiB, so the number is written one below or above."""
    found = re.fullmatch(r"\s*(\d+)\s*([A-Za-z]*)\s*", str(value))
    if found is None or found[2].lower() not in _MIB:
        return False
    number = int(found[1]) * _MIB[found[2].lower()]
    return any(
        f'"{n}"' in text or f"- {n}\n" in text for n in (number - 1, number, number + 1) for text in texts
    )


def _parts(separator: str) -> Callable[[Any, list[str]], bool]:
    """The form of a list written as one string (`"nvme,ssd"` for set_contains): each part."""
    return lambda value, texts: all(_any(part.strip())(value, texts) for part in str(value).split(separator))


_K8S_OPERATORS = {
    "=": ("In",),
    "==": ("In",),
    "is": ("In",),
    "!=": ("NotIn",),
    "not": ("NotIn",),
    ">": ("Gt",),
    ">=": ("Gt",),
    "<": ("Lt",),
    "<=": ("Lt",),
    "is_set": ("Exists",),
    "is_not_set": ("DoesNotExist",),
    "set_contains": ("In",),
    "set_contains_any": ("In",),
    "distinct_hosts": ("podAntiAffinity",),
    "distinct_property": ("topologySpreadConstraints", "podAntiAffinity"),
}
"""Nomad's operators as node affinity and pod placement write them."""

_DEFAULT_PLACEMENT = {"datacenters": ["*"], "node_pool": ("all", "default"), "namespace": "default"}

_CONTAINER_DRIVERS = {"docker": (), "podman": ()}
"""A task whose driver runs containers is a container (any other task is reported at the task)."""

_NETWORK_MODES = {"": (), "host": (), "bridge": ()}
"""Nomad's "host" (the default) and "bridge" both give a docker task its own network namespace
with the group's ports mapped into it: a pod's network, docker's default network."""

_EVERYWHERE: dict[str, Callable[[Any, list[str]], bool]] = {
    "Task.driver": _when(_CONTAINER_DRIVERS),
    "NetworkResource.mode": _when(_NETWORK_MODES),
    "Job.datacenters": lambda value, texts: value == ["*"],
    "Job.node_pool": lambda value, texts: value in ("all", "default"),
    "Job.namespace": lambda value, texts: value == "default" or _any(value)(value, texts),
    "Task.config.image": lambda value, texts: _any(str(value).removeprefix("docker://"))(value, texts),
}
"""Forms every target shares."""

_CONTAINER_HOST: dict[str, Callable[[Any, list[str]], bool]] = {
    "Job.type": _when({"service": ("unless-stopped",), "batch": (), "sysbatch": (), "system": ()}),
    "TaskGroup.count": lambda value, texts: value == 1,
    "Port.label": lambda value, texts: True,
    "Task.config.ports": lambda value, texts: True,
    "ServiceCheck.port_label": lambda value, texts: True,
    "RequestedDevice.name": _any("--gpus", "capabilities", "nvidia.com/gpu"),
    "Task.config.force_pull": _any("always"),
}
"""Docker and Compose: a service is restarted unless stopped; one container per group (a
count above one is reported); ports have numbers, not names (the numbers are checked at the
group's `port` blocks, which the task's `ports` list only names)."""

FORMS: dict[str, dict[str, Callable[[Any, list[str]], bool]]] = {
    "*": _EVERYWHERE,
    "kubernetes": {
        "Job.type": _when(
            {
                "service": ("Deployment", "StatefulSet"),
                "batch": ("Job", "CronJob"),
                "system": ("DaemonSet",),
                "sysbatch": ("DaemonSet", "CronJob"),
            }
        ),
        "Constraint.operand": _when(_K8S_OPERATORS),
        "Affinity.operand": _when(_K8S_OPERATORS),
        "RequestedDevice.name": _any("nvidia.com/", "resourceClaim", "deviceClassName"),
        "ServiceCheck.type": _when(
            {"http": ("httpGet",), "tcp": ("tcpSocket",), "grpc": ("grpc",), "script": ("exec",)}
        ),
        "UpdateStrategy.health_check": _when({"checks": ("readinessProbe", "minReadySeconds")}),
        "Service.provider": _any("kind: Service"),
        "Task.config.mount.type": _when(
            {"bind": ("hostPath",), "tmpfs": ("emptyDir",), "volume": ("emptyDir",)}
        ),
        "Task.config.force_pull": _any("Always"),
        "TaskLifecycle.hook": _when({"prestart": ("initContainers",)}),
        "Task.config.ports": lambda value, texts: True,
        "ServiceCheck.port_label": lambda value, texts: True,
        "Task.config.shm_size": lambda value, texts: _any(str(_bytes(value)))(value, texts),
        "Affinity.weight": lambda value, texts: _any(str(abs(value)))(value, texts),
        "Constraint.r_target": lambda value, texts: _parts(",")(value, texts) or _bound(value, texts),
        "Affinity.r_target": _parts(","),
    },
    "docker": {
        **_CONTAINER_HOST,
        "TaskLifecycle.hook": lambda value, texts: _any(f"# {value} task", f"# {value} sidecar")(
            value, texts
        ),
    },
    "compose": {
        **_CONTAINER_HOST,
        "TaskLifecycle.hook": _when(
            {
                "prestart": ("service_completed_successfully", "service_started"),
                "poststart": ("service_started",),
            }
        ),
    },
    "oci": {"Job.type": _when({"batch": (), "sysbatch": ()})},
}
"""The fields each target writes by form, not by text, and the form each takes."""


# ------------------------------------------------------------------ the tests


@pytest.fixture(scope="module")
def corpus() -> list[Compiled]:
    jobs = [one for one in map(compiled, JOBS) if one is not None]
    assert len(jobs) >= 200, len(jobs)  # the samples, and every corpus file that is a job
    return jobs


@pytest.mark.parametrize("target", TARGETS)
def test_every_field_is_rendered_or_reported(target: str, corpus: list[Compiled]) -> None:
    lost = [loss for one in corpus for loss in losses(one, target)]
    assert not lost, "\n".join(lost)


def test_every_form_is_used(corpus: list[Compiled]) -> None:
    """No form stands for a field no job writes (a stale entry would hide nothing, but says
    something untrue about the targets)."""
    written = {field.where for one in corpus for field in one.fields}
    unused = {
        f"{target}: {where}" for target, forms in FORMS.items() for where in forms if where not in written
    }
    assert not unused, unused


def _one(text: str) -> Compiled:
    result = compile_source(SourceFile("job.nomad.hcl", text), EvalOptions(VariableInputs(env={})))
    assert result.job is not None and result.tree is not None, result.diagnostics
    blocks = _blocks_by_span(result.tree.body, {})
    return Compiled(Path("job.nomad.hcl"), result.source, result.job, list(job_fields(result.job, blocks)))


_JOB = """job "web" {
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "nginx:1.27"
        args  = ["--port", "8080"]
      }
      env {
        GREETING = "hello"
      }
    }
  }
}
"""


class _Dropping:
    """A target that loses what ``drop`` names, reporting it only when ``report`` is set."""

    name = "dropping"
    Options = registry.NoOptions
    takes_device_ids = False

    def __init__(self, drop: str, report: str | None) -> None:
        self.drop, self.report = drop, report

    def add_arguments(self, parser: Any) -> None:
        """No flags."""

    def render(self, job: Any, ctx: Lowering) -> list[Artifact]:
        task = job.task_groups[0].tasks[0]
        data = {"image": task.config["image"], "args": task.config["args"], "env": task.env}
        data.pop(self.drop)
        if self.report == "task":
            ctx.unsupported(f'task "{task.name}" is left out', task)
        elif self.report is not None:
            ctx.approximated(f"`{self.report}` is approximated", task)
        return [Artifact("out.json", json.dumps(data))]

    def join(self, artifacts: list[Artifact]) -> str:
        return "".join(a.text for a in artifacts)


@pytest.mark.parametrize(
    ("drop", "report", "lost"),
    [
        ("env", None, ["Task.env[] "]),  # a silent loss is found
        ("args", None, ["Task.config.args "]),
        ("env", "env", []),  # an approximation over the task that names the field reports it
        ("env", "args", ["Task.env[] "]),  # ... and not a field it does not name
        ("args", "task", []),  # the whole task left out reports everything in it
    ],
)
def test_the_check_finds_a_silent_loss(drop: str, report: str | None, lost: list[str]) -> None:
    target = _Dropping(drop, report)
    registry.register(target)
    try:
        found = losses(_one(_JOB), "dropping")
    finally:
        registry.unregister("dropping")
    assert [f.split(": ", 1)[1].split(" ")[0] + " " for f in found] == lost


def test_fields_are_found_where_they_are_written() -> None:
    fields = {f.where: f for f in _one(_JOB).fields}
    source = SourceFile("job.nomad.hcl", _JOB)
    assert source.position(fields["Task.config.image"].span.start).line == 6
    assert fields["Task.env[]"].value == {"GREETING": "hello"}
    assert fields["Task.name"].value == "t" and fields["Task.driver"].value == "docker"
    assert [b[2] for b in fields["Task.config.args"].blocks] == ["job", "group", "task", "config"]
