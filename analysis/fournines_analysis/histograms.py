"""Latency histograms as numpy count vectors, queried exactly the way Java's HdrHistogram answers.

hdrh decodes the wire format, but its queries loop in Python and round percentile ranks half-up,
while Java 2.2.2 takes the smallest value whose rank reaches ceil(p/100 * count). Numbers here must
match what the engine's own HistogramLogProcessor would print, so the queries are redone over numpy
with Java's rule, on the bucket layout hdrh computes.
"""
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from hdrh.histogram import HdrHistogram


@dataclass(frozen=True, eq=False)
class Layout:
    """The value range each counts index stands for; histograms of equal precision share one."""
    key: tuple[int, int]  # (unit_magnitude, sub_bucket_half_count_magnitude): equal keys, equal index->value map
    lowest: np.ndarray  # lowest value equivalent to each index
    highest: np.ndarray  # highest value equivalent to each index
    median: np.ndarray  # the value Java's getMean weighs each index with

    def __len__(self):
        return len(self.lowest)

    def take(self, columns: np.ndarray) -> "Layout":
        """The layout of a counts array reduced to `columns` (dropping buckets empty everywhere)."""
        return Layout(self.key, self.lowest[columns], self.highest[columns], self.median[columns])


def layout_of(histogram: HdrHistogram) -> Layout:
    return _layout(histogram.lowest_trackable_value, histogram.highest_trackable_value,
                   histogram.significant_figures)


@lru_cache(maxsize=None)
def _layout(lowest_trackable: int, highest_trackable: int, significant_figures: int) -> Layout:
    h = HdrHistogram(lowest_trackable, highest_trackable, significant_figures)
    lowest = np.array([h.get_value_from_index(i) for i in range(h.counts_len)], dtype=np.int64)
    highest = np.array([h.get_highest_equivalent_value(v) for v in lowest], dtype=np.int64)
    median = lowest + (highest - lowest + 1) // 2
    return Layout((h.unit_magnitude, h.sub_bucket_half_count_magnitude), lowest, highest, median)


def counts_of(histogram: HdrHistogram) -> np.ndarray:
    """A copy of the decoded counts (hdrh keeps them in a ctypes array inside its payload)."""
    return np.ctypeslib.as_array(histogram.counts).astype(np.int64)


def value_at_percentiles(counts: np.ndarray, layout: Layout, percentiles) -> np.ndarray:
    """Java's getValueAtPercentile for each percentile (0..100), over the last axis of `counts`.

    `counts` may be one histogram (bins,) or a stack (..., bins), also with float (bootstrap-weighted)
    counts. The result has shape (..., len(percentiles)); an empty histogram gives NaN.
    """
    counts = np.asarray(counts)
    percentiles = np.asarray(percentiles, dtype=float)
    cumulative = np.cumsum(counts, axis=-1)
    total = cumulative[..., -1:]
    # Java removes one ulp before taking the ceiling, so 99.99% of 10000 is rank 9999, not 10000.
    requested = np.clip(np.nextafter(percentiles, -np.inf), 0.0, 100.0)
    rank = np.maximum(np.ceil(requested / 100.0 * total), 1)
    index = (cumulative[..., None, :] < rank[..., :, None]).sum(axis=-1)
    index = np.minimum(index, len(layout) - 1)
    values = np.where(percentiles == 0, layout.lowest[index], layout.highest[index]).astype(float)
    return np.where(total > 0, values, np.nan)


def count(counts: np.ndarray) -> int:
    return int(counts.sum())


def mean(counts: np.ndarray, layout: Layout) -> float:
    total = counts.sum()
    return float((counts * layout.median).sum() / total) if total else float("nan")


def max_value(counts: np.ndarray, layout: Layout) -> float:
    """Java's getMaxValue: the highest value equivalent to the largest recorded one."""
    nonzero = np.flatnonzero(counts)
    return float(layout.highest[nonzero[-1]]) if len(nonzero) else float("nan")
