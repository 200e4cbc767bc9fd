"""The summary of the Java-written fixture, checked two independent ways: against what Java's own
HdrHistogram computed from the same log, and against the raw values the fixture recorded."""
import math
from fractions import Fraction

import numpy as np
import pytest

from fournines_analysis.results import load_run
from fournines_analysis.summary import PERCENTILES, summarize


def fixture_latencies_us(seconds):
    """The formula GenerateFixtures.latencyUs records, re-derived here (not read from any log)."""
    values = []
    for i in seconds:
        j = np.arange(1000)
        base = 200 + (j * 7919) % 1000
        if i < 5:
            values.append(base + 3000 * (5 - i))
        elif i == 12:
            values.append((1000 - j) * 1000 + base)
        else:
            values.append(base)
    return np.concatenate(values)


def nearest_rank(percentile, count):
    """ceil(p/100 * count) in exact decimal arithmetic (in floats 99.9/100 * 20000 is 19980.000000000004)."""
    return math.ceil(Fraction(str(percentile)) / 100 * count)


@pytest.fixture
def summary(stall_run):
    return {s.series: s for s in summarize(load_run(stall_run)).latency}


def test_summary_matches_java_hdrhistogram_exactly(summary, java_expected):
    for series, java in java_expected.items():
        s = summary[series]
        assert s.count == java["count"]
        assert s.max == java["max"]
        assert s.mean == pytest.approx(java["mean"], rel=1e-12)
        assert [s.percentiles[p] for p in PERCENTILES] == [java["percentiles"][str(p)] for p in PERCENTILES]


def test_per_interval_p99_and_max_match_java(stall_run, java_expected):
    run = load_run(stall_run)
    for series, java in java_expected.items():
        log = run.latency[series]
        assert np.column_stack([log.per_interval(99), log.per_interval(100)]).tolist() == java["interval_p99_max"]


def test_percentiles_match_the_recorded_values(summary):
    """Nearest-rank percentiles of the raw values; HdrHistogram reports the top of the value's bucket,
    which at 3 significant digits is at most 0.1% above it."""
    raw = np.sort(fixture_latencies_us(range(5, 25)))
    s = summary["latency"]
    assert s.count == len(raw) == 20_000
    for p in PERCENTILES:
        exact = raw[nearest_rank(p, len(raw)) - 1]
        assert exact <= s.percentiles[p] <= exact * 1.001, p
    assert raw[-1] <= s.max <= raw[-1] * 1.001
    assert s.mean == pytest.approx(raw.mean(), rel=1e-3)


def test_the_stall_owns_the_tail(summary):
    """1000 of 20000 events (5%) waited out a 1 s stall: p90 is normal, p99 is most of a second."""
    s = summary["latency"]
    assert s.percentiles[90] < 1_200
    assert s.percentiles[99] > 800_000


def test_warmup_is_left_out(stall_run):
    run_json = stall_run / "run.json"
    run_json.write_text(run_json.read_text().replace('"warmup_s": 5', '"warmup_s": 0'))
    s = {s.series: s for s in summarize(load_run(stall_run)).latency}["latency"]
    raw = np.sort(fixture_latencies_us(range(25)))
    assert s.count == 25_000
    assert s.percentiles[90] >= raw[nearest_rank(90, len(raw)) - 1] > 3_000  # the warm-up's slow events


def test_throughput_and_events_per_core(stall_run):
    """The fixture processes 1000 events/s on half a core, with a stall it catches up from."""
    s = summarize(load_run(stall_run))
    assert s.throughput == 1000.0
    assert s.cores == 0.5
    assert s.per_core == 2000.0
