"""Reading HdrHistogram interval logs (.hlog) as Java's HistogramLogWriter writes them.

hdrh's own HistogramLogReader skips any line it cannot parse (tagged lines included); a benchmark
must not quietly lose a second of latency, so lines are parsed here, strictly, and only the payload
is handed to hdrh. Values are microseconds, one interval per second (see analysis/docs/results-folder.md).
"""
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from hdrh.histogram import HdrHistogram

from fournines_analysis.errors import BadInput, read_text
from fournines_analysis.histograms import Layout, counts_of, layout_of, value_at_percentiles

FIELDS = ("StartTimestamp", "Interval_Length", "Interval_Max", "Interval_Compressed_Histogram")
_HEADER_TIME = re.compile(r"#\[(StartTime|BaseTime): *([^ \]]+)")
_A_YEAR_S = 365 * 24 * 3600.0
# The member tags the intervals that start before its warm-up ends (Java's HistogramLogProcessor then
# skips them by default). They are the same series; what counts as warm-up here is run.json's warmup_s.
WARMUP_TAG = "warmup"


@dataclass(frozen=True, eq=False)
class LatencyLog:
    """One latency series: every interval's histogram, as rows of a counts matrix."""
    name: str  # file stem, plus "[tag]" for tagged lines
    path: Path
    start_s: np.ndarray  # interval start, seconds since the run's t=0 (the log's StartTime)
    length_s: np.ndarray
    counts: np.ndarray  # (intervals, buckets) int64
    layout: Layout
    start_time_s: float  # the run's t=0 (the log's StartTime), seconds since the epoch

    def measured(self, warmup_s: float) -> np.ndarray:
        """Intervals in the measurement: those whose midpoint lies at or after the warm-up's end,
        so a recorder tick a few ms early or late cannot move a whole second in or out."""
        return self.start_s + self.length_s / 2 >= warmup_s

    def per_interval(self, percentile: float) -> np.ndarray:
        """Each interval's value at `percentile` (100 gives its max); NaN for an empty interval."""
        return value_at_percentiles(self.counts, self.layout, [percentile])[:, 0]


def read_hlog(path: Path) -> list[LatencyLog]:
    """All series in one .hlog: one, or one per tag when lines carry `Tag=` (other than `warmup`)."""
    path = Path(path)
    start_time = base_time = None
    rows: dict[str | None, list[tuple[int, float, float, HdrHistogram]]] = {}
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith('"StartTimestamp"'):
            continue
        if line.startswith("#"):
            header = _HEADER_TIME.match(line)
            if header:
                seconds = _number(header.group(2), path, number, header.group(1))
                if header.group(1) == "StartTime":
                    start_time = seconds
                else:
                    base_time = seconds
            continue
        tag, timestamp, length, histogram = _interval(line, path, number)
        rows.setdefault(tag, []).append((number, timestamp, length, histogram))
    if not rows:
        raise BadInput(path, "no interval histograms in the log")
    first_timestamp = min(r[0][1] for r in rows.values())
    if start_time is None:  # Java's rule: without a StartTime, the first interval starts the run
        start_time = first_timestamp
    if base_time is None:  # Java's rule: timestamps more than a year before StartTime are relative
        base_time = start_time if first_timestamp < start_time - _A_YEAR_S else 0.0
    return [_series(path, tag, intervals, base_time, start_time) for tag, intervals in rows.items()]


def _interval(line: str, path: Path, number: int):
    tag = None
    if line.startswith("Tag="):
        tag, _, line = line[len("Tag="):].partition(",")
        if tag == WARMUP_TAG:
            tag = None
    fields = line.split(",")
    if len(fields) != len(FIELDS):
        raise BadInput(path, f"expected {len(FIELDS)} comma-separated fields ({', '.join(FIELDS)}), "
                             f"found {len(fields)}", number)
    # Interval_Max is checked but not used: its unit depends on the writer's maxValueUnitRatio, and the
    # histogram itself carries the exact max.
    timestamp, length, _ = (_number(v, path, number, f) for v, f in zip(fields[:3], FIELDS))
    if length <= 0:
        raise BadInput(path, f"must be positive, is {length}", number, FIELDS[1])
    try:
        histogram = HdrHistogram.decode(fields[3])
    except Exception as e:  # hdrh raises TypeError, zlib.error, its own cookie/length errors, ...
        raise BadInput(path, f"not an HdrHistogram V2 compressed payload ({type(e).__name__}: {e})",
                       number, FIELDS[3]) from e
    return tag, timestamp, length, histogram


def _number(text: str, path: Path, number: int, field: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise BadInput(path, f"not a number: {text!r}", number, field) from None


def _series(path: Path, tag, intervals, base_time: float, start_time: float) -> LatencyLog:
    """Stacks the intervals into one matrix; auto-resizing recorders give rows of different length,
    which is fine as long as the precision (the index->value map) is the same."""
    first_line, first = intervals[0][0], intervals[0][3]
    layouts = [layout_of(h) for *_, h in intervals]
    for (number, *_), layout in zip(intervals, layouts):
        if layout.key != layouts[0].key:
            raise BadInput(path, f"histogram precision differs from line {first_line}'s "
                                 f"({first.significant_figures} significant digits, lowest "
                                 f"{first.lowest_trackable_value})", number, FIELDS[3])
    widest = max(layouts, key=len)
    counts = np.zeros((len(intervals), len(widest)), dtype=np.int64)
    for row, (*_, histogram) in enumerate(intervals):
        c = counts_of(histogram)
        counts[row, :len(c)] = c
    used = np.flatnonzero(counts.any(axis=0))
    width = used[-1] + 1 if len(used) else 1
    return LatencyLog(
        name=path.stem if tag is None else f"{path.stem}[{tag}]",
        path=path,
        start_s=np.array([t for _, t, _, _ in intervals]) + base_time - start_time,
        length_s=np.array([length for _, _, length, _ in intervals]),
        counts=counts[:, :width],
        layout=widest.take(np.arange(width)),
        start_time_s=start_time,
    )
