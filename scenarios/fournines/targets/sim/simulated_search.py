"""The highest rate a simulated job sustains under a latency bound, found in process by the rate
search of `./fournines search` (search/rate_search.py: bracket by doubling or halving, bisect to the
precision, confirm with a run CONFIRM_FACTOR times as long), each trial a simulation judged as a real
trial is (search/trial.py, analysis/sustainability.py): the bound met by the windows measured after
the warm-up, and the sources' backlog not growing (a least-squares line through `behind_ms`, at most
GROWTH_LIMIT_MS_PER_S). Nothing is written: a figure's trials are many and only their verdicts count.
"""
from collections.abc import Callable
from pathlib import Path

import numpy as np

from fournines.search.rate_search import SearchOutcome, search
from fournines.search.run_search import CONFIRM_FACTOR
from fournines.search.trial import Trial
from fournines.targets.sim.simulation import Simulated, measured_latency
from fournines_analysis.slo import Bound, Check
from fournines_analysis.sustainability import GROWTH_LIMIT_MS_PER_S, MIN_SAMPLES

# simulate_at(rate, measured seconds) -> the run, with its warm-up first
SimulateAt = Callable[[int, float], Simulated]
IN_PROCESS = Path("(in process)")  # a trial's folder: the simulation wrote none


def judged(result: Simulated, rate: int, warmup_s: float, bound: Bound) -> Trial:
    """A trial's verdict on one simulation."""
    problems = []
    pooled = measured_latency(result, warmup_s)
    checks = ()
    if pooled.get_total_count():
        checks = (Check(bound, float(pooled.get_value_at_percentile(bound.percentile))),)
        problems += [f"SLO not met: {c}" for c in checks if not c.met]
    else:
        problems.append("no window was emitted after the warm-up")
    samples = [(t, behind_ms) for t, *_, behind_ms in result.recorder.samples if t > warmup_s]
    if len(samples) >= MIN_SAMPLES:
        growth = float(np.polyfit(*zip(*samples), 1)[0])
        if growth > GROWTH_LIMIT_MS_PER_S:
            problems.append(f"the backlog grew by {growth:.1f} ms of events each second")
    else:
        problems.append(f"{len(samples)} samples after the warm-up; at least {MIN_SAMPLES} are needed to see a trend")
    return Trial(rate, IN_PROCESS, None, checks, tuple(problems), None)


def highest_rate(simulate_at: SimulateAt, warmup_s: float, duration_s: float, bound: Bound, start: int, low: int,
                 high: int, precision: float, say: Callable[[str], None]) -> SearchOutcome:
    def measure(rate: int, confirming: bool) -> Trial:
        seconds = duration_s * (CONFIRM_FACTOR if confirming else 1)
        return judged(simulate_at(rate, seconds), rate, warmup_s, bound)

    return search(measure, start, low, high, precision, say)
