"""Stolen CPU: time the hypervisor gave other guests while the host's CPUs had work (host.csv, each
member's reading of /proc/stat, cumulative seconds summed over the host's CPUs; on a cluster the
worst member's each second). On a virtual machine with busy neighbours this arrives in bursts of tens
of milliseconds, and a run shows them as stalls the engine did not cause. A second is *stolen* when
the host lost at least STOLEN_MARK_S in it: twice /proc/stat's resolution, and as much as a
latency bound of a few milliseconds can be missed by."""
from dataclasses import dataclass

import numpy as np
import pandas as pd

from fournines_analysis.hlog import LatencyLog

HOST_FILE = "host.csv"
HOST_COLUMNS = ("time_s", "steal_seconds")
STOLEN_MARK_S = 0.02


@dataclass(frozen=True)
class StealSummary:
    total_s: float  # CPU seconds stolen after the warm-up
    wall_s: float  # the wall time that covers
    worst_s: float  # the most stolen in one sample
    worst_at_s: float  # the end of that sample, on the run's timeline
    stolen_seconds: int  # samples in which at least STOLEN_MARK_S were stolen

    def __str__(self):
        return (f"{self.total_s * 1e3:,.0f} ms of CPU stolen by the hypervisor over {self.wall_s:,.0f} s "
                f"({self.stolen_seconds} second{'s' if self.stolen_seconds != 1 else ''} with "
                f"≥ {STOLEN_MARK_S * 1e3:g} ms; the worst {self.worst_s * 1e3:,.0f} ms, at {self.worst_at_s:,.0f} s)")


def steal_after_warmup(host: pd.DataFrame | None, warmup_s: float) -> StealSummary | None:
    """None without host.csv, or with fewer than two samples after the warm-up."""
    if host is None:
        return None
    time, stolen = _per_sample(host)
    measured = time > warmup_s
    if measured.sum() < 2:
        return None
    worst = int(np.argmax(np.where(measured, stolen, -1)))
    first = int(np.argmax(measured))
    began = time[first - 1] if first > 0 else 0.0
    return StealSummary(total_s=float(stolen[measured].sum()), wall_s=float(time[-1] - began),
                        worst_s=float(stolen[worst]), worst_at_s=float(time[worst]),
                        stolen_seconds=int((stolen[measured] >= STOLEN_MARK_S).sum()))


def intervals_after_stolen_seconds(log: LatencyLog, host: pd.DataFrame | None) -> np.ndarray:
    """For each interval of `log`, whether the host lost at least STOLEN_MARK_S in a sample that
    overlaps it or the second before it (an event a stall held up is recorded when it completes,
    up to a second later). All False without host.csv."""
    if host is None:
        return np.zeros(len(log.start_s), dtype=bool)
    time, stolen = _per_sample(host)
    marked = stolen >= STOLEN_MARK_S
    begins, ends = log.start_s - 1.0, log.start_s + log.length_s
    return np.array([bool((marked & _overlapping(time, b, e)).any()) for b, e in zip(begins, ends)])


def stolen_between(host: pd.DataFrame | None, begin_s: float, end_s: float) -> tuple[float, float] | None:
    """(CPU seconds stolen in the samples that overlap [begin_s, end_s], the most in one of them);
    None without host.csv."""
    if host is None:
        return None
    time, stolen = _per_sample(host)
    overlapping = stolen[_overlapping(time, begin_s, end_s)]
    return float(overlapping.sum()), float(overlapping.max(initial=0.0))


def _overlapping(time: np.ndarray, begin_s: float, end_s: float) -> np.ndarray:
    """The samples, each from the previous one's end to its own, that overlap [begin_s, end_s]."""
    sample_start = np.concatenate([[-np.inf], time[:-1]])
    return (time > begin_s) & (sample_start < end_s)


def _per_sample(host: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(sample end times, CPU seconds stolen in each sample); the first sample counts from the member's start."""
    time = host["time_s"].to_numpy(dtype=float)
    total = host["steal_seconds"].to_numpy(dtype=float)
    return time, np.diff(total, prepend=0.0).round(6)  # whole ticks, less the float error of the difference
