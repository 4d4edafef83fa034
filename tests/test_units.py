"""Nomad's device-attribute units: the table, ParseAttribute, Compare, and the operators.

Expected values come from shared/reference/nomad-semantics.md §5-§6 (the "Verified" lines
ran Nomad's own attribute.go/units.go) or from reading Nomad's Go source; cases marked
"Go strconv" were also checked against Go's strconv and math/big.
"""

from __future__ import annotations

import sys
from fractions import Fraction

import pytest

from hclgpu.units import (
    UNITS,
    Attribute,
    Unit,
    check_operator,
    compare,
    describe,
    in_base_units,
    parse_attribute,
    string_attribute,
)
from hclgpu.units.strconv import go_parse_float, go_parse_int, go_trim_space

KIB, MIB, GIB, TIB, PIB, EIB = (1 << s for s in (10, 20, 30, 40, 50, 60))

# --- the unit table (§5 table, units.go) ---------------------------------------------------

EXPECTED_UNITS = {
    "KiB": ("byte", KIB), "MiB": ("byte", MIB), "GiB": ("byte", GIB), "TiB": ("byte", TIB),
    "PiB": ("byte", PIB), "EiB": ("byte", EIB),
    "kB": ("byte", 10**3), "KB": ("byte", 10**3), "MB": ("byte", 10**6), "GB": ("byte", 10**9),
    "TB": ("byte", 10**12), "PB": ("byte", 10**15), "EB": ("byte", 10**18),
    "KiB/s": ("byte/s", KIB), "MiB/s": ("byte/s", MIB), "GiB/s": ("byte/s", GIB),
    "TiB/s": ("byte/s", TIB), "PiB/s": ("byte/s", PIB), "EiB/s": ("byte/s", EIB),
    "kB/s": ("byte/s", 10**3), "KB/s": ("byte/s", 10**3), "MB/s": ("byte/s", 10**6),
    "GB/s": ("byte/s", 10**9), "TB/s": ("byte/s", 10**12), "PB/s": ("byte/s", 10**15),
    "EB/s": ("byte/s", 10**18),
    "MHz": ("hertz", 10**6), "GHz": ("hertz", 10**9),
    "mW": ("watt", 10**3), "W": ("watt", 1), "kW": ("watt", 10**3), "MW": ("watt", 10**6),
    "GW": ("watt", 10**9),
}  # fmt: skip


def test_the_table_is_exactly_nomads() -> None:
    assert set(UNITS) == set(EXPECTED_UNITS)
    for name, (base, multiplier) in EXPECTED_UNITS.items():
        assert UNITS[name] == Unit(name, base, multiplier, name == "mW"), name


@pytest.mark.parametrize("name", ["B", "B/s", "Hz", "kHz", "bit", "b/s", "kiB", "gb", "mw", "KBps", "Gbps"])
def test_units_nomad_does_not_have(name: str) -> None:
    assert name not in UNITS
    assert parse_attribute(f"2 {name}").kind == "string"


def test_only_mw_divides() -> None:
    assert [unit.name for unit in UNITS.values() if unit.inverse] == ["mW"]


# --- ParseAttribute (§5 steps 1-3 and the "Verified consequences") -----------------------


def _shape(text: str) -> tuple[str, object, str | None]:
    attribute = parse_attribute(text)
    return attribute.kind, attribute.value, attribute.unit.name if attribute.unit else None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Verified consequences (§5)
        ("2 gb", ("string", "2 gb", None)),
        ("3 Hz", ("string", "3 Hz", None)),
        ("2 B", ("string", "2 B", None)),
        ("12 MiBs", ("string", "12 MiBs", None)),
        ("GiB", ("string", "GiB", None)),
        ("1080ti", ("string", "1080ti", None)),
        ("535.104.05", ("string", "535.104.05", None)),
        ("1.5 GHz", ("float", 1.5, "GHz")),
        ("T", ("bool", True, None)),
        ("t", ("bool", True, None)),
        ("TRUE", ("bool", True, None)),
        ("f", ("bool", False, None)),
        ("1", ("int", 1, None)),
        ("1e3", ("float", 1000.0, None)),
        ("0x1p-2", ("float", 0.25, None)),
        ("1_000", ("float", 1000.0, None)),
        ("+5", ("int", 5, None)),
        ("-3 KiB", ("int", -3, "KiB")),
        # Step 1 and step 2 of the rules (§5)
        ("", ("string", "", None)),
        ("4GiB", ("int", 4, "GiB")),
        ("4 GiB", ("int", 4, "GiB")),
        (" 5 GiB", ("int", 5, "GiB")),
        ("5 GiB ", ("string", "5 GiB ", None)),
    ],
)
def test_parse_attribute_verified(text: str, expected: tuple[str, object, str | None]) -> None:
    assert _shape(text) == expected


def test_inf_and_nan_are_floats() -> None:
    """Verified: "inf", "NaN" -> Float."""
    inf, nan = parse_attribute("inf"), parse_attribute("NaN")
    assert (inf.kind, inf.value) == ("float", float("inf"))
    assert nan.kind == "float" and nan.value != nan.value


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5 MW", ("int", 5, "MW")),  # longest suffix: megawatts, not "5 M" watts
        ("5 mW", ("int", 5, "mW")),
        ("5 W", ("int", 5, "W")),
        ("5 kB/s", ("int", 5, "kB/s")),
        ("5 B/s", ("string", "5 B/s", None)),
        ("5 GiB/s", ("int", 5, "GiB/s")),
        ("5GiB/s", ("int", 5, "GiB/s")),
        ("\t5\tGiB", ("int", 5, "GiB")),  # Go's TrimSpace takes tabs
        ("5\u00a0GiB", ("int", 5, "GiB")),  # ... and Unicode spaces
        ("5\x1cGiB", ("string", "5\x1cGiB", None)),  # but not U+001C, which Python's strip takes
        ("MW", ("string", "MW", None)),  # a unit alone is no number
        ("1.5e3 MHz", ("float", 1500.0, "MHz")),
        ("4,5 GiB", ("string", "4,5 GiB", None)),  # unit dropped with the number
        ("9223372036854775807 KiB", ("int", 9223372036854775807, "KiB")),
        ("9223372036854775808", ("float", 9223372036854775808.0, None)),  # too big for int64
        ("true GiB", ("string", "true GiB", None)),  # the bool test sees the whole text
        ("0", ("int", 0, None)),  # Int before Bool
        ("False", ("bool", False, None)),
        ("yes", ("string", "yes", None)),
        ("Tesla K80", ("string", "Tesla K80", None)),
    ],
)
def test_parse_attribute_suffix_rules(text: str, expected: tuple[str, object, str | None]) -> None:
    assert _shape(text) == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [  # Go strconv.ParseFloat acceptance, checked against Go
        ("1e400", None),  # out of range is an error, not +Inf
        ("0x1p1024", None),
        ("1e-400", 0.0),  # underflow is not an error
        ("+nan", None),
        ("-nan", None),
        ("infinit", None),
        ("+Infinity", float("inf")),
        ("-inf", float("-inf")),
        ("1__000", None),
        ("_1", None),
        ("1_", None),
        ("1_.5", None),
        ("0_1", 1.0),
        ("1e1_0", 1e10),
        ("1e", None),
        ("e3", None),
        (".", None),
        (".5", 0.5),
        ("5.", 5.0),
        ("0x1", None),  # a hexadecimal float needs its p exponent
        ("0x.8p1", 1.0),
        ("0x1.8p1", 3.0),
        ("0x1_p0", None),
        ("１", None),  # full-width digits are not digits to Go
        ("1.5.5", None),
        ("1 ", None),
    ],
)
def test_go_parse_float(text: str, value: float | None) -> None:
    assert go_parse_float(text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("007", 7),
        ("-9223372036854775808", -(1 << 63)),
        ("-9223372036854775809", None),
        ("1_000", None),  # base 10 takes no underscores
        (" 1", None),
        ("٣", None),
        ("+", None),
        ("", None),
    ],
)
def test_go_parse_int(text: str, value: int | None) -> None:
    assert go_parse_int(text) == value


def test_go_trim_space_is_gos_set() -> None:
    assert go_trim_space("\u2003\t x \x85\n") == "x"
    assert go_trim_space("\x1cx\x1f") == "\x1cx\x1f"


# --- Compare (§5 "Verified" and the comparability rules) ---------------------------------


def _compare(a: str, b: str) -> int | None:
    return compare(parse_attribute(a), parse_attribute(b))


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # Verified (§5)
        ("16130 MiB", "4 GiB", 1),
        ("4 GiB", "4096 MiB", 0),
        ("4 GB", "4 GiB", -1),
        ("1.5 GHz", "1500 MHz", 0),
        ("1500 mW", "1 W", 0),
        ("1500.0 mW", "1 W", 1),
        ("16 EiB", "1 KiB", -1),
        ("T", "true", 0),
        ("1", "true", None),
        # comparability (§5)
        ("16130 MiB", "2", None),
        ("1 GiB", "1 GiB/s", None),
        ("1 GHz", "1 GB", None),
        ("1 W", "1 MHz", None),
        ("4096", "16130 MiB", None),
    ],
)
def test_compare_verified(a: str, b: str, expected: int | None) -> None:
    assert _compare(a, b) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("8 EiB", "0 B", None),  # "0 B" is a string
        ("8 EiB", "0 KiB", -1),  # 8·2^60 wraps to -2^63
        ("7 EiB", "1 KiB", 1),
        ("8 EiB", "8.0 EiB", 0),  # a float on one side: exact arithmetic, no wrap
        ("16 EiB", "1.0 KiB", 1),
        ("9223372036854775807 KiB", "-1024", None),  # unit vs no unit
        ("9223372036854775807 KiB", "-1 KiB", 0),  # (2^63-1)·1024 wraps to -1024
    ],
)
def test_int64_overflow(a: str, b: str, expected: int | None) -> None:
    assert _compare(a, b) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("1999 mW", "1 W", 0),  # 1999 / 1000 = 1
        ("2000 mW", "2 W", 0),
        ("999 mW", "0 W", 0),
        ("-1500 mW", "-1 W", 0),  # Go truncates toward zero
        ("1999 mW", "1.0 W", 1),  # a float side: exact
        ("1000.0 mW", "1 W", 0),
        ("1 W", "1000 mW", 0),
        ("1 kW", "1000000 mW", 0),
    ],
)
def test_milliwatt_truncation(a: str, b: str, expected: int) -> None:
    assert _compare(a, b) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("1.5 GHz", "1500 MHz", 0),
        ("0.1 GiB", "107374182 B", None),
        ("0.5 GiB", "512 MiB", 0),
        ("0.1 kW", "100 W", 1),  # 0.1 is not exactly 1/10 in binary: a hair above
        ("0.3 kW", "300 W", -1),  # ... and a hair below
        ("0.125 kW", "125 W", 0),
        ("1.5", "1.5", 0),
        ("inf", "1e308", 1),
        ("-inf", "-1e308", -1),
        ("inf GiB", "inf MiB", 0),
        ("NaN", "1", None),  # Go's big.Float panics on NaN
        ("-0.0", "0", 0),
    ],
)
def test_float_comparison_is_exact(a: str, b: str, expected: int | None) -> None:
    assert _compare(a, b) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("true", "false", 1),
        ("false", "true", 1),  # bools: 1 whenever different
        ("F", "false", 0),
        ("true", "yes", None),
        ("abc", "abd", -1),
        ("b", "abc", 1),
        ("Tesla K80", "Tesla K80", 0),
        ("Z", "a", -1),  # bytewise: upper case first
        ("é", "z", 1),  # UTF-8 bytes: é (0xC3) after z
        ("1.5", "x", None),
        ("1", "1.0", 0),  # int and float, no units
    ],
)
def test_bool_and_string_comparison(a: str, b: str, expected: int | None) -> None:
    assert _compare(a, b) == expected


def test_in_base_units() -> None:
    assert in_base_units(parse_attribute("4 GiB")) == 4 * GIB
    assert in_base_units(parse_attribute("1500 mW")) == 1
    assert in_base_units(parse_attribute("16 EiB")) == 0
    assert in_base_units(parse_attribute("1.5 GHz")) == 1_500_000_000
    assert in_base_units(parse_attribute("0.5 KiB")) == Fraction(512)
    assert in_base_units(parse_attribute("Tesla")) is None
    assert in_base_units(parse_attribute("true")) is None
    assert in_base_units(parse_attribute("NaN")) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("16130 MiB", "16130 MiB (15.75 GiB)"),
        ("1500 MHz", "1500 MHz (1.5 GHz)"),
        ("300 W", "300 W"),
        ("4096 MiB", "4096 MiB (4 GiB)"),
        ("0.5 GiB", "0.5 GiB (512 MiB)"),
        ("1500 mW", "1500 mW (1.5 W)"),
        ("15760 MB/s", "15760 MB/s (15.76 GB/s)"),
        ("2048 KB", "2048 KB (2.05 MB)"),
        ("1 KB", "1 KB"),
        ("0 GiB", "0 GiB"),
        ("Tesla K80", "Tesla K80"),
        ("T", "true"),
        ("4096", "4096"),
        ("1e21", "1e+21"),
    ],
)
def test_describe(text: str, expected: str) -> None:
    assert describe(parse_attribute(text)) == expected


def test_attribute_is_frozen_and_keeps_its_text() -> None:
    attribute = parse_attribute(" 5 GiB")
    assert attribute == Attribute("int", 5, UNITS["GiB"], " 5 GiB")
    with pytest.raises(AttributeError):
        attribute.kind = "string"  # type: ignore[misc]


# --- checkAttributeConstraint (§6) -----------------------------------------------------------


def _op(op: str, left: str | None, right: str | None) -> bool:
    return check_operator(
        op,
        None if left is None else parse_attribute(left),
        None if right is None else parse_attribute(right),
    )


@pytest.mark.parametrize(
    ("op", "left", "right", "expected"),
    [
        ("distinct_hosts", None, None, True),
        ("distinct_property", "a", "b", True),
        ("=", "16130 MiB", "16130 MiB", True),
        ("==", "4 GiB", "4096 MiB", True),
        ("is", "a", "a", True),
        ("=", "a", None, False),
        ("=", None, None, False),
        ("=", "16130 MiB", "16130", False),  # unit vs none: not comparable
        ("<", "4 GB", "4 GiB", True),
        ("<", "4 GiB", "4 GiB", False),
        ("<=", "4 GiB", "4 GiB", True),
        (">", "16130 MiB", "4 GiB", True),
        (">=", "16130 MiB", "4 GiB", True),
        (">=", "1 GiB", "4 GiB", False),
        (">=", "16130 MiB", "4096", False),
        (">", "true", "false", True),  # bool quirk: different compares as 1
        ("<", "false", "true", False),  # ... so < never holds
        ("<=", "false", "true", False),
        (">=", "false", "true", True),
        ("<", None, "1", False),
        # != / not
        ("!=", None, None, False),
        ("!=", "a", None, True),
        ("not", None, "a", True),
        ("!=", "a", "b", True),
        ("!=", "a", "a", False),
        ("!=", "16130 MiB", "4096", False),  # both found, not comparable
        ("not", "4 GiB", "4096 MiB", False),
        # version / semver
        ("version", "535.104.05", ">= 535.0", True),
        ("version", "535.104.05", ">= 535.0, < 536", True),
        ("version", "470.82.01", ">= 535.0", False),
        ("version", "535", "~> 535.0", True),  # an int left side is printed with %d
        ("version", "535 MiB", "= 535", True),  # ... its unit ignored
        ("version", "1.5", ">= 1.0", False),  # a float left side never matches
        ("version", "535.104.05", "nonsense", False),
        ("version", None, ">= 1", False),
        ("semver", "1.2.3", ">= 1.2.0", True),
        ("semver", "1.2.3-beta", ">= 1.2.0", True),  # no pre-release filtering in semver
        ("version", "1.2.3-beta", ">= 1.2.0", False),  # go-version filters them
        ("semver", "1.2.3", "~> 1.2", False),  # semver has no ~>
        # regexp
        ("regexp", "Tesla K80", "K80", True),  # unanchored
        ("regexp", "Tesla K80", "^K80", False),
        ("regexp", "NVIDIA A100-SXM4-80GB", "A100|H100", True),
        ("regexp", "Tesla K80", "(?=K)", False),  # does not compile: no match
        ("regexp", "535", "5", False),  # left is an int: not a string
        ("regexp", "a", None, False),
        # set_contains / _all / _any
        ("set_contains", "a, b ,c", "b,a", True),
        ("set_contains_all", "a,b,c", " c , a ", True),
        ("set_contains_all", "a,b", "a,d", False),
        ("set_contains_any", "a,b", "d, b", True),
        ("set_contains_any", "a,b", "d,e", False),
        ("set_contains", "GPU-a,GPU-b", "GPU-a", True),
        ("set_contains", "0,1", "0", False),  # "0" is an int, not a string
        ("set_contains_any", "a", "", False),
        ("set_contains_all", ",", "", True),  # "" is an item of both
        ("set_contains", None, "a", False),
        # is_set / is_not_set
        ("is_set", "x", None, True),
        ("is_set", None, "x", False),
        ("is_not_set", None, "x", True),
        ("is_not_set", "x", None, False),
        # anything else
        ("~=", "a", "a", False),
        ("", "a", "a", False),
    ],
)
def test_check_operator(op: str, left: str | None, right: str | None, expected: bool) -> None:
    assert _op(op, left, right) is expected


def test_string_attribute_is_never_parsed() -> None:
    """``${device.model}`` and friends are NewStringAttribute: "1" stays a string."""
    model = string_attribute("1")
    assert model.kind == "string"
    assert check_operator("=", model, parse_attribute("1")) is False
    assert check_operator("=", model, string_attribute("1")) is True
    assert check_operator("set_contains", string_attribute("GPU-0,GPU-1"), string_attribute("GPU-1")) is True


def test_importing_units_is_cheap() -> None:
    """Editors import this per keystroke: no fractions, decimal or unicodedata up front."""
    import subprocess

    code = (
        "import sys, hclgpu.units, hclgpu.units.versions, hclgpu.re2; "
        "print(sorted(m for m in ('fractions', 'decimal', 'unicodedata') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
