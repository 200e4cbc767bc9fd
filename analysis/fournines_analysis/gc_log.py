"""The members' GC logs (gc.log: the JVM's unified logging with the `time` decoration, as the runner
asks for), read into what a latency plot needs: each stop-the-world pause and each concurrent cycle,
on the run's timeline. Collector-agnostic: a line `GC(n) ... Pause ... <length>ms` is a pause ending
at its time stamp (G1, ZGC, Shenandoah, generational ZGC's `Y:`/`O:` lines); the lines of one GC(n)
that has a `Concurrent` phase (not a pause named so, as G1's concurrent start) span a concurrent cycle, whose threads compete with the workers
for the cores while it runs. A single member's log is `gc.log`; a cluster's are `member-<i>/gc.log`
(and `joined-<n>/` after a restart)."""
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from fournines_analysis.errors import read_text
from fournines_analysis.members import member_processes

GC_LOG = "gc.log"
_LINE = re.compile(r"^\[(\d{4}-\d\d-\d\dT[\d:.]+[+-]\d{4})\].*?\bGC\((\d+)\) (.*)$")
_PAUSE = re.compile(r"^(?:[YOyo]: )?(Pause \D.*?)(?: \S+->\S+)? ([\d.]+)ms$")


@dataclass(frozen=True)
class GcEvent:
    start_s: float  # seconds since the run's t=0
    length_s: float
    pause: bool  # a stop-the-world pause; else a concurrent cycle
    what: str  # "Pause Young (Normal) (G1 Evacuation Pause)", "GC(6) Garbage Collection (Allocation Rate)"
    member: str  # "" for a single member, else the member's name as the report gives it

    @property
    def end_s(self) -> float:
        return self.start_s + self.length_s


def gc_events(run_dir: Path, start_time_s: float) -> list[GcEvent]:
    """Every member's pauses and cycles, by start; empty when no log was kept. `start_time_s`: the
    run's t=0 in seconds since the epoch (the latency log's StartTime)."""
    logs = [("", run_dir / GC_LOG)] + [(name, folder / GC_LOG) for name, folder in member_processes(run_dir)]
    events = [e for member, path in logs if path.is_file() for e in read_gc_log(path, start_time_s, member)]
    return sorted(events, key=lambda e: e.start_s)


def read_gc_log(path: Path, start_time_s: float, member: str = "") -> list[GcEvent]:
    events, spans, concurrent = [], {}, set()
    for line in read_text(path).splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        at = datetime.strptime(match[1], "%Y-%m-%dT%H:%M:%S.%f%z").timestamp() - start_time_s
        gc, text = int(match[2]), match[3].strip()
        first, _ = spans.get(gc, (at, at))
        spans[gc] = (first, at)
        pause = _PAUSE.match(text)
        if pause:
            length = float(pause[2]) / 1e3
            events.append(GcEvent(at - length, length, True, pause[1], member))
        elif "Concurrent" in text:
            concurrent.add(gc)
    for gc in sorted(concurrent):
        first, last = spans[gc]
        events.append(GcEvent(first, last - first, False, f"GC({gc}) concurrent cycle", member))
    return events
