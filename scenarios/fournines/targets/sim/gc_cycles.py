"""A machine's concurrent GC cycles, drawn up front for the whole run: one after another, each of the
calibrated length, the gaps between them exponential so that they come `per_s` times a second on
average. (ZGC's came every 7-14 s whether Q5 ran at 1 or 4 M events/s here: proactive cycles at low
rates, the heap filled at high rates; the gc.log of sim-validate's runs and engine/MEASURED.md,
2026-11-28.) While one runs the workers run at the calibrated share of their speed, and the cycle's
threads spend the rest of the machine's cores.

A piece of work runs at the speed of the moment it starts (station.py): pieces last about a
millisecond, cycles hundreds.
"""
import bisect

import numpy as np


def threads_cores(speed: float, cores: int) -> float:
    """Cores a cycle's threads spend on a machine of `cores` while its workers run at `speed`."""
    return (1 - speed) * cores


class GcCycles:
    def __init__(self, starts: list[float], length_s: float, speed: float):
        self.starts, self.length_s, self.speed = starts, length_s, speed

    @classmethod
    def none(cls) -> "GcCycles":
        return cls([], 0.0, 1.0)

    @classmethod
    def drawn(cls, rng: np.random.Generator, per_s: float, length_s: float, speed: float, horizon_s: float) -> "GcCycles":
        if per_s <= 0 or length_s <= 0 or speed >= 1:
            return cls.none()
        mean_gap_s = max(0.0, 1 / per_s - length_s)

        def gap() -> float:
            return rng.exponential(mean_gap_s) if mean_gap_s else 0.0
        starts, t = [], gap()
        while t < horizon_s:
            starts.append(t)
            t += length_s + gap()
        return cls(starts, length_s, speed)

    def speed_at(self, t: float) -> float:
        i = bisect.bisect_right(self.starts, t) - 1
        return self.speed if i >= 0 and t < self.starts[i] + self.length_s else 1.0

    def running_s(self, until: float) -> float:
        """Seconds of cycles run by `until`."""
        i = bisect.bisect_right(self.starts, until)
        if not i:
            return 0.0
        return (i - 1) * self.length_s + min(self.length_s, until - self.starts[i - 1])
