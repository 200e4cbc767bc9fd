"""The runner's CSV time series, one row per sample (normally one a second):

- throughput.csv: time_s, events, events_per_s
- cpu.csv: time_s, cpu_seconds
- load.csv: time_s, generated, behind_ms (the load source: events it made, how far behind its schedule)

time_s is the end of the sample in seconds since the run's t=0 (the .hlog StartTime). `events`,
`generated` and `cpu_seconds` are cumulative, so a rate over the measurement is one exact difference, untouched by
sampling jitter; events_per_s is the rate over the sample, for plotting. Extra columns are ignored.
"""
import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd

from fournines_analysis.errors import BadInput, read_text

THROUGHPUT_COLUMNS = ("time_s", "events", "events_per_s")
CPU_COLUMNS = ("time_s", "cpu_seconds")
LOAD_FILE = "load.csv"
LOAD_COLUMNS = ("time_s", "generated", "behind_ms")


def read_series(path: Path, columns: tuple[str, ...], cumulative: str) -> pd.DataFrame:
    """The named columns as floats; time_s must increase and `cumulative` must never decrease."""
    path = Path(path)
    reader = csv.DictReader(io.StringIO(read_text(path), newline=""))
    missing = [c for c in columns if c not in (reader.fieldnames or [])]
    if missing:
        raise BadInput(path, f"missing column(s) {', '.join(missing)}; the header must name "
                             f"{', '.join(columns)}", 1)
    rows: list[dict[str, float]] = []
    for row in reader:
        line = reader.line_num
        record = {c: _number(row[c], path, line, c) for c in columns}
        if rows and record["time_s"] <= rows[-1]["time_s"]:
            raise BadInput(path, f"must increase, goes from {rows[-1]['time_s']} to {record['time_s']}",
                           line, "time_s")
        if rows and record[cumulative] < rows[-1][cumulative]:
            raise BadInput(path, f"is cumulative and must not decrease, goes from {rows[-1][cumulative]} "
                                 f"to {record[cumulative]}", line, cumulative)
        rows.append(record)
    if not rows:
        raise BadInput(path, "no samples")
    return pd.DataFrame(rows, columns=list(columns))


def measurement_start(time_s: np.ndarray, warmup_s: float) -> int:
    """The sample the measurement counts from: the last one at or before the warm-up's end (the first
    sample if none is), so differences from it cover the whole measurement."""
    return max(0, int(np.searchsorted(time_s, warmup_s, side="right")) - 1)


def rate_after(series: pd.DataFrame, cumulative: str, warmup_s: float) -> float | None:
    """Mean rate of `cumulative` over the measurement (from measurement_start to the last sample).
    None with fewer than two samples."""
    time, total = series["time_s"].to_numpy(), series[cumulative].to_numpy()
    first = measurement_start(time, warmup_s)
    if first >= len(time) - 1:
        return None
    return float((total[-1] - total[first]) / (time[-1] - time[first]))


def per_sample_rate(series: pd.DataFrame, cumulative: str) -> pd.Series:
    """Rate of `cumulative` over each sample (e.g. cores busy from cpu_seconds); the first is NaN."""
    return series[cumulative].diff() / series["time_s"].diff()


def _number(text, path: Path, line: int, column: str) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise BadInput(path, f"not a number: {text!r}", line, column) from None
    if not np.isfinite(value):
        raise BadInput(path, f"not a finite number: {text!r}", line, column)
    return value
