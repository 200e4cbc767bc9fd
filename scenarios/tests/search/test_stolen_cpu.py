"""A trial that missed its SLO only in the seconds the host lost CPU to other guests says so, and the
search runs it once more, letting the repeat decide; a miss with any other cause, or outside the
stolen seconds, stands. The search's report says what coincided with the misses: GC, stolen CPU."""
import json
import sys
from pathlib import Path

import numpy as np

from fournines import REPO_ROOT
from fournines.search import rate_search
from fournines.search.run_search import _what_decided_the_misses
from fournines.search.trial import Trial, run_trial
from fournines_analysis.slo import parse_slo

sys.path.insert(0, str(REPO_ROOT / "analysis" / "tests"))
from synthetic import hlog_text  # noqa: E402

SECONDS, WARMUP_S, RATE = 12, 2, 1_000
SLO = parse_slo("p99.99<=10ms")


def play(stall_at: int, stolen_at: int, lag_growth_ms: float = 0.0, gc_cycle_at: int | None = None):
    """A run whose events take about 0.4 ms but for five held up 30 ms in second `stall_at`, on a
    host that lost 50 ms of CPU in second `stolen_at`."""
    def played(scenario: dict, run_dir: Path) -> int:
        rng = np.random.default_rng(7)
        per_second = [rng.lognormal(np.log(400), 0.3, RATE) for _ in range(SECONDS)]
        per_second[stall_at][:5] += 30_000
        (run_dir / "latency.hlog").write_text(hlog_text(per_second))
        rows = range(1, SECONDS + 1)
        (run_dir / "throughput.csv").write_text("time_s,events,events_per_s\n" + "".join(f"{t},{RATE * t},{RATE}\n" for t in rows))
        (run_dir / "load.csv").write_text("time_s,generated,behind_ms\n" + "".join(
            f"{t},{RATE * t},{lag_growth_ms * t:.3f}\n" for t in rows))
        (run_dir / "host.csv").write_text("time_s,steal_seconds\n" + "".join(
            f"{t},{0.05 if t > stolen_at else 0:.2f}\n" for t in rows))
        if gc_cycle_at is not None:  # a concurrent cycle of 400 ms, on the hlog's timeline (its StartTime is 2026-01-01T00:00Z)
            stamp = f"[2026-01-01T00:00:{gc_cycle_at:02d}"
            (run_dir / "gc.log").write_text(
                f"{stamp}.000+0000][1s][info][gc,start] GC(1) Garbage Collection (Allocation Rate)\n"
                f"{stamp}.200+0000][1s][info][gc,phases] GC(1) Concurrent Mark 200.000ms\n"
                f"{stamp}.400+0000][1s][info][gc] GC(1) Garbage Collection (Allocation Rate) 900M->90M\n")
        (run_dir / "run.json").write_text(json.dumps({
            "scenario": {"name": "stand-in"}, "status": "completed", "warmup_s": WARMUP_S, "duration_s": SECONDS - WARMUP_S,
            "target_rate": RATE, "events_generated": RATE * SECONDS, "events_processed": RATE * SECONDS}))
        return 0
    return played


def trial(tmp_path: Path, **kwargs) -> Trial:
    return run_trial({"load": {"rate": RATE}}, tmp_path / "trial", SLO, play(**kwargs))


def test_a_miss_only_around_stolen_cpu_says_how_the_slo_fares_without_it(tmp_path):
    t = trial(tmp_path, stall_at=6, stolen_at=6)  # the sample (6, 7] s: the interval [6, 7) and the next
    assert not t.sustained and t.problems[0].startswith("SLO not met: p99.99 ")
    assert t.stolen_cpu.startswith("met without the 2 s around which the host lost CPU to other guests: p99.99 ")
    assert t.stolen_cpu in t.verdict()


def test_a_miss_away_from_the_stolen_seconds_stands(tmp_path):
    assert trial(tmp_path, stall_at=4, stolen_at=9).stolen_cpu is None


def test_a_miss_with_another_cause_beside_it_stands(tmp_path):
    t = trial(tmp_path, stall_at=6, stolen_at=6, lag_growth_ms=20)
    assert any("fell behind" in p for p in t.problems) and t.stolen_cpu is None


def test_the_search_runs_such_a_trial_once_more_and_the_repeat_decides():
    measured = []

    def measure(rate: int, confirming: bool) -> Trial:
        measured.append(rate)
        first = measured.count(rate) == 1
        # Every first attempt misses around stolen CPU; a repeat sustains what the capacity allows.
        sustained = rate <= 37_000 and not first
        stolen = "met without the 1 s around which the host lost CPU" if first else None
        return Trial(rate, Path(str(len(measured))), None, (), () if sustained else ("SLO not met",), None, stolen)

    outcome = rate_search.search(measure, 10_000, 1_000, 10_000_000, 0.05, lambda _: None)
    assert 37_000 / 1.05 <= outcome.rate <= 37_000
    assert all(measured.count(r) == 2 for r in set(measured) - {outcome.rate})  # never a third time
    assert len(outcome.trials) + len(outcome.confirmations) == len(measured)  # both attempts kept


def test_the_report_says_what_coincided_with_the_misses_against_chance(tmp_path):
    in_gc = run_trial({"load": {"rate": RATE}}, tmp_path / "gc", SLO, play(stall_at=6, stolen_at=9, gc_cycle_at=6))
    stolen = run_trial({"load": {"rate": RATE}}, tmp_path / "stolen", SLO, play(stall_at=4, stolen_at=4))
    neither = run_trial({"load": {"rate": RATE}}, tmp_path / "neither", SLO, play(stall_at=8, stolen_at=3))
    assert _what_decided_the_misses([in_gc, stolen, neither]) == (
        "Of the 3 runs that missed only the SLO, the slowest interval fell in a GC cycle or a pause of 1 ms or more "
        "in 1 (by chance about 7% of their intervals do) and in a second the host lost at least 20 ms of CPU in 1; "
        "1 had neither. Each run's report lists its slowest intervals and what coincided.")
