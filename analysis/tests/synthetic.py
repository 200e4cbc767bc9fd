"""Synthetic results folders for the gate and fault tests: seeded lognormal latencies with run-to-run noise
and occasional pauses, written in Java's .hlog line format (hdrh encodes the same V2 payload), with
the CPU and event counters of throughput.csv and cpu.csv; and the edits tests make to a copied
results folder (its run.json fields, a log cut short)."""
import json
from pathlib import Path

import numpy as np
from hdrh.histogram import HdrHistogram

START_TIME_S = 1767225600  # HEADER's StartTime
HEADER = ('#[Histogram log format version 1.3]\n'
          '#[StartTime: 1767225600.000 (seconds since epoch), Thu Jan 01 00:00:00 UTC 2026]\n'
          '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n')


CPU_NS_PER_EVENT = 500_000  # half a core at the default 1000 events/s


def write_run(folder: Path, seed: int, slowdown: float = 1.0, seconds: int = 25, warmup_s: int = 5,
              events_per_s: int = 1000, cpu_slowdown: float = 1.0) -> Path:
    """A run whose every latency is `slowdown` times the baseline's, and its CPU per event
    `cpu_slowdown` times; the seed picks the noise."""
    rng = np.random.default_rng(seed)
    run_factor = slowdown * np.exp(rng.normal(0, 0.03))  # this JVM launch is a little faster or slower
    cpu_per_s = events_per_s * CPU_NS_PER_EVENT * 1e-9 * cpu_slowdown * np.exp(rng.normal(0, 0.02))
    cpu_s = np.cumsum(cpu_per_s * rng.lognormal(0, 0.05, seconds)).round(2)  # /proc counts 10 ms ticks
    per_second = []
    for second in range(seconds):
        latency = rng.lognormal(np.log(400), 0.4, events_per_s)
        if rng.random() < 0.2:  # a pause: a few events wait up to 20 ms
            latency[:5] += rng.uniform(5_000, 20_000, 5)
        per_second.append(latency * run_factor)
    folder.mkdir(parents=True)
    (folder / "latency.hlog").write_text(hlog_text(per_second))
    (folder / "throughput.csv").write_text("time_s,events,events_per_s\n" + "".join(
        f"{t + 1},{(t + 1) * events_per_s},{events_per_s}\n" for t in range(seconds)))
    (folder / "cpu.csv").write_text("time_s,cpu_seconds\n" + "".join(f"{t + 1},{c}\n" for t, c in enumerate(cpu_s)))
    (folder / "run.json").write_text(json.dumps({"scenario": {"name": "synthetic"}, "status": "completed",
                                                 "warmup_s": warmup_s, "duration_s": seconds - warmup_s}))
    return folder


def hlog_text(per_second: list[np.ndarray]) -> str:
    """A .hlog with one 1 s interval per array of latencies (µs), starting at HEADER's StartTime; an
    empty array is an interval that recorded nothing."""
    lines = [HEADER]
    for second, latency in enumerate(per_second):
        histogram = HdrHistogram(1, 60_000_000, 3)
        for value, count in zip(*np.unique(np.rint(latency).astype(int), return_counts=True)):
            histogram.record_value(int(value), int(count))
        lines.append(f"{START_TIME_S + second:.3f},1.000,{histogram.get_max_value() / 1e6:.3f},"
                     f"{histogram.encode().decode()}\n")
    return "".join(lines)


def edit_run_json(folder: Path, **changes) -> None:
    """Sets run.json fields; a field set to `...` is removed."""
    fields = json.loads((folder / "run.json").read_text()) | changes
    (folder / "run.json").write_text(json.dumps({k: v for k, v in fields.items() if v is not ...}))


def drop_intervals(hlog: Path, keep) -> None:
    """Keeps the header and the interval lines whose index (0 for the first) `keep` accepts: a log cut
    short, or with a hole, at line boundaries, in the writer's own format."""
    lines = hlog.read_text().splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line[0].isdigit() or line.startswith("Tag="))
    hlog.write_text("".join(lines[:first] + [line for i, line in enumerate(lines[first:]) if keep(i)]))
