"""The wake-up span: a machine whose workers are parked takes a source batch when the last of them
wakes, each at a uniform phase of `wakeup_span_us`; a busy worker takes its items as they come. At
low load every window waits, on average, the span times C / (C + 1): the mean of the largest of C
uniform draws."""
from dataclasses import replace

import pytest

from fournines.targets.sim.calibration import DEFAULTS
from fournines.targets.sim.event_loop import HeapLoop
from fournines.targets.sim.pauses import Pauses
from fournines.targets.sim.simulation import simulate
from fournines.targets.sim.station import Station
from pausing import QUIET


def scenario(rate=20_000):
    return {"query": {"name": "q5", "window_ms": 100, "slide_ms": 10}, "cluster": {"members": 1, "threads": 2},
            "load": {"rate": rate, "keys": 100}, "warmup_s": 0, "duration_s": 20, "execution": "continuous"}


def mean_latency_us(cores, span_us):
    costs = {**QUIET, "wakeup_span_us": replace(DEFAULTS["wakeup_span_us"], value=span_us)}
    intervals = simulate(scenario(), costs, cores, seed=3).recorder.intervals["latency"].values()
    count = sum(h.get_total_count() for h in intervals)
    assert count >= 1_900  # 2 000 windows: the mean's standard error is about 1 µs
    return sum(h.get_mean_value() * h.get_total_count() for h in intervals) / count


@pytest.mark.parametrize("cores", [1, 2, 4])
def test_at_low_load_a_window_waits_for_the_last_of_the_parked_workers(cores):
    added = mean_latency_us(cores, 200) - mean_latency_us(cores, 0)
    assert added == pytest.approx(200 * cores / (cores + 1), abs=8)


def test_only_parked_workers_wake():
    loop = HeapLoop()
    station = Station(loop, 2, Pauses.none())
    assert station.idle_workers() == 2
    station.submit(1.0, lambda: None)
    assert station.idle_workers() == 1
    station.submit(1.0, lambda: None, pieces=2)  # one piece starts, one waits: no worker is parked
    assert station.idle_workers() == 0


def test_a_span_longer_than_a_source_batch_is_refused_naming_the_parameter():
    costs = {**QUIET, "wakeup_span_us": replace(DEFAULTS["wakeup_span_us"], value=1500)}
    with pytest.raises(ValueError, match=r"wakeup_span_us 1500 is longer than the model's source batch \(1000 us\)"):
        simulate(scenario(), costs, 2, seed=3)
