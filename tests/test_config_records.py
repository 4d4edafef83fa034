"""A configuration file's parsed document is kept as a record, named by its text: a re-check
reads it back without the TOML parser, a changed file is parsed again, and a damaged or
missing record only costs the parse."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from hclgpu.io import records
from hclgpu.settings.files import ConfigError
from hclgpu.settings.resolve import Resolver

CONFIG = 'nomad-version = "1.10.5"\nignore = ["HG264"]\n'


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = tmp_path / "project"
    project.mkdir()
    (project / "hclgpu.toml").write_text(CONFIG, encoding="utf-8")
    return project


def _records(folder: Path) -> list[Path]:
    return sorted((folder.parent / "cache" / "hclgpu" / "config").glob("*.marshal"))


def _settings(folder: Path) -> tuple[object, tuple[str, ...]]:
    settings = Resolver().for_folder(str(folder))
    return settings.nomad_version, tuple(settings.ignore)


def _no_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str) -> None:
        raise AssertionError("the TOML parser ran")

    monkeypatch.setattr(tomllib, "loads", refuse)


def test_a_second_read_takes_the_document_from_its_record(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _settings(folder)
    assert first == ((1, 10, 5), ("HG264",)) and len(_records(folder)) == 1
    _no_parser(monkeypatch)
    assert _settings(folder) == first


def test_a_changed_file_is_parsed_again(folder: Path) -> None:
    _settings(folder)
    (folder / "hclgpu.toml").write_text(CONFIG.replace("1.10.5", "2.0.1"), encoding="utf-8")
    assert _settings(folder)[0] == (2, 0, 1)
    assert len(_records(folder)) == 2


@pytest.mark.parametrize("damage", [b"", b"\x00" * 40, b"not a record at all"])
def test_a_damaged_record_is_parsed_again_and_replaced(folder: Path, damage: bytes) -> None:
    expected = _settings(folder)
    (record,) = _records(folder)
    whole = record.read_bytes()
    record.write_bytes(damage)
    assert _settings(folder) == expected
    assert record.read_bytes() == whole


def test_a_record_of_another_shape_is_not_taken(folder: Path) -> None:
    expected = _settings(folder)
    (record,) = _records(folder)
    record.write_bytes(records.pack(["not", "a", "document"]))
    assert _settings(folder) == expected


def test_a_document_marshal_cannot_hold_is_parsed_each_time(folder: Path) -> None:
    (folder / "hclgpu.toml").write_text(CONFIG + "[x]\nwhen = 2024-01-01\n", encoding="utf-8")
    with pytest.raises(ConfigError):  # `x` is no option; the document itself was read
        _settings(folder)
    assert _records(folder) == []


def test_a_file_that_is_not_toml_is_an_error_every_time(folder: Path) -> None:
    (folder / "hclgpu.toml").write_text('nomad-version = "1.10.5\n', encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ConfigError, match="cannot read the configuration"):
            _settings(folder)
    assert _records(folder) == []


def test_a_cache_that_cannot_be_written_only_costs_the_parse(folder: Path) -> None:
    cache = folder.parent / "cache"
    cache.mkdir()
    (cache / "hclgpu").write_text("a file where the cache folder should be", encoding="utf-8")
    assert _settings(folder)[0] == (1, 10, 5)
    assert _settings(folder)[0] == (1, 10, 5)
