"""The 'nines' axis every latency spectrum is drawn on: x = -log10(1 - p), so 90%, 99%, 99.9%, 99.99%
are equally spaced and the tail gets the room it deserves. Shared by the static plots and the
dashboard's interactive ones, so both draw the same curve."""
import numpy as np

from fournines_analysis.histograms import Layout, value_at_percentiles

MAX_NINES = 6  # 99.9999%: beyond it no run of ours has enough events to say anything
_POINTS = 600


def nines_label(nines: float) -> str:
    """Tick label for x = nines: 0 -> 0%, 1 -> 90%, 4 -> 99.99%."""
    return f"{100 - 100 / 10 ** nines:.{max(int(nines) - 2, 0)}f}%"


def nines_curve(counts: np.ndarray, layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """(x in nines, latency) of pooled `counts`. The curve stops at x = log10(count): past it the
    percentile is just the max, and drawing on would claim a resolution the run does not have.
    Empty arrays for a histogram that recorded nothing."""
    total = counts.sum()
    if not total:
        return np.array([]), np.array([])
    end = min(np.log10(total), MAX_NINES) if total > 1 else 0
    x = np.linspace(0, end, _POINTS)
    return x, value_at_percentiles(counts, layout, 100 * (1 - 10.0 ** -x))
