"""The collector set for runs of games (core/collector.py): frozen and slower while games run, restored after."""

from __future__ import annotations

import gc

import pytest

from tablepress.core.collector import RUN_THRESHOLD, games_running
from tablepress.sim import runner
from tablepress.sim.runner import SimSpec, play_chunk


def test_a_run_freezes_what_exists_and_collects_the_young_less_often_then_restores_both() -> None:
    before = gc.get_threshold()
    gc.unfreeze()
    with games_running():
        assert gc.get_threshold()[0] >= RUN_THRESHOLD
        assert gc.get_threshold()[1:] == before[1:]
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_run_inside_a_run_leaves_the_settings_to_the_outer_one_and_an_error_restores_them() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), games_running():
        with games_running():
            pass
        assert gc.get_threshold()[0] >= RUN_THRESHOLD and gc.get_freeze_count() > 0
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_the_simulator_plays_its_games_with_the_collector_set(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    real = runner.play_one

    def spying(spec, run_seed, index):
        seen.append(gc.get_threshold()[0])
        return real(spec, run_seed, index)

    monkeypatch.setattr(runner, "play_one", spying)
    play_chunk(SimSpec("by-this", 2, ("random", "random")), 0, [0, 1])
    assert seen and all(threshold >= RUN_THRESHOLD for threshold in seen)


def test_runs_overlapping_in_two_threads_restore_the_collector_once_both_end() -> None:
    import threading

    before = gc.get_threshold()
    both_in, first_out = threading.Barrier(2), threading.Event()
    during = []

    def run(leave_first: bool) -> None:
        with games_running():
            both_in.wait()
            if leave_first:
                return
            first_out.wait()
            during.append((gc.get_threshold()[0], gc.get_freeze_count()))

    late = threading.Thread(target=run, args=(False,))
    late.start()
    run_first = threading.Thread(target=run, args=(True,))
    run_first.start()
    run_first.join()
    first_out.set()
    late.join()
    assert during[0][0] >= RUN_THRESHOLD and during[0][1] > 0, "still set while one run goes on"
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_a_program_that_froze_objects_itself_keeps_them_frozen_after_a_run() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        with games_running():
            pass
        assert gc.get_freeze_count() > 0, "the run unfroze what the program had frozen"
    finally:
        gc.unfreeze()
