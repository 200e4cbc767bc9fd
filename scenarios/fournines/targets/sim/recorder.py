"""What a simulated run records, in the files a real run writes (analysis/docs/results-folder.md):
window-result latencies in 1 s HdrHistogram intervals (µs, 3 significant digits, warm-up intervals
tagged `warmup`, as the member's LatencyLog does) and, once a simulated second, the cumulative
counters of throughput.csv, cpu.csv and load.csv; for the micro-batch and group models, every stage
of every batch done, in the engine's batches.csv."""
import math
from datetime import datetime, timezone
from pathlib import Path

from hdrh.histogram import HdrHistogram

from fournines_analysis.batches import BATCHES_FILE, COLUMNS

LOWEST_US, HIGHEST_US, DIGITS = 1, 3_600_000_000, 3


class Recorder:
    def __init__(self, series: tuple[str, ...], warmup_s: float):
        self.series, self.warmup_s = series, warmup_s
        self.intervals: dict[str, dict[int, HdrHistogram]] = {name: {} for name in series}
        self.samples: list[tuple[float, int, float, int, float]] = []  # time, processed, cpu s, generated, behind ms
        self.batch_stages: list[tuple[int, int, float, float, float, float, int]] = []  # as BATCH_COLUMNS, in s

    def batch_stage(self, batch: int, stage: int, launched_s: float, started_s: float, finished_s: float,
                    done_s: float, group_size: int) -> None:
        """One stage of a batch a micro-batch or group model finished, in simulated seconds."""
        self.batch_stages.append((batch, stage, launched_s, started_s, finished_s, done_s, group_size))

    def latency(self, series: str, at_s: float, micros: float) -> None:
        intervals = self.intervals[series]
        second = int(at_s)
        if second not in intervals:
            intervals[second] = HdrHistogram(LOWEST_US, HIGHEST_US, DIGITS)
        intervals[second].record_value(min(max(LOWEST_US, round(micros)), HIGHEST_US))

    def sample(self, time_s: float, processed: int, cpu_s: float, generated: int, behind_ms: float) -> None:
        self.samples.append((time_s, processed, cpu_s, generated, behind_ms))

    def values_written(self) -> dict[str, int]:
        return {f"{name}.hlog": sum(h.get_total_count() for h in self.intervals[name].values()) for name in self.series}

    def write(self, folder: Path, start_epoch_s: float, end_s: float) -> None:
        for name in self.series:
            (folder / f"{name}.hlog").write_text(self._hlog(name, start_epoch_s, end_s), encoding="utf-8")
        rows = self.samples
        (folder / "throughput.csv").write_text("time_s,events,events_per_s\n" + "".join(
            f"{t:.3f},{n},{(n - (rows[i - 1][1] if i else 0)) / (t - (rows[i - 1][0] if i else 0)):.1f}\n"
            for i, (t, n, _, _, _) in enumerate(rows)), encoding="utf-8")
        (folder / "cpu.csv").write_text("time_s,cpu_seconds\n" + "".join(f"{t:.3f},{c:.3f}\n" for t, _, c, _, _ in rows),
                                        encoding="utf-8")
        if self.batch_stages:
            (folder / BATCHES_FILE).write_text(self._batches_csv(start_epoch_s), encoding="utf-8")
        (folder / "load.csv").write_text("time_s,generated,behind_ms\n" + "".join(
            f"{t:.3f},{g},{b:.3f}\n" for t, _, _, g, b in rows), encoding="utf-8")

    def _batches_csv(self, start_epoch_s: float) -> str:
        """The engine's batches.csv: batches and their stages in order, epoch µs (rounding keeps each
        row's times in order)."""
        base_us = round(start_epoch_s * 1e6)
        return ",".join(COLUMNS) + "\n" + "".join(
            f"{batch},{stage},{','.join(str(base_us + round(t * 1e6)) for t in times)},{group}\n"
            for batch, stage, *times, group in sorted(self.batch_stages))

    def _hlog(self, name: str, start_epoch_s: float, end_s: float) -> str:
        """Java's HistogramLogWriter format, timestamps relative to a BaseTime at t=0; every second up
        to `end_s` gets an interval, an empty one where no window fired."""
        stamp = datetime.fromtimestamp(start_epoch_s, timezone.utc).strftime("%a %b %d %H:%M:%S UTC %Y")
        lines = ["#[Histogram log format version 1.3]\n",
                 "#fournines simulated latency in microseconds (window results)\n",
                 f"#[StartTime: {start_epoch_s:.3f} (seconds since epoch), {stamp}]\n",
                 f"#[BaseTime: {start_epoch_s:.3f} (seconds since epoch)]\n",
                 '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n']
        for second in range(math.ceil(end_s)):
            histogram = self.intervals[name].get(second) or HdrHistogram(LOWEST_US, HIGHEST_US, DIGITS)
            tag = "Tag=warmup," if second < self.warmup_s else ""
            lines.append(f"{tag}{second:.3f},1.000,{histogram.get_max_value() / 1e3:.3f},{histogram.encode().decode()}\n")
        return "".join(lines)
