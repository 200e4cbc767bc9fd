"""Concurrent GC cycles and the background (gc_cycles.py, station.py): cycles drawn at the calibrated
rate and length without overlapping, the workers slowed while one runs and by the background all the
time, and the CPU both spend counted as the member's process CPU counts it."""
import numpy as np
import pytest

from fournines.targets.sim.event_loop import HeapLoop
from fournines.targets.sim.gc_cycles import GcCycles
from fournines.targets.sim.pauses import Pauses
from fournines.targets.sim.station import Station


def test_cycles_drawn_over_a_long_run_come_at_the_calibrated_rate_one_after_another():
    per_s, length_s, horizon_s = 0.1, 0.4, 50_000.0
    cycles = GcCycles.drawn(np.random.default_rng(5), per_s, length_s, 0.5, horizon_s)
    starts = np.array(cycles.starts)
    assert len(starts) / horizon_s == pytest.approx(per_s, rel=0.03)
    assert np.diff(starts).min() >= length_s
    assert cycles.running_s(horizon_s) == pytest.approx(len(starts) * length_s, abs=length_s)


def test_no_cycles_draw_nothing_so_the_seed_gives_what_it_gave_without_them():
    rng = np.random.default_rng(1)
    before = rng.bit_generator.state
    assert GcCycles.drawn(rng, 0.0, 0.4, 0.5, 100.0).starts == []
    assert rng.bit_generator.state == before


def test_a_piece_runs_at_the_speed_of_the_moment_it_starts():
    loop = HeapLoop()
    station = Station(loop, 2, Pauses.none(), GcCycles([1.0], 0.5, 0.5), background_cores=0.5)
    finished = []
    for start in (0.0, 1.2):
        loop.at(start, lambda: station.submit(0.03, lambda: finished.append(loop.now)))
    loop.run(10.0)
    outside, inside = 0.03 / 0.75, 0.03 / 0.75 / 0.5  # the background takes a quarter of the two cores
    assert finished == [pytest.approx(outside), pytest.approx(1.2 + inside)]


def test_the_cpu_counted_holds_the_work_the_background_and_the_cycles_threads():
    loop = HeapLoop()
    station = Station(loop, 2, Pauses.none(), GcCycles([1.0, 3.0], 0.5, 0.25), background_cores=0.2)
    loop.at(0.0, lambda: station.submit(0.1, lambda: None, 2))
    loop.run(4.0)
    cycles = 2 * 0.5 * (1 - 0.25) * 2
    assert station.cpu_s(4.0) == pytest.approx(0.2 + 0.2 * 4.0 + cycles)
    assert station.cpu_s(1.25) == pytest.approx(0.2 + 0.2 * 1.25 + 0.25 * 0.75 * 2)


def test_a_background_of_all_the_cores_is_refused():
    with pytest.raises(ValueError, match="background_cores"):
        Station(HeapLoop(), 2, Pauses.none(), background_cores=2.0)
