"""The times a machine's cores are all stopped, drawn up front for the whole run: its stop-the-world
GC pauses and its stalls (the cores unavailable to the job: JIT, the OS, the hypervisor), each a
Poisson process of starts at a calibrated rate with lengths exponential about the calibrated mean.

Knowing them in advance makes preemption exact and cheap: work in progress when a pause begins
resumes when it ends (`finish`), as a JVM's threads do at a safepoint, with no event per pause.
"""
import bisect
import math

import numpy as np


class Pauses:
    def __init__(self, starts: np.ndarray, ends: np.ndarray):
        self.starts, self.ends = starts.tolist(), ends.tolist()

    @classmethod
    def none(cls) -> "Pauses":
        return cls(np.empty(0), np.empty(0))

    @classmethod
    def drawn(cls, rng: np.random.Generator, per_s: float, mean_s: float, horizon_s: float) -> "Pauses":
        count = rng.poisson(per_s * horizon_s) if per_s > 0 and mean_s > 0 else 0
        if not count:
            return cls.none()
        starts = np.sort(rng.uniform(0, horizon_s, count))  # a Poisson process's points, given their count
        return cls._overlaps_merged(starts, starts + rng.exponential(mean_s, count))

    @classmethod
    def merged(cls, *every: "Pauses") -> "Pauses":
        """The machine stopped whenever any of `every` stops it (its GC pauses and its stalls)."""
        starts = np.concatenate([np.asarray(p.starts, dtype=float) for p in every])
        ends = np.concatenate([np.asarray(p.ends, dtype=float) for p in every])
        if not len(starts):
            return cls.none()
        order = np.argsort(starts, kind="stable")
        return cls._overlaps_merged(starts[order], ends[order])

    @classmethod
    def _overlaps_merged(cls, starts: np.ndarray, ends: np.ndarray) -> "Pauses":
        """Sorted starts with their ends; overlapping stops become one, lasting until the later one ends."""
        ends = np.maximum.accumulate(ends)
        keep = np.r_[True, starts[1:] > ends[:-1]]
        last = np.r_[np.flatnonzero(keep)[1:] - 1, len(starts) - 1]
        return cls(starts[keep], ends[last])

    def stop_from(self, at: float) -> None:
        """The machine stops at `at` for good (it was lost): one last pause, without end."""
        i = bisect.bisect_right(self.starts, at)
        del self.starts[i:], self.ends[i:]
        if self.starts and self.ends[-1] >= at:
            self.ends[-1] = math.inf
        else:
            self.starts.append(at)
            self.ends.append(math.inf)

    def total_s(self) -> float:
        return float(sum(e - s for s, e in zip(self.starts, self.ends)))

    def finish(self, start: float, work: float) -> float:
        """When `work` seconds of CPU begun at `start` are done, the pauses from then on stopping it."""
        i = bisect.bisect_right(self.starts, start) - 1
        t = start
        if i >= 0 and self.ends[i] > t:  # begun inside a pause: it waits for the end
            t = self.ends[i]
        i += 1
        while i < len(self.starts) and self.starts[i] < t + work:
            work -= self.starts[i] - t
            t = self.ends[i]
            i += 1
        return t + work
