"""The CEL selectors the Kubernetes back end writes for DRA claims, read back as Nomad
device constraints.

Only the forms :mod:`hclgpu.backends.kubernetes.devices_dra` emits over the NVIDIA DRA
driver's attributes are recognised (model, memory capacity, driver version, presence);
any other expression is reported by the caller, never guessed at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hclgpu.units.quantities import MIB, quantity

_ATTRS = r"device\.attributes\['gpu\.nvidia\.com'\]"
_CAPACITY = r"device\.capacity\['gpu\.nvidia\.com'\]"
_STRING = r"'(?:[^'\\]|\\.)*'"
_MODEL_MATCH = re.compile(rf"{_ATTRS}\.productName\.matches\(({_STRING})\)\Z")
_MODEL_COMPARE = re.compile(rf"{_ATTRS}\.productName (==|!=|<=|>=|<|>) ({_STRING})\Z")
_MEMORY = re.compile(rf"{_CAPACITY}\.memory\.compareTo\(quantity\('([^']+)'\)\) (>=|<) 0\Z")
_DRIVER = re.compile(
    rf"{_ATTRS}\.driverVersion\.compareTo\(semver\('(\d+)\.(\d+)\.(\d+)'\)\) (==|!=|<=|>=|<|>) 0\Z"
)
_PRESENCE = {
    f"'memory' in {_CAPACITY}": "${device.attr.memory}",
    f"'driverVersion' in {_ATTRS}": "${device.attr.driver_version}",
}
_UNESCAPE = {"\\": "\\", "'": "'", "n": "\n", "r": "\r", "t": "\t", '"': '"'}


@dataclass(frozen=True, slots=True)
class DeviceTest:
    """A device constraint: ``attribute operator value`` in Nomad's terms."""

    attribute: str
    operator: str
    value: str = ""


def parse_selector(expression: str) -> DeviceTest | None:
    """The Nomad test a CEL selector states, or None when it is not one hclgpu writes."""
    text = expression.strip()
    for parser in (_model, _presence, _driver, _memory):
        found = parser(text)
        if found is not None:
            return found
    return None


def negated(expression: str) -> str | None:
    """The inside of ``!(...)``, or None when the expression is not negated as a whole."""
    text = expression.strip()
    if not (text.startswith("!(") and text.endswith(")")):
        return None
    depth = 0
    for index, char in enumerate(text[1:], start=1):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and index != len(text) - 1:
            return None
    return text[2:-1]


def _model(text: str) -> DeviceTest | None:
    match = _MODEL_MATCH.match(text)
    if match:
        return DeviceTest("${device.model}", "regexp", unquote(match[1]))
    match = _MODEL_COMPARE.match(text)
    if match:
        return DeviceTest("${device.model}", "=" if match[1] == "==" else match[1], unquote(match[2]))
    return None


def _presence(text: str) -> DeviceTest | None:
    inner = negated(text)
    for form, attribute in _PRESENCE.items():
        if re.fullmatch(form, text):
            return DeviceTest(attribute, "is_set")
        if inner is not None and re.fullmatch(form, inner):
            return DeviceTest(attribute, "is_not_set")
    return None


def _driver(text: str) -> DeviceTest | None:
    terms = []
    for part in text.split(" && "):
        match = _DRIVER.match(part)
        if match is None:
            return None
        op = "=" if match[4] == "==" else match[4]
        terms.append(f"{op} {match[1]}.{match[2]}.{match[3]}")
    return DeviceTest("${device.attr.driver_version}", "version", ", ".join(terms))


def _memory(text: str) -> DeviceTest | None:
    """``>= n``, ``< n``, and the two-sided forms the back end writes for ``=`` and ``!=``."""
    for joiner, first, second, op in ((" && ", ">=", "<", "="), (" || ", "<", ">=", "!=")):
        left, sep, right = text.partition(joiner)
        if sep:
            low, high = _bound(left), _bound(right)
            if low and high and low[0] == first and high[0] == second and high[1] == low[1] + 1:
                return DeviceTest("${device.attr.memory}", op, mib_text(low[1]))
            return None
    bound = _bound(text)
    return DeviceTest("${device.attr.memory}", bound[0], mib_text(bound[1])) if bound else None


def _bound(text: str) -> tuple[str, int] | None:
    match = _MEMORY.match(text.strip())
    if match is None:
        return None
    value = quantity(match[1])
    if value is None or value % MIB:
        return None
    return match[2], int(value // MIB)


def mib_text(mib: int) -> str:
    """A MiB count as Nomad unit text, in GiB when that is exact: ``4 GiB``, ``3815 MiB``."""
    return f"{mib // 1024} GiB" if mib and mib % 1024 == 0 else f"{mib} MiB"


def unquote(literal: str) -> str:
    """A single-quoted CEL string literal's text (backslash escapes and ``\\uXXXX`` undone)."""
    body, out, index = literal[1:-1], [], 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            code = body[index + 1]
            if code == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", body[index + 2 : index + 6]):
                out.append(chr(int(body[index + 2 : index + 6], 16)))
                index += 6
                continue
            out.append(_UNESCAPE.get(code, code))
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)
