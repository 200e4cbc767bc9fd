"""The machine one or more simulated members run on, as far as it slows their work: its cores share
caches and memory bandwidth, so the busier it has lately been, the longer a piece of work takes
(core_contention; station.py). A member alone has a host of its own; the members of a local run
(MACHINE=local) share one, as `./fournines run` places them on this machine.

The busy share is the host's recent one, over the last SHARE_INTERVAL_S, not the instant's: the
tasklets' shares of a batch start together in the model, but real workers' calls overlap as often
as the load makes them. Work and background count; GC cycles' threads do not (their cost is the
workers' speed during a cycle)."""
SHARE_INTERVAL_S = 0.1  # long beside a piece of work (~1 ms), short beside a run


class Host:
    def __init__(self, contention: float):
        self.contention = contention
        self.stations = []
        self._stretch, self._since, self._busy_since = 1.0, 0.0, 0.0

    def stretch(self, now: float) -> float:
        """How many times as long a piece of work started now takes as it would alone: 1 + contention ×
        the host's busy share, on a host of two or more cores."""
        if now - self._since >= SHARE_INTERVAL_S:
            cores = sum(s.cores for s in self.stations)
            busy_s = sum(s.busy_s for s in self.stations)
            work_cores = (busy_s - self._busy_since) / (now - self._since)
            share = min(1.0, (work_cores + sum(s.background_cores for s in self.stations)) / cores)
            self._stretch = 1 + self.contention * share if cores > 1 else 1.0
            self._since, self._busy_since = now, busy_s
        return self._stretch
