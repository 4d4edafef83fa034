"""The IR models mirror Nomad's ``api`` structs: Nomad's own JSON output matches them key for key.

The ground truth is ``tests/data/conformance/nomad/**/*.json`` (``nomad job run -output``: Go's
``json.MarshalIndent`` of an ``api.Job``, no ``Canonicalize``). Every JSON object that stands for a
model must list exactly that model's non-omitempty fields, in declaration order, with ``null``
only where the Go field is a pointer, slice or map.
"""

from __future__ import annotations

import base64
import json
import types
import typing
from pathlib import Path
from typing import Any, get_args, get_origin

import pytest

from hclgpu.ir import models
from hclgpu.ir.base import FieldInfo, Hcl, Node, OmitEmpty
from hclgpu.ir.models import Affinity, Constraint, Job, RequestedDevice, Resources, Task, TaskGroup
from hclgpu.ir.validate import validate
from hclgpu.source import Span
from tests.conftest import ROOT, vendored

NOMAD = vendored("conformance", "nomad")


def _fixtures() -> list[Any]:
    paths = sorted(p for p in NOMAD.rglob("*.json") if not p.name.endswith(".canonical.json"))
    return [pytest.param(p, id=str(p.relative_to(NOMAD))) for p in paths]


# --------------------------------------------------------------------------- field helpers


def _fields(model: type[Node]) -> list[tuple[str, FieldInfo]]:
    """The printed fields of ``model`` in declaration order, as (Go name, field)."""
    return [(f.alias or name, f) for name, f in model.model_fields.items() if not f.exclude]


def _omitempty(field: FieldInfo) -> bool:
    return any((isinstance(m, Hcl) and m.omitempty) or isinstance(m, OmitEmpty) for m in field.metadata)


def _strip_none(annotation: Any) -> Any:
    if get_origin(annotation) in (types.UnionType, typing.Union):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        assert len(rest) == 1, annotation
        return rest[0]
    return annotation


def _nested(annotation: Any) -> tuple[str, type[Node]] | None:
    """``("one"|"list"|"dict", Model)`` when the field holds models, else ``None``."""
    inner = _strip_none(annotation)
    if isinstance(inner, type) and issubclass(inner, Node):
        return "one", inner
    origin = get_origin(inner)
    if origin is list:
        (item,) = get_args(inner)
        if isinstance(item, type) and issubclass(item, Node):
            return "list", item
    if origin is dict:
        _key, value = get_args(inner)
        if isinstance(value, type) and issubclass(value, Node):
            return "dict", value
    return None


def _go_json(value: Any) -> Any:
    """Walk a model the way Go's encoding/json prints the api struct it mirrors."""
    if isinstance(value, Node):
        out: dict[str, Any] = {}
        for name, field in type(value).model_fields.items():
            if field.exclude:
                continue
            item = getattr(value, name)
            if _omitempty(field) and item in (None, False, 0, "", [], {}):
                continue
            out[field.alias or name] = _go_json(item)
        return out
    if isinstance(value, list):
        return [_go_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _go_json(v) for k, v in value.items()}
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value


# --------------------------------------------------------------------------- fixture walk


def _check(model: type[Node], obj: Any, path: str, errors: list[str]) -> None:
    if not isinstance(obj, dict):
        errors.append(f"{path}: expected an object for {model.__name__}, got {type(obj).__name__}")
        return
    fields = _fields(model)
    aliases = [alias for alias, _ in fields]
    keys = list(obj)
    unknown = [k for k in keys if k not in aliases]
    if unknown:
        errors.append(f"{path}: keys {unknown} are not fields of {model.__name__}")
    expected_order = [a for a in aliases if a in obj]
    if [k for k in keys if k in aliases] != expected_order:
        errors.append(f"{path}: key order {keys} differs from {model.__name__} order {expected_order}")
    for alias, field in fields:
        here = f"{path}.{alias}"
        if alias not in obj:
            if not _omitempty(field):
                errors.append(f"{here}: missing, but {model.__name__}.{alias} is not omitempty")
            continue
        value = obj[alias]
        if value is None:
            if field.default is not None:
                errors.append(f"{here}: null in JSON, but the model default is {field.default!r}")
            continue
        if field.default is not None and type(value) is not type(field.default):
            errors.append(f"{here}: {value!r} does not have the type of default {field.default!r}")
        nested = _nested(field.annotation)
        if nested is None:
            continue
        shape, inner = nested
        if shape == "one":
            _check(inner, value, here, errors)
        elif shape == "list":
            if not isinstance(value, list):
                errors.append(f"{here}: expected a list")
                continue
            for i, item in enumerate(value):
                _check(inner, item, f"{here}[{i}]", errors)
        else:
            if not isinstance(value, dict):
                errors.append(f"{here}: expected a map")
                continue
            for key, item in value.items():
                _check(inner, item, f"{here}[{key!r}]", errors)


def _load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data) == ["Job"], path
    job = data["Job"]
    assert isinstance(job, dict)
    return job


def test_fixture_count() -> None:
    assert len(_fixtures()) == 128


@pytest.mark.parametrize("path", _fixtures())
def test_fixture_keys_match_models(path: Path) -> None:
    errors: list[str] = []
    _check(Job, _load(path), "Job", errors)
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("path", _fixtures())
def test_fixture_round_trips(path: Path) -> None:
    """Validating the JSON into the models and walking them back gives the same JSON, in order."""
    data = _load(path)
    job = validate(Job, data)
    assert json.dumps(_go_json(job)) == json.dumps(data)


# --------------------------------------------------------------------------- defaults


def test_defaults_follow_go_zero_values() -> None:
    assert _go_json(Constraint.model_construct()) == {"LTarget": "", "RTarget": "", "Operand": ""}
    assert _go_json(Affinity.model_construct()) == {
        "LTarget": "",
        "RTarget": "",
        "Operand": "",
        "Weight": None,
    }
    device = _go_json(RequestedDevice.model_construct())
    assert device == {"Name": "", "Count": None, "Constraints": None, "Affinities": None}
    task = _go_json(Task.model_construct())
    assert task["Driver"] == ""
    assert task["Leader"] is False
    assert task["ShutdownDelay"] == 0
    assert task["KillTimeout"] is None
    assert "CSIPluginConfig" not in task  # json:",omitempty"
    job = _go_json(Job.model_construct())
    assert job["Dispatched"] is False
    assert job["Region"] is None
    assert job["TaskGroups"] is None


def test_default_key_orders_match_the_reference() -> None:
    """Field orders of Job, TaskGroup, Task and Resources (nomad-semantics.md section 2)."""
    job = (
        "Region Namespace ID Name Type Priority AllAtOnce Datacenters NodePool Constraints Affinities "
        "TaskGroups Update Multiregion Spreads Periodic ParameterizedJob Reschedule Migrate Meta UI Stop "
        "ParentID Dispatched DispatchIdempotencyToken Payload ConsulNamespace VaultNamespace NomadTokenID "
        "Status StatusDescription Stable Version SubmitTime CreateIndex ModifyIndex JobModifyIndex VersionTag"
    )
    group = (
        "Name Count Constraints Affinities Tasks Spreads Volumes RestartPolicy Disconnect ReschedulePolicy "
        "EphemeralDisk Update Migrate Networks Meta Services ShutdownDelay MaxRunDuration "
        "StopAfterClientDisconnect MaxClientDisconnect Scaling Consul PreventRescheduleOnLost"
    )
    task = (
        "Name Driver User Lifecycle Config Constraints Affinities Env Services Resources RestartPolicy Meta "
        "KillTimeout LogConfig Artifacts Vault Consul Templates DispatchPayload VolumeMounts Leader "
        "ShutdownDelay KillSignal Kind ScalingPolicies Secrets Identity Identities Actions Schedule"
    )
    resources = "CPU Cores MemoryMB MemoryMaxMB DiskMB Networks Devices NUMA SecretsMB IOPS"
    assert list(_go_json(Job.model_construct())) == job.split()
    assert list(_go_json(TaskGroup.model_construct())) == group.split()
    assert list(_go_json(Task.model_construct())) == task.split()
    assert list(_go_json(Resources.model_construct())) == resources.split()


def test_span_is_never_dumped() -> None:
    constraint = Constraint.model_construct(span=Span(0, 3), l_target="${attr.kernel.name}")
    dumped = constraint.model_dump(by_alias=True)
    assert dumped == {"LTarget": "${attr.kernel.name}", "RTarget": "", "Operand": ""}


# --------------------------------------------------------------------------- marker sanity


def _reachable(root: type[Node]) -> set[type[Node]]:
    seen: set[type[Node]] = set()
    todo = [root]
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        for _alias, field in _fields(model):
            nested = _nested(field.annotation)
            if nested is not None:
                todo.append(nested[1])
    return seen


def test_every_model_is_reachable_from_job() -> None:
    exported = {getattr(models, name) for name in models.__all__}
    assert exported == _reachable(Job)


_MODELS = sorted(_reachable(Job), key=lambda m: m.__name__)


@pytest.mark.parametrize("model", [pytest.param(m, id=m.__name__) for m in _MODELS])
def test_hcl_markers_are_consistent(model: type[Node]) -> None:
    labels = 0
    for alias, field in _fields(model):
        markers = [m for m in field.metadata if isinstance(m, Hcl | OmitEmpty)]
        assert len(markers) <= 1, alias
        assert field.alias, f"{model.__name__}.{alias} has no alias"
        if not markers or not isinstance(markers[0], Hcl):
            continue
        marker = markers[0]
        inner = _strip_none(field.annotation)
        if marker.kind == "label":
            labels += 1
            assert inner is str, alias
        elif marker.kind == "block":
            assert marker.name, alias
            assert _nested(field.annotation) is not None or get_origin(inner) is dict, alias
        else:
            assert marker.name, alias
            assert _nested(field.annotation) is None, f"{model.__name__}.{alias} holds models but is an attr"
        if marker.go == "duration":
            assert inner is int, alias
    assert labels <= 1, model.__name__


def test_a_tree_copy_is_equal_and_shares_nothing_mutable() -> None:
    from hclgpu.pipeline import compile_source
    from hclgpu.source import SourceFile

    text = (ROOT / "samples" / "mixed-service.nomad.hcl").read_text(encoding="utf-8")
    job = compile_source(SourceFile("mixed-service.nomad.hcl", text), checks=False).job
    assert job is not None
    copy = job.tree_copy()
    assert copy == job and copy.model_dump() == job.model_dump()
    copy.task_groups[0].tasks[0].resources.memory_mb = 1  # type: ignore[index, union-attr]
    copy.task_groups[0].services[0].checks.append(models.ServiceCheck.build())  # type: ignore[index, union-attr]
    copy.task_groups[0].tasks[0].config["image"] = "x"  # type: ignore[index]
    assert job.task_groups[0].tasks[0].resources.memory_mb != 1  # type: ignore[index, union-attr]
    assert len(job.task_groups[0].services[0].checks or []) == 1  # type: ignore[index]
    assert job.task_groups[0].tasks[0].config["image"] != "x"  # type: ignore[index]
    assert copy.task_groups[0].span is job.task_groups[0].span  # spans are shared, never changed


def _shared(original: object, copy: object) -> list[str]:
    """The paths of the lists, dicts and nodes ``copy`` shares with ``original``."""
    found: list[str] = []
    pairs = [("job", original, copy)]
    while pairs:
        path, a, b = pairs.pop()
        if isinstance(a, list | dict | Node) and a is b:
            found.append(path)
            continue
        if isinstance(a, Node):
            pairs += [(f"{path}.{name}", a.__dict__[name], b.__dict__[name]) for name in a.__dict__]
        elif isinstance(a, list):
            pairs += [(f"{path}[{i}]", x, y) for i, (x, y) in enumerate(zip(a, b, strict=True))]
        elif isinstance(a, dict):
            pairs += [(f"{path}[{k!r}]", a[k], b[k]) for k in a]
    return found


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "samples").glob("*.nomad.hcl")))
def test_a_tree_copy_of_each_sample_shares_no_list_dict_or_node(name: str) -> None:
    from hclgpu.pipeline import compile_source
    from hclgpu.source import SourceFile

    text = (ROOT / "samples" / name).read_text(encoding="utf-8")
    job = compile_source(SourceFile(name, text), checks=False).job
    assert job is not None
    assert _shared(job, job.tree_copy()) == []
    assert _shared(job, job.model_copy(deep=True)) == []
    assert _shared(job, job)  # the walk does find what is shared


def test_a_field_reads_the_same_from_typings_annotated_and_the_models_own() -> None:
    """The models' class bodies build their ``Annotated[...]`` with hclgpu.ir.base's
    stand-in (cheaper than typing's at every start); a model reads the type and markers of
    either alike."""
    from hclgpu.ir import base

    marker = Hcl("static", go="uint16")
    read = []
    for annotated in (typing.Annotated[int | None, marker, OmitEmpty()], base.Annotated[int | None, marker]):
        field = base.Field(None, alias="Value")
        model = type("Probe", (Node,), {"__annotations__": {"value": annotated}, "value": field})
        info = model.model_fields["value"]
        read.append((info.annotation, info.metadata[0], info.alias, info.default))
        assert model.build().value is None and model.build(value=3).value == 3
    assert read[0] == read[1] == (int | None, marker, "Value", None)
    assert type(models.Port.__annotations__["value"]) is base.Annotated  # what the models use
