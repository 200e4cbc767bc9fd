"""One simulated run of a resolved scenario: the model built from the calibration (as the machine
profile scales it), run one simulated second at a time, sampled at each second's end as the member's
samplers do. Deterministic: the seed draws every random quantity (the GC pauses and stalls), and the loop
breaks ties in scheduling order."""
import gc
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import numpy as np
from hdrh.histogram import HdrHistogram

from fournines.targets.sim.batched_job import BatchedJob
from fournines.targets.sim.calibration import Parameter
from fournines.targets.sim.cluster import SERIES, Cluster, JobShape
from fournines.targets.sim.event_loop import HeapLoop, Scheduler
from fournines.targets.sim.recorder import DIGITS, HIGHEST_US, LOWEST_US, Recorder
from fournines.targets.sim.windowed_job import WindowedJob


@dataclass
class Simulated:
    recorder: Recorder
    job: Cluster  # the model run: WindowedJob (continuous) or BatchedJob (micro-batch, group)
    end_s: float  # simulated seconds run: warm-up + duration, or less if stopped
    interrupted: bool  # stopped by Ctrl-C before the horizon


def measured_latency(result: Simulated, warmup_s: float) -> HdrHistogram:
    """The windows' latencies after the warm-up, pooled."""
    pooled = HdrHistogram(LOWEST_US, HIGHEST_US, DIGITS)
    for second, histogram in result.recorder.intervals["latency"].items():
        if second >= warmup_s:
            pooled.add(histogram)
    return pooled


def job_shape(scenario: dict, cores: int, one_host: bool = False) -> JobShape:
    query = scenario["query"]
    return JobShape(members=scenario["cluster"]["members"], cores=cores, rate=float(scenario["load"]["rate"]),
                    keys=scenario["load"]["keys"], window_s=query["window_ms"] / 1e3, slide_s=query["slide_ms"] / 1e3,
                    horizon_s=scenario["warmup_s"] + scenario["duration_s"], one_host=one_host)


@contextmanager
def rare_cycle_collection():
    """The model allocates a callback per piece of work and reference counting frees nearly all of
    them; at Python's default pace the cyclic collector rescans an overloaded cluster's whole backlog
    every few hundred allocations. Measured: 20 simulated s of Q5 at 1 B events/s on 45 x 16 cores in
    3.3 s of wall time instead of 5.6 s, with the same peak memory."""
    before = gc.get_threshold()
    gc.set_threshold(100_000, 50, 1000)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def job_model(scenario: dict, *args, first_s: float = 0.0) -> Cluster:
    """The scenario's execution model on the cluster `args` describe (Cluster's arguments), starting
    from event time `first_s` (a restart's)."""
    execution = scenario["execution"]
    if execution == "continuous":
        return WindowedJob(*args, first_s=first_s)
    target_ms = scenario.get("latency_target_ms")  # with group_size auto only
    return BatchedJob(*args, batch_s=scenario["batch_ms"] / 1e3, group_size=scenario["group_size"],
                      pre_scheduled=execution == "group", latency_target_s=target_ms / 1e3 if target_ms else None,
                      first_s=first_s)


def simulate(scenario: dict, costs: dict[str, Parameter], cores: int, seed: int,
             loop: Scheduler | None = None, each_second: Callable[[float, Recorder], None] = lambda t, r: None,
             one_host: bool = False) -> Simulated:
    """Runs the whole horizon; `each_second(t, recorder)` is called after every simulated second (progress);
    `one_host`: the members share one host (host.py).
    Ctrl-C (KeyboardInterrupt) ends it early, keeping what was recorded up to the last whole second."""
    loop = loop or HeapLoop()
    shape = job_shape(scenario, cores, one_host)
    recorder = Recorder(SERIES, scenario["warmup_s"])
    job = job_model(scenario, loop, shape, costs, recorder, np.random.default_rng(seed))
    job.start()
    end, interrupted = 0.0, False
    for second in range(1, int(np.ceil(shape.horizon_s)) + 1):
        t = min(float(second), shape.horizon_s)
        try:
            with rare_cycle_collection():
                loop.run(t)
        except KeyboardInterrupt:
            interrupted = True
            break
        backlog = job.backlog_events()
        recorder.sample(t, round(job.processed_events), job.cpu_s(), round(t * shape.rate),
                        max(0.0, backlog / shape.rate - job.batch_s) * 1e3)
        end = t
        try:
            each_second(t, recorder)
        except KeyboardInterrupt:
            interrupted = True
            break
    return Simulated(recorder, job, end, interrupted)
