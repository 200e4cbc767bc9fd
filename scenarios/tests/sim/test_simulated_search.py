"""The rate search on simulated trials (simulated_search.py): it finds the rate the model's CPU allows,
and judges a trial as a real one is judged."""
import pytest

from fournines.targets.sim.calibration import DEFAULTS
from fournines.targets.sim.paper_figures import windowed
from fournines.targets.sim.simulated_search import highest_rate, judged
from fournines.targets.sim.simulation import simulate
from fournines_analysis.slo import parse_slo

CORES, WARMUP_S, DURATION_S = 2, 2.0, 6.0
CAPACITY = CORES / (DEFAULTS["source_ns_per_event"].value * 1e-9)  # events/s two cores take, less partials and windows


def simulate_at(rate: int, seconds: float):
    return simulate(windowed(1, CORES, rate, 100, 1000, 100, WARMUP_S, seconds), DEFAULTS, CORES, 1)


def test_the_search_finds_the_rate_the_cores_can_take_under_a_loose_bound():
    bound, = parse_slo("p99<=1s")
    outcome = highest_rate(simulate_at, WARMUP_S, DURATION_S, bound, 500_000, 100_000, 10_000_000, 0.05, lambda _: None)
    assert 0.85 * CAPACITY < outcome.rate <= CAPACITY
    assert outcome.confirmations and outcome.confirmations[-1].sustained


def test_a_trial_is_not_sustained_when_its_backlog_grows_or_its_windows_miss_the_bound():
    loose, = parse_slo("p99<=1s")
    tight, = parse_slo("p99<=10us")
    assert judged(simulate_at(1_000_000, DURATION_S), 1_000_000, WARMUP_S, loose).sustained
    overloaded = judged(simulate_at(int(2 * CAPACITY), DURATION_S), int(2 * CAPACITY), WARMUP_S, loose)
    assert any("backlog grew" in p for p in overloaded.problems)
    missed = judged(simulate_at(1_000_000, DURATION_S), 1_000_000, WARMUP_S, tight)
    assert missed.problems and missed.problems[0].startswith("SLO not met")
