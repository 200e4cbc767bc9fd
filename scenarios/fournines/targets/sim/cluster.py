"""What every execution model of the windowed job shares: the job's shape, the N machines (stations
with their GC pauses and stalls), the network between them, the calibrated costs in seconds, and the per-window
reduction on the first machine, where a window's latency is decided and recorded.

Latency is taken exactly where it is decided: the window's emission time minus its end, which is the
scheduled time of the latest event it covers (events are due at t0 + i / rate and carry that time),
as the members' WindowLatencyRecorder does. The reduction emits each window once, so its first and
last result are the same instant: latency.hlog and completion.hlog hold the same values.
"""
from dataclasses import dataclass
from typing import Callable

import numpy as np

from fournines.targets.sim.auction_keys import distinct_auctions
from fournines.targets.sim.calibration import Parameter
from fournines.targets.sim.event_loop import Scheduler
from fournines.targets.sim.gc_cycles import GcCycles, threads_cores
from fournines.targets.sim.host import Host
from fournines.targets.sim.network import Network
from fournines.targets.sim.pauses import Pauses
from fournines.targets.sim.recorder import Recorder
from fournines.targets.sim.station import Station

SERIES = ("latency", "completion")
REDUCER = 0  # the machine that merges every machine's result of a window, and schedules batches


@dataclass(frozen=True)
class JobShape:
    members: int
    cores: int
    rate: float  # events/s over the whole cluster
    keys: int
    window_s: float
    slide_s: float
    horizon_s: float  # warm-up + duration
    one_host: bool = False  # the members share one host (a local run's), else each has its own (host.py)


def key_slides_per_s(keys: int, rate: float, window_s: float, slide_s: float) -> float:
    """(key, slide) pairs the keys' owners touch per second: every key of a window, every slide."""
    return distinct_auctions(keys, rate * window_s) / slide_s


def partials_and_results_ns_per_s(keys: int, rate: float, slide_s: float, members: int, threads: int,
                                  partial_ns: float, result_ns: float) -> float:
    """CPU ns per second the cluster spends on partials and window results: each of the members × threads
    tasklets emits a partial per distinct key it saw in a frame, each machine's result of a window is
    merged at the reducer."""
    tasklets = members * threads
    partials_per_s = tasklets * distinct_auctions(keys, rate * slide_s, tasklets) / slide_s
    return partials_per_s * partial_ns + members / slide_s * result_ns


def contended_cores(work_cores: float, background_cores: float, cores: int, contention: float) -> float:
    """The cores a host of `cores` keeps busy with `work_cores` of work as it would take alone: the
    work stretched by 1 + contention × the host's busy share ρ = (b + background) / C (host.py), so
    b = w (1 + contention ρ), b = w (1 + contention × background / C) / (1 − contention × w / C); every
    core once that would exceed them."""
    if cores == 1 or not contention:
        return work_cores
    room = 1 - contention * work_cores / cores
    busy = work_cores * (1 + contention * background_cores / cores) / room if room > 0 else cores
    return min(cores - background_cores, busy)


def busy_cores_per_machine(shape: "JobShape", cost: dict[str, float]) -> float:
    """The cores a machine keeps busy, as cpu.csv counts a member's: its share of the events', the
    partials', the (key, slide) pairs' and the results' costs as contention stretches them, its
    background, and its GC cycles' threads."""
    ns_per_s = (shape.rate * cost["source_ns_per_event"]
                + key_slides_per_s(shape.keys, shape.rate, shape.window_s, shape.slide_s) * cost["key_slide_ns"]
                + partials_and_results_ns_per_s(shape.keys, shape.rate, shape.slide_s, shape.members, shape.cores,
                                                cost["partial_ns_per_key"], cost["result_ns"]))
    cycles = cost["gc_cycles_per_s"] * cost["gc_cycle_mean_ms"] * 1e-3 * threads_cores(cost["gc_cycle_speed"], shape.cores)
    sharing = shape.members if shape.one_host else 1  # members per host
    work = contended_cores(ns_per_s * 1e-9 / shape.members * sharing, cost["background_cores"] * sharing,
                           shape.cores * sharing, cost["core_contention"]) / sharing
    return work + cost["background_cores"] + cycles


class Cluster:
    """The base of each model; a model sets `batch_s`, how much of the sources' input it takes at once."""
    batch_s: float

    def __init__(self, loop: Scheduler, shape: JobShape, costs: dict[str, Parameter], recorder: Recorder,
                 rng: np.random.Generator):
        self.loop, self.shape, self.recorder, self.rng = loop, shape, recorder, rng
        self.cost = {name: p.value for name, p in costs.items()}
        c = self.cost
        self.network = Network(c["network_hop_us"] * 1e-6, c["network_ns_per_byte"] * 1e-9)
        self.machines, self.stops_drawn = [], []  # stops_drawn: (GC pauses, stalls) per machine, for member.json
        # A stall delays the job only when it takes a worker that has work: they come in proportion to the cores busy.
        stalls_per_s = c["stalls_per_busy_core_s"] * busy_cores_per_machine(shape, c)
        shared = Host(c["core_contention"]) if shape.one_host else None
        for _ in range(shape.members):
            gc = Pauses.drawn(rng, c["gc_pauses_per_s"], c["gc_pause_mean_ms"] * 1e-3, shape.horizon_s)
            stalls = Pauses.drawn(rng, stalls_per_s, c["stall_mean_ms"] * 1e-3, shape.horizon_s)
            cycles = GcCycles.drawn(rng, c["gc_cycles_per_s"], c["gc_cycle_mean_ms"] * 1e-3, c["gc_cycle_speed"], shape.horizon_s)
            self.machines.append(Station(loop, shape.cores, Pauses.merged(gc, stalls), cycles, c["background_cores"],
                                         shared or Host(c["core_contention"])))
            self.stops_drawn.append((len(gc.starts), len(stalls.starts)))
        # each of the members × cores source tasklets sends a partial per auction its bids named in a frame
        self.partials_per_tasklet_frame = distinct_auctions(shape.keys, shape.rate * shape.slide_s,
                                                            shape.members * shape.cores)
        self.frames_per_window = max(1, round(shape.window_s / shape.slide_s))
        self.frames = int(shape.horizon_s / shape.slide_s)
        self.processed_events = 0.0
        self._results_left: dict[int, int] = {}  # at the reducer: the machines' results still to come, per window
        self.cancelled = False  # the job was given up (a machine lost): it starts and emits nothing more

    def cancel(self) -> None:
        self.cancelled = True

    def backlog_events(self) -> float:
        """Events due by now that no source tasklet has processed yet."""
        return min(self.loop.now, self.frames * self.shape.slide_s) * self.shape.rate - self.processed_events

    def cpu_s(self) -> float:
        return sum(machine.cpu_s(self.loop.now) for machine in self.machines)

    def owned_keys_per_tasklet(self, frame: int) -> float:
        """Keys each owner tasklet touches when the window ending with `frame` fires."""
        span = min(self.frames_per_window, frame + 1) * self.shape.slide_s
        return distinct_auctions(self.shape.keys, self.shape.rate * span) / self.shape.members / self.shape.cores

    def to_every_machine(self, sender: int, size_bytes: float, arrive: Callable[[int], None]) -> None:
        """A message of `size_bytes` from `sender` to each machine: its own at once, the others after
        the same delay, so one action of the loop delivers them all."""
        arrive(sender)
        others = [d for d in range(self.shape.members) if d != sender]
        if not others:
            return

        def arrived():
            for d in others:
                arrive(d)
        self.loop.at(self.loop.now + self.network.delay_s(sender, others[0], size_bytes), arrived)

    def send_result(self, machine: int, frame: int) -> None:
        """`machine`'s result of the window ending with `frame` goes to the reducer, which merges it."""
        delay = self.network.delay_s(machine, REDUCER, 0)
        self.loop.at(self.loop.now + delay, lambda: self.machines[REDUCER].submit(
            self.cost["result_ns"] * 1e-9, lambda: self._reduced(frame)))

    def _reduced(self, frame: int) -> None:
        if self.cancelled:
            return
        left = self._results_left.get(frame, self.shape.members) - 1
        if left:
            self._results_left[frame] = left
            return
        self._results_left.pop(frame, None)
        now = self.loop.now
        micros = (now - (frame + 1) * self.shape.slide_s) * 1e6
        for series in SERIES:
            self.recorder.latency(series, now, micros)
