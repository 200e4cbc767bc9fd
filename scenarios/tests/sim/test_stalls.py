"""Stalls: a machine's cores all stopped at a drawn rate for drawn lengths (pauses.py), the rate in
proportion to the cores the machine keeps busy, and calibrate's estimate of both from the windows'
latencies and the cores busy (stall_estimate.py), checked against each other on long simulated runs."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from fournines.cli import cli
from fournines.targets.sim.pauses import Pauses
from fournines_analysis.results import load_run
from fournines_analysis.summary import summarize
from test_calibrate import calibrated, given_calibration


def test_stalls_drawn_over_a_long_run_have_the_calibrated_rate_mean_and_exponential_spread():
    per_s, mean_s, horizon_s = 5.0, 2e-3, 20_000.0
    stalls = Pauses.drawn(np.random.default_rng(3), per_s, mean_s, horizon_s)
    lengths = np.array(stalls.ends) - np.array(stalls.starts)
    assert len(lengths) / horizon_s == pytest.approx(per_s * (1 - per_s * mean_s), rel=0.02)  # 1 % merged into others
    assert lengths.mean() == pytest.approx(mean_s, rel=0.03)
    assert lengths.std() == pytest.approx(lengths.mean(), rel=0.05)  # exponential: as wide as its mean


def test_no_stalls_draw_nothing_so_the_seed_gives_the_gc_pauses_it_gave_without_them():
    rng = np.random.default_rng(1)
    before = rng.bit_generator.state
    assert Pauses.drawn(rng, 0.0, 4e-3, 100.0).starts == []
    assert rng.bit_generator.state == before


def test_merged_stops_hold_the_machine_whenever_either_does():
    gc = Pauses(np.array([1.0, 5.0]), np.array([1.5, 5.2]))
    stalls = Pauses(np.array([1.4, 3.0]), np.array([2.0, 3.1]))
    merged = Pauses.merged(gc, stalls)
    assert (merged.starts, merged.ends) == ([1.0, 3.0, 5.0], [2.0, 3.1, 5.2])
    assert merged.finish(0.5, 1.0) == pytest.approx(2.5)  # stopped from 1 to 2, overlapping pause and stall as one
    assert Pauses.merged(Pauses.none(), Pauses.none()).starts == []


@pytest.mark.parametrize("members", [1, 2])
def test_calibrate_gives_back_the_stalls_a_long_simulated_run_was_made_with(tmp_path, members):
    """Round trip through a results folder: 300 simulated seconds (some 30 000 windows) with 40 stalls per
    busy core-second of 4 ms (some 5 a second on one machine of ~0.13 cores busy, half as many on each of
    two); windows wait on every machine, so two machines show twice the stalls."""
    given = given_calibration(tmp_path, {"stalls_per_busy_core_s": 40.0, "stall_mean_ms": 4.0, "gc_pauses_per_s": 0.0})
    root = tmp_path / "results"
    result = CliRunner().invoke(cli, ["simulate", "q5", f"CLUSTER={members}", "THREADS=2", "RATE=100000", "KEYS=1000",
                                      "WARMUP=2s", "DURATION=300s", f"CALIBRATION={given}", "--results-root", str(root)])
    assert result.exit_code == 0, result.output
    derived = calibrated(tmp_path, list(root.iterdir()))
    assert derived["stalls_per_busy_core_s"].value == pytest.approx(40.0, rel=0.15)
    assert derived["stall_mean_ms"].value == pytest.approx(4.0, rel=0.15)


def test_stalls_widen_the_tail_and_are_off_by_default(tmp_path):
    def p99_us_and_stalls(values: dict) -> tuple[float, int]:
        root = tmp_path / f"results-{len(values)}"
        given = given_calibration(tmp_path, {**values, "gc_pauses_per_s": 0.0})
        result = CliRunner().invoke(cli, ["simulate", "q5", "THREADS=2", "RATE=100000", "KEYS=1000", "WARMUP=1s",
                                          "DURATION=20s", f"CALIBRATION={given}", "--results-root", str(root)])
        assert result.exit_code == 0, result.output
        (folder,) = root.iterdir()
        member = json.loads((folder / "member.json").read_text())
        return summarize(load_run(folder)).latency[0].percentiles[99], sum(member["stalls_simulated"])

    steady, none = p99_us_and_stalls({})
    stalling, drawn = p99_us_and_stalls({"stalls_per_busy_core_s": 40.0, "stall_mean_ms": 4.0})
    assert none == 0 and drawn > 50
    assert stalling > steady + 1000
