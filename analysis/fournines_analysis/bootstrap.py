"""Hierarchical bootstrap for benchmark runs: draw runs with replacement, then 1 s intervals with
replacement within each drawn run.

Intervals of one run share that run's JVM, JIT decisions, heap layout and neighbours, so they are
not independent; drawing runs first carries the run-to-run noise of a shared, noisy machine into the
interval, and drawing intervals second carries the second-to-second noise (stalls, GC) within a run.
A resample is a weight per interval: how many times it was drawn.
"""
import numpy as np

from fournines_analysis.histograms import Layout, value_at_percentiles

_CHUNK = 256  # replicates per matrix product in pooled_percentile, to bound memory


def resample_weights(run_sizes: list[int], replicates: int, rng: np.random.Generator) -> np.ndarray:
    """(replicates, sum(run_sizes)) draw counts; columns are the runs' intervals, run after run.

    A run drawn m times contributes m * n draws among its n intervals; m independent multinomial
    resamples of one run sum to a single multinomial of m * n draws, hence one call per run.
    """
    k = len(run_sizes)
    picks = rng.multinomial(k, np.full(k, 1 / k), size=replicates)
    return np.concatenate([rng.multinomial(picks[:, r] * n, np.full(n, 1 / n))
                           for r, n in enumerate(run_sizes)], axis=1)


def weighted_median(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Lower median of `values` drawn `weights` times, for each row of weights."""
    order = np.argsort(values)
    cumulative = np.cumsum(weights[:, order], axis=1)
    middle = (cumulative >= cumulative[:, -1:] / 2).argmax(axis=1)
    return values[order][middle]


def weighted_mean(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    return weights @ values / weights.sum(axis=1)


def pooled_percentile(counts: np.ndarray, layout: Layout, weights: np.ndarray, percentile: float) -> np.ndarray:
    """The percentile of the histogram summed over the drawn intervals, for each row of weights."""
    counts = counts.astype(float)
    return np.concatenate([value_at_percentiles(weights[i:i + _CHUNK] @ counts, layout, [percentile])[:, 0]
                           for i in range(0, len(weights), _CHUNK)])
