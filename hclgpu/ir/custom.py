"""The blocks jobspec2 decodes with its own code rather than plain gohcl.

* ``constraint`` / ``affinity``: shortcut attributes (``regexp = X`` means operator
  ``regexp``), applied in jobspec2's order, later ones winning; every value is a string
  except ``weight`` (a number stored in an int8, wrapping) and ``distinct_hosts``.
* ``job``: ``meta`` may be a map attribute; ``vault`` and job-level ``task`` blocks.
* ``group``: ``meta`` as attribute; ``vault``; ``scaling`` defaults to ``horizontal``
  and needs ``max``.
* ``task``: ``env`` and ``meta`` as attributes; ``scaling "cpu"|"mem"`` blocks; the
  identity named ``""``/``"default"`` is the task's own ``Identity``.
"""

from __future__ import annotations

import math
from typing import Any

from hclgpu.codes.evaluation import HG101, HG102, HG103, HG104, HG122
from hclgpu.diagnostics import Edit, Related
from hclgpu.eval.expr import Scope, did_you_mean, suggested
from hclgpu.eval.values import Value
from hclgpu.ir import models as m
from hclgpu.ir.base import Node
from hclgpu.ir.decode import Body, Decoder, opening_brace
from hclgpu.source import Span
from hclgpu.syntax import ast

CONSTRAINT_SHORTCUTS = ("version", "semver", "regexp", "set_contains")
CONSTRAINT_ATTRIBUTES = (
    "attribute",
    "value",
    "operator",
    "distinct_property",
    "distinct_hosts",
    "regexp",
    "version",
    "semver",
    "set_contains",
    "set_contains_all",
    "set_contains_any",
    "is_set",
    "is_not_set",
)
AFFINITY_SHORTCUTS = ("version", "semver", "regexp", "set_contains_any", "set_contains_all", "set_contains")
AFFINITY_ATTRIBUTES = ("attribute", "value", "operator", "weight", *AFFINITY_SHORTCUTS)


# ---- constraint and affinity ----------------------------------------------------------


_TYPES: dict[str, type] = {"distinct_hosts": bool, "weight": float}
"""hcldec types of the constraint/affinity attributes that are not strings."""


def _flat_attributes(
    decoder: Decoder, body: ast.Body, scope: Scope, allowed: tuple[str, ...]
) -> dict[str, Value]:
    """Evaluate a body that may hold only the named attributes (hcldec.ObjectSpec); null is unset."""
    split = decoder.split(body, scope)
    for block, _ in split.blocks:
        decoder.error(HG102, f"blocks of type `{block.type}` are not expected here", block.type_span)
    values: dict[str, Value] = {}
    for attribute, inner in split.attributes:
        if attribute.name not in allowed:
            help = did_you_mean(attribute.name, list(allowed))
            close = suggested(help)
            decoder.error(
                HG101,
                f"an argument named `{attribute.name}` is not expected here",
                attribute.name_span,
                help,
                fix=(Edit(attribute.name_span, close),) if close else (),
            )
            continue
        ok, value = decoder.value(attribute, inner, _TYPES.get(attribute.name, str) | None)
        if ok:
            values[attribute.name] = value
    return values


def _text(values: dict[str, Value], name: str) -> str:
    value = values.get(name)
    return value if isinstance(value, str) else ""


def decode_constraint(decoder: Decoder, body: ast.Body, scope: Scope, span: Span) -> Node:
    values = _flat_attributes(decoder, body, scope, CONSTRAINT_ATTRIBUTES)
    l_target, r_target, operand = (
        _text(values, "attribute"),
        _text(values, "value"),
        _text(values, "operator"),
    )
    for shortcut in CONSTRAINT_SHORTCUTS:
        if _text(values, shortcut):
            operand, r_target = shortcut, _text(values, shortcut)
    if isinstance(values.get("distinct_hosts"), bool):
        operand, r_target = "distinct_hosts", "true" if values["distinct_hosts"] else "false"
    if _text(values, "distinct_property"):
        operand, l_target = "distinct_property", _text(values, "distinct_property")
    return m.Constraint.build(l_target=l_target, r_target=r_target, operand=operand or "=", span=span)


def decode_affinity(decoder: Decoder, body: ast.Body, scope: Scope, span: Span) -> Node:
    values = _flat_attributes(decoder, body, scope, AFFINITY_ATTRIBUTES)
    l_target, r_target, operand = (
        _text(values, "attribute"),
        _text(values, "value"),
        _text(values, "operator"),
    )
    for shortcut in AFFINITY_SHORTCUTS:
        if _text(values, shortcut):
            operand, r_target = shortcut, _text(values, shortcut)
    weight = values.get("weight")
    return m.Affinity.build(
        l_target=l_target,
        r_target=r_target,
        operand=operand or "=",
        weight=None if weight is None else wrap_int8(weight),
        span=span,
    )


def wrap_int8(weight: int | float) -> int:
    """Go's ``int8(big.Float.Int64())``: truncate toward zero (saturating at the int64
    limits, as ``big.Float.Int64`` does), then keep the low byte, wrapping around."""
    low, high = -(2**63), 2**63 - 1
    whole = (
        (high if weight > 0 else low)
        if isinstance(weight, float) and not math.isfinite(weight)
        else int(weight)
    )
    whole = max(low, min(high, whole))
    return (whole + 128) % 256 - 128


# ---- job, group, task -------------------------------------------------------------


ABSENT: Any = object()
"""What :func:`map_attribute` returns when the body has no such attribute."""


def map_attribute(decoder: Decoder, body: Body, name: str) -> Any:
    """``meta = { ... }`` / ``env = { ... }``: the attribute form jobspec2 also accepts.

    Takes the attribute out of the body and returns its map (None for `= null`, as Go's
    nil map), or :data:`ABSENT` when there is none and the block form applies.
    """
    entry = body.take_attribute(name)
    if entry is None:
        return ABSENT
    attribute, scope = entry
    blocks = body.take_blocks(name)
    if blocks:
        decoder.error(
            HG104,
            f"`{name}` may not be defined more than once",
            blocks[0][0].type_span,
            related=[Related(attribute.span, "another definition is here")],
        )
        for block, inner in blocks:  # jobspec2 still evaluates the block: its errors are Nomad's too
            decoder.data(block.body, inner)
        return ABSENT
    ok, value = decoder.value(attribute, scope, dict[str, str] | None)
    return value if ok else ABSENT


def decode_job(
    decoder: Decoder, block: ast.Block, scope: Scope
) -> tuple[m.Job, m.Vault | None, list[m.Task]]:
    """The job, plus what jobspec2 keeps beside it: a job-level `vault` and job-level tasks."""
    split = decoder.split(block.body, scope, m.Job)
    meta = map_attribute(decoder, split, "meta")
    vault = _vault(decoder, split.take_blocks("vault"))
    tasks = [_job_task(decoder, b, inner) for b, inner in split.take_blocks("task")]
    job = decoder.fill(split, m.Job, block.span)
    assert isinstance(job, m.Job)
    if meta is not ABSENT:
        job.meta = meta
    return job, vault, [t for t in tasks if t is not None]


def _job_task(decoder: Decoder, block: ast.Block, scope: Scope) -> m.Task | None:
    if not decoder.labels_ok(block, ["name"]):
        return None
    task = decode_task(decoder, block.body, scope, block.span)
    assert isinstance(task, m.Task)
    task.name = block.labels[0].value
    return task


def _vault(decoder: Decoder, blocks: list[tuple[ast.Block, Scope]]) -> m.Vault | None:
    if not blocks:
        return None
    block, scope = decoder.singleton(blocks)[0]
    if not decoder.labels_ok(block, []):
        return None
    vault = decoder.body(block.body, scope, m.Vault, block.span)
    assert isinstance(vault, m.Vault)
    return vault


def decode_group(decoder: Decoder, body: ast.Body, scope: Scope, span: Span) -> Node:
    split = decoder.split(body, scope, m.TaskGroup)
    meta = map_attribute(decoder, split, "meta")
    vault = _vault(decoder, split.take_blocks("vault"))
    scaling_blocks = [b for b in split.blocks if b[0].type == "scaling"]
    group = decoder.fill(split, m.TaskGroup, span)
    assert isinstance(group, m.TaskGroup)
    if meta is not ABSENT:
        group.meta = meta
    if vault is not None:
        for task in group.tasks or []:
            if task.vault is None:
                task.vault = vault
    if group.scaling is not None:
        if group.scaling.type == "":
            group.scaling.type = "horizontal"
        _check_group_scaling(decoder, group.scaling, scaling_blocks)
    return group


def _check_group_scaling(
    decoder: Decoder, policy: m.ScalingPolicy, blocks: list[tuple[ast.Block, Scope]]
) -> None:
    if (policy.max is not None and policy.type == "horizontal") or not blocks:
        return
    block = blocks[0][0]
    attributes = {a.name: a for a in block.body.attributes()}
    if "max" not in attributes:
        where = opening_brace(block.body.span)
        decoder.error(HG103, "the argument `max` is required, but no definition was found", where)
    if policy.type != "horizontal" and "type" in attributes:
        decoder.error(
            HG122,
            f"a group scaling policy must be of type `horizontal`, not {policy.type!r}",
            attributes["type"].value.span,
            check="scaling-policy-type",  # the checks of HG122 are declared in hclgpu.checks.groups
        )


def decode_task(decoder: Decoder, body: ast.Body, scope: Scope, span: Span) -> Node:
    split = decoder.split(body, scope, m.Task)
    env = map_attribute(decoder, split, "env")
    meta = map_attribute(decoder, split, "meta")
    policies = _task_scaling(decoder, split.take_blocks("scaling"))
    task = decoder.fill(split, m.Task, span)
    assert isinstance(task, m.Task)
    if env is not ABSENT:
        task.env = env
    if meta is not ABSENT:
        task.meta = meta
    if policies:
        task.scaling_policies = policies
    _split_identities(task)
    return task


_SCALING_TYPES = {"cpu": "vertical_cpu", "mem": "vertical_mem"}


def _task_scaling(decoder: Decoder, blocks: list[tuple[ast.Block, Scope]]) -> list[m.ScalingPolicy]:
    policies: list[m.ScalingPolicy] = []
    seen: dict[str, ast.Block] = {}
    for block, scope in blocks:
        if not decoder.labels_ok(block, ["name"]):
            continue
        label = block.labels[0].value.lower()
        if label not in _SCALING_TYPES:
            decoder.error(
                HG122,
                'a task scaling policy must be named "cpu" or "mem"',
                block.labels[0].span,
                check="task-scaling-policy-name",
            )
            continue
        if label in seen:
            decoder.error(
                HG104,
                f'only one `scaling "{label}"` block is allowed',
                block.type_span,
                related=[Related(seen[label].type_span, "the first one is here")],
            )
            continue
        seen[label] = block
        policy = decoder.body(block.body, scope, m.ScalingPolicy, block.span)
        assert isinstance(policy, m.ScalingPolicy)
        expected = _SCALING_TYPES[label]
        if policy.type == "":
            policy.type = expected
        elif policy.type != expected:
            decoder.error(
                HG122,
                f"the policy type must be {expected!r} here, not {policy.type!r}",
                block.type_span,
                check="task-scaling-policy-type",
            )
            continue
        policies.append(policy)
    return policies


def _split_identities(task: m.Task) -> None:
    """The unnamed (or "default") identity is the task's own; the rest stay alternates."""
    if not task.identities:
        return
    alternates = []
    for identity in task.identities:
        if task.identity is None and identity.name in ("", "default"):
            task.identity = identity
        else:
            alternates.append(identity)
    task.identities = alternates


CUSTOM_DECODERS = {
    "Constraint": decode_constraint,
    "Affinity": decode_affinity,
    "TaskGroup": decode_group,
    "Task": decode_task,
}
"""The models jobspec2 decodes with its own code, for :class:`~hclgpu.ir.decode.Decoder`."""
