"""Nomad's node-level constraint checker, for job/group/task `constraint` and `affinity` blocks.

This mirrors `resolveTarget` and `checkConstraint` in Nomad's `scheduler/feasible/feasible.go`,
which differ from the device checker (:mod:`hclgpu.units`): values are the node's raw
strings, there are no units (`"16 GiB"` is just text), equality is plain string equality,
and the order operators try int64, then float64, then byte-wise lexical order. A target
that does not resolve yields `("", False)`, exactly as Go's `(string, bool)` return does, so
`!=` compares `""` with the other side (one side missing → true, both missing → false).

`distinct_hosts` and `distinct_property` are "always true" here, as in Nomad: the planner
enforces `distinct_hosts` itself and does not model `distinct_property`.
"""

from __future__ import annotations

from typing import TypeVar

from hclgpu.plan.model import Node
from hclgpu.units.strconv import go_parse_float, go_parse_int, go_trim_space

__all__ = ["check_constraint", "check_order", "constraint_holds", "resolve_target"]

_T = TypeVar("_T", int, float, str)

_NODE_TARGETS = {
    "${node.unique.id}": lambda node: node.name,
    "${node.unique.name}": lambda node: node.name,
    "${node.datacenter}": lambda node: node.datacenter,
    "${node.class}": lambda node: node.node_class,
    "${node.pool}": lambda node: node.node_pool,
}


def resolve_target(target: str, node: Node) -> tuple[str, bool]:
    """`resolveTarget`: a literal (no `${` prefix) is itself; `${node.*}`, `${attr.X}` and
    `${meta.X}` read the node; anything else (`${device.*}`, spaced `${ attr.x }`) is not found.

    The inventory has no separate node ID, so `${node.unique.id}` is the node's name.
    """
    if not target.startswith("${"):
        return target, True
    getter = _NODE_TARGETS.get(target)
    if getter is not None:
        return getter(node), True
    for prefix, table in (("${attr.", node.attributes), ("${meta.", node.meta)):
        if target.startswith(prefix):
            key = target[len(prefix) :].removesuffix("}")
            return (table[key], True) if key in table else ("", False)
    return "", False


def constraint_holds(l_target: str, operand: str, r_target: str, node: Node) -> bool:
    """Resolve both targets against ``node`` and apply :func:`check_constraint`."""
    left, l_found = resolve_target(l_target, node)
    right, r_found = resolve_target(r_target, node)
    return check_constraint(operand, left, right, l_found, r_found)


def check_constraint(operand: str, left: str, right: str, l_found: bool, r_found: bool) -> bool:
    """`checkConstraint`: does ``left operand right`` hold on raw node strings?"""
    if operand in ("distinct_hosts", "distinct_property"):
        return True
    if operand in ("!=", "not"):
        return left != right
    if operand == "is_set":
        return l_found
    if operand == "is_not_set":
        return not l_found
    if not (l_found and r_found):
        return False
    if operand in ("=", "==", "is"):
        return left == right
    if operand in ("<", "<=", ">", ">="):
        return check_order(operand, left, right)
    return _check_string_operand(operand, left, right)


def _check_string_operand(operand: str, left: str, right: str) -> bool:
    """`version`, `semver`, `regexp` and the `set_contains*` family; unknown operands are false."""
    from hclgpu.re2 import re2_search
    from hclgpu.units.versions import semver_matches, version_matches

    if operand == "version":
        return bool(version_matches(right, left))
    if operand == "semver":
        return bool(semver_matches(right, left))
    if operand == "regexp":
        return re2_search(right, left)
    if operand not in ("set_contains", "set_contains_all", "set_contains_any"):
        return False
    have = {go_trim_space(item) for item in left.split(",")}
    wanted = [go_trim_space(item) for item in right.split(",")]
    if operand == "set_contains_any":
        return any(item in have for item in wanted)
    return all(item in have for item in wanted)


def check_order(operand: str, left: str, right: str) -> bool:
    """`checkOrder`: as int64 when both parse, else as float64, else lexically (Python's
    code-point order of `str` equals Go's byte order of UTF-8)."""
    l_int, r_int = go_parse_int(left), go_parse_int(right)
    if l_int is not None and r_int is not None:
        return _ordered(operand, l_int, r_int)
    l_float, r_float = go_parse_float(left), go_parse_float(right)
    if l_float is not None and r_float is not None:
        return _ordered(operand, l_float, r_float)
    return _ordered(operand, left, right)


def _ordered(operand: str, left: _T, right: _T) -> bool:
    """`compareOrder`: Go's `<`, `<=`, `>`, `>=` (NaN makes all of them false, as in Go)."""
    if operand == "<":
        return left < right
    if operand == "<=":
        return left <= right
    if operand == ">":
        return left > right
    return left >= right
