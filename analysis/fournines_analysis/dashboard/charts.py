"""What the dashboard's interactive plots draw, as JSON-ready data: the spectrum on the nines axis,
each series' p99 and max per interval, throughput and cores busy per sample, the warm-up's end, the
members' GC cycles and pauses and the faults fired. The same numbers as the static plots (plots.py)
draw, from the same functions."""
import math

import numpy as np

from fournines_analysis.faults import fault_time_s
from fournines_analysis.gc_log import gc_events
from fournines_analysis.nines import MAX_NINES, nines_curve, nines_label
from fournines_analysis.plots import DRAWN_PAUSE_S
from fournines_analysis.results import Run
from fournines_analysis.summary import measured_counts
from fournines_analysis.timeseries import per_sample_rate


def values(array) -> list[float | None]:
    """JSON has no NaN: an empty interval's percentile becomes null, a gap in the line."""
    return [None if not math.isfinite(v) else float(v) for v in np.asarray(array, dtype=float)]


def nines_axis() -> dict:
    """Tick positions and labels of the nines axis, 0 to MAX_NINES."""
    return {"ticks": list(range(MAX_NINES + 1)), "labels": [nines_label(n) for n in range(MAX_NINES + 1)]}


def spectra(runs: list[tuple[str, Run]]) -> list[dict]:
    """One curve per (label, run) and latency series, after each run's warm-up."""
    curves = []
    for label, run in runs:
        for name, log in run.latency.items():
            counts = measured_counts(log, run.warmup_s).sum(axis=0)
            x, y = nines_curve(counts, log.layout)
            curves.append({"name": f"{label}: {name}" if len(runs) > 1 else name, "count": int(counts.sum()),
                           "x": values(x), "y": values(y)})
    return curves


def over_time(run: Run) -> dict:
    """Latency per interval for each series, throughput and cores busy per sample; time in seconds since t=0."""
    latency = [{"name": name, "t": values(log.start_s + log.length_s / 2), "p99": values(log.per_interval(99)),
                "max": values(log.per_interval(100))} for name, log in run.latency.items()]
    throughput = None if run.throughput is None else {
        "t": values(run.throughput["time_s"]), "events_per_s": values(run.throughput["events_per_s"])}
    cores = None if run.cpu is None else {
        "t": values(run.cpu["time_s"]), "busy": values(per_sample_rate(run.cpu, "cpu_seconds"))}
    return {"warmup_s": run.warmup_s, "latency": latency, "throughput": throughput, "cores": cores,
            **_marks(run)}


def _marks(run: Run) -> dict:
    """What the plots over time mark: concurrent GC cycles as spans, pauses of DRAWN_PAUSE_S or more as
    lines (as the static plot does), and each fault at the time it fired."""
    lead = next(iter(run.latency.values()))
    events = gc_events(run.path, lead.start_time_s)
    faults = run.info.fields.get("faults_injected") or []
    return {
        "gc_cycles": [{"start": e.start_s, "end": e.end_s} for e in events if not e.pause],
        "gc_pauses": [{"t": e.start_s, "ms": e.length_s * 1e3} for e in events if e.pause and e.length_s >= DRAWN_PAUSE_S],
        "faults": [{"t": fault_time_s(f, lead), "label": f"{f['action']} {f['target']}"} for f in faults],
    }
