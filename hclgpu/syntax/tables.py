"""The LALR tables for ``grammar/hcl.lark``, built by Lark and cached on disk.

Lark analyses the grammar (about 60 ms); the resulting tables are stored as plain
tuples with :mod:`marshal` in the user's cache directory, keyed by a hash of
the grammar (the table format is hclgpu's own; the Lark version does not matter),
so later processes load them in about a millisecond. Nothing is ever written into
the installed package (site-packages is often read-only); when no cache directory
is writable, the tables are simply rebuilt.

The cache file is a record of :mod:`hclgpu.io.records`, trusted only when whole and when
what it holds unpacks as tables. A damaged file (a disk error, a copy cut short, another
program's bytes) is rebuilt and replaced, never used: a wrong state number would parse
files wrongly with no error at all.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

from hclgpu.assets import grammar_path
from hclgpu.io.records import cache_dir, read_record, unpack, write_record

_FORMAT = 2

Actions = dict[str, tuple[int, int]]
"""token or rule name -> (0, next state) for shift/goto, (1, rule index) for reduce."""


@dataclass(frozen=True, slots=True)
class Tables:
    rules: list[tuple[str, int]]
    """Per rule: (callback name, number of children)."""
    origins: list[str]
    start_state: int
    end_state: int
    moves: list[dict[str, int]]
    """Per state, token or rule name -> one int, for the parser's inner loop: a shift or goto
    is the next state (>= 0), a reduce is ``~rule`` (< 0)."""


def _build(grammar: str) -> tuple[object, ...]:
    from lark import Lark
    from lark.parsers.lalr_analysis import Shift

    parser = Lark(grammar, parser="lalr", lexer="basic")
    table = parser.parser.parser.parser.parse_table
    rule_index: dict[object, int] = {}
    rules: list[tuple[str, int]] = []
    origins: list[str] = []
    states: list[Actions] = [{} for _ in table.states]
    for state, actions in table.states.items():
        row = states[state]
        for symbol, (action, arg) in actions.items():
            if action is Shift:
                row[str(symbol)] = (0, int(arg))
                continue
            if arg not in rule_index:
                rule_index[arg] = len(rules)
                rules.append((str(arg.alias or arg.origin.name), len(arg.expansion)))
                origins.append(str(arg.origin.name))
            row[str(symbol)] = (1, rule_index[arg])
    return (_FORMAT, states, rules, origins, int(table.start_states["start"]), int(table.end_states["start"]))


def _key(grammar: str) -> str:
    from hclgpu.digests import sha256_hex

    digest = sha256_hex(f"{_FORMAT}\0{grammar}".encode())
    return digest[:24]


def _unpack(data: bytes) -> Tables | None:
    """The tables a cache file holds, or None when it is not whole."""
    whole, stored = unpack(data)
    return _checked(stored) if whole else None


def _checked(data: object) -> Tables | None:
    try:
        return _tables(data)
    except (ValueError, TypeError, AttributeError, IndexError, KeyError):
        return None


def _tables(data: object) -> Tables:
    """The parser's tables from their stored form; TypeError or ValueError when it is not one."""
    if not isinstance(data, tuple) or len(data) != 6 or data[0] != _FORMAT:
        raise ValueError("not hclgpu's tables")
    _, states, rules, origins, start, end = data
    moves = [{symbol: arg if kind == 0 else ~arg for symbol, (kind, arg) in row.items()} for row in states]
    return Tables(list(rules), list(origins), int(start), int(end), moves)


@cache
def load_tables() -> Tables:
    grammar = grammar_path().read_text(encoding="utf-8")
    path = os.path.join(cache_dir(), f"tables-{_key(grammar)}.marshal")
    whole, stored = read_record(path)
    tables = _checked(stored) if whole else None
    if tables is None:
        data = _build(grammar)
        write_record(path, data)
        tables = _tables(data)
    return tables
