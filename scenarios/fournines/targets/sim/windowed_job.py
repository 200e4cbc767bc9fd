"""The continuous model of a sliding-window aggregation with Q5's shape, on N machines of C cores:

  source → local pre-aggregation per frame → partitioned edge to each key's owner
         → sliding-window combine → per-window reduction on one machine → sink

Events flow as counted batches: every SOURCE_BATCH_S each machine's C source tasklets take the
events due in it (rate / N of them), costing source_ns_per_event each. When a machine has processed
every event of a frame (one slide of event time: its watermark passed the frame's end), each source
tasklet emits its partials, one per distinct key it saw (partial_ns_per_key each), to the keys'
owners, spread evenly over the N machines. A machine that has every machine's partials of a frame
fires the window ending there: its owner tasklets touch each key they own in the window
(key_slide_ns each: merge, slide, compare) and send their result to the reducing machine (the
first), which emits the window (result_ns per machine's result) once all N have arrived.

Latency is taken exactly where it is decided: the window's emission time minus its end, which is the
scheduled time of the latest event it covers (events are due at t0 + i / rate and carry that time),
as the members' WindowLatencyRecorder does. The reduction emits each window once, so its first and
last result are the same instant: latency.hlog and completion.hlog hold the same values.
"""
import math
from dataclasses import dataclass

import numpy as np

from fournines.targets.sim.calibration import Parameter
from fournines.targets.sim.event_loop import Scheduler
from fournines.targets.sim.network import Network
from fournines.targets.sim.pauses import Pauses
from fournines.targets.sim.recorder import Recorder
from fournines.targets.sim.station import Station

SOURCE_BATCH_S = 0.001  # how finely the sources' work is cut: fine enough that a frame's work overlaps its slide
SERIES = ("latency", "completion")
REDUCER = 0


@dataclass(frozen=True)
class JobShape:
    members: int
    cores: int
    rate: float  # events/s over the whole cluster
    keys: int
    window_s: float
    slide_s: float
    horizon_s: float  # warm-up + duration


def distinct_keys(keys: int, events: float) -> float:
    """Expected distinct keys among `events` drawn uniformly from `keys`."""
    return keys * -math.expm1(-events / keys)


class WindowedJob:
    def __init__(self, loop: Scheduler, shape: JobShape, costs: dict[str, Parameter], recorder: Recorder,
                 rng: np.random.Generator):
        self.loop, self.shape, self.recorder = loop, shape, recorder
        c = {name: p.value for name, p in costs.items()}
        self.network = Network(c["network_hop_us"] * 1e-6, c["network_ns_per_byte"] * 1e-9)
        self.machines = [Station(loop, shape.cores, Pauses.drawn(rng, c["gc_pauses_per_s"], c["gc_pause_mean_ms"] * 1e-3,
                                                                 shape.horizon_s))
                         for _ in range(shape.members)]
        n, cores = shape.members, shape.cores
        self.batch_s = min(SOURCE_BATCH_S, shape.slide_s)
        self.batches_per_frame = max(1, round(shape.slide_s / self.batch_s))
        self.events_per_job = shape.rate * self.batch_s / n / cores
        self.source_job_s = self.events_per_job * c["source_ns_per_event"] * 1e-9
        partials_per_tasklet = distinct_keys(shape.keys, self.events_per_job * self.batches_per_frame)
        self.flush_job_s = partials_per_tasklet * c["partial_ns_per_key"] * 1e-9
        self.partial_message_bytes = partials_per_tasklet * cores / n * c["partial_bytes"]
        self.key_slide_s, self.result_s = c["key_slide_ns"] * 1e-9, c["result_ns"] * 1e-9
        self.frames_per_window = max(1, round(shape.window_s / shape.slide_s))
        self.frames = int(shape.horizon_s / shape.slide_s)
        # Work outstanding, per machine and frame: source jobs, then flush jobs; partial messages
        # still to arrive; owner jobs; and, at the reducer, the machines' results per window.
        self.sources_left = [dict() for _ in range(n)]
        self.partials_left = [dict() for _ in range(n)]
        self.results_left: dict[int, int] = {}
        self.processed_events = 0.0

    def start(self) -> None:
        self.loop.at(self.batch_s, lambda: self._source_batch(0))

    def backlog_events(self) -> float:
        """Events due by now that no source tasklet has processed yet."""
        return min(self.loop.now, self.frames * self.shape.slide_s) * self.shape.rate - self.processed_events

    def _source_batch(self, batch: int) -> None:
        """The events due in the batch are handed to the sources at its end; the next batch is due a batch later."""
        if batch + 1 < self.frames * self.batches_per_frame:
            self.loop.at((batch + 2) * self.batch_s, lambda: self._source_batch(batch + 1))
        frame, within = divmod(batch, self.batches_per_frame)
        for m, machine in enumerate(self.machines):
            if within == 0:  # every job of the frame counted at once: done with all of them means the frame is
                self.sources_left[m][frame] = self.batches_per_frame * self.shape.cores
            for _ in range(self.shape.cores):
                machine.submit(self.source_job_s, lambda m=m: self._source_done(m, frame))

    def _source_done(self, m: int, frame: int) -> None:
        self.processed_events += self.events_per_job
        left = self.sources_left[m]
        left[frame] -= 1
        if left[frame]:
            return
        del left[frame]
        flushes = [self.shape.cores]
        for _ in range(self.shape.cores):
            self.machines[m].submit(self.flush_job_s, lambda: self._flushed(m, frame, flushes))

    def _flushed(self, m: int, frame: int, flushes: list[int]) -> None:
        flushes[0] -= 1
        if flushes[0]:
            return
        for d in range(self.shape.members):
            delay = self.network.delay_s(m, d, self.partial_message_bytes)
            self.loop.at(self.loop.now + delay, lambda d=d: self._partials_arrived(d, frame))

    def _partials_arrived(self, d: int, frame: int) -> None:
        left = self.partials_left[d]
        left[frame] = left.get(frame, self.shape.members) - 1
        if left[frame]:
            return
        del left[frame]
        span = min(self.frames_per_window, frame + 1) * self.shape.slide_s
        owned_per_tasklet = distinct_keys(self.shape.keys, self.shape.rate * span) / self.shape.members / self.shape.cores
        owners = [self.shape.cores]
        for _ in range(self.shape.cores):
            self.machines[d].submit(owned_per_tasklet * self.key_slide_s, lambda: self._window_fired(d, frame, owners))

    def _window_fired(self, d: int, frame: int, owners: list[int]) -> None:
        owners[0] -= 1
        if owners[0] == 0:
            delay = self.network.delay_s(d, REDUCER, 0)
            self.loop.at(self.loop.now + delay,
                         lambda: self.machines[REDUCER].submit(self.result_s, lambda: self._reduced(frame)))

    def _reduced(self, frame: int) -> None:
        left = self.results_left.get(frame, self.shape.members) - 1
        if left:
            self.results_left[frame] = left
            return
        self.results_left.pop(frame, None)
        now = self.loop.now
        micros = (now - (frame + 1) * self.shape.slide_s) * 1e6
        for series in SERIES:
            self.recorder.latency(series, now, micros)

    def cpu_s(self) -> float:
        return sum(machine.busy_s for machine in self.machines)
