"""`make bench-sim-scale`: wall time of the simulator on the issue's two bounds, each printed against
its limit:
- 128 machines (4 cores, Drizzle's r3.xlarge) × 100 micro-batches of 100 ms, under micro-batch and
  under group scheduling (groups of 100), every batch run to its end;
- Q5 at 1 B events/s on 45 machines of 16 cores (the Jet paper's largest run), 60 simulated seconds.
A timing, so it means something only on a quiet machine; the tests bound the loop's actions instead."""
import time

from fournines.targets.sim.calibration import DEFAULTS
from fournines.targets.sim.simulation import simulate

BATCHES = 100
DRIZZLE = {"query": {"name": "q5", "window_ms": 1000, "slide_ms": 100}, "cluster": {"members": 128, "threads": 4},
           "load": {"rate": 1_000_000, "keys": 10_000}, "warmup_s": 0, "duration_s": BATCHES * 0.1, "batch_ms": 100}
JET = {"query": {"name": "q5", "window_ms": 10_000, "slide_ms": 10}, "cluster": {"members": 45, "threads": 16},
       "load": {"rate": 1_000_000_000, "keys": 10_000}, "warmup_s": 0, "duration_s": 60, "execution": "continuous"}
DRAIN_S = 600  # a micro-batch cluster behind its batches' ends finishes them after the horizon


def timed(scenario: dict, drain: bool) -> tuple[float, str]:
    started = time.perf_counter()
    cores = scenario["cluster"]["threads"]
    simulated = simulate(scenario, DEFAULTS, cores, seed=1)
    if drain:
        simulated.job.loop.run(simulated.end_s + DRAIN_S)
    wall = time.perf_counter() - started
    batches = {row[0] for row in simulated.recorder.batch_stages}
    done = f"{len(batches)} batches done" if drain else f"{simulated.job.processed_events:.3g} events processed"
    return wall, done


def main() -> None:
    runs = [("128 machines x 100 micro-batches, micro-batch", {**DRIZZLE, "execution": "micro-batch", "group_size": 1},
             True, 10),
            ("128 machines x 100 micro-batches, group of 100", {**DRIZZLE, "execution": "group", "group_size": 100},
             True, 10),
            ("Q5 at 1 B events/s, 45 x 16 cores, 60 simulated s", JET, False, 120)]
    for name, scenario, drain, limit_s in runs:
        wall, done = timed(scenario, drain)
        print(f"{name}: {wall:.2f} s wall ({done}); the issue's bound {limit_s} s: {'met' if wall < limit_s else 'MISSED'}",
              flush=True)


if __name__ == "__main__":
    main()
