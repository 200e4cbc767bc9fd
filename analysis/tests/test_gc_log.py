"""The members' GC logs read on the run's timeline, whatever the collector, and the report's table of
the slowest intervals with the GC and the stolen CPU beside each."""
from pathlib import Path

import numpy as np
import pytest

from fournines_analysis.gc_log import gc_events, read_gc_log
from fournines_analysis.report import write_report
from synthetic import START_TIME_S, hlog_text, write_run

T0 = "2026-01-01T00:00"  # synthetic.START_TIME_S as a UTC time stamp, to the minute

G1 = f"""\
[{T0}:10.000+0000][1.0s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)
[{T0}:10.015+0000][1.1s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->3M(128M) 15.452ms
[{T0}:11.000+0000][2.0s][info][gc          ] GC(1) Pause Young (Concurrent Start) (G1 Evacuation Pause) 9M->5M(128M) 2.000ms
[{T0}:11.001+0000][2.0s][info][gc,marking  ] GC(2) Concurrent Mark Cycle
[{T0}:11.200+0000][2.2s][info][gc          ] GC(2) Pause Remark 9M->9M(128M) 1.500ms
[{T0}:11.300+0000][2.3s][info][gc,marking  ] GC(2) Concurrent Mark Cycle 299.000ms
"""
ZGC = f"""\
[{T0}:20.000+0000][5.4s][info][gc,start    ] GC(6) Garbage Collection (Allocation Rate)
[{T0}:20.001+0000][5.4s][info][gc,phases   ] GC(6) Pause Mark Start 0.018ms
[{T0}:20.165+0000][5.6s][info][gc,phases   ] GC(6) Concurrent Mark 164.527ms
[{T0}:20.400+0000][5.8s][info][gc          ] GC(6) Garbage Collection (Allocation Rate) 1922M(94%)->116M(6%)
"""
GENERATIONAL_ZGC = f"""\
[{T0}:30.000+0000][0.9s][info][gc,phases   ] GC(0) Y: Pause Mark Start (Major) 0.015ms
[{T0}:30.006+0000][0.9s][info][gc,phases   ] GC(0) Y: Concurrent Mark 5.939ms
"""
SHENANDOAH = f"""\
[{T0}:40.000+0000][1.3s][info][gc,start    ] GC(0) Pause Init Mark (unload classes)
[{T0}:40.001+0000][1.3s][info][gc          ] GC(0) Pause Init Mark (unload classes) 0.039ms
[{T0}:40.120+0000][1.4s][info][gc          ] GC(0) Concurrent marking (unload classes) 115.244ms
"""


def events(tmp_path: Path, text: str):
    log = tmp_path / "gc.log"
    log.write_text("[2026-01-01T00:00:00.000+0000][0.0s][info][gc,init] Version: 17 (release)\n" + text)
    return read_gc_log(log, START_TIME_S)


def test_g1_pauses_end_at_their_line_and_its_marking_is_a_cycle(tmp_path):
    found = events(tmp_path, G1)
    pauses = [(round(e.start_s, 4), round(e.length_s, 4), e.what) for e in found if e.pause]
    assert pauses == [(9.9995, 0.0155, "Pause Young (Normal) (G1 Evacuation Pause)"),
                      (10.998, 0.002, "Pause Young (Concurrent Start) (G1 Evacuation Pause)"),
                      (11.1985, 0.0015, "Pause Remark")]
    [cycle] = [e for e in found if not e.pause]  # the concurrent start is a pause, not a cycle
    assert (round(cycle.start_s, 3), round(cycle.end_s, 3), cycle.what) == (11.001, 11.3, "GC(2) concurrent cycle")


@pytest.mark.parametrize("text, pause, cycle", [
    (ZGC, "Pause Mark Start", (20.0, 20.4)),
    (GENERATIONAL_ZGC, "Pause Mark Start (Major)", (30.0, 30.006)),
    (SHENANDOAH, "Pause Init Mark (unload classes)", (40.0, 40.12)),  # from its first line, the pause that starts it
])
def test_the_other_collectors_read_alike(tmp_path, text, pause, cycle):
    found = events(tmp_path, text)
    assert [e.what for e in found if e.pause] == [pause]
    [running] = [e for e in found if not e.pause]
    assert (round(running.start_s, 3), round(running.end_s, 3)) == cycle


def test_a_clusters_logs_are_each_members(tmp_path):
    for member, text in (("member-1", ZGC), ("member-2", G1)):
        (tmp_path / member).mkdir()
        (tmp_path / member / "gc.log").write_text(text)
    found = gc_events(tmp_path, START_TIME_S)
    assert {e.member for e in found} == {"member-1", "member-2"}
    assert [e.start_s for e in found] == sorted(e.start_s for e in found)
    assert gc_events(tmp_path / "member-1" / "nothing", START_TIME_S) == []


def test_the_report_puts_the_gc_and_the_stolen_cpu_beside_the_slowest_intervals(tmp_path):
    folder = write_run(tmp_path / "run", seed=3, seconds=25, warmup_s=5)
    rng = np.random.default_rng(1)
    per_second = [rng.lognormal(np.log(400), 0.3, 1000) for _ in range(25)]
    per_second[20][0], per_second[23][0] = 50_000, 40_000  # stalls: one in a GC cycle, one while the host lost CPU
    (folder / "latency.hlog").write_text(hlog_text(per_second))
    (folder / "gc.log").write_text(ZGC)
    (folder / "host.csv").write_text("time_s,steal_seconds\n" + "".join(f"{t},{0.06 * (t > 22):.2f}\n" for t in range(1, 26)))
    report = write_report(folder)[0].read_text()
    section = report.split("## Slowest intervals and what coincided")[1].split("\n## ")[0]
    assert "GC after the warm-up: 1 pause, 0.0 ms in all, the longest 0.02 ms at 20 s (Pause Mark Start); " \
           "1 concurrent cycle, one every 20 s, running 2.0% of the time" in section
    rows = [line.strip("| ").split(" | ") for line in section.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == 5
    assert rows[0] == ["20", "50,015 µs", "832 µs", "0.02 ms (1)", "GC(6) 400 ms", "0"]
    assert rows[1][0] == "23" and rows[1][4:] == ["–", "60"]
