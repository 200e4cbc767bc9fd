"""The report's "Slowest intervals" section: the measured intervals with the highest latency, each
beside what coincided with it or the second before it (an event a stall held up is recorded when it
completes): GC pauses and concurrent GC cycles from the members' gc.log (gc_log.py) and the CPU the
host lost to other guests (steal.py). It attributes nothing by itself; it puts the evidence beside
the stall, so a reader can tell the engine's stalls from the JVM's and the host's."""
import numpy as np

from fournines_analysis import formatting
from fournines_analysis.document import Block, Heading, Paragraph, Table
from fournines_analysis.gc_log import GcEvent
from fournines_analysis.hlog import LatencyLog
from fournines_analysis.steal import stolen_between

SHOWN = 5
LOOK_BACK_S = 1.0


def stall_blocks(log: LatencyLog, warmup_s: float, gc: list[GcEvent], host) -> list[Block]:
    """A heading, a line on GC over the measurement, and the slowest intervals' table; nothing
    without GC logs or host.csv, since there would be nothing to put beside the latencies."""
    if not gc and host is None:
        return []
    measured = np.flatnonzero(log.measured(warmup_s))
    if not len(measured):
        return []
    end_s = float((log.start_s + log.length_s)[measured].max())
    blocks: list[Block] = [Heading("Slowest intervals and what coincided")]
    if gc:
        blocks.append(Paragraph(gc_summary(gc, warmup_s, end_s)))
    maxima = log.per_interval(100)
    slowest = sorted(measured, key=lambda i: -np.nan_to_num(maxima[i], nan=-1.0))[:SHOWN]
    rows = []
    for i in slowest:
        begin, end = float(log.start_s[i]) - LOOK_BACK_S, float(log.start_s[i] + log.length_s[i])
        overlapping = [e for e in gc if e.start_s < end and e.end_s > begin]
        pauses = [e for e in overlapping if e.pause]
        cycles = [e for e in overlapping if not e.pause]
        stolen = stolen_between(host, begin, end)
        rows.append([f"{log.start_s[i]:.0f}", formatting.micros(maxima[i]),
                     formatting.micros(log.per_interval(99)[i]),
                     f"{max(e.length_s for e in pauses) * 1e3:.2f} ms ({len(pauses)})" if pauses else "–",
                     ", ".join(f"{e.what.split(' ')[0]}{_member(e)} {e.length_s * 1e3:.0f} ms" for e in cycles) or "–",
                     "–" if stolen is None else f"{stolen * 1e3:.0f}"])
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
