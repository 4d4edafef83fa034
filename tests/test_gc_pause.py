"""The collector around large trees: paused while they are built, and for a one-job command,
never walking them again (a walk of a 1 MB job's objects costs more than printing it)."""

from __future__ import annotations

import gc

import pytest

from hclgpu.cli import main
from hclgpu.gc_pause import kept_for_good, paused_gc
from tests.conftest import ROOT


def test_a_pause_restores_the_collector_as_it_found_it() -> None:
    assert gc.isenabled()
    with paused_gc():
        assert not gc.isenabled()
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_what_a_one_job_command_keeps_is_frozen(capsys: pytest.CaptureFixture[str]) -> None:
    gc.unfreeze()
    before = gc.get_freeze_count()
    assert main(["render", str(ROOT / "samples" / "tensorrt.nomad.hcl"), "--target", "nomad"]) == 0
    assert '"Job"' in capsys.readouterr().out
    assert gc.get_freeze_count() > before + 1000
    assert gc.isenabled()


def test_a_failing_block_freezes_nothing() -> None:
    gc.unfreeze()
    with pytest.raises(ValueError), kept_for_good():
        raise ValueError("no job")
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()
