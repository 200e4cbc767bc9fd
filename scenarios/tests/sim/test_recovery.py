"""A machine lost mid-run (recovery.py): the machine stops for good; the windows after the loss wait
for the failure timeout and the restart, then the survivors catch up; every window is emitted; the
recovery time is read off the trace as documented."""
import math

import numpy as np
import pytest

from fournines.targets.sim.paper_figures import windowed
from fournines.targets.sim.pauses import Pauses
from fournines.targets.sim.recovery import FAILURE_TIMEOUT_S, Loss, recovery_s, with_loss, worst_per_second
from pausing import QUIET

CORES = 4


def test_a_stopped_machine_finishes_nothing_begun_after_the_stop_and_keeps_its_earlier_pauses():
    pauses = Pauses(np.array([1.0, 5.0]), np.array([1.5, 5.5]))
    pauses.stop_from(3.0)
    assert pauses.finish(0.5, 1.0) == pytest.approx(2.0)  # across the pause at 1 s, ending before the stop
    assert pauses.finish(2.5, 1.0) == math.inf  # running into the stop
    assert pauses.finish(4.0, 0.1) == math.inf
    inside = Pauses(np.array([2.0]), np.array([4.0]))
    inside.stop_from(3.0)  # lost during a pause: it never ends
    assert inside.finish(1.0, 2.0) == math.inf


@pytest.mark.parametrize("execution, group_size", [("continuous", 1), ("micro-batch", 1), ("group", 10)])
def test_after_a_loss_windows_wait_for_the_timeout_then_every_one_is_emitted_and_latency_recovers(execution, group_size):
    """1 s tumbling windows on 4 machines at 1 M events/s, a machine lost at 10.5 s, 30 s in all; no
    GC pauses, so a window slower than twice the normal after the catch-up is the loss's."""
    scenario = windowed(4, CORES, 1e6, 1000, 1000, 1000, 0, 30, execution, 500, group_size)
    recorder = with_loss(scenario, QUIET, CORES, 1, Loss(10.5))
    worst = dict(worst_per_second(recorder))
    normal = max(ms for second, ms in worst.items() if second < 10)
    assert normal < 1000
    # the first window ending after the loss (at 11 s) waited for the loss to be found, at 13.5 s
    assert max(worst.values()) >= (10.5 + FAILURE_TIMEOUT_S - 11) * 1e3
    assert all(ms <= 2 * normal for second, ms in worst.items() if second >= 20)  # caught up well before the end
    emitted = sum(h.get_total_count() for h in recorder.intervals["latency"].values())
    assert emitted >= 29  # every window ending by 29 s; a restart from a snapshot emits some twice
    assert 0 < recovery_s(sorted(worst.items()), 10.5) < 10


def test_the_recovery_time_runs_from_the_loss_to_the_end_of_the_last_slow_second():
    trace = [(1, 10.0), (2, 12.0), (3, 10.0), (5, 4000.0), (6, 30.0), (7, 15.0), (8, 10.0)]
    assert recovery_s(trace, 4.0) == 3.0  # seconds 5 and 6 exceed 2 × the median 10 ms; 6 ends at 7
    assert recovery_s(trace, 4.0, factor=5.0) == 2.0
    assert recovery_s([(5, 10.0)], 4.0) is None  # nothing before the loss to compare with
