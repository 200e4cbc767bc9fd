"""The rate search: on a system of known capacity it finds the capacity within its precision, from
above or below, inside its bounds; a failed confirmation steps down; a source that cannot make the
rate is reported as the limit; and, through the real runner with a member of set capacity, the trials
land as results folders with a report of latency against load."""
import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fournines import REPO_ROOT
from fournines.cli import cli
from fournines.search import rate_search
from fournines.search.run_search import _thin_tail, run_search
from fournines.search.run_sweep import run_sweep
from fournines.search.trial import Trial
from fournines.spec.overrides import parse_overrides
from fournines.targets.local import run as local
from fournines_analysis.results import load_run
from fournines_analysis.slo import parse_slo

CAPACITY_MEMBER = REPO_ROOT / "scenarios" / "tests" / "process_scaffolding" / "capacity_member.py"


def system(capacity: int, confirm_capacity: int | None = None, source_limit: int | None = None):
    """measure() of a system that sustains rates up to `capacity` (confirmation runs: up to
    `confirm_capacity`), fed by a source that makes at most `source_limit`."""
    measured = []

    def measure(rate: int, confirming: bool) -> Trial:
        measured.append((rate, confirming))
        limit = confirm_capacity if confirming and confirm_capacity is not None else capacity
        made = source_limit if source_limit is not None and rate > source_limit else None
        problems = (() if rate <= limit else ("SLO not met",)) + ((f"the load source made only {made}",) if made else ())
        return Trial(rate, Path(f"{len(measured)}"), None, (), problems, made)
    return measure, measured


def test_from_below_it_doubles_then_bisects_to_within_the_precision_and_confirms():
    measure, measured = system(capacity=37_000)
    outcome = rate_search.search(measure, start=10_000, low=1_000, high=10_000_000, precision=0.05, say=lambda _: None)
    assert 37_000 / 1.05 <= outcome.rate <= 37_000
    assert [r for r, _ in measured[:3]] == [10_000, 20_000, 40_000]
    assert measured[-1] == (outcome.rate, True) and sum(c for _, c in measured) == 1
    assert outcome.source_limit is None


def test_from_above_it_halves_down():
    measure, measured = system(capacity=3_000)
    outcome = rate_search.search(measure, start=100_000, low=1_000, high=10_000_000, precision=0.05, say=lambda _: None)
    assert 3_000 / 1.05 <= outcome.rate <= 3_000
    assert [r for r, _ in measured[:4]] == [100_000, 50_000, 25_000, 12_500]


def test_the_bounds_end_the_search_and_say_so():
    outcome = rate_search.search(system(capacity=10**9)[0], 1_000, 1_000, 64_000, 0.05, lambda _: None)
    assert outcome.rate == 64_000 and "upper bound" in outcome.reason
    outcome = rate_search.search(system(capacity=10)[0], 5_000, 1_000, 64_000, 0.05, lambda _: None)
    assert outcome.rate is None and "lower bound, 1,000" in outcome.reason


def test_a_failed_confirmation_searches_on_with_runs_as_long():
    # Short trials sustain up to 40 000 events/s, long runs only up to 38 000 (a rarer stall).
    measure, measured = system(capacity=40_000, confirm_capacity=38_000)
    outcome = rate_search.search(measure, 10_000, 1_000, 10_000_000, 0.05, lambda _: None)
    confirmations = [r for r, c in measured if c]
    assert confirmations[:2] == [40_000, 20_000]  # then from the next lower rate a trial sustained
    assert 38_000 / 1.05 <= outcome.rate <= 38_000
    assert "in runs as long as a confirmation" in outcome.reason


def test_no_rate_confirmed_is_said_so():
    measure, measured = system(capacity=40_000, confirm_capacity=0)
    outcome = rate_search.search(measure, 10_000, 1_000, 10_000_000, 0.05, lambda _: None)
    assert outcome.rate is None and outcome.reason.startswith("no rate confirmed in ")
    assert sum(c for _, c in measured) <= rate_search.MAX_CONFIRMATIONS


def test_a_source_that_cannot_make_the_rate_is_reported_as_the_limit():
    outcome = rate_search.search(system(capacity=10**9, source_limit=50_000)[0], 10_000, 1_000, 10**7, 0.05, lambda _: None)
    assert outcome.rate <= 50_000 and outcome.source_limit == 50_000


def capacity_play(capacity: int):
    def launcher(flags, run_dir):
        return [sys.executable, str(CAPACITY_MEMBER), str(capacity), "--scenario", str(run_dir / "scenario.json"),
                "--out", str(run_dir)]
    return lambda scenario, run_dir: local.run(scenario, launcher, False, run_dir=run_dir)


def test_through_the_runner_the_search_finds_a_members_capacity(tmp_path):
    overrides = parse_overrides(["RATE=10000", "WARMUP=1s", "DURATION=6s"])
    code = run_search("q0", overrides, parse_slo("p99<=5ms"), "p99<=5ms", 1_000, 1_000_000, 0.05,
                      capacity_play(30_000), tmp_path)
    assert code == 0
    [folder] = tmp_path.iterdir()
    found = json.loads((folder / "trials.json").read_text())
    assert 30_000 / 1.05 <= found["rate"] <= 30_000
    trials = found["trials"]
    assert all((folder / t["folder"] / "run.json").is_file() for t in trials)
    assert any(not t["sustained"] and any("SLO not met" in p for p in t["problems"]) for t in trials)
    assert trials[-1]["folder"].startswith("confirm-1-") and trials[-1]["sustained"]
    confirmation = json.loads((folder / trials[-1]["folder"] / "run.json").read_text())
    assert confirmation["duration_s"] == 12
    assert confirmation["scenario"]["cluster"]["java"]["version"]  # resolved as a run's: its JDK found
    report = (folder / "report.md").read_text()
    assert f"Highest sustainable rate: {found['rate']:,} events/s" in report
    assert "Caution" not in report  # p99 over 12 000 values a trial: enough
    assert (folder / "plots" / "latency-against-load.png").is_file()
    # The same trials judged against a p99.99 bound: 12 000 values are too few for it.
    trials = [Trial(t["rate"], folder / t["folder"], load_run(folder / t["folder"]), (), (), None) for t in found["trials"]]
    caution = _thin_tail(parse_slo("p99.99<=5ms"), trials)
    assert caution.startswith("Caution: p99.99 rests on 12,000 values in trial ") and "about 100,000 values a trial" in caution


def test_a_sweep_runs_each_point_into_one_folder_with_a_curve_per_key_count(tmp_path):
    overrides = parse_overrides(["WARMUP=1s", "DURATION=6s"])
    code = run_sweep("q5", overrides, [20_000, 40_000], [100, 1_000], parse_slo("p99<=5ms"), capacity_play(30_000), tmp_path)
    assert code == 0
    [folder] = tmp_path.iterdir()
    assert sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name != "plots") == [
        "keys-100-rate-20000", "keys-100-rate-40000", "keys-1000-rate-20000", "keys-1000-rate-40000"]
    report = (folder / "report.md").read_text()
    assert "| 1,000 keys | keys-1000-rate-40000 |" in report and "not sustained" in report


@pytest.mark.parametrize("args, message", [
    (["search", "q5"], "search needs SLO="),
    (["search", "q5", "SLO=p99.99<10ms"], "cannot read 'p99.99<10ms'"),
    (["search", "q5", "SLO=p100<=1ms"], "must be above 0 and below 100"),
    (["search", "q5", "SLO=p99<=1ms", "LOW=5000", "HIGH=5000"], "LOW=5000 must be below HIGH=5000"),
    (["search", "q5", "SLO=p99<=1ms", "PRECISION=0.9"], "PRECISION=0.9: must be a fraction"),
    (["search", "q5", "SLO=p99<=1ms", "RATEZ=5"], "unknown key 'RATEZ'; allowed: SLO, LOW, HIGH, PRECISION, CLUSTER"),
    (["sweep", "q5"], "sweep needs RATES="),
    (["sweep", "q5", "RATES=10,x"], "RATES=10,x: must be whole numbers"),
    (["sweep", "q5", "RATES=10", "KEYS=0"], "KEYS=0: must be whole numbers"),
])
def test_a_bad_request_is_refused_before_anything_starts(args, message, tmp_path):
    result = CliRunner().invoke(cli, [*args, "--results-root", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not any(tmp_path.iterdir())
