"""The scheduling interface the model is written against, and our own loop behind it.

The model only ever asks for "call this at that time", so any discrete-event kernel can back it:
`HeapLoop` (a binary heap of timed callbacks, the default) or `SimpyLoop` (simpy_loop.py). Ties at
one instant run in the order they were scheduled, so a run is a function of its seed alone.
"""
import heapq
import itertools
from typing import Callable, Protocol


class Scheduler(Protocol):
    @property
    def now(self) -> float:
        """Simulated seconds since t=0."""

    def at(self, time: float, action: Callable[[], None]) -> None:
        """Calls `action` at simulated `time` (not before now)."""

    def run(self, until: float) -> None:
        """Runs every action due before `until`, then sets now to `until`."""


class HeapLoop:
    def __init__(self):
        self._now = 0.0
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self.actions_run = 0  # what a run costs, independent of how loaded the machine running it is

    @property
    def now(self) -> float:
        return self._now

    def at(self, time: float, action: Callable[[], None]) -> None:
        heapq.heappush(self._queue, (max(time, self._now), next(self._order), action))

    def run(self, until: float) -> None:
        queue = self._queue
        while queue and queue[0][0] < until:
            self._now, _, action = heapq.heappop(queue)
            action()
            self.actions_run += 1
        self._now = until
