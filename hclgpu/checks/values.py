"""Literal values in device constraints and affinities, read as Nomad reads them (HG214-HG219).

Nomad parses every literal target with ``ParseAttribute``: a unit is recognised only
when the last character is a letter and the unit matches exactly (case-sensitive); a
number without a unit never compares with an attribute that has one; anything else
silently becomes a string. These rules find the values that therefore never match.
"""

from __future__ import annotations

import re

from hclgpu.checks import rule
from hclgpu.checks.context import Context, Placed
from hclgpu.codes.base import Code, W
from hclgpu.eval.expr import did_you_mean, suggested

HG214 = Code(
    "HG214",
    "unitless-value",
    W,
    summary="A number without a unit compared with an attribute that has one",
    doc="""What: `memory`, `bar1` (MiB), `power` (W), `cores_clock`, `memory_clock` (MHz) and
`pci_bandwidth` (MB/s) carry units; a plain number has none.

Why: Nomad compares a unit value only with a value of the same unit family: `16384`
against `16130 MiB` is "not comparable", so `>=` is false, and so is `!=`.

Example:
    constraint { attribute = "${device.attr.memory}"  operator = ">="  value = "16384" }

Fix: write the unit: `"16384 MiB"` or `"16 GiB"`.""",
)


HG215 = Code(
    "HG215",
    "unknown-unit",
    W,
    summary="A value that ends in something that is not one of Nomad's units",
    doc="""What: units are case-sensitive and only `KiB`..`EiB`, `kB`/`KB`..`EB`, their `/s`
rates, `MHz`, `GHz`, `mW`, `W`, `kW`, `MW` and `GW` exist (no `B`, `Hz`, `gb`).

Why: with an unknown unit the whole value silently becomes a string, which never
compares with a number.

Example:
    value = "16 gb"

Fix: use the unit the help suggests (`"16 GB"` or `"16 GiB"`).""",
)


HG216 = Code(
    "HG216",
    "unit-family-mismatch",
    W,
    summary="A value whose unit belongs to another family than the attribute's",
    doc="""What: bytes, byte rates, hertz and watts are different families.

Why: values of different families are not comparable, so the comparison is false.

Example:
    constraint { attribute = "${device.attr.memory}"  operator = ">="  value = "2 GHz" }

Fix: use a unit of the attribute's family.""",
)


HG217 = Code(
    "HG217",
    "trailing-space-in-value",
    W,
    summary="A value with a unit and a trailing space",
    doc="""What: Nomad looks for a unit only when the last character is a letter.

Why: `"5 GiB "` ends in a space, so it is the string `5 GiB `, which never compares
with a number.

Example:
    value = "5 GiB "

Fix: remove the trailing space.""",
)


HG218 = Code(
    "HG218",
    "bool-like-value",
    W,
    summary="A value Nomad reads as a bool",
    doc="""What: `t`, `T`, `f`, `F`, `TRUE`, `true`, `False`... are parsed as bools, not
strings (but `1` and `0` are numbers).

Why: compared with a string attribute, a bool is not comparable: the constraint is
false.

Example:
    constraint { attribute = "${device.attr.display_state}"  value = "T" }

Fix: if a string is meant, it cannot be written this way; match it with `regexp`.""",
)


HG219 = Code(
    "HG219",
    "unit-overflow",
    W,
    summary="A value too large for Nomad's 64-bit arithmetic",
    doc="""What: Nomad multiplies integer values by their unit in int64: from 8 EiB
(2^63 bytes) on, the result wraps around.

Why: `16 EiB` then compares as less than `1 KiB`.

Example:
    value = "16 EiB"

Fix: use a smaller value, or write it as a float (`"16.0 EiB"`), which Nomad
compares exactly.""",
)


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


def _literals(ctx: Context) -> list[tuple[Placed, str, str, str | None]]:
    """(placed, the side holding a literal, its text, the nvidia attribute on the other side)."""
    return ctx.shared(_each_literal)


def _each_literal(ctx: Context) -> list[tuple[Placed, str, str, str | None]]:
    found: list[tuple[Placed, str, str, str | None]] = []
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
                found.append((placed, side, literal, match["name"] if match else None))
    return found


@rule(HG214)
def unitless_value(ctx: Context) -> None:
    from hclgpu.units import parse_attribute

    for placed, side, literal, attribute in _literals(ctx):
        unit = NVIDIA_UNITS.get(attribute or "")
        if unit is None or placed.node.operand not in COMPARISONS:
            continue
        parsed = parse_attribute(literal)
        if parsed.kind in ("int", "float") and parsed.unit is None:
            ctx.report(
                HG214,
                f"`{literal}` has no unit, but `{attribute}` is reported in {unit}: they never compare",
                ctx.value_span(placed.node, side),
                help=f'write the unit: "{literal.strip()} {unit}"',
                fix=ctx.written(placed.node, side, _quoted(f"{literal.strip()} {unit}")),
            )


def _quoted(text: str) -> str:
    """``text`` as an HCL string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("${", "$${") + '"'


@rule(HG215)
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
        help = f"did you mean `{close[0]}`?" if close else did_you_mean(word, list(UNITS))
        unit = suggested(help)
        fixed = literal[: match.start("unit")] + unit + literal[match.end("unit") :] if unit else None
        ctx.report(
            HG215,
            f"`{word}` is not one of Nomad's units, so `{literal}` is compared as a string",
            ctx.value_span(placed.node, side),
            help=help,
            fix=ctx.written(placed.node, side, _quoted(fixed)) if fixed else (),
        )


@rule(HG216)
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
                HG216,
                f"`{literal}` is in {parsed.unit.base}s, but `{attribute}` is in {expected.base}s: "
                "they never compare",
                ctx.value_span(placed.node, side),
                help=f"write the value in {unit} (or another {expected.base} unit)",
            )


@rule(HG217)
def trailing_space_in_value(ctx: Context) -> None:
    from hclgpu.units import parse_attribute

    for placed, side, literal, _ in _literals(ctx):
        if literal != literal.rstrip() and parse_attribute(literal.rstrip()).unit is not None:
            ctx.report(
                HG217,
                f'`"{literal}"` ends with a space, so Nomad reads it as a string, not a number with a unit',
                ctx.value_span(placed.node, side),
                help=f'write "{literal.rstrip()}"',
                fix=ctx.written(placed.node, side, _quoted(literal.rstrip())),
            )


@rule(HG218)
def bool_like_value(ctx: Context) -> None:
    from hclgpu.units import parse_attribute

    for placed, side, literal, _ in _literals(ctx):
        if literal not in _CANONICAL_BOOLS and parse_attribute(literal).kind == "bool":
            ctx.report(
                HG218,
                f'Nomad reads `"{literal}"` as a bool, not as a string',
                ctx.value_span(placed.node, side),
                help="to match a string that looks like a bool, use `regexp`",
            )


@rule(HG219)
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
                HG219,
                f"`{literal}` is {exact} in {parsed.unit.base}s, beyond Nomad's 64-bit integers: "
                f"it compares as {in_base_units(parsed)}",
                ctx.value_span(placed.node, side),
                help=f'a float is compared exactly: "{float(parsed.value)} {parsed.unit.name}"',
            )
