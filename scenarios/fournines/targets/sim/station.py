"""A machine's cooperative workers: C cores, one thread each, serving the machine's tasklets' work in
arrival order. A core busy with one piece of work serves nothing else (a cooperative tasklet's call
runs to its end), and a GC pause stops every core of the machine (pauses.py).

Work is handed over as (CPU seconds, what to do when done). The station counts the CPU it spent,
for cpu.csv, and what is queued or in service, for the queueing checks.
"""
from collections import deque
from typing import Callable

from fournines.targets.sim.event_loop import Scheduler
from fournines.targets.sim.pauses import Pauses

Done = Callable[[], None]


class Station:
    def __init__(self, loop: Scheduler, cores: int, pauses: Pauses):
        self.loop, self.pauses = loop, pauses
        self.idle_cores = cores
        self.waiting: deque[tuple[float, Done]] = deque()
        self.busy_s = 0.0  # CPU seconds of work finished
        self.in_system = 0  # pieces of work queued or in service

    def submit(self, work_s: float, done: Done) -> None:
        self.in_system += 1
        if self.idle_cores:
            self.idle_cores -= 1
            self._serve(work_s, done)
        else:
            self.waiting.append((work_s, done))

    def _serve(self, work_s: float, done: Done) -> None:
        def finished():
            self.busy_s += work_s
            self.in_system -= 1
            if self.waiting:
                self._serve(*self.waiting.popleft())
            else:
                self.idle_cores += 1
            done()
        self.loop.at(self.pauses.finish(self.loop.now, work_s), finished)
