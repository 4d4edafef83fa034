"""Literal values in device constraints and affinities, read as Nomad reads them (HG214-HG219).

Nomad parses every literal target with ``ParseAttribute``: a unit is recognised only
when the last character is a letter and the unit matches exactly (case-sensitive); a
number without a unit never compares with an attribute that has one; anything else
silently becomes a string. These rules find the values that therefore never match.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hclgpu.checks import rule
from hclgpu.checks.context import Context, Placed
from hclgpu.eval.expr import did_you_mean

NVIDIA_UNITS = {
    "memory": "MiB",
    "bar1": "MiB",
    "power": "W",
    "cores_clock": "MHz",
    "memory_clock": "MHz",
    "pci_bandwidth": "MB/s",
}
"""The NVIDIA plugin's attributes that carry a unit, and the unit it reports them in."""

STRING_ATTRIBUTES = ("driver_version", "display_state", "persistence_mode")
"""The NVIDIA plugin's attributes that are strings."""

COMPARISONS = ("=", "==", "is", "!=", "not", "<", "<=", ">", ">=")
_ATTR = re.compile(r"\$\{device\.attr\.(?P<name>[^}]+)\}")
_NUMBER_AND_WORD = re.compile(r"\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*(?P<unit>[A-Za-z][A-Za-z/]*)")
_CANONICAL_BOOLS = ("true", "false")


def _literals(ctx: Context) -> Iterator[tuple[Placed, str, str, str | None]]:
    """(placed, the side holding a literal, its text, the nvidia attribute on the other side)."""
    for placed in ctx.all_placed():
        if placed.scope != "device":
            continue
        node = placed.node
        for side, literal, other in (
            ("value", node.r_target, node.l_target),
            ("attribute", node.l_target, node.r_target),
        ):
            if literal and not literal.startswith("${"):
                match = _ATTR.fullmatch(other)
                yield placed, side, literal, match["name"] if match else None


@rule("HG214")
def unitless_value(ctx: Context) -> None:
    from hclgpu.units import parse_attribute

    for placed, side, literal, attribute in _literals(ctx):
        unit = NVIDIA_UNITS.get(attribute or "")
        if unit is None or placed.node.operand not in COMPARISONS:
            continue
        parsed = parse_attribute(literal)
        if parsed.kind in ("int", "float") and parsed.unit is None:
            ctx.report(
                "HG214",
                f"`{literal}` has no unit, but `{attribute}` is reported in {unit}: they never compare",
                ctx.value_span(placed.node, side),
                help=f'write the unit: "{literal.strip()} {unit}"',
            )


@rule("HG215")
def unknown_unit(ctx: Context) -> None:
    from hclgpu.units import UNITS, parse_attribute

    for placed, side, literal, attribute in _literals(ctx):
        if attribute is None or attribute in STRING_ATTRIBUTES:
            continue  # model names such as `1080ti` are strings on purpose
        match = _NUMBER_AND_WORD.fullmatch(literal)
        if match is None or parse_attribute(literal).kind != "string":
            continue
        word = match["unit"]
        close = [u for u in UNITS if u.lower() == word.lower()] or [
            u for u in UNITS if u.lower().startswith(word.lower())
        ]
        ctx.report(
            "HG215",
            f"`{word}` is not one of Nomad's units, so `{literal}` is compared as a string",
            ctx.value_span(placed.node, side),
            help=f"did you mean `{close[0]}`?" if close else did_you_mean(word, list(UNITS)),
        )


@rule("HG216")
def unit_family_mismatch(ctx: Context) -> None:
    from hclgpu.units import UNITS, parse_attribute

    for placed, side, literal, attribute in _literals(ctx):
        unit = NVIDIA_UNITS.get(attribute or "")
        parsed = parse_attribute(literal)
        if unit is None or parsed.unit is None or placed.node.operand not in COMPARISONS:
            continue
        expected = UNITS[unit]
        if parsed.unit.base != expected.base:
            ctx.report(
                "HG216",
                f"`{literal}` is in {parsed.unit.base}s, but `{attribute}` is in {expected.base}s: "
                "they never compare",
                ctx.value_span(placed.node, side),
                help=f"write the value in {unit} (or another {expected.base} unit)",
            )


@rule("HG217")
def trailing_space_in_value(ctx: Context) -> None:
    from hclgpu.units import parse_attribute

    for placed, side, literal, _ in _literals(ctx):
        if literal != literal.rstrip() and parse_attribute(literal.rstrip()).unit is not None:
            ctx.report(
                "HG217",
                f'`"{literal}"` ends with a space, so Nomad reads it as a string, not a number with a unit',
                ctx.value_span(placed.node, side),
                help=f'write "{literal.rstrip()}"',
            )


@rule("HG218")
def bool_like_value(ctx: Context) -> None:
    from hclgpu.units import parse_attribute

    for placed, side, literal, _ in _literals(ctx):
        if literal not in _CANONICAL_BOOLS and parse_attribute(literal).kind == "bool":
            ctx.report(
                "HG218",
                f'Nomad reads `"{literal}"` as a bool, not as a string',
                ctx.value_span(placed.node, side),
                help="to match a string that looks like a bool, use `regexp`",
            )


@rule("HG219")
def unit_overflow(ctx: Context) -> None:
    from hclgpu.units import in_base_units, parse_attribute

    for placed, side, literal, _ in _literals(ctx):
        parsed = parse_attribute(literal)
        if (
            not isinstance(parsed.value, int)
            or parsed.kind != "int"
            or parsed.unit is None
            or parsed.unit.inverse
        ):
            continue
        exact = parsed.value * parsed.unit.multiplier
        if not -(2**63) <= exact < 2**63:
            ctx.report(
                "HG219",
                f"`{literal}` is {exact} in {parsed.unit.base}s, beyond Nomad's 64-bit integers: "
                f"it compares as {in_base_units(parsed)}",
                ctx.value_span(placed.node, side),
                help=f'a float is compared exactly: "{float(parsed.value)} {parsed.unit.name}"',
            )
