"""A machine's cooperative workers: C cores, one thread each, serving the machine's tasklets' work in
arrival order. A core busy with one piece of work serves nothing else (a cooperative tasklet's call
runs to its end), and a GC pause stops every core of the machine (pauses.py). The workers run slower
by the machine's background share of its cores, slower still while a concurrent GC cycle runs
(gc_cycles.py), and slower as their host gets busier (host.py): a piece takes its host's stretch times
as long, and its core spends CPU all that time.

Work is handed over as (CPU seconds per piece, what to do when every piece is done, pieces): k equal
pieces submitted at once are k tasklets' equal shares of one batch, served exactly as k separate
items in a row would be. Pieces that start together on idle cores also finish together, so they cost
the loop one event, not k: that is what keeps a machine of 16 cores as cheap to simulate as one of 1.
The station counts the CPU it spent, for cpu.csv, and what is queued or in service, for the queueing checks.
"""
from collections import deque
from typing import Callable

from fournines.targets.sim.event_loop import Scheduler
from fournines.targets.sim.gc_cycles import GcCycles, threads_cores
from fournines.targets.sim.host import Host
from fournines.targets.sim.pauses import Pauses

Done = Callable[[], None]


class _Work:
    __slots__ = ("piece_s", "unstarted", "unfinished", "done")

    def __init__(self, piece_s: float, pieces: int, done: Done):
        self.piece_s, self.unstarted, self.unfinished, self.done = piece_s, pieces, pieces, done


class Station:
    def __init__(self, loop: Scheduler, cores: int, pauses: Pauses, cycles: GcCycles = GcCycles.none(),
                 background_cores: float = 0.0, host: Host | None = None):
        """`host`: the machine it shares with other members; None: one of its own, without contention."""
        if not 0 <= background_cores < cores:
            raise ValueError(f"background_cores must be in [0, {cores}) for a machine of {cores} cores; is {background_cores}")
        self.loop, self.pauses, self.cycles = loop, pauses, cycles
        self.cores, self.background_cores = cores, background_cores
        self.host = host or Host(0.0)
        self.host.stations.append(self)
        self.idle_cores = cores
        self.waiting: deque[_Work] = deque()
        self.busy_s = 0.0  # CPU seconds of work finished
        self.in_system = 0  # pieces of work queued or in service

    def submit(self, piece_s: float, done: Done, pieces: int = 1) -> None:
        self.in_system += pieces
        work = _Work(piece_s, pieces, done)
        if self.idle_cores:
            self._start(work)
        if work.unstarted:
            self.waiting.append(work)

    def idle_workers(self) -> int:
        """Cores with nothing to do: parked workers, which a source's items must wake."""
        return 0 if self.waiting else self.idle_cores

    def _start(self, work: _Work) -> None:
        """As many of the work's pieces as there are idle cores start now, and end together."""
        started = min(self.idle_cores, work.unstarted)
        self.idle_cores -= started
        work.unstarted -= started
        now = self.loop.now
        stretch = self.host.stretch(now)

        def finished():
            self.busy_s += work.piece_s * stretch * started
            self.in_system -= started
            self.idle_cores += started
            while self.idle_cores and self.waiting:
                head = self.waiting[0]
                self._start(head)
                if not head.unstarted:
                    self.waiting.popleft()
            work.unfinished -= started
            if not work.unfinished:
                work.done()
        speed = self.cycles.speed_at(now) * (1 - self.background_cores / self.cores)
        self.loop.at(self.pauses.finish(now, work.piece_s * stretch / speed), finished)

    def cpu_s(self, until: float) -> float:
        """CPU seconds spent by `until`: the work finished, the background's and the GC cycles' threads'."""
        cycles = self.cycles.running_s(until) * threads_cores(self.cycles.speed, self.cores)
        return self.busy_s + self.background_cores * until + cycles
