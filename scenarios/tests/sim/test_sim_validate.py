"""./fournines sim-validate without real runs: the comparison's arithmetic and flags on a synthetic
measured/predicted pair (two simulated results folders, read as real ones are), the reasons a
flagged row gets from the runs, the table written as JSON and markdown; and a bad request refused
before anything starts (exit 2, no folder)."""
import json
from dataclasses import replace
from pathlib import Path

import pytest

from fournines.spec.overrides import parse_overrides
from fournines.targets.prepare import resolve
from fournines.targets.sim import run as sim_run
from fournines.targets.sim.calibration import DEFAULTS, write_calibration
from fournines.targets.sim.comparison import NO_REASON, RATE, Comparison, latency_comparisons, rate_comparison
from fournines.targets.sim.machine_profiles import PROFILES
from fournines.targets.sim.validation_report import printed, write_validation
from fournines_analysis.results import load_run
from fournines_analysis.summary import summarize
from refusal import refused

TINY = ["THREADS=2", "RATE=200000", "KEYS=1000", "WARMUP=1s", "DURATION=5s"]


def simulated_run(tmp_path: Path, name: str, source_ns: float, *overrides: str):
    """A results folder simulated with the given CPU per event: one side of a synthetic pair."""
    calibration = tmp_path / f"{name}.yaml"
    write_calibration(calibration, {**DEFAULTS, "source_ns_per_event": replace(DEFAULTS["source_ns_per_event"],
                                                                                value=source_ns)})
    run_dir = tmp_path / name
    run_dir.mkdir()
    scenario = resolve("q5", parse_overrides([*TINY, *overrides]))
    assert sim_run.run(scenario, calibration, PROFILES["calibration-host"], 1, ["test"], tmp_path, run_dir) == 0
    return load_run(run_dir)


@pytest.mark.parametrize("predicted, measured, error, flagged", [
    (120.0, 100.0, 0.2, False),  # exactly at the tolerance: not over it
    (121.0, 100.0, 0.21, True),
    (70.0, 100.0, -0.3, True),
    (100.0, 0.0, None, True),  # nothing measured: no error, and flagged rather than passed
    (None, 100.0, None, True),
])
def test_the_error_is_relative_to_the_measured_and_flagged_over_the_tolerance(predicted, measured, error, flagged):
    row = Comparison("c", "p99", predicted, measured, 0.2)
    assert row.error == (pytest.approx(error) if error is not None else None)
    assert row.flagged is flagged


def test_a_synthetic_pair_is_compared_percentile_by_percentile_as_the_reports_read_them(tmp_path):
    measured = simulated_run(tmp_path, "measured", 870, "CLUSTER=2")
    predicted = simulated_run(tmp_path, "predicted", 3000, "CLUSTER=2")  # slower sources: later windows
    rows = latency_comparisons("pair", predicted, measured, 0.2)
    assert [r.metric for r in rows] == ["p50", "p99", "p99.99"]
    ours, theirs = summarize(predicted).latency[0], summarize(measured).latency[0]
    for row, p in zip(rows, (50.0, 99.0, 99.99)):
        assert (row.predicted, row.measured) == (ours.percentiles[p], theirs.percentiles[p])
        assert row.error == pytest.approx((ours.percentiles[p] - theirs.percentiles[p]) / theirs.percentiles[p])
        assert row.error > 0.2 and row.flagged
        # the evidence the runs hold: the CPU per event differs, two members share the host, and the
        # tail rests on ~500 windows
        assert any("ns of CPU per event" in r for r in row.reasons)
        assert any("2 members share this machine" in r for r in row.reasons)
    assert any("rests on" in r for r in rows[2].reasons)


def test_a_pair_within_the_tolerance_has_no_flag_and_no_reason(tmp_path):
    measured = simulated_run(tmp_path, "measured", 870)
    predicted = simulated_run(tmp_path, "predicted", 900)
    rows = latency_comparisons("close", predicted, measured, 0.2)
    assert all(not r.flagged and r.reasons == () for r in rows)
    assert all(abs(r.error) < 0.2 for r in rows)


def test_a_search_that_confirmed_no_rate_is_flagged_with_that_reason():
    row = rate_comparison("c", None, 2_000_000, None, None, 0.2)
    assert row.flagged and row.reasons == ("the simulated search confirmed no rate",)
    within = rate_comparison("c", 2_100_000, 2_000_000, None, None, 0.2)
    assert not within.flagged and within.error == pytest.approx(0.05)
    unexplained = rate_comparison("c", 3_000_000, 2_000_000, None, None, 0.2)
    assert unexplained.reasons == (NO_REASON,)


def test_the_table_is_printed_and_written_as_markdown_and_json(tmp_path):
    rows = [Comparison("held", "p99", 1_300.0, 1_000.0, 0.2, ("a reason",)),
            Comparison("held", RATE, 1_900_000, 2_000_000, 0.2)]
    text = printed(rows)
    assert "+30.0%" in text and "OVER" in text and "because a reason" in text and "-5.0%" in text
    md, _, js = write_validation(tmp_path, rows, {"held": "another rate"}, ["finding"], {"tolerance": 0.2})
    record = json.loads(js.read_text())
    assert [(r["metric"], r["error"], r["flagged"], r["unit"]) for r in record["rows"]] == [
        ("p99", pytest.approx(0.3), True, "us"), (RATE, pytest.approx(-0.05), False, "events/s")]
    table = md.read_text()
    assert "| held | another rate | p99 | 1.30 ms | 1.00 ms | +30.0% | yes | a reason |" in table


@pytest.mark.parametrize("request_, says", [
    (["RATE=5"], "sim-validate sets RATE, KEYS, CLUSTER, THREADS itself"),
    (["CLUSTER=3"], "sim-validate sets"),
    (["DURATION=0s"], "duration: must be a duration of at least 1s"),
    (["TARGET=aws"], "sim-validate runs the continuous model on this machine"),
    (["EXECUTION=group"], "sim-validate runs the continuous model on this machine"),
    (["SPEED=9"], "unknown key"),
])
def test_a_bad_request_is_refused_before_anything_starts(tmp_path, request_, says):
    assert says in refused(tmp_path, "sim-validate", *request_)
