"""The micro-batch and group models of the windowed job (engine/docs/execution.md, "Execution
models"; the Drizzle paper's Spark-like and group scheduling), on the machines, network and
reduction the continuous model uses (cluster.py). Batch k holds the events due in [kB, (k+1)B); its
two stages are the engine's: stage 0 the sources with the local pre-aggregation (emitting the
partials of every frame that ends in the batch), stage 1, after the partitioned shuffle, the window
owners firing those frames' windows and sending their results to the reducer.

A central scheduler on the first machine, one serial timeline, launches tasks (C per machine and
stage, `scheduler_task_us` each, machine after machine; a machine's tasks reach it a hop after its
last is launched) and, once every machine reported a stage done (a hop back), spends
`batch_coordination_us` on it.
- micro-batch: batch k's stage 0 is launched once its end has passed and batch k-1 is done; stage 1
  once stage 0 is done everywhere (a barrier), and its tasks fetch the partials from every machine.
  Each step is a round trip to the scheduler.
- group: the scheduler launches every stage of g batches at once, paying one batch's launches (the
  decisions are reused for the group, as in Drizzle); a machine runs a batch's stage 0 once its end has
  passed, pushes the partials to the owners' stage-1 tasks, already waiting, which run once every
  machine's have arrived. Reports go to the scheduler without stopping anything; the next group is
  launched when the group's last batch is done (the only barrier). With `group_size: auto` each
  group's size is tuned from the last one's batches (group_tuning.py).
Every stage of every batch is recorded as the engine records it (batches.csv): launched, started
(the first task on any machine), finished (the last), done (the scheduler heard and booked it); a
batch launched ahead in a group counts as launched no earlier than its end.
"""
import math
from dataclasses import dataclass, field

from fournines.targets.sim.cluster import REDUCER, Cluster
from fournines.targets.sim.group_tuning import FIRST_GROUP_SIZE, next_group_size

STAGES = 2


@dataclass
class _Stage:
    launched: float = math.inf
    started: float = math.inf
    finished: float = 0.0
    reports: int = 0  # machines that reported it done
    done: float = math.nan


@dataclass
class _Batch:
    stages: list[_Stage] = field(default_factory=lambda: [_Stage() for _ in range(STAGES)])
    partials_in: dict[int, int] = field(default_factory=dict)  # group: per owner machine, senders arrived
    group: int = 0  # group: the group it was launched in


@dataclass
class _Group:
    batches: range
    undone: int  # batches not done yet
    late: bool = False  # a batch was done later than the latency target after its end


class BatchedJob(Cluster):
    def __init__(self, *args, batch_s: float, group_size: int | str, pre_scheduled: bool,
                 latency_target_s: float | None = None, first_s: float = 0.0):
        """`group_size` "auto" tunes it toward `latency_target_s` (group_tuning.py); `first_s`: the event
        time of the first batch run (a restart from the first batch not done)."""
        super().__init__(*args)
        shape, c = self.shape, self.cost
        self.batch_s, self.pre_scheduled = batch_s, pre_scheduled
        self.tuned, self.latency_target_s = group_size == "auto", latency_target_s
        self.group_size = FIRST_GROUP_SIZE if self.tuned else group_size  # the next group's
        self.batches = int(shape.horizon_s / batch_s + 1e-9)
        self.task_s, self.coordination_s = c["scheduler_task_us"] * 1e-6, c["batch_coordination_us"] * 1e-6
        n, cores = shape.members, shape.cores
        self.events_per_task = shape.rate * batch_s / n / cores
        self.scheduler_free = 0.0
        self.state: dict[int, _Batch] = {}
        self.groups: list[_Group] = []  # group: every group launched, in order
        self.arrived_group = [-1] * n  # per machine: the last group whose launch reached it
        self.first_undone = round(first_s / batch_s)  # every batch before it is done
        self._done_ahead: set[int] = set()  # batches done after it, out of order

    def start(self) -> None:
        first = self.first_undone
        if self.pre_scheduled:
            self.loop.at(0.0, lambda: self._launch_group(first))
        else:
            self.loop.at((first + 1) * self.batch_s, lambda: self._launch_stage(first, 0))

    def frames_ending_in(self, batch: int) -> range:
        """The frames whose end falls in (kB, (k+1)B]: their partials and windows belong to batch k.
        Frame f ends at (f + 1) × slide, so f runs from ⌊kB / slide⌋ to ⌊(k+1)B / slide⌋ − 1 (none when a
        slide longer than a batch ends in a later one)."""
        slide, b = self.shape.slide_s, self.batch_s
        first = math.floor(batch * b / slide + 1e-9)
        last = math.floor((batch + 1) * b / slide + 1e-9)
        return range(first, min(last, self.frames))

    def _schedule(self, work_s: float) -> float:
        """The scheduler's serial timeline: work begun when it is free, returning when it ends."""
        self.scheduler_free = max(self.loop.now, self.scheduler_free) + work_s
        return self.scheduler_free

    def _launch_times(self, stages: int) -> list[float]:
        """When each machine's tasks reach it, the scheduler launching C × `stages` of them per machine in turn."""
        begin = max(self.loop.now, self.scheduler_free)
        per_machine = self.shape.cores * stages * self.task_s
        self._schedule(per_machine * self.shape.members)
        return [begin + (m + 1) * per_machine + self.network.delay_s(REDUCER, m, 0) for m in range(self.shape.members)]

    # micro-batch: one stage launched at a time

    def _done(self, batch: int) -> None:
        self._done_ahead.add(batch)
        while self.first_undone in self._done_ahead:
            self._done_ahead.remove(self.first_undone)
            self.first_undone += 1

    def _launch_stage(self, batch: int, stage: int) -> None:
        if self.cancelled:
            return
        self.state.setdefault(batch, _Batch()).stages[stage].launched = self.loop.now
        for m, arrives in enumerate(self._launch_times(1)):
            self.loop.at(arrives, lambda m=m: self._fetch_and_run(batch, stage, m))

    def _fetch_and_run(self, batch: int, stage: int, m: int) -> None:
        """A launched task has started; a stage-1 task first fetches its partials from every machine."""
        self._started(batch, stage)
        if stage:
            self.loop.at(self.loop.now + self._partials_delay(batch, m), lambda: self._run(batch, stage, m))
        else:
            self._run(batch, stage, m)

    def _partials_delay(self, batch: int, receiver: int) -> float:
        """The slowest sender's partials for `receiver` (links are not shared: senders in parallel)."""
        sender = (receiver + 1) % self.shape.members
        return self.network.delay_s(sender, receiver, self._partial_bytes(batch))

    def _partial_bytes(self, batch: int) -> float:
        frames = len(self.frames_ending_in(batch))
        return frames * self.partials_per_tasklet_frame * self.shape.cores / self.shape.members * self.cost["partial_bytes"]

    # group: every stage of g batches launched at once

    def _launch_group(self, first: int) -> None:
        if self.cancelled:
            return
        group = len(self.groups)
        batches = range(first, min(first + self.group_size, self.batches))
        self.groups.append(_Group(batches, len(batches)))
        launched = self.loop.now
        for k in batches:
            state = self.state.setdefault(k, _Batch())
            state.group = group
            for s in state.stages:
                s.launched = max(launched, (k + 1) * self.batch_s)
        for m, arrives in enumerate(self._launch_times(STAGES)):
            self.loop.at(arrives, lambda m=m: self._group_arrived(m, group, batches))

    def _group_arrived(self, m: int, group: int, batches: range) -> None:
        self.arrived_group[m] = group
        for k in batches:
            self.loop.at((k + 1) * self.batch_s, lambda k=k: self._start_and_run(k, 0, m))
            if self.state[k].partials_in.get(m) == self.shape.members:  # pushed before the launch reached m
                self._start_and_run(k, 1, m)

    def _partials_arrived(self, batch: int, owner: int) -> None:
        arrived = self.state[batch].partials_in
        arrived[owner] = arrived.get(owner, 0) + 1
        if arrived[owner] == self.shape.members and self.arrived_group[owner] >= self.state[batch].group:
            self._start_and_run(batch, 1, owner)

    def _start_and_run(self, batch: int, stage: int, m: int) -> None:
        """A pre-scheduled task starts once its input is there: the batch's end, or every machine's partials."""
        self._started(batch, stage)
        self._run(batch, stage, m)

    # both

    def _started(self, batch: int, stage: int) -> None:
        s = self.state[batch].stages[stage]
        s.started = min(s.started, self.loop.now)

    def _run(self, batch: int, stage: int, m: int) -> None:
        """Machine m's C tasks of the stage: one equal piece of the batch's work each."""
        if stage == 0:
            work = (self.events_per_task * self.cost["source_ns_per_event"] +
                    len(self.frames_ending_in(batch)) * self.partials_per_tasklet_frame * self.cost["partial_ns_per_key"])
        else:
            work = sum(self.owned_keys_per_tasklet(f) for f in self.frames_ending_in(batch)) * self.cost["key_slide_ns"]
        self.machines[m].submit(work * 1e-9, lambda: self._task_finished(batch, stage, m), self.shape.cores)

    def _task_finished(self, batch: int, stage: int, m: int) -> None:
        s = self.state[batch].stages[stage]
        s.finished = max(s.finished, self.loop.now)
        if stage == 0:
            self.processed_events += self.events_per_task * self.shape.cores
            if self.pre_scheduled:
                self._push_partials(batch, m)
        else:
            for frame in self.frames_ending_in(batch):
                self.send_result(m, frame)
        self.loop.at(self.loop.now + self.network.delay_s(m, REDUCER, 0), lambda: self._reported(batch, stage))

    def _push_partials(self, batch: int, m: int) -> None:
        self.to_every_machine(m, self._partial_bytes(batch), lambda d: self._partials_arrived(batch, d))

    def _reported(self, batch: int, stage: int) -> None:
        s = self.state[batch].stages[stage]
        s.reports += 1
        if s.reports < self.shape.members:
            return
        s.done = self._schedule(self.coordination_s)
        self.loop.at(s.done, lambda: self._stage_done(batch, stage))

    def _stage_done(self, batch: int, stage: int) -> None:
        if self.cancelled:
            return
        if stage + 1 < STAGES:
            if not self.pre_scheduled:
                self._launch_stage(batch, stage + 1)
            return
        state = self.state.pop(batch)
        self._done(batch)
        group = self.groups[state.group] if self.pre_scheduled else None
        size = len(group.batches) if group else self.group_size
        for number, s in enumerate(state.stages):
            self.recorder.batch_stage(batch, number, s.launched, s.started, s.finished, s.done, size)
        if group is None:
            if batch + 1 < self.batches:
                self.loop.at((batch + 2) * self.batch_s, lambda: self._launch_stage(batch + 1, 0))
            return
        group.undone -= 1
        if self.tuned and state.stages[-1].done - (batch + 1) * self.batch_s > self.latency_target_s:
            group.late = True
        if not group.undone and group.batches.stop < self.batches:
            if self.tuned:
                self.group_size = next_group_size(self.group_size, not group.late)
            self._launch_group(group.batches.stop)
