"""Stalls estimated from a real run's window latencies (latency.hlog), for calibrate (derive.py).

The model's stalls (pauses.py): each machine stops at a Poisson rate λ = s × its cores busy (a stall
delays the job only when it takes a worker that has work), each stop's length exponential about μ. A window whose end falls in a stall of any of the N machines it waits on is
emitted the stall's remaining length late, and what remains of an exponential length is exponential
about the same mean. So among a run's windows the share slower than typical by more than x is about
N λ μ e^(−x/μ) (stalls rare enough not to overlap): beyond any threshold the excess is exponential
about μ, which is what makes the two parameters fit from a histogram of windows (peaks over a threshold).

Typical is the median of the measured windows; the threshold is one source batch (1 ms): below it the
model's own batching spreads the latencies. μ is the mean excess beyond median + threshold of the
windows past it, and s = (windows past it) / (windows × N × cores busy per machine) × e^(threshold/μ) / μ,
over the runs pooled, each run's windows weighted by how busy its machines were (cpu.csv). Seconds in which
(or in the second before which) a stop-the-world pause as long as the threshold began are left out:
the model's GC pauses account for those.
"""
import math
from dataclasses import dataclass

import numpy as np

from fournines.targets.sim.windowed_job import SOURCE_BATCH_S
from fournines_analysis.gc_log import GcEvent
from fournines_analysis.histograms import value_at_percentiles
from fournines_analysis.hlog import LatencyLog

THRESHOLD_S = SOURCE_BATCH_S
LOOK_BACK_S = 1.0  # a pause delays the windows emitted after it, in its second or the next


@dataclass(frozen=True)
class Exceedances:
    """One run's windows against the threshold."""
    busy_machine_windows: float  # windows measured × the machines each waits on × the cores busy per machine
    over: int  # windows slower than the median by more than THRESHOLD_S
    excess_s: float  # their latency beyond median + THRESHOLD_S, summed


def exceedances(log: LatencyLog, warmup_s: float, pauses: list[GcEvent], machines: int,
                busy_cores: float) -> Exceedances:
    """`busy_cores`: the cores each machine kept busy in the run."""
    kept = log.measured(warmup_s)
    for pause in (p for p in pauses if p.length_s >= THRESHOLD_S):
        kept &= ~((log.start_s - LOOK_BACK_S <= pause.start_s) & (pause.start_s < log.start_s + log.length_s))
    pooled = log.counts[kept].sum(axis=0)
    if not pooled.sum():
        return Exceedances(0.0, 0, 0.0)
    floor_us = value_at_percentiles(pooled, log.layout, [50])[0] + THRESHOLD_S * 1e6
    past = log.layout.median > floor_us
    excess_us = (pooled[past] * (log.layout.median[past] - floor_us)).sum()
    return Exceedances(float(pooled.sum()) * machines * busy_cores, int(pooled[past].sum()), float(excess_us) * 1e-6)


def stall_rate_and_mean(runs: list[Exceedances]) -> tuple[float, float] | None:
    """(stalls per second per busy core, their mean length in s) over the runs; None if no window was past the threshold."""
    over = sum(r.over for r in runs)
    if not over:
        return None
    mean_s = sum(r.excess_s for r in runs) / over
    return over / sum(r.busy_machine_windows for r in runs) * math.exp(THRESHOLD_S / mean_s) / mean_s, mean_s
