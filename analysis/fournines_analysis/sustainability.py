"""Whether a run sustained its rate (Karimov et al.: no prolonged backpressure, event-time latency not
rising over the run): after the warm-up, neither the load source's lag behind its schedule nor the
backlog (events made but not yet taken in by the query, counted in seconds of the target rate) may
grow, judged by a least-squares line through the samples, not a single reading; no event was dropped
or came too late for its window; and nothing beyond one second's worth was left unprocessed at the
end (what was in flight when the run stopped).

A growth above 0.5 % of real time (5 ms a second: a source 0.5 % slower than its schedule) is
prolonged backpressure. Below it, on a 30 s trial, the lag would rise by less than 150 ms, within
the sampling noise of a busy machine; the latency SLO judges what is left."""
from dataclasses import dataclass

import numpy as np
import pandas as pd

from fournines_analysis.results import Run

GROWTH_LIMIT_MS_PER_S = 5.0
MIN_SAMPLES = 5


@dataclass(frozen=True)
class Sustainability:
    lag_growth_ms_per_s: float | None  # slope of the source's lag over the measurement; None without load.csv
    backlog_growth_ms_per_s: float | None  # slope of the backlog, in ms of the target rate, per second
    problems: tuple[str, ...]  # why it was not sustained; empty when it was

    @property
    def sustained(self) -> bool:
        return not self.problems


def judge(run: Run) -> Sustainability:
    fields = run.info.fields
    problems = []
    if fields.get("status") != "completed":
        problems.append(f"the run did not complete ({fields.get('status', 'no status')}"
                        f"{': ' + fields['failure'] if fields.get('failure') else ''})")
    lag = backlog = None
    if run.load is None:
        problems.append("no load.csv: the source's lag was not recorded, so sustainability cannot be judged")
    else:
        measured = run.load[run.load["time_s"] > run.warmup_s]
        if len(measured) < MIN_SAMPLES:
            problems.append(f"{len(measured)} samples after the warm-up; at least {MIN_SAMPLES} are needed to see a trend")
        else:
            lag = _slope(measured["time_s"], measured["behind_ms"])
            if lag > GROWTH_LIMIT_MS_PER_S:
                problems.append(f"the source fell behind its schedule by {lag:.1f} ms more each second")
            backlog = _backlog_slope(measured, run.throughput, _rate(fields, measured))
            if backlog is not None and backlog > GROWTH_LIMIT_MS_PER_S:
                problems.append(f"the backlog grew by {backlog:.1f} ms of events each second")
    for field, what in (("dropped_events", "dropped"), ("late_events", "too late for their window")):
        if fields.get(field):
            problems.append(f"{fields[field]:,} events {what}")
    generated, processed = fields.get("events_generated"), fields.get("events_processed")
    rate = fields.get("target_rate")
    if generated is not None and processed is not None and rate and generated - processed > rate:
        problems.append(f"{generated - processed:,} events made but never processed (more than one second's worth)")
    return Sustainability(lag, backlog, tuple(problems))


def _slope(time_s: pd.Series, values: pd.Series) -> float:
    return float(np.polyfit(time_s.to_numpy(), values.to_numpy(), 1)[0])


def _rate(fields: dict, load: pd.DataFrame) -> float:
    """The target rate, or (a run without one) the rate the source made events at."""
    if fields.get("target_rate"):
        return float(fields["target_rate"])
    span = load["time_s"].iloc[-1] - load["time_s"].iloc[0]
    return max(float(load["generated"].iloc[-1] - load["generated"].iloc[0]) / span, 1.0) if span > 0 else 1.0


def _backlog_slope(load: pd.DataFrame, throughput: pd.DataFrame | None, rate: float) -> float | None:
    """Slope of (made − processed) / rate in ms per second, over the seconds both files sampled."""
    if throughput is None:
        return None
    made = load.groupby(load["time_s"].round())["generated"].last()
    taken = throughput.groupby(throughput["time_s"].round())["events"].last()
    both = pd.concat([made, taken], axis=1, join="inner").dropna()
    if len(both) < MIN_SAMPLES:
        return None
    backlog_ms = (both["generated"] - both["events"]) / rate * 1_000
    return _slope(pd.Series(both.index, dtype=float), backlog_ms)
