"""Java's percentile rule on small histograms whose answer is known by hand."""
import numpy as np
from hdrh.histogram import HdrHistogram

from fournines_analysis.histograms import counts_of, layout_of, max_value, mean, value_at_percentiles


def histogram_of(values):
    h = HdrHistogram(1, 60_000_000, 3)
    for v in values:
        h.record_value(v)
    return counts_of(h), layout_of(h)


def test_rank_is_the_ceiling_not_the_rounding():
    counts, layout = histogram_of(range(1, 11))
    # 12% of 10 events is rank 1.2: the 2nd value (hdrh's own query rounds to the 1st).
    assert value_at_percentiles(counts, layout, [12, 50, 51, 100]).tolist() == [2, 5, 6, 10]


def test_float_noise_does_not_push_the_rank_up():
    counts, layout = histogram_of(range(1, 1001))
    # 99.9/100 * 1000 is 999.0000000000001 in floats; the 999th value is meant, as Java answers.
    assert value_at_percentiles(counts, layout, [99.9]).tolist() == [999]


def test_values_report_the_top_of_their_bucket_and_zero_the_bottom():
    counts, layout = histogram_of([100_000])  # in the bucket [99968, 100031] at 3 significant digits
    assert value_at_percentiles(counts, layout, [0, 50]).tolist() == [99_968, 100_031]
    assert max_value(counts, layout) == 100_031


def test_stacks_and_empty_histograms():
    counts, layout = histogram_of(range(1, 11))
    stack = np.stack([counts, np.zeros_like(counts), 2 * counts])
    result = value_at_percentiles(stack, layout, [50, 90])
    assert result[0].tolist() == [5, 9] and result[2].tolist() == [5, 9]
    assert np.isnan(result[1]).all()
    assert np.isnan(mean(np.zeros_like(counts), layout))
