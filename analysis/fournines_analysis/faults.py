"""The report's "Faults" section, for a run whose run.json lists `faults_injected` (the runner's
record of each fault it fired, with the wall-clock time of the signal in epoch µs).

For each fault, on the lead latency series, per second: a cluster's merged log interleaves every
member's 1 s intervals (each member has its own t=0), so the intervals are first summed into 1 s bins
of the run's timeline by their midpoint (`per_second`); a single member's log is unchanged by this.
- pre-fault p99: the p99 of the measured intervals (after the warm-up) that end at or before the
  fault and start at or after the previous fault's recovery;
- recovery: the start of the first interval that starts at or after the fault, holds latencies and
  whose p99 is at or under the pre-fault p99. An interval that records nothing (no results emitted:
  the job stalled or died) is not recovered. None of them: "never recovered";
- time to recover: recovery − fault; its resolution is the interval length (1 s). An undisturbed run
  shows the time to the next interval boundary;
- p99.99 during recovery: the pooled histogram of the intervals that overlap [fault, recovery), or
  [fault, end of the log) if it never recovered.
"""
import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from fournines_analysis import formatting, histograms, plots
from fournines_analysis.document import Block, Heading, Image, Paragraph, Table
from fournines_analysis.errors import BadInput
from fournines_analysis.hlog import LatencyLog
from fournines_analysis.members import member_processes

_AN_EPOCH_S = 1e9  # a StartTime below this is relative, not a wall-clock time (Java's BaseTime rule)
CONTEXT_BEFORE_S = 20.0  # the plot around a fault: this much before it ...
CONTEXT_AFTER_S = 20.0  # ... and this much after its recovery (or to the end of the log)


@dataclass(frozen=True)
class Recovery:
    label: str  # "kill member-2"
    fault_s: float  # seconds since the run's t=0
    pre_fault_p99: float | None  # None: no measured interval before the fault
    recovered_s: float | None  # since t=0; None: never recovered (or no pre-fault p99 to compare)
    recovery_p9999: float
    recovery_max: float
    recovery_events: int

    @property
    def time_to_recover_s(self) -> float | None:
        return None if self.recovered_s is None else self.recovered_s - self.fault_s


def fault_time_s(fault: dict, log: LatencyLog) -> float:
    """The fault's time in seconds since the log's t=0: from the signal's wall-clock time when the
    log's StartTime is a wall-clock time, else the runner's own count from the load's start."""
    if log.start_time_s >= _AN_EPOCH_S and "injected_at_us" in fault:
        return fault["injected_at_us"] / 1e6 - log.start_time_s
    return float(fault["since_load_start_s"])


def per_second(log: LatencyLog) -> LatencyLog:
    """`log` with its intervals summed into 1 s bins [k, k+1) by their midpoint; a second no interval
    falls in is an empty bin (nothing recorded is a stall, not a gap to skip)."""
    bins = np.floor(log.start_s + log.length_s / 2).astype(np.int64)
    first = bins.min()
    counts = np.zeros((bins.max() - first + 1, log.counts.shape[1]), dtype=np.int64)
    np.add.at(counts, bins - first, log.counts)
    seconds = np.arange(first, bins.max() + 1, dtype=float)
    return dataclasses.replace(log, start_s=seconds, length_s=np.ones(len(seconds)), counts=counts)


def recoveries(faults: list[dict], log: LatencyLog, warmup_s: float) -> list[Recovery]:
    """One Recovery per fault, on `log` as it is (per_second it first for a cluster's merged log)."""
    start, end = log.start_s, log.start_s + log.length_s
    p99 = log.per_interval(99)
    measured = log.measured(warmup_s)
    results: list[Recovery] = []
    settled_s = -np.inf  # the previous fault's recovery: intervals before it are no baseline
    for fault in sorted(faults, key=lambda f: fault_time_s(f, log)):
        fault_s = fault_time_s(fault, log)
        before = measured & (end <= fault_s) & (start >= settled_s)
        baseline = (histograms.value_at_percentiles(log.counts[before].sum(axis=0), log.layout, [99])[0]
                    if before.any() else None)
        recovered_s = None
        if baseline is not None and not np.isnan(baseline):
            back = np.flatnonzero((start >= fault_s) & (p99 <= baseline))  # NaN (empty) compares False
            recovered_s = float(start[back[0]]) if len(back) else None
        else:
            baseline = None
        during = (end > fault_s) & (start < (np.inf if recovered_s is None else recovered_s))
        pooled = log.counts[during].sum(axis=0)
        results.append(Recovery(
            label=f"{fault['action']} {fault['target']}", fault_s=fault_s, pre_fault_p99=baseline,
            recovered_s=recovered_s,
            recovery_p9999=float(histograms.value_at_percentiles(pooled, log.layout, [99.99])[0]),
            recovery_max=histograms.max_value(pooled, log.layout), recovery_events=histograms.count(pooled)))
        settled_s = np.inf if recovered_s is None else recovered_s
    return results


def fault_blocks(info_fields: dict, log: LatencyLog, warmup_s: float, folder: Path, title: str,
                 plots_dir: Path) -> list[Block]:
    """The section, its plots saved into `plots_dir`; nothing for a run without faults in its scenario or record."""
    faults = info_fields.get("faults_injected")
    planned = (info_fields.get("scenario") or {}).get("faults") or []
    if faults is None and not planned:
        return []
    blocks: list[Block] = [Heading("Faults")]
    if info_fields.get("status") not in (None, "completed"):
        cause = (info_fields.get("failure") or "no cause recorded").split(";")[0].splitlines()[0]
        blocks.append(Paragraph(f"The run {info_fields['status']}: {cause}"))
    if not isinstance(faults, list) or not faults:
        return blocks + [Paragraph(f"The scenario planned {len(planned)} fault(s); none was injected "
                                   "(the run ended before the first one was due).")]
    _check(faults, info_fields)
    log = per_second(log)
    found = recoveries(faults, log, warmup_s)
    blocks += [
        Paragraph(f"On {log.name}, per second (every member's intervals summed). Pre-fault p99: the measured "
                  "intervals before the fault. Recovered: the first interval from the fault on whose p99 is at "
                  "or under the pre-fault p99 (an interval without results never is). p99.99 during recovery: "
                  "every interval from the fault to the recovery (to the end of the log if it never recovered)."),
        Table(["fault", "at (s since t=0)", "pre-fault p99", "time to recover", "p99.99 during recovery",
               "max during recovery", "events during recovery"],
              [[r.label, formatting.number(r.fault_s, 3), formatting.micros(r.pre_fault_p99), _recover_text(r),
                formatting.micros(r.recovery_p9999), formatting.micros(r.recovery_max),
                formatting.number0(r.recovery_events)] for r in found]),
    ]
    for i, r in enumerate(found, start=1):
        figure = around_fault_figure(log, r, f"{title}: {r.label}, {log.name} around the fault")
        blocks.append(Image(plots.save(figure, plots_dir / f"fault-{i}.png"),
                            f"{log.name} per interval around fault {i} ({r.label})"))
    return blocks + restart_blocks(folder)


def restart_blocks(run_dir: Path) -> list[Block]:
    """The engine's own record of each restart after a lost member (member.json's `recoveries`, one
    per surviving member and restart); nothing if the job never restarted."""
    rows = []
    for name, folder in member_processes(Path(run_dir)):
        path = folder / "member.json"
        if not path.is_file():
            continue
        recoveries = json.loads(path.read_text(encoding="utf-8")).get("recoveries") or []
        if not isinstance(recoveries, list):
            raise BadInput(path, f"recoveries must be a list; is {recoveries!r}", field="recoveries")
        for i, r in enumerate(recoveries):
            try:
                snapshot = "none: from the start" if r["snapshot"] < 0 else str(r["snapshot"])
                rows.append([name, formatting.number(r["elapsed_s"], 3), str(r["attempt"]), snapshot,
                             ", ".join(f"member-{m + 1}" for m in r["members"]), formatting.number0(r["state_bytes"]),
                             f"{r['restart_ms']:,.1f} ms"])
            except (KeyError, TypeError) as e:
                raise BadInput(path, f"each restart needs elapsed_s, attempt, snapshot, members, state_bytes and "
                               f"restart_ms; {e!r} in {r!r}", field=f"recoveries[{i}]") from None
    if not rows:
        return []
    return [*_replayed_results(Path(run_dir)),
            Paragraph("The job's restarts, as each surviving member recorded them: the coordinator restarted it "
                      "from the latest committed snapshot on the members left; each gathered the state of the "
                      "partitions it now owns (bytes) from whoever kept a copy. Restart took: from the "
                      "coordinator's word to the job running again on that member (stop, gather, start); noticing "
                      "the loss comes before it (a closed connection: at once; a frozen member: the failure "
                      "timeout)."),
            Table(["member", "at (s since its start)", "attempt", "from snapshot", "now on", "state gathered (bytes)",
                   "restart took"], rows)]


def _replayed_results(run_dir: Path) -> list[Block]:
    """What the latency logs leave out after a restart: the results of windows already complete (the
    merged member.json's `window_results_after_completion`), emitted again from the snapshot."""
    path = run_dir / "member.json"
    count = json.loads(path.read_text(encoding="utf-8")).get("window_results_after_completion") if path.is_file() else None
    if not isinstance(count, int) or count <= 0:
        return []
    return [Paragraph(f"Window results emitted again for windows already complete: {formatting.number0(count)}. "
                      "They are the windows since the snapshot, replayed after a restart; the latency logs keep "
                      "each window's first emission, before the fault, so they are not in the figures above. A "
                      "consumer of exactly-once output sees those windows only after the replay, later than "
                      "these figures say.")]


def around_fault_figure(log: LatencyLog, r: Recovery, title: str) -> Figure:
    """p99 and max per interval around the fault: the fault marked, the pre-fault p99 dashed, the
    recovery shaded, and intervals that recorded nothing marked as such (a gap in the lines)."""
    end_s = float((log.start_s + log.length_s).max())
    left = max(float(log.start_s.min()), r.fault_s - CONTEXT_BEFORE_S)
    right = min(end_s, (r.recovered_s if r.recovered_s is not None else end_s) + CONTEXT_AFTER_S)
    shown = (log.start_s + log.length_s > left) & (log.start_s < right)
    middle = (log.start_s + log.length_s / 2)[shown]
    fig = Figure(figsize=(9, 4.5), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(middle, log.per_interval(100)[shown], marker=".", label="max per interval")
    ax.plot(middle, log.per_interval(99)[shown], marker=".", label="p99 per interval")
    empty = middle[log.counts[shown].sum(axis=1) == 0]
    if len(empty):
        ax.plot(empty, np.full(len(empty), 1.0), "x", color="black", transform=ax.get_xaxis_transform(),
                clip_on=False, label="no results in the interval")
    ax.axvline(r.fault_s, color="red", label=f"{r.label} at {r.fault_s:.3f} s")
    if r.pre_fault_p99 is not None:
        ax.axhline(r.pre_fault_p99, color="grey", linestyle="--", label="pre-fault p99")
    recovered = r.recovered_s if r.recovered_s is not None else right
    ax.axvspan(r.fault_s, recovered, color="red", alpha=0.1,
               label="recovery" if r.recovered_s is not None else "never recovered")
    ax.set_xlim(left, right)
    ax.set_yscale("log")
    ax.set_xlabel("time since start (s)")
    ax.set_ylabel("latency (µs)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    return fig


def _recover_text(r: Recovery) -> str:
    if r.pre_fault_p99 is None:
        return "unknown: no measured interval before the fault"
    if r.recovered_s is None:
        return "never recovered (p99 not back under the pre-fault p99 before the log ends)"
    return f"{r.time_to_recover_s:.3f} s"


def _check(faults: list, info_fields: dict) -> None:
    for i, fault in enumerate(faults):
        if not isinstance(fault, dict) or not {"action", "target", "since_load_start_s"} <= fault.keys():
            raise BadInput(Path("run.json"), "each fault must be an object with action, target, injected_at_us "
                           f"and since_load_start_s; is {fault!r}", field=f"faults_injected[{i}]")
