"""A run sustained its rate when its source's lag and its backlog stay flat after the warm-up, and
nothing was dropped, late or left unprocessed: a lag that grows slowly (still far inside any latency
bound at the end of the run) is rejected; noise around a flat line is not."""
import numpy as np
import pytest

from fournines_analysis.results import load_run
from fournines_analysis.sustainability import judge
from synthetic import edit_run_json, write_run

SECONDS, RATE = 25, 1000


def with_load(folder, behind_ms, generated=None):
    generated = generated if generated is not None else [RATE * (t + 1) for t in range(SECONDS)]
    (folder / "load.csv").write_text("time_s,generated,behind_ms\n" + "".join(
        f"{t + 1},{g},{b:.3f}\n" for t, (g, b) in enumerate(zip(generated, behind_ms))))
    edit_run_json(folder, target_rate=RATE, events_generated=generated[-1], events_processed=RATE * SECONDS)
    return load_run(folder)


def test_a_flat_noisy_lag_is_sustained(tmp_path):
    noise = np.random.default_rng(1).uniform(0, 30, SECONDS)  # up to 30 ms of jitter a sample
    verdict = judge(with_load(write_run(tmp_path / "run", seed=1), noise))
    assert verdict.sustained, verdict.problems
    assert abs(verdict.lag_growth_ms_per_s) < 2


def test_a_lag_growing_slowly_is_not_sustained(tmp_path):
    # 8 ms more each second: 0.8 % behind the schedule, only 200 ms late by the end of the run
    verdict = judge(with_load(write_run(tmp_path / "run", seed=1), [8.0 * t for t in range(SECONDS)]))
    assert not verdict.sustained
    assert verdict.problems == ("the source fell behind its schedule by 8.0 ms more each second",)


def test_a_growing_backlog_is_not_sustained(tmp_path):
    # the source keeps its schedule, but the query takes in 2 % less than it makes
    made = [round(RATE * 1.02 * (t + 1)) for t in range(SECONDS)]
    verdict = judge(with_load(write_run(tmp_path / "run", seed=1), [0.0] * SECONDS, made))
    assert any(p.startswith("the backlog grew by 20.") for p in verdict.problems), verdict.problems


@pytest.mark.parametrize("field, value, problem", [
    ("dropped_events", 3, "3 events dropped"),
    ("late_events", 12, "12 events too late for their window"),
    ("status", "failed", "the run did not complete (failed"),
])
def test_lost_events_and_failed_runs_are_not_sustained(tmp_path, field, value, problem):
    run_dir = write_run(tmp_path / "run", seed=1)
    with_load(run_dir, [0.0] * SECONDS)
    edit_run_json(run_dir, **{field: value})
    assert any(p.startswith(problem) for p in judge(load_run(run_dir)).problems)


def test_events_left_unprocessed_beyond_a_second_in_flight_are_not_sustained(tmp_path):
    run_dir = write_run(tmp_path / "run", seed=1)
    with_load(run_dir, [0.0] * SECONDS)
    edit_run_json(run_dir, events_generated=RATE * SECONDS + 500)
    assert judge(load_run(run_dir)).sustained
    edit_run_json(run_dir, events_generated=RATE * SECONDS + 1500)
    assert judge(load_run(run_dir)).problems == ("1,500 events made but never processed (more than one second's worth)",)


def test_without_load_csv_it_cannot_be_judged(tmp_path):
    verdict = judge(load_run(write_run(tmp_path / "run", seed=1)))
    assert not verdict.sustained and "no load.csv" in verdict.problems[0]
