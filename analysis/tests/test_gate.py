"""Gate verdicts on synthetic runs whose truth is known, through the CLI an engine's CI would call."""
import pytest
from click.testing import CliRunner

from fournines.cli import cli
from fournines_analysis.gate import (IMPROVEMENT, LATENCY_METRICS, NO_CHANGE, REGRESSION, WORK_METRICS,
                                     WORK_SERIES, gate, judge)
from synthetic import drop_intervals, edit_run_json, write_run

REFUSED = "the gate judges completed runs only (pass --allow-incomplete to judge it anyway)"


def run_gate(baselines, candidates, *options):
    args = ["gate", "--baseline", *map(str, baselines), "--candidate", *map(str, candidates), *options]
    return CliRunner().invoke(cli, args)


def verdicts(result):
    return {v.metric: v.verdict for v in result.verdicts}


def test_a_clear_regression_fails_the_gate(synthetic_runs):
    result = run_gate(synthetic_runs["baseline"], synthetic_runs["slower"])
    assert result.exit_code == 1, result.output
    assert "p99 per interval, median" in result.output and "regression" in result.output
    assert "gate: FAILED, regression in latency: p99 per interval, median" in result.output
    v = gate(synthetic_runs["baseline"], synthetic_runs["slower"]).verdicts[0]
    assert v.low > 1 and 1.2 < v.ratio < 1.4


def test_a_clear_improvement_passes_and_says_so(synthetic_runs):
    result = run_gate(synthetic_runs["baseline"], synthetic_runs["faster"])
    assert result.exit_code == 0, result.output
    assert "improvement" in result.output and "gate: passed" in result.output
    assert verdicts(gate(synthetic_runs["baseline"], synthetic_runs["faster"]))["p99 per interval, median"] == IMPROVEMENT


def test_noise_alone_is_no_significant_change(synthetic_runs):
    result = run_gate(synthetic_runs["baseline"], synthetic_runs["same"])
    assert result.exit_code == 0, result.output
    assert set(verdicts(gate(synthetic_runs["baseline"], synthetic_runs["same"])).values()) == {NO_CHANGE}
    assert result.output.count("no significant change") == len(LATENCY_METRICS) + len(WORK_METRICS)


def test_more_cpu_per_event_fails_the_gate_though_latency_holds(synthetic_runs):
    result = run_gate(synthetic_runs["baseline"], synthetic_runs["heavier"])
    assert result.exit_code == 1, result.output
    assert (f"gate: FAILED, regression in {WORK_SERIES}: CPU per event; {WORK_SERIES}: events/s per core"
            in result.output)
    work = [v for v in gate(synthetic_runs["baseline"], synthetic_runs["heavier"]).verdicts if v.series == WORK_SERIES]
    assert [v.metric for v in work] == ["CPU per event", "events/s per core"]
    assert 1.05 < work[0].ratio < 1.15 and 0.87 < work[1].ratio < 0.95
    assert work[0].baseline.endswith(" ns")


def test_runs_without_cpu_accounting_are_gated_on_latency_and_say_so(synthetic_runs, tmp_path):
    import shutil
    copy = shutil.copytree(synthetic_runs["same"][0], tmp_path / "no-cpu")
    (copy / "cpu.csv").unlink()
    result = gate(synthetic_runs["baseline"], [copy])
    assert {v.series for v in result.verdicts} == {"latency"}
    assert (f"  not gated: CPU per event, events/s per core (no cpu.csv or throughput.csv in {copy})"
            in result.notes)


@pytest.mark.parametrize("ratio, low, high, higher_is_worse, expected", [
    (1.10, 1.02, 1.18, True, REGRESSION),
    (1.04, 1.01, 1.07, True, NO_CHANGE),  # surely slower, but within the 5% tolerated
    (1.10, 0.99, 1.21, True, NO_CHANGE),  # slower by more than tolerated, but not surely
    (0.90, 0.85, 0.97, True, IMPROVEMENT),
    (0.90, 0.85, 0.97, False, REGRESSION),  # events/s per core fell by 10%
    (1 / 1.04, 0.92, 0.99, False, NO_CHANGE),
])
def test_the_rule_needs_a_ratio_beyond_the_threshold_and_an_interval_beyond_one(ratio, low, high,
                                                                                 higher_is_worse, expected):
    assert judge(ratio, low, high, 0.05, higher_is_worse) == expected


def test_the_threshold_is_the_bar_the_ratio_must_clear(synthetic_runs):
    """A 30% slow-down is no regression when 50% is tolerated."""
    result = gate(synthetic_runs["baseline"], synthetic_runs["slower"], threshold=0.5)
    assert REGRESSION not in verdicts(result).values() and not result.regressed


def test_the_verdict_is_deterministic(synthetic_runs):
    first = run_gate(synthetic_runs["baseline"], synthetic_runs["same"])
    second = run_gate(synthetic_runs["baseline"], synthetic_runs["same"])
    assert first.output == second.output


def test_one_run_a_side_comes_with_a_warning(synthetic_runs):
    result = run_gate(synthetic_runs["baseline"][:1], synthetic_runs["same"][:1])
    assert "one run on a side" in result.output


def test_bad_input_exits_2_naming_the_file(synthetic_runs, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "run.json").write_text('{"warmup_s": "5s"}')
    result = run_gate(synthetic_runs["baseline"], [broken])
    assert result.exit_code == 2
    assert f"{broken / 'run.json'}: field 'warmup_s': must be a number" in result.output


@pytest.fixture
def interrupted(tmp_path):
    """A run like the baseline's, stopped with Ctrl-C."""
    run = write_run(tmp_path / "interrupted", seed=300)
    edit_run_json(run, status="interrupted", failure="stopped by SIGINT")
    return run


@pytest.mark.parametrize("side", ["--baseline", "--candidate"])
def test_the_gate_refuses_a_run_that_did_not_complete(synthetic_runs, interrupted, side):
    others = synthetic_runs["same"]
    result = run_gate(others, [interrupted]) if side == "--candidate" else run_gate([interrupted], others)
    assert result.exit_code == 2, result.output
    assert f"{interrupted / 'run.json'}: status: interrupted; {REFUSED}" in result.output


def test_a_run_without_a_recorded_status_is_refused_too(synthetic_runs, interrupted):
    edit_run_json(interrupted, status=..., failure=...)
    result = run_gate(synthetic_runs["baseline"], [interrupted])
    assert result.exit_code == 2
    assert f"{interrupted / 'run.json'}: status: not recorded; {REFUSED}" in result.output


def test_allow_incomplete_judges_it_and_the_verdict_says_so(synthetic_runs, interrupted):
    result = run_gate(synthetic_runs["baseline"], [*synthetic_runs["same"][1:], interrupted], "--allow-incomplete")
    assert result.exit_code == 0, result.output
    assert f"judged anyway (--allow-incomplete): {interrupted / 'run.json'}: status: interrupted" in result.output
    assert result.output.rstrip().endswith("gate: passed, no regression; 1 incomplete run(s) judged anyway "
                                           "(--allow-incomplete)")


def test_the_gate_refuses_a_log_that_misses_seconds(synthetic_runs, tmp_path):
    cut = write_run(tmp_path / "cut", seed=300)
    drop_intervals(cut / "latency.hlog", lambda i: i < 12)
    result = run_gate(synthetic_runs["baseline"], [cut])
    assert result.exit_code == 2, result.output
    assert (f"{cut / 'latency.hlog'}: no intervals in 13 of the 20 measured seconds (12–25 s since the load "
            f"started); the gate judges runs whose logs cover the whole measurement only (pass --allow-incomplete "
            f"to judge it anyway)") in result.output


@pytest.mark.parametrize("args, message", [
    (["gate", "somewhere"], "say whether it is a --baseline or a --candidate folder"),
    (["gate", "--baseline", "a"], "--candidate needs at least one results folder"),
    (["gate", "--baseline", "a", "--candidate", "b", "--base", "c"], "unknown option --base"),
    (["gate", "--baseline", "a", "--candidate", "b", "--threshold", "1.5"], "1.5 is not in the range"),
])
def test_usage_errors_exit_2(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and message in result.output
