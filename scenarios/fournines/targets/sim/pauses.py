"""A machine's stop-the-world GC pauses, drawn up front for the whole run: a Poisson process of
pause starts at a calibrated rate, each pause's length exponential about the calibrated mean.

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
        ends = starts + rng.exponential(mean_s, count)
        # Overlapping pauses merge into one: the machine is stopped until the later one ends.
        ends = np.maximum.accumulate(ends)
        keep = np.r_[True, starts[1:] > ends[:-1]]
        last = np.r_[np.flatnonzero(keep)[1:] - 1, count - 1]
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
