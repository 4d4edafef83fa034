"""Block-style YAML, as kubectl and `docker compose config` write it, for the templates.

A value is written the way a reviewer expects a committed manifest to look: mappings as
``key: value`` lines in the data's own key order, sequences as ``- item`` lines at their
key's indentation (kubectl's style), multi-line text as literal blocks, and every string
plain unless a YAML reader could take it for something else, in which case it is quoted
as JSON (which YAML reads the same). "Something else" is judged for YAML 1.1 (PyYAML,
Go's yaml.v2 under sigs.k8s.io/yaml) and 1.2 (yaml.v3, used by Compose) alike: booleans
such as ``on``, ``no`` and ``y``, nulls, numbers in any base or with ``_``, sexagesimal
``12:30``, timestamps, and anything starting with an indicator character.

The templates still parse every document back and compare it with its data
(:func:`hclgpu.backends.templating.render_yaml`), so a mistake here cannot reach a file.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["block", "scalar"]

_PLAIN = re.compile(r"[A-Za-z0-9_./$~=+-][A-Za-z0-9_./:$~%@=+,() -]*")
"""Characters a plain scalar may have here (ASCII only: anything else is quoted, readably)."""

_NOT_TEXT = re.compile(
    r"""
    [-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?   # ints and floats, 1_000, .5, 1e3
    | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?          # sexagesimal (YAML 1.1)
    | 0[xXoObB][0-9a-fA-F_]+                                    # other bases
    | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)
    | [0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?                # timestamps
    | y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF
    | ~|null|Null|NULL|<<|=
    """,
    re.VERBOSE,
)
"""What YAML 1.1 or 1.2 resolves to something other than a string when written plain."""

_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
"""Characters that a literal block cannot hold (YAML reads some as line breaks)."""


def scalar(value: Any) -> str:
    """One value on one line: plain where unambiguous, else JSON (a YAML double-quoted
    string, with the characters YAML folds or refuses escaped)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    text = str(value)
    if _is_plain(text):
        return text
    return _UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", json.dumps(text, ensure_ascii=False))


def _is_plain(text: str) -> bool:
    return (
        _PLAIN.fullmatch(text) is not None
        and not text.endswith((" ", ":"))
        and ": " not in text
        and " #" not in text
        and text != "-"
        and not text.startswith("- ")
        and _NOT_TEXT.fullmatch(text) is None
    )


def block(value: Any, indent: int = 0) -> str:
    """The text that follows ``key:`` for ``value`` at ``indent`` spaces: `` scalar`` on the
    same line, or a newline and the nested lines (mappings two spaces deeper, sequences at
    ``indent``)."""
    if isinstance(value, dict) and value:
        return "\n" + "\n".join(_mapping(value, indent + 2))
    if isinstance(value, list) and value:
        return "\n" + "\n".join(_sequence(value, indent))
    if isinstance(value, dict):
        return " {}"
    if isinstance(value, list):
        return " []"
    if isinstance(value, str) and _literal(value):
        return _literal_block(value, indent + 2)
    return " " + scalar(value)


def _mapping(mapping: dict[Any, Any], indent: int) -> list[str]:
    pad = " " * indent
    return [f"{pad}{scalar(key)}:{block(item, indent)}" for key, item in mapping.items()]


def _sequence(items: list[Any], indent: int) -> list[str]:
    """``- item`` lines; a mapping item starts on the dash's line, its other keys under it."""
    pad = " " * indent
    lines = []
    for item in items:
        if isinstance(item, dict) and item:
            inner = _mapping(item, indent + 2)
            lines.append(f"{pad}- {inner[0].lstrip()}")
            lines.extend(inner[1:])
        elif isinstance(item, list) and item:
            inner = _sequence(item, indent + 2)
            lines.append(f"{pad}- {inner[0].lstrip()}")
            lines.extend(inner[1:])
        else:
            lines.append(f"{pad}-{block(item, indent)}")
    return lines


def _literal(text: str) -> bool:
    """Whether ``text`` is multi-line text a literal block keeps exactly: printable, no
    leading space (that would need an indentation indicator), no line of only spaces."""
    if "\n" not in text.rstrip("\n") or _UNSAFE.search(text) or "\r" in text or "\t" in text:
        return False
    lines = text.rstrip("\n").split("\n")
    return (
        not text[0].isspace()
        and all(line == "" or line.strip() for line in lines)
        and not any(line != line.rstrip(" ") for line in lines)
    )


def _literal_block(text: str, indent: int) -> str:
    """``|`` (one final newline), ``|-`` (none) or ``|+`` (several), then the lines."""
    body = text.rstrip("\n")
    trailing = len(text) - len(body)
    chomp = "-" if trailing == 0 else "" if trailing == 1 else "+"
    pad = " " * indent
    lines = [f"{pad}{line}" if line else "" for line in body.split("\n")]
    extra = [""] * (trailing - 1) if trailing > 1 else []
    return f" |{chomp}\n" + "\n".join(lines + extra)
