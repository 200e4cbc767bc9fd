"""A machine lost mid-run, and the job's recovery under each execution model (sim-figures' Drizzle
Fig. 7), as the reference engine recovers (engine/docs/cluster.md, "Recovery"):

- the machine stops at the kill: its cores do no more work (pauses.stop_from), so no window that
  needs its partials or its result completes;
- it is found lost when it has been silent for the failure timeout (a killed machine says nothing;
  a killed process would close its connections and be found at once);
- continuous: the job restarts on the survivors from the latest snapshot before the kill, the
  survivors running again a restart's time after the word; their sources replay every event from the
  snapshot on (from the start of the frame it falls in: the model's sources hand over whole frames,
  so a long slide replays more than the engine would), and every window since it is computed and
  emitted again, late, as the engine's are;
- micro-batch and group: the scheduler launches again, on the survivors, from the first batch not
  done (its tasks and every later batch's; the window state of the lost machine's keys is taken as
  restored from the batches' lineage at no cost).

The job given up is cancelled (it starts and emits nothing more), and a new one of the same model on
N − 1 machines takes over, recording into the same recorder. Snapshots cost nothing in the model
(their alignment and replication are not modelled): what a restart costs here is detection, the
restart itself and the replay.
"""
import math
from dataclasses import dataclass, replace

import numpy as np

from fournines.targets.sim.calibration import Parameter
from fournines.targets.sim.cluster import SERIES
from fournines.targets.sim.event_loop import HeapLoop
from fournines.targets.sim.recorder import Recorder
from fournines.targets.sim.simulation import job_model, job_shape, rare_cycle_collection

FAILURE_TIMEOUT_S = 3.0  # the engine's: `serve --failure-timeout-ms` defaults to 3 s (engine/docs/cluster.md)
RESTART_S = 0.1  # the survivors ran the job again 50 and 98 ms after the coordinator's word (engine/MEASURED.md)
SNAPSHOT_INTERVAL_S = 1.0  # exactly-once every second, as bench-q5-fault runs


@dataclass(frozen=True)
class Loss:
    at_s: float  # when the machine stops
    machine: int = 1  # not the reducer (machine 0), which also runs the scheduler


def with_loss(scenario: dict, costs: dict[str, Parameter], cores: int, seed: int, loss: Loss) -> Recorder:
    """Runs the scenario to its horizon with `loss`; the recorder holds the windows of the job before
    the loss and of the one after, as emitted."""
    loop = HeapLoop()
    shape = job_shape(scenario, cores)
    recorder = Recorder(SERIES, scenario["warmup_s"])
    rng = np.random.default_rng(seed)
    before = job_model(scenario, loop, shape, costs, recorder, rng)
    before.start()
    loop.at(loss.at_s, lambda: before.machines[loss.machine].pauses.stop_from(loss.at_s))

    def restart() -> None:
        before.cancel()
        survivors = replace(shape, members=shape.members - 1)
        if scenario["execution"] == "continuous":
            # the latest snapshot completed before the kill (one due at its very instant is not)
            snapshot_s = (math.ceil(loss.at_s / SNAPSHOT_INTERVAL_S) - 1) * SNAPSHOT_INTERVAL_S
            after = job_model(scenario, loop, survivors, costs, recorder, rng, first_s=snapshot_s)
            loop.at(loop.now + RESTART_S, after.start)
        else:
            after = job_model(scenario, loop, survivors, costs, recorder, rng, first_s=before.first_undone * before.batch_s)
            after.start()
    loop.at(loss.at_s + FAILURE_TIMEOUT_S, restart)
    with rare_cycle_collection():
        loop.run(shape.horizon_s)
    return recorder


def worst_per_second(recorder: Recorder) -> list[tuple[float, float]]:
    """(second, the slowest window emitted in it, ms), for every second a window was emitted in."""
    return [(second, histogram.get_max_value() / 1e3)
            for second, histogram in sorted(recorder.intervals["latency"].items())]


def recovery_s(worst: list[tuple[float, float]], loss_s: float, factor: float = 2.0) -> float | None:
    """From the loss to the end of the last second whose slowest window took more than `factor` × the
    median of the seconds before the loss; None when nothing was emitted before it."""
    before = [ms for second, ms in worst if second < loss_s]
    if not before:
        return None
    bound = factor * float(np.median(before))
    late = [second for second, ms in worst if second >= loss_s and ms > bound]
    return max(late) + 1 - loss_s if late else 0.0
