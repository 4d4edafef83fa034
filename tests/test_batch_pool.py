"""A stopped or finished worker pool is wound down before the interpreter's exit hook runs.

``concurrent.futures.process._python_exit`` writes to each pool's wake-up pipe without a
lock; a manager thread still running may close that pipe at the same moment, and the exit
then prints "Exception ignored ... Bad file descriptor". So no manager thread may outlive
the run that started it.
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from hclgpu.cli import batch
from hclgpu.cli.cache import Inputs

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="the pool forks its workers here"
)


def _pool() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=2, mp_context=multiprocessing.get_context("fork"), initializer=batch._worker_setup
    )


def test_stopping_a_busy_pool_ends_its_manager_thread() -> None:
    for _ in range(5):
        pool = _pool()
        busy = [pool.submit(time.sleep, 30) for _ in range(4)]
        deadline = time.monotonic() + 30  # a guard against a hang
        while not busy[0].running() and time.monotonic() < deadline:
            time.sleep(0.01)
        manager = pool._executor_manager_thread  # type: ignore[attr-defined]
        assert manager is not None and manager.is_alive()
        batch._stop_workers(pool)
        assert not manager.is_alive()
        assert all(wakeup._closed for wakeup in _wakeups(manager))


def test_a_finished_run_ends_its_manager_thread(tmp_path: Path) -> None:
    from hclgpu.source import SourceFile

    text = 'job "j" {\n  group "g" {\n    task "t" {\n      driver = "exec"\n    }\n  }\n}\n'
    work = [(SourceFile(f"j{i}.nomad.hcl", text), Inputs()) for i in range(8)]
    before = set(_managers())
    outcomes = list(batch._in_workers(work, list(range(8)), 2, batch._Progress(8, 0, False)))
    assert len(outcomes) == 8
    assert [thread for thread in _managers() if thread not in before and thread.is_alive()] == []


def _managers() -> list[object]:
    from concurrent.futures import process

    return list(process._threads_wakeups.keys())


def _wakeups(manager: object) -> list[object]:
    from concurrent.futures import process

    return [wakeup for thread, wakeup in process._threads_wakeups.items() if thread is manager]
