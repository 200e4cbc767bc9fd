"""The report's "Slowest intervals" section: the measured intervals with the highest latency, each
beside what coincided with it or the second before it (an event a stall held up is recorded when it
completes): GC pauses and concurrent GC cycles from the members' gc.log (gc_log.py) and the CPU the
host lost to other guests (steal.py). It attributes nothing by itself; it puts the evidence beside
the stall, so a reader can tell the engine's stalls from the JVM's and the host's."""
from dataclasses import dataclass

import numpy as np
import pandas as pd

from fournines_analysis import formatting
from fournines_analysis.document import Block, Heading, Paragraph, Table
from fournines_analysis.gc_log import GcEvent, gc_events
from fournines_analysis.hlog import LatencyLog
from fournines_analysis.plots import DRAWN_PAUSE_S
from fournines_analysis.results import Run
from fournines_analysis.steal import STOLEN_MARK_S, stolen_between

SHOWN = 5
LOOK_BACK_S = 1.0


@dataclass(frozen=True)
class Coincided:
    """What overlapped one latency interval or the second before it."""
    pauses: list[GcEvent]
    cycles: list[GcEvent]
    stolen: tuple[float, float] | None  # CPU seconds the host lost then, and the most in one second; None without host.csv

    @property
    def gc(self) -> bool:
        """A concurrent cycle running, or a pause long enough to draw (a ZGC pause of microseconds is not)."""
        return bool(self.cycles) or any(e.length_s >= DRAWN_PAUSE_S for e in self.pauses)

    @property
    def host_lost_cpu(self) -> bool:
        """A second in which the host lost at least STOLEN_MARK_S, as the search's repeat rule counts it."""
        return self.stolen is not None and self.stolen[1] >= STOLEN_MARK_S


def coincided(log: LatencyLog, interval: int, gc: list[GcEvent], host: pd.DataFrame | None) -> Coincided:
    begin = float(log.start_s[interval]) - LOOK_BACK_S
    end = float(log.start_s[interval] + log.length_s[interval])
    overlapping = [e for e in gc if e.start_s < end and e.end_s > begin]
    return Coincided([e for e in overlapping if e.pause], [e for e in overlapping if not e.pause],
                     stolen_between(host, begin, end))


def slowest_against_chance(run: Run) -> tuple[Coincided, float] | None:
    """What coincided with the run's slowest measured interval (its lead series), and the share of
    all its measured intervals that GC coincided with: what chance alone would give. None if
    nothing was measured."""
    log = next(iter(run.latency.values()))
    measured = np.flatnonzero(log.measured(run.warmup_s))
    if not len(measured):
        return None
    gc = gc_events(run.path, log.start_time_s)
    share = float(np.mean([coincided(log, i, gc, None).gc for i in measured]))
    return coincided(log, slowest_intervals(log, run.warmup_s, 1)[0], gc, run.host), share


def slowest_intervals(log: LatencyLog, warmup_s: float, count: int) -> list[int]:
    """The measured intervals with the highest latency, slowest first."""
    maxima = np.nan_to_num(log.per_interval(100), nan=-1.0)
    return sorted(np.flatnonzero(log.measured(warmup_s)), key=lambda i: -maxima[i])[:count]


def stall_blocks(log: LatencyLog, warmup_s: float, gc: list[GcEvent], host) -> list[Block]:
    """A heading, a line on GC over the measurement, and the slowest intervals' table; nothing
    without GC logs or host.csv, since there would be nothing to put beside the latencies."""
    if not gc and host is None:
        return []
    measured = log.measured(warmup_s)
    if not measured.any():
        return []
    end_s = float((log.start_s + log.length_s)[measured].max())
    blocks: list[Block] = [Heading("Slowest intervals and what coincided")]
    if gc:
        blocks.append(Paragraph(gc_summary(gc, warmup_s, end_s)))
    maxima, p99 = log.per_interval(100), log.per_interval(99)
    rows = []
    for i in slowest_intervals(log, warmup_s, SHOWN):
        seen = coincided(log, i, gc, host)
        rows.append([f"{log.start_s[i]:.0f}", formatting.micros(maxima[i]), formatting.micros(p99[i]),
                     f"{max(e.length_s for e in seen.pauses) * 1e3:.2f} ms ({len(seen.pauses)})" if seen.pauses else "–",
                     ", ".join(f"{e.what.split(' ')[0]}{_member(e)} {e.length_s * 1e3:.0f} ms" for e in seen.cycles) or "–",
                     "–" if seen.stolen is None else f"{seen.stolen[0] * 1e3:.0f}"])
    blocks.append(Table(["interval start (s)", "max", "p99", "longest GC pause (pauses)", "GC cycles running",
                         "CPU stolen (ms)"], rows))
    blocks.append(Paragraph(f"Each row's evidence covers the interval and the {LOOK_BACK_S:g} s before it."))
    return blocks


def gc_summary(gc: list[GcEvent], warmup_s: float, end_s: float) -> str:
    after = [e for e in gc if warmup_s <= e.start_s < end_s]
    pauses = [e for e in after if e.pause]
    cycles = [e for e in after if not e.pause]
    wall = max(end_s - warmup_s, 1e-9)
    longest = max(pauses, key=lambda e: e.length_s, default=None)
    text = (f"GC after the warm-up: {len(pauses)} pause{'s' if len(pauses) != 1 else ''}, "
            f"{sum(e.length_s for e in pauses) * 1e3:,.1f} ms in all")
    if longest:
        text += f", the longest {longest.length_s * 1e3:.2f} ms at {longest.start_s:.0f} s ({longest.what}{_member(longest)})"
    if cycles:
        running = sum(e.length_s for e in cycles)
        text += (f"; {len(cycles)} concurrent cycle{'s' if len(cycles) != 1 else ''}, one every "
                 f"{wall / len(cycles):.0f} s, running {running / wall:.1%} of the time (their threads "
                 f"share the cores with the workers)")
    return text + "."


def _member(event: GcEvent) -> str:
    return f" on {event.member}" if event.member else ""
