"""What a run measured after its warm-up: latency percentiles per series, throughput, and events/s
per core with cores taken from CPU accounting (cpu seconds used / wall seconds), as nexmark does."""
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fournines_analysis import formatting, histograms
from fournines_analysis.errors import BadInput
from fournines_analysis.hlog import LatencyLog
from fournines_analysis.results import Run
from fournines_analysis.timeseries import rate_after

PERCENTILES = (50.0, 90.0, 99.0, 99.9, 99.99, 99.999)


@dataclass(frozen=True)
class LatencySummary:
    series: str
    intervals: int  # measured intervals (after warm-up)
    measured_s: float  # their total length
    count: int
    mean: float  # microseconds, like every latency here
    max: float
    percentiles: dict[float, float]

    def metrics(self) -> list[tuple[str, float, Callable[[float], str]]]:
        """(label, value, formatter) in reading order; the rows or columns of every latency table."""
        return [("events", self.count, formatting.number0), ("mean", self.mean, formatting.micros),
                *((formatting.percentile_label(p), v, formatting.micros) for p, v in self.percentiles.items()),
                ("max", self.max, formatting.micros)]


@dataclass(frozen=True)
class RunSummary:
    latency: list[LatencySummary]
    throughput: float | None  # events/s over the measurement; None without throughput.csv
    cores: float | None  # cpu seconds per wall second over the measurement; None without cpu.csv

    @property
    def per_core(self) -> float | None:
        return self.throughput / self.cores if self.throughput is not None and self.cores else None


def measured_counts(log: LatencyLog, warmup_s: float) -> np.ndarray:
    """The post-warm-up intervals of `log` (a row each); an error if the warm-up covers them all."""
    measured = log.measured(warmup_s)
    if not measured.any():
        raise BadInput(log.path, f"no interval ends after the warm-up ({warmup_s:g} s): "
                                 f"the log covers {log.start_s.min():g}..{(log.start_s + log.length_s).max():g} s")
    return log.counts[measured]


def summarize_log(log: LatencyLog, warmup_s: float) -> LatencySummary:
    rows = measured_counts(log, warmup_s)
    pooled = rows.sum(axis=0)
    values = histograms.value_at_percentiles(pooled, log.layout, PERCENTILES)
    return LatencySummary(
        series=log.name,
        intervals=len(rows),
        measured_s=float(log.length_s[log.measured(warmup_s)].sum()),
        count=histograms.count(pooled),
        mean=histograms.mean(pooled, log.layout),
        max=histograms.max_value(pooled, log.layout),
        percentiles=dict(zip(PERCENTILES, values.tolist())),
    )


def summarize(run: Run) -> RunSummary:
    return RunSummary(
        latency=[summarize_log(log, run.warmup_s) for log in run.latency.values()],
        throughput=None if run.throughput is None else rate_after(run.throughput, "events", run.warmup_s),
        cores=None if run.cpu is None else rate_after(run.cpu, "cpu_seconds", run.warmup_s),
    )
