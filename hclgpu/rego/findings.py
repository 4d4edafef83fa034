"""Run the team's policies on one compiled job and report what they find, located in the file.

The input document is exactly what ``render --target nomad`` prints, ``{"Job": {...}}``, plus
``"file"``, the job file's path as reported. A rule's value is read as conftest reads it: a
set (or array) of messages, or of objects with ``msg`` and, optionally, ``path``; a single
string or object; ``true`` for a rule that only matches. Each message becomes HG401 (``deny``,
``violation``) or HG402 (``warn``) with the rule's package and name in front.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hclgpu.checks.context import Context
from hclgpu.codes.policies import HG411, HG412, HG414
from hclgpu.diagnostics import Sink
from hclgpu.ir import models as m
from hclgpu.rego import engine
from hclgpu.rego.engine import Reply, engine_for, memory_text
from hclgpu.rego.locate import locate
from hclgpu.rego.policies import PolicySet, severity_of
from hclgpu.source import SourceFile
from hclgpu.syntax import ast


def check_policies(job: m.Job, tree: ast.File, source: SourceFile, sink: Sink, policies: PolicySet) -> None:
    """Evaluate every finding rule of ``policies`` on ``job`` and report into ``sink``."""
    from hclgpu.backends.nomad.api import to_api

    ctx = Context(job, source, tree, sink)
    document = {"Job": to_api(job), "file": source.path}
    rules = policies.rules
    reply = engine_for(policies).evaluate(document)
    for index, (package, rule) in enumerate(rules):
        name = f"{package}.{rule}"
        if index in reply.errors:
            ctx.report(
                HG411, f"policy rule `{name}` failed: {reply.errors[index]}", ctx.header_span(job),
                help="the policy needs fixing; the job may be fine",
            )  # fmt: skip
            continue
        for message, path in _messages(reply.values.get(index)):
            located = locate(ctx, path) if path is not None else None
            span = located.span if located is not None else ctx.header_span(job)
            note = located.note if located is not None else None
            ctx.report(severity_of(rule), f"`{name}`: {message}", span, help=note and f"note: {note}")
    if reply.stopped is not None:
        _stopped(ctx, reply, rules, policies.timeout)


def _stopped(ctx: Context, reply: Reply, rules: tuple[tuple[str, str], ...], timeout: float) -> None:
    running = reply.running if reply.running is not None and reply.running < len(rules) else None
    rule = f"`{'.'.join(rules[running])}`" if running is not None else "the policies"
    if reply.stopped == "timeout":
        ctx.report(
            HG412, f"policy rule {rule} did not finish within {timeout:g} s and was stopped",
            ctx.header_span(ctx.job), help="make the rule cheaper, or raise --policy-timeout",
        )  # fmt: skip
    elif reply.stopped == "memory":
        ctx.report(
            HG414,
            f"policy rule {rule} used more than {memory_text(engine.MEMORY_LIMIT)} of memory and was stopped",
            ctx.header_span(ctx.job),
            help="make the rule build smaller values: count or test elements as they are found",
        )
    elif reply.detail is not None:
        ctx.report(HG411, f"the policy engine failed on this job: {reply.detail}", ctx.header_span(ctx.job))
    else:
        ctx.report(
            HG411, f"the policy engine crashed while evaluating {rule}",
            ctx.header_span(ctx.job),
            help="rego-cpp ends its process on some mistakes, such as a built-in called with the "
            "wrong number of arguments: check the rule's calls",
        )  # fmt: skip


def _messages(value: Any) -> Iterator[tuple[str, Any]]:
    """(message, path or None) for each finding a rule's value holds."""
    if value is None or value is False or value == [] or value == {}:
        return
    if value is True:
        yield "the rule matched", None
    elif isinstance(value, str):
        yield value, None
    elif isinstance(value, list):
        for item in value:
            yield from _one(item)
    elif isinstance(value, dict):
        yield from _one(value)
    else:
        yield _text(value), None


def _one(item: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(item, dict) and "msg" in item:
        yield _text(item["msg"]), item.get("path")
    elif item is not None and item is not False:
        yield _text(item), None


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    import json

    return json.dumps(value, sort_keys=True)
