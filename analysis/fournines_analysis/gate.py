"""The regression gate: is the candidate slower than the baseline beyond noise and threshold?

For each latency series every run has, three metrics are compared, each read from the 1 s intervals
after warm-up: the median of the per-interval p99 (the typical second), the mean of the per-interval
max (how bad seconds get), and p99.99 of all intervals pooled (the promise in the name). The ratio
candidate/baseline gets a confidence interval from a seeded hierarchical bootstrap (bootstrap.py).
A metric regresses only if its whole interval lies above 1 + threshold, and improves only if it lies
wholly below 1 - threshold; anything else is "no significant change". Lower latency is better.

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

REGRESSION, IMPROVEMENT, NO_CHANGE = "regression", "improvement", "no significant change"
OVERRIDE = "--allow-incomplete"


class RunsRefused(ValueError):
    """Runs the gate will not judge: one line each, naming the file and the rule it breaks."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))


@dataclass(frozen=True, eq=False)
class Sample:
    """One side (baseline or candidate) of one series: its runs' measured, non-empty intervals."""
    counts: np.ndarray  # (intervals, buckets), only buckets used by some interval
    layout: Layout
    run_sizes: list[int]  # intervals per run, in the order of the rows
    p99: np.ndarray  # per interval
    max: np.ndarray  # per interval


@dataclass(frozen=True)
class Metric:
    name: str
    statistic: Callable[[Sample, np.ndarray], np.ndarray]  # (sample, weights (B, intervals)) -> (B,)


METRICS = (
    Metric("p99 per interval, median", lambda s, w: bootstrap.weighted_median(s.p99, w)),
    Metric("max per interval, mean", lambda s, w: bootstrap.weighted_mean(s.max, w)),
    Metric("p99.99 of all intervals", lambda s, w: bootstrap.pooled_percentile(s.counts, s.layout, w, 99.99)),
)


@dataclass(frozen=True)
class Verdict:
    series: str
    metric: str
    baseline: float
    candidate: float
    ratio: float
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

    def format(self) -> str:
        lines = [self.header, *self.notes]
        width = max(len(m.name) for m in METRICS)
        for series in dict.fromkeys(v.series for v in self.verdicts):
            lines += ["", f"series {series}",
                      f"  {'metric':<{width}}  {'baseline':>12}  {'candidate':>12}  {'ratio':>6}  "
                      f"{'confidence interval':<19}  verdict"]
            for v in (v for v in self.verdicts if v.series == series):
                lines.append(f"  {v.metric:<{width}}  {formatting.micros(v.baseline):>12}  "
                             f"{formatting.micros(v.candidate):>12}  {v.ratio:6.3f}  "
                             f"{f'[{v.low:.3f}, {v.high:.3f}]':<19}  {v.verdict}")
        regressions = [f"{v.series}: {v.metric}" for v in self.verdicts if v.verdict == REGRESSION]
        verdict = (f"gate: FAILED, regression in {'; '.join(regressions)}" if regressions
                   else "gate: passed, no regression")
        if self.judged_anyway:
            verdict += f"; {self.judged_anyway} incomplete run(s) judged anyway ({OVERRIDE})"
        return "\n".join(lines + ["", verdict])


def gate(baselines: list[Path | str], candidates: list[Path | str], threshold: float = 0.05,
         confidence: float = 0.95, replicates: int = 2000, seed: int = 1, allow_incomplete: bool = False) -> GateResult:
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
    rng = np.random.default_rng(seed)
    tail = (1 - confidence) / 2 * 100
    verdicts = []
    for name in series:
        base, cand = _sample(base_runs, name), _sample(cand_runs, name)
        base_w = bootstrap.resample_weights(base.run_sizes, replicates, rng)
        cand_w = bootstrap.resample_weights(cand.run_sizes, replicates, rng)
        for metric in METRICS:
            b, c = (metric.statistic(s, np.ones((1, len(s.p99))))[0] for s in (base, cand))
            with np.errstate(divide="ignore", invalid="ignore"):
                ratios = metric.statistic(cand, cand_w) / metric.statistic(base, base_w)
            low, high = np.nanpercentile(ratios, [tail, 100 - tail])
            verdict = REGRESSION if low > 1 + threshold else IMPROVEMENT if high < 1 - threshold else NO_CHANGE
            verdicts.append(Verdict(name, metric.name, b, c, c / b if b else float("nan"), low, high, verdict))
    notes = [f"  judged anyway ({OVERRIDE}): {line}" for lines in shortfalls.values() for line, _ in lines]
    notes += [f"  not in every run, not gated: {name}"
              for name in sorted({n for r in every for n in r.latency} - set(series))]
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
    return reasons + [(str(gap), "runs whose logs cover the whole measurement only") for gap in standing.gaps]


def _sample(runs: list[Run], name: str) -> Sample:
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
    return Sample(counts, layout, [len(b) for b in blocks], p99, top)
