"""The regression gate: is the candidate slower than the baseline beyond noise and threshold?

Every metric is read from the 1 s intervals after warm-up. For each latency series every run has,
three: the median of the per-interval p99 (the typical second), the mean of the per-interval max (how
bad seconds get), and p99.99 of all intervals pooled (the promise in the name). From cpu.csv and
throughput.csv, when every run has them, the work side: CPU per event and events/s per core (the
same measurement seen from both ends, since users quote either). The ratio candidate/baseline gets a
99% confidence interval from a seeded hierarchical bootstrap (bootstrap.py): with a few runs a side
the bootstrap's tails are too short for p99.99, and at 95% identical code failed the gate too often.

A metric regresses when its ratio is worse than the threshold allows (above 1 + threshold; below
1 / (1 + threshold) for a metric where higher is better) and its whole interval lies on the worse side
of 1: slower by more than is tolerated, and surely slower. Improvements mirror that; anything else is
"no significant change". This rule, the threshold and the default number of runs are the ones whose
false-alarm and detection rates `make gate-selftest` measures (analysis/docs/gate.md).

Only runs that stand are judged (standing.py): completed, with logs that cover the whole measurement.
Any other run is refused, naming its file, unless the caller allows incomplete runs explicitly; the
verdict then says which runs it judged anyway.
"""
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fournines_analysis import bootstrap, formatting
from fournines_analysis.errors import BadInput
from fournines_analysis.hlog import LatencyLog
from fournines_analysis.histograms import Layout, value_at_percentiles
from fournines_analysis.results import Run, load_run
from fournines_analysis.standing import standing_of
from fournines_analysis.summary import measured_counts
from fournines_analysis.timeseries import measurement_start

REGRESSION, IMPROVEMENT, NO_CHANGE = "regression", "improvement", "no significant change"
OVERRIDE = "--allow-incomplete"
WORK_SERIES = "work (cpu.csv, throughput.csv)"


class RunsRefused(ValueError):
    """Runs the gate will not judge: one line each, naming the file and the rule it breaks."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))


@dataclass(frozen=True, eq=False)
class LatencySample:
    """One side (baseline or candidate) of one latency series: its runs' measured, non-empty intervals."""
    counts: np.ndarray  # (intervals, buckets), only buckets used by some interval
    layout: Layout
    run_sizes: list[int]  # intervals per run, in the order of the rows
    p99: np.ndarray  # per interval
    max: np.ndarray  # per interval


@dataclass(frozen=True, eq=False)
class WorkSample:
    """One side's CPU seconds and events per measured sample interval, run after run."""
    cpu_s: np.ndarray
    events: np.ndarray
    run_sizes: list[int]


@dataclass(frozen=True)
class Metric:
    name: str
    statistic: Callable  # (sample, weights (B, intervals)) -> (B,)
    show: Callable[[float], str]
    higher_is_worse: bool = True


LATENCY_METRICS = (
    Metric("p99 per interval, median", lambda s, w: bootstrap.weighted_median(s.p99, w), formatting.micros),
    Metric("max per interval, mean", lambda s, w: bootstrap.weighted_mean(s.max, w), formatting.micros),
    Metric("p99.99 of all intervals", lambda s, w: bootstrap.pooled_percentile(s.counts, s.layout, w, 99.99),
           formatting.micros),
)
CPU_PER_EVENT = Metric("CPU per event", lambda s, w: (w @ s.cpu_s) / (w @ s.events) * 1e9, formatting.nanos)
EVENTS_PER_CORE = Metric("events/s per core", lambda s, w: (w @ s.events) / (w @ s.cpu_s), formatting.number0,
                         higher_is_worse=False)
WORK_METRICS = (CPU_PER_EVENT, EVENTS_PER_CORE)


@dataclass(frozen=True)
class Verdict:
    series: str
    metric: str
    baseline: str  # as shown
    candidate: str
    ratio: float  # candidate / baseline
    low: float
    high: float
    verdict: str


@dataclass(frozen=True)
class GateResult:
    verdicts: list[Verdict]
    notes: list[str]
    header: str
    judged_anyway: int = 0  # runs judged although they do not stand (allow_incomplete)

    @property
    def regressed(self) -> bool:
        return any(v.verdict == REGRESSION for v in self.verdicts)

    @property
    def regressions(self) -> list[str]:
        return [f"{v.series}: {v.metric}" for v in self.verdicts if v.verdict == REGRESSION]

    def format(self) -> str:
        lines = [self.header, *self.notes]
        width = max(len(m.name) for m in LATENCY_METRICS + WORK_METRICS)
        for series in dict.fromkeys(v.series for v in self.verdicts):
            lines += ["", f"series {series}",
                      f"  {'metric':<{width}}  {'baseline':>16}  {'candidate':>16}  {'ratio':>6}  "
                      f"{'confidence interval':<19}  verdict"]
            for v in (v for v in self.verdicts if v.series == series):
                lines.append(f"  {v.metric:<{width}}  {v.baseline:>16}  {v.candidate:>16}  {v.ratio:6.3f}  "
                             f"{f'[{v.low:.3f}, {v.high:.3f}]':<19}  {v.verdict}")
        verdict = (f"gate: FAILED, regression in {'; '.join(self.regressions)}" if self.regressed
                   else "gate: passed, no regression")
        if self.judged_anyway:
            verdict += f"; {self.judged_anyway} incomplete run(s) judged anyway ({OVERRIDE})"
        return "\n".join(lines + ["", verdict])


def judge(ratio: float, low: float, high: float, threshold: float, higher_is_worse: bool = True) -> str:
    """The rule in the module docstring, for a ratio candidate/baseline and its interval [low, high]."""
    if not higher_is_worse:  # read as the slowdown factor baseline/candidate
        with np.errstate(divide="ignore"):
            ratio, low, high = np.reciprocal([ratio, high, low], dtype=float)
    if ratio > 1 + threshold and low > 1:
        return REGRESSION
    if ratio < 1 / (1 + threshold) and high < 1:
        return IMPROVEMENT
    return NO_CHANGE


def gate(baselines: list[Path | str], candidates: list[Path | str], threshold: float = 0.05,
         confidence: float = 0.99, replicates: int = 2000, seed: int = 1, allow_incomplete: bool = False) -> GateResult:
    """RunsRefused if a run does not stand and `allow_incomplete` is not set."""
    if not baselines or not candidates:
        raise ValueError("the gate needs at least one baseline and one candidate results folder")
    if not 0 <= threshold < 1:
        raise ValueError(f"threshold must be in [0, 1), is {threshold}")
    base_runs, cand_runs = [load_run(d) for d in baselines], [load_run(d) for d in candidates]
    every = base_runs + cand_runs
    shortfalls = {run.path: _shortfalls(run) for run in every}
    if not allow_incomplete and any(shortfalls.values()):
        raise RunsRefused([f"{line}; the gate judges {rule} (pass {OVERRIDE} to judge it anyway)"
                           for lines in shortfalls.values() for line, rule in lines])
    series = [name for name in base_runs[0].latency if all(name in r.latency for r in every)]
    if not series:
        raise BadInput(base_runs[0].path, "no latency series (*.hlog name) is in every baseline and candidate run")
    compared = [(name, _latency_sample(base_runs, name), _latency_sample(cand_runs, name), LATENCY_METRICS)
                for name in series]
    notes = [f"  judged anyway ({OVERRIDE}): {line}" for lines in shortfalls.values() for line, _ in lines]
    notes += [f"  not in every run, not gated: {name}"
              for name in sorted({n for r in every for n in r.latency} - set(series))]
    without_work = [r for r in every if r.cpu is None or r.throughput is None]
    if without_work:
        notes.append(f"  not gated: {', '.join(m.name for m in WORK_METRICS)} "
                     f"(no cpu.csv or throughput.csv in {without_work[0].path})")
    else:
        compared.append((WORK_SERIES, _work_sample(base_runs), _work_sample(cand_runs), WORK_METRICS))
    rng = np.random.default_rng(seed)
    tail = (1 - confidence) / 2 * 100
    verdicts = []
    for name, base, cand, metrics in compared:
        base_w = bootstrap.resample_weights(base.run_sizes, replicates, rng)
        cand_w = bootstrap.resample_weights(cand.run_sizes, replicates, rng)
        for metric in metrics:
            b, c = (metric.statistic(s, np.ones((1, sum(s.run_sizes))))[0] for s in (base, cand))
            with np.errstate(divide="ignore", invalid="ignore"):
                ratios = metric.statistic(cand, cand_w) / metric.statistic(base, base_w)
            low, high = np.nanpercentile(ratios, [tail, 100 - tail])
            ratio = c / b if b else float("nan")
            verdicts.append(Verdict(name, metric.name, metric.show(b), metric.show(c), ratio, low, high,
                                    judge(ratio, low, high, threshold, metric.higher_is_worse)))
    if min(len(base_runs), len(cand_runs)) < 2:
        notes.append("  note: one run on a side, so the interval covers noise within a run only, not between "
                     "JVM launches; repeat runs interleaved (A B A B ...) for a verdict that holds.")
    header = (f"regression gate: {len(base_runs)} baseline vs {len(cand_runs)} candidate run(s), threshold "
              f"{threshold:.0%}, {confidence:.0%} bootstrap interval of candidate/baseline "
              f"({replicates} resamples of runs, then intervals; seed {seed})")
    return GateResult(verdicts, notes, header, sum(1 for lines in shortfalls.values() if lines))


def _shortfalls(run: Run) -> list[tuple[str, str]]:
    """Why the run does not stand, if it does not: (file: problem, the rule it breaks) for each reason."""
    standing = standing_of(run)
    status = standing.status_gap()
    reasons = [(str(status), "completed runs only")] if status else []
    return reasons + [(str(gap), rule) for gap, rule in standing.shortfalls]


def _latency_sample(runs: list[Run], name: str) -> LatencySample:
    logs: list[LatencyLog] = [r.latency[name] for r in runs]
    for log in logs[1:]:
        if log.layout.key != logs[0].layout.key:
            raise BadInput(log.path, f"histogram precision differs from {logs[0].path}: the runs "
                                     f"of one side are pooled, so they must share HdrHistogram settings")
    blocks = []
    for run, log in zip(runs, logs):
        rows = measured_counts(log, run.warmup_s)
        rows = rows[rows.sum(axis=1) > 0]  # an empty second has no percentile to compare
        if not len(rows):
            raise BadInput(log.path, "no events recorded after the warm-up")
        blocks.append(rows)
    width = max(b.shape[1] for b in blocks)
    counts = np.concatenate([np.pad(b, ((0, 0), (0, width - b.shape[1]))) for b in blocks])
    layout = max((log.layout for log in logs), key=len).take(np.arange(width))
    used = np.flatnonzero(counts.any(axis=0))
    counts, layout = counts[:, used], layout.take(used)
    p99, top = value_at_percentiles(counts, layout, [99, 100]).T
    return LatencySample(counts, layout, [len(b) for b in blocks], p99, top)


def _work_sample(runs: list[Run]) -> WorkSample:
    """CPU seconds and events over each cpu.csv sample interval of the measurement, counted as the
    report's rates are (timeseries.measurement_start). Events are read at the CPU sampler's times,
    interpolated if the two files were sampled apart."""
    cpu, events, sizes = [], [], []
    for run in runs:
        time, used = run.cpu["time_s"].to_numpy(), run.cpu["cpu_seconds"].to_numpy()
        counted = np.interp(time, run.throughput["time_s"].to_numpy(), run.throughput["events"].to_numpy())
        first = measurement_start(time, run.warmup_s)
        d_cpu, d_events = np.diff(used[first:]), np.diff(counted[first:])
        if not d_events.sum() or not d_cpu.sum():
            raise BadInput(run.path / "cpu.csv", "no CPU time or no events after the warm-up, so no CPU per event")
        cpu.append(d_cpu)
        events.append(d_events)
        sizes.append(len(d_cpu))
    return WorkSample(np.concatenate(cpu), np.concatenate(events), sizes)
