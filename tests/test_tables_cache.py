"""A damaged parser-table cache file is rebuilt, never used and never fatal."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import hclgpu
from hclgpu.io import records
from hclgpu.syntax import tables as tables_module
from hclgpu.syntax.tables import load_tables

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "mixed-service.nomad.hcl"


def parsed() -> str:
    """The syntax tree of a sample, with the tables loaded now (Lark numbers its states in
    an order of its own, so tables built twice are compared by what they parse)."""
    result = hclgpu.loads(SAMPLE.read_text(encoding="utf-8"), str(SAMPLE))
    assert result.tree is not None and result.ok, result.diagnostics
    return repr(result.tree)


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache directory; the process's own tables are loaded again afterwards."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    load_tables.cache_clear()
    yield tmp_path / "hclgpu"
    load_tables.cache_clear()


def _flip_one_byte(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes([data[middle] ^ 0x10]) + data[middle + 1 :]


def _whole_but_not_tables(data: bytes) -> bytes:
    return records.pack((tables_module._FORMAT, "not", "the", "tables", 0, 0))


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda data: b"",
    "cut short": lambda data: data[: len(data) // 2],
    "one byte flipped": _flip_one_byte,
    "random bytes": lambda data: os.urandom(len(data)),
    "another format": lambda data: marshal.dumps((1,)),
    "whole but not tables": _whole_but_not_tables,
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_cache_file_is_rebuilt(cache_home: Path, damage: str) -> None:
    expected = parsed()
    (cached,) = cache_home.glob("tables-*.marshal")
    cached.write_bytes(DAMAGE[damage](cached.read_bytes()))
    load_tables.cache_clear()
    assert parsed() == expected
    assert tables_module._unpack(cached.read_bytes()) is not None  # replaced by a whole file


def test_a_fifo_in_place_of_the_cache_file_is_replaced(cache_home: Path) -> None:
    expected = parsed()
    (cached,) = cache_home.glob("tables-*.marshal")
    cached.unlink()
    os.mkfifo(cached)  # nobody writes to it: opening it to read would wait for ever
    load_tables.cache_clear()
    assert parsed() == expected
    assert cached.is_file()


def test_check_passes_after_the_cache_file_is_damaged(tmp_path: Path) -> None:
    job = tmp_path / "ok.nomad.hcl"
    job.write_text('job "ok" {\n  group "g" {\n    task "t" {\n      driver = "exec"\n    }\n  }\n}\n')
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    command = [sys.executable, "-m", "hclgpu", "check", "--no-cache", str(job)]
    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stderr
    for cached in (tmp_path / "cache" / "hclgpu").glob("tables-*.marshal"):
        cached.write_bytes(marshal.dumps((tables_module._FORMAT,)))
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and "HG901" not in again.stderr, again.stderr
