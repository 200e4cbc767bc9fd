"""The scheduling interface (event_loop.py) backed by SimPy's environment, so the model can run on
either kernel and `make bench-sim` can time both on the same model."""
from typing import Callable

import simpy


class SimpyLoop:
    def __init__(self):
        self._env = simpy.Environment()

    @property
    def now(self) -> float:
        return self._env.now

    def at(self, time: float, action: Callable[[], None]) -> None:
        timeout = self._env.timeout(max(time - self._env.now, 0.0))
        timeout.callbacks.append(lambda _: action())

    def run(self, until: float) -> None:
        if until > self._env.now:
            self._env.run(until=until)
