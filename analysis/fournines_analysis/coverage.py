"""Coverage: whether a run's latency logs hold the whole measurement, from every member that ran.

A log cut short (a full disk, a killed writer) or a member whose log never reached the folder still
reads as a normal run; its percentiles simply describe less than the run measured. The rule
(analysis/docs/results-folder.md, "Status and coverage"):

- the measurement is [warmup_s, warmup_s + duration_s) on the run's timeline, cut into whole seconds
  from warmup_s (the last one shorter if duration_s is fractional);
- a log covers a measured second when its intervals, together, span at least half of it;
- a measured second a log does not cover is missing. The first and the last measured second are
  exempt: the recorder's ticks and the member's stop land a few ms either side of the boundaries,
  and the last interval is written when the member stops. One second at each end absorbs that; two
  missing at an end, or any in the middle, are a loss;
- a log whose measured intervals hold no latency at all measured nothing (a load that never
  reached the members reads otherwise as a run with empty, well-covered seconds);
- latency.hlog must be there (a windowed run without it is reported from completion.hlog alone);
- in a cluster run each merged log needs a copy in every member's folder (member-<i>/, or a
  joined-<n>/ in it after a restart). An active-active run's latency comes from the result
  consumer, not from its members, so only the consumer's logs count there; a simulated run's logs
  are the simulator's, one for the whole cluster, so there are no members' copies to expect;
- without duration_s the end of the measurement is unknown: that is said, and only the seconds
  from warmup_s to the end of the logs are checked;
- each log must hold every latency the member(s) wrote to it, as run.json's hlog_values_written
  counts them (from member.json, summed over a cluster's members): fewer means intervals were lost
  after they were written (a cut copy, a failed merge), even where the seconds look covered, as at
  the exempt ends. More is not a loss: a member killed mid-run leaves its intervals but no count.
  An active-active run's logs are the consumer's, which the members' counts do not describe.
"""
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fournines_analysis.errors import BadInput
from fournines_analysis.hlog import LatencyLog
from fournines_analysis.results import Run

LEAD_SERIES = "latency"


@dataclass(frozen=True)
class Gap:
    """One way a run's logs fall short of its measurement, on the file it concerns."""
    path: Path
    problem: str

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"

    def shown_from(self, folder: Path) -> str:
        """As seen from a report in `folder`: the file relative to it."""
        return f"{self.path.relative_to(folder)}: {self.problem}"


def coverage_gaps(run: Run) -> list[Gap]:
    gaps = []
    lead = run.path / f"{LEAD_SERIES}.hlog"
    if not lead.is_file():
        others = ", ".join(sorted(p.name for p in run.path.glob("*.hlog")))
        gaps.append(Gap(lead, f"missing: no per-event (for windows, first-result) latency was recorded; "
                              f"the figures come from {others} alone"))
    duration_s = run.info.fields.get("duration_s")
    if duration_s is None:
        gaps.append(Gap(run.info.path, "no duration_s: the end of the measurement is unknown, so seconds "
                                       "missing at the end of the logs cannot be found"))
        end_s = max(float((log.start_s + log.length_s).max()) for log in run.latency.values())
    else:
        end_s = run.warmup_s + duration_s
    for log in run.latency.values():
        gaps += _missing_seconds(log, run.warmup_s, end_s) + _nothing_measured(log, run.warmup_s)
    return gaps + _lost_values(run) + _missing_members(run)


def _missing_seconds(log: LatencyLog, start_s: float, end_s: float) -> list[Gap]:
    edges = np.append(np.arange(start_s, end_s, 1.0), end_s)
    if len(edges) < 2:
        return []
    missing = _covered(log, edges) < np.diff(edges) / 2
    if not missing[1:-1].any():  # the first and last second are start/stop jitter (module docstring)
        return []
    seconds = np.flatnonzero(missing)
    runs = np.split(seconds, np.flatnonzero(np.diff(seconds) > 1) + 1)
    spans = ", ".join(f"{edges[r[0]]:g}–{edges[r[-1] + 1]:g} s" for r in runs)
    return [Gap(log.path, f"no intervals in {len(seconds)} of the {len(edges) - 1} measured seconds "
                          f"({spans} since the load started)")]


def _nothing_measured(log: LatencyLog, warmup_s: float) -> list[Gap]:
    measured = log.measured(warmup_s)
    if not measured.any() or log.counts[measured].any():
        return []
    return [Gap(log.path, "holds no latency after the warm-up: no event reached the sink while it was measured")]


def _covered(log: LatencyLog, edges: np.ndarray) -> np.ndarray:
    """The time within each [edges[k], edges[k+1]) that some interval of the log spans.

    Intervals may overlap (a cluster's merged log holds every member's), so they are first joined
    into disjoint spans; the covered time up to t is then a running sum, read at each edge."""
    order = np.argsort(log.start_s)
    starts, ends = log.start_s[order], (log.start_s + log.length_s)[order]
    reach = np.maximum.accumulate(ends)
    opens = np.concatenate([[True], starts[1:] > reach[:-1]])  # an interval that starts a new span
    span_starts = starts[opens]
    span_ends = reach[np.append(np.flatnonzero(opens)[1:] - 1, len(starts) - 1)]
    lengths = span_ends - span_starts
    before = np.concatenate([[0.0], np.cumsum(lengths)])  # covered time before each span
    i = np.searchsorted(span_starts, edges, side="right") - 1  # the last span starting at or before the edge
    inside = np.clip(edges - span_starts[i], 0, lengths[i])
    return np.diff(np.where(i >= 0, before[np.maximum(i, 0)] + inside, 0.0))


def _lost_values(run: Run) -> list[Gap]:
    written = run.info.fields.get("hlog_values_written") or {}
    if (run.info.fields.get("scenario") or {}).get("mode") == "active-active":
        return []
    gaps = []
    for name, count in written.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise BadInput(run.info.path, f"{name}: must be a count, is {json.dumps(count)}", field="hlog_values_written")
        path = run.path / name
        if not path.is_file():
            if count:
                gaps.append(Gap(path, f"missing, though the member(s) wrote {count:,} latencies to it"))
            continue
        held = sum(int(log.counts.sum()) for log in run.latency.values() if log.path == path)
        if held < count:
            gaps.append(Gap(path, f"holds {held:,} of the {count:,} latencies the member(s) wrote to it: "
                                  f"{count - held:,} lost"))
    return gaps


def _missing_members(run: Run) -> list[Gap]:
    scenario = run.info.fields.get("scenario") or {}
    members = (scenario.get("cluster") or {}).get("members", 1)
    if (not isinstance(members, int) or members < 2 or scenario.get("mode") == "active-active"
            or run.info.fields.get("simulated") is True):
        return []
    gaps = []
    for log in sorted(run.path.glob("*.hlog")):
        lacking = [f"member-{i}" for i in range(1, members + 1) if not _wrote(run.path / f"member-{i}", log.name)]
        if lacking:
            gaps.append(Gap(log, f"merged from the logs of {members - len(lacking)} of the {members} members; "
                                 f"none from {', '.join(lacking)}"))
    return gaps


def _wrote(member: Path, name: str) -> bool:
    """The member's folder holds the log, or a restarted process of it wrote one (joined-<n>/)."""
    return (member / name).is_file() or any(member.glob(f"joined-*/{name}"))
