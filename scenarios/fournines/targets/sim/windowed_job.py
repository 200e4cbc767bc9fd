"""The continuous model of a sliding-window aggregation with Q5's shape, on N machines of C cores:

  source → local pre-aggregation per frame → partitioned edge to each key's owner
         → sliding-window combine → per-window reduction on one machine → sink

Events flow as counted batches: every batch (1 ms, coarser only past MAX_SOURCE_BATCHES_PER_S) each
machine's C source tasklets take the events due in it (rate / N of them), costing
source_ns_per_event each: one piece of work per core, handed to the machine as one item (station.py).
A machine with parked workers gets its batch up to wakeup_span_us late: an idle worker wakes once a
span of its source's items is due, at a phase of its own, so the last of a frame's items waits for
the last of the parked workers to wake (a busy worker takes them as they come).
When a machine has processed every event of a frame (one slide of event time: its watermark passed
the frame's end), each source tasklet emits its partials, one per distinct key it saw
(partial_ns_per_key each), to the keys' owners, spread evenly over the N machines. A machine that has
every machine's partials of a frame fires the window ending there: its owner tasklets touch each key
they own in the window (key_slide_ns each: merge, slide, compare) and send their result to the
reducing machine (cluster.py), which emits the window once all N have arrived.
"""
from fournines.targets.sim.cluster import Cluster

SOURCE_BATCH_S = 0.001  # how finely the sources' work is cut: fine enough that a frame's work overlaps its slide
# Source batches the whole cluster may hand over per simulated second (one loop event per machine and
# batch): past ~100 machines batches grow, so a run's cost stays bounded by the size of the cluster.
MAX_SOURCE_BATCHES_PER_S = 100_000


def source_batch_s(members: int, slide_s: float) -> float:
    """1 ms, or longer on a cluster too big to hand every machine a batch every ms; always a whole
    fraction of the slide, so a frame's end is a batch's end."""
    wanted = max(SOURCE_BATCH_S, members / MAX_SOURCE_BATCHES_PER_S)
    return slide_s / max(1, int(slide_s / wanted + 1e-9))


class WindowedJob(Cluster):
    def __init__(self, *args, first_s: float = 0.0):
        """`first_s`: the event time the sources start from (a restart from a snapshot taken then)."""
        super().__init__(*args)
        shape, c = self.shape, self.cost
        n, cores = shape.members, shape.cores
        self.batch_s = source_batch_s(n, shape.slide_s)
        self.batches_per_frame = max(1, round(shape.slide_s / self.batch_s))
        self.events_per_job = shape.rate * self.batch_s / n / cores
        self.source_job_s = self.events_per_job * c["source_ns_per_event"] * 1e-9
        self.wakeup_span_s = c["wakeup_span_us"] * 1e-6
        if self.wakeup_span_s > self.batch_s:
            raise ValueError(f"wakeup_span_us {c['wakeup_span_us']:g} is longer than the model's source batch "
                             f"({self.batch_s * 1e6:g} us): the batches would be handed over out of order")
        self.flush_job_s = self.partials_per_tasklet_frame * c["partial_ns_per_key"] * 1e-9
        self.partial_message_bytes = self.partials_per_tasklet_frame * cores / n * c["partial_bytes"]
        # Work outstanding, per machine and frame: source batches; partial messages still to arrive.
        self.sources_left = [dict() for _ in range(n)]
        self.partials_left = [dict() for _ in range(n)]
        # the sources hand over whole frames: a restart replays from the start of the frame first_s falls in
        self.first_batch = int(first_s / shape.slide_s + 1e-9) * self.batches_per_frame

    def start(self) -> None:
        """Batches due before now (a restart's replay) are handed over at once, in order."""
        first = self.first_batch
        self.loop.at((first + 1) * self.batch_s, lambda: self._source_batch(first))

    def _source_batch(self, batch: int) -> None:
        """The events due in the batch are handed to the sources at its end; the next batch is due a batch later."""
        if self.cancelled:
            return
        if batch + 1 < self.frames * self.batches_per_frame:
            self.loop.at((batch + 2) * self.batch_s, lambda: self._source_batch(batch + 1))
        frame, within = divmod(batch, self.batches_per_frame)
        cores = self.shape.cores
        # Handed over late (a restart's replay), its items were due long ago: no worker parks for them.
        on_time = self.loop.now <= (batch + 1) * self.batch_s + 1e-9
        for m, machine in enumerate(self.machines):
            if within == 0:  # every batch of the frame counted at once: done with all of them means the frame is
                self.sources_left[m][frame] = self.batches_per_frame
            delay = self._wakeup_s(machine.idle_workers()) if on_time else 0.0
            handed = lambda m=m, machine=machine: machine.submit(self.source_job_s, lambda: self._source_done(m, frame), cores)
            if delay:
                self.loop.at(self.loop.now + delay, handed)
            else:
                handed()

    def _wakeup_s(self, parked: int) -> float:
        """When the last of `parked` workers wakes for the batch: each wakes at a uniform phase of the
        span, so the latest at the span times the largest of `parked` uniform draws."""
        if not parked or not self.wakeup_span_s:
            return 0.0
        return self.wakeup_span_s * self.rng.random() ** (1 / parked)

    def _source_done(self, m: int, frame: int) -> None:
        self.processed_events += self.events_per_job * self.shape.cores
        left = self.sources_left[m]
        left[frame] -= 1
        if left[frame]:
            return
        del left[frame]
        self.machines[m].submit(self.flush_job_s, lambda: self._flushed(m, frame), self.shape.cores)

    def _flushed(self, m: int, frame: int) -> None:
        self.to_every_machine(m, self.partial_message_bytes, lambda d: self._partials_arrived(d, frame))

    def _partials_arrived(self, d: int, frame: int) -> None:
        left = self.partials_left[d]
        left[frame] = left.get(frame, self.shape.members) - 1
        if left[frame]:
            return
        del left[frame]
        self.machines[d].submit(self.owned_keys_per_tasklet(frame) * self.cost["key_slide_ns"] * 1e-9,
                                lambda: self.send_result(d, frame), self.shape.cores)
