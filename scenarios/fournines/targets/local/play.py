"""Plays one run: the one loop for every plan (plan.py), a lone member, a cluster or two copies and a
consumer, and for members followed over SSH (targets/remote).

It starts the plan's processes, waits until those that serve have said where, submits the jobs, then
follows every process's output (progress to the display; anything else through to the user and into
its log), the jobs' state once a second and the scenario's faults, until the run ends: the lone
member exits, every member is done, or the consumer is. It stops early on a signal, an exit nothing
explains (a fault's is explained), every job lost, a broken progress contract or an overrun; then
whatever is left gets SIGTERM, and SIGKILL after a grace period. No process outlives the runner:
each is a ChildProcess in its own group, killed on exit, with a parent-death signal.

Faults (the scenario's `faults`) are fired at the members by faults.py from this loop, counted from
the job's t=0: the copies' shared start, else the members' own, as their progress lines tell it.
The members stop by themselves after warm-up + duration; STARTUP_AND_FLUSH_S more is allowed for
JVM start and for writing the logs before the run counts as hung.
"""
import dataclasses
import math
import signal
import time
from contextlib import ExitStack
from typing import NoReturn

from fournines.members.child_process import ChildProcess
from fournines.members.follow import Followed, LastWords
from fournines.members.management_api import ManagementApi
from fournines.members.progress import Progress, ProtocolError
from fournines.members.progress_display import ProgressDisplay
from fournines.members.signals import SignalCatcher
from fournines.results.live_log import LiveLog
from fournines.results.outcome import EXIT_FAILED, Outcome
from fournines.targets.local.faults import FaultError, FaultSchedule
from fournines.targets.local.plan import Job, Plan, Process

JOIN_S = 120.0  # every serving process's JVM started (and the members of a cluster joined)
STARTUP_AND_FLUSH_S = 60.0
STOP_GRACE_S = 10.0  # SIGTERM -> SIGKILL; the contract asks the member to exit within this
DRAIN_S = 2.0  # after a stop, how long to collect the processes' last output
DONE_WAIT_S = 15.0  # after the consumer is done, for the live copies' members to write their files
STATUS_EVERY_S = 1.0


class _Ended(Exception):
    """The run ends now, with this outcome."""

    def __init__(self, status: str, cause: str | None, exit_code: int):
        super().__init__(cause)
        self.status, self.cause, self.exit_code = status, cause, exit_code


def play(plan: Plan, display: ProgressDisplay, expected_s: float, faults: list[dict] = (), start_load=None,
         live: LiveLog | None = None) -> Outcome:
    """`expected_s`: warm-up + duration; `faults`: the scenario's; `start_load(t0_epoch_ns)`: called
    once, with the jobs' shared start as soon as they are submitted if they have one (Plan.start_at),
    else with None at the first progress line of a member: its job runs; `live`: where every member's
    progress and every fault also go, for the dashboard (results/live_log.py)."""
    with SignalCatcher() as signals, ExitStack() as stack, display:
        run = _Run(plan, display, faults, signals, stack, live)
        try:
            run.play(expected_s, start_load)
            ended = _Ended("completed", None, 0)
        except _Ended as e:
            ended = e
        run.stop()
        if live:
            live.end(ended.status, ended.cause)
        return Outcome(ended.status, ended.cause, ended.exit_code, run.schedule.injected() if faults else None)


def run_progress(leader: Progress, jobs: list[list[Progress]], latency_from_leader: bool) -> Progress:
    """The run's progress line: the leader's, with the events/s of the fastest live job (the sum of its
    live members'; a copy does the same work again), and either the leader's own latency (the
    consumer's: the output's) or the worst latency and lag of the members' last intervals. With no live
    job left (a fault ended it while the leader still reports), the leader's own line at 0 events/s."""
    shown = dataclasses.replace(leader, achieved_rate=max((sum(p.achieved_rate for p in job) for job in jobs), default=0.0))
    latest = [p for job in jobs for p in job]
    if latency_from_leader or not latest:
        return shown

    def worst(values):
        values = [v for v in values if v is not None]
        return max(values) if values else None
    return dataclasses.replace(shown, p99_us=worst(p.p99_us for p in latest), p9999_us=worst(p.p9999_us for p in latest),
                               behind_ms=max(p.behind_ms for p in latest))


class _Run:
    """The plan's processes as they play, and what the loop knows of them."""

    def __init__(self, plan: Plan, display: ProgressDisplay, faults: list[dict], signals: SignalCatcher,
                 stack: ExitStack, live: LiveLog | None):
        self.plan, self.display, self.signals, self.stack, self.live = plan, display, signals, stack, live
        self.last_words = LastWords()
        several = len(plan.processes) > 1
        self.followed = []
        for p in plan.processes:
            p.folder.mkdir(parents=True, exist_ok=True)
            log = stack.enter_context(open(p.folder / p.log, "a", encoding="utf-8"))
            self.followed.append(Followed(p.title, self._start(p), log, display, f"{p.name}: " if several else "",
                                          self.last_words))
        self.job_of = {i: job for job in plan.jobs for i in job.members}
        remote = plan.remote
        can_partition = plan.proxy is not None or (remote is not None and remote.partition is not None)
        self.schedule = FaultSchedule(faults, {plan.processes[i].name: self.followed[i].child for i in self.job_of},
                                      self._start_again, self._announce_fault,
                                      partition=self._partition if can_partition else None,
                                      send=remote.signal if remote else None)
        self.api = ManagementApi(plan.token) if plan.token else None
        # The job's t=0 (epoch s): the jobs' shared start, or else arrival minus elapsed_s of the members'
        # progress lines (they start the job at one instant). A line can arrive late, never early, so the
        # earliest estimate is the best.
        self.t0: float | None = None
        self.shared_start = False  # t0 is the shared start the jobs were given
        self.running = False  # a member has reported progress
        self.reported: set[int] = set()  # the members that have reported progress: their job runs
        self.left: set[int] = set()  # members whose part left the job (paused and dropped), as last asked

    def play(self, expected_s: float, start_load) -> None:
        """Raises _Ended unless the run completed."""
        try:
            deadline = time.monotonic() + JOIN_S
            while not all(f.ready for f, p in zip(self.followed, self.plan.processes) if p.serves):
                self._check_signals()
                why = next(filter(None, (f.exit_problem() for f in self.followed)), None)
                if why or time.monotonic() > deadline:
                    self._fail(f"the run's processes did not all start within {JOIN_S:g} s: {why or 'members missing'}")
                self._pump()
            start_ns = self._submit()
            if start_ns is not None and start_load is not None:
                start_load, starting = None, start_load
                starting(start_ns)
            deadline = time.monotonic() + self.plan.start_lead_s + expected_s + STARTUP_AND_FLUSH_S
            next_status = time.monotonic() + STATUS_EVERY_S
            while not all(self._finished(i) for i in self.plan.finishers):
                # A fault's `at` counts from t0, but no fault comes before every member runs its job: a
                # start in the past (a checked run's members slow to come up) or a slow prepare (a cold
                # Kafka client) would otherwise put it in the start-up, before the first snapshot.
                if self.t0 is not None and self.reported >= self.job_of.keys():
                    self.schedule.start(self.t0)
                if self.running and start_load is not None:
                    start_load, starting = None, start_load
                    starting(None)
                try:
                    self.schedule.poll()
                except FaultError as e:
                    self._fail(str(e))
                self._check_signals()
                if time.monotonic() > deadline:
                    finishers = self.plan.finishers
                    who = self.plan.processes[finishers[0]].title if len(finishers) == 1 else "the members"
                    raise _Ended("failed", f"{who} did not finish within {expected_s:g} s (warm-up + duration) "
                                           f"+ {STARTUP_AND_FLUSH_S:g} s", EXIT_FAILED)
                if time.monotonic() > next_status:
                    next_status = time.monotonic() + STATUS_EVERY_S
                    self._check_jobs()
                self._check_exits()
                self._pump()
            self._wait_for_live_members()
        except ProtocolError as e:
            self._fail(str(e))
        for f, p in zip(self.followed, self.plan.processes):
            if not p.serves and f.exit_problem():
                self._fail(f.exit_problem())

    def stop(self) -> None:
        """Continues what a fault stopped, then SIGTERM to every process and SIGKILL after the grace
        period (at once on a second signal); their last words go into their logs."""
        try:
            self.schedule.release()
        except FaultError as e:  # a remote member left stopped still gets the SIGKILL after the grace period
            self.display.output(str(e), "stderr")
        for f in self.followed:
            f.child.kill_group(signal.SIGTERM)
        for f in self.followed:
            f.child.stop(STOP_GRACE_S, hurry=self.signals.repeated)
        until = time.monotonic() + DRAIN_S
        while not all(f.child.output_ended for f in self.followed) and time.monotonic() < until:
            try:
                self._pump()
            except ProtocolError:
                pass  # the run is already ending for a reason of its own; that one is reported

    def _announce_fault(self, text: str) -> None:
        self.display.output(text, "stderr")
        if self.live:
            self.live.fault(text)

    def _start(self, process: Process) -> ChildProcess:
        return self.stack.enter_context(ChildProcess(process.command, cwd=process.folder, takes_input=process.takes_input))

    def _start_again(self, name: str) -> ChildProcess:
        """A fault's restart: the member's process started again (on its host, for a remote one), followed as before."""
        i = next(i for i, p in enumerate(self.plan.processes) if p.name == name)
        if self.plan.remote:
            self.plan.remote.start(name)
        self.followed[i].child = self._start(self.plan.processes[i])
        return self.followed[i].child

    def _partition(self, name: str, cut: bool) -> None:
        """A partition fault: the member cut off from the others, or joined to them again, by the remote
        hosts' network or else by the proxy, whose routes are the members' in plan order."""
        if self.plan.remote:
            self.plan.remote.partition(name, cut)
            return
        member = next(i for i, p in enumerate(self.plan.processes) if p.name == name)
        self.followed[self.plan.proxy].child.send(f"{'isolate' if cut else 'heal'} {member}")

    def _fail(self, cause: str) -> NoReturn:
        raise _Ended("failed", cause + str(self.last_words), EXIT_FAILED)

    def _check_signals(self) -> None:
        if self.signals.first is not None:
            raise _Ended("interrupted", f"stopped by {signal.Signals(self.signals.first).name}", 128 + self.signals.first)

    def _submit(self) -> int | None:
        """Sends every job its member; the jobs' shared start (epoch ns), if they have one."""
        start_ns = self.plan.start_at(time.time_ns())
        consumer = self.followed[self.plan.consumer].ready["consumer"] if self.plan.consumer is not None else None
        for job in self.plan.jobs:
            if job.spec is not None:
                first = job.members[0]
                submitted = self.api.submit(self._api_address(first), job.body(consumer, start_ns))
                if isinstance(submitted, str):
                    self._fail(f"{self.followed[first].title} refused {job.name} {submitted}")
                job.id = submitted
        if start_ns is not None:
            self.t0, self.shared_start = start_ns / 1e9, True
        return start_ns

    def _api_address(self, i: int) -> str:
        return self.plan.processes[i].api or self.followed[i].ready["http"]

    def _finished(self, i: int) -> bool:
        followed, process = self.followed[i], self.plan.processes[i]
        if self.schedule.hit(process.name):
            return True  # killed by a fault: it will not finish the job
        if not process.serves:
            return followed.child.exit_code() is not None and followed.child.output_ended
        return followed.done or self._left_a_finished_job(i)

    def _left_a_finished_job(self, i: int) -> bool:
        """A member that left its part (paused past the failure timeout, then dropped) while the others
        ran a bounded job to its end: nothing will take it in again, so it has nothing left to finish."""
        if i not in self.left:
            return False  # the consumer, or a member that did not leave
        others = [m for m in self.job_of[i].members if m != i]
        return all(self.followed[m].done or self.schedule.hit(self.plan.processes[m].name)
                                      for m in others)

    def _live(self, i: int) -> bool:
        """Not silenced by a fault: its last progress line still speaks for it."""
        return not self.schedule.silenced(self.plan.processes[i].name)

    def _check_exits(self) -> None:
        """A serving process that exited: the consumer's or the proxy's exit fails the run; a member's loses its job,
        unless a fault explains it and the job can recover (a copy cannot: the other carries the output)."""
        for i, (f, p) in enumerate(zip(self.followed, self.plan.processes)):
            why = f.exit_problem() if p.serves else None
            if why is None:
                continue
            job = self.job_of.get(i)
            if job is None:
                self._fail(why)  # the consumer (the run's output) or the proxy (the members' network)
            elif not job.lost and (job.copy is not None or not self.schedule.down(p.name)):
                self._lose(job, why)

    def _check_jobs(self) -> None:
        """Each submitted job's state, asked of its first live member, and which of its members not
        done yet left their part."""
        for job in self.plan.jobs:
            live = [i for i in job.members if self._live(i) and self.followed[i].ready]
            if job.id is not None and not job.lost and live:
                why = self.api.job_failure(self._api_address(live[0]), job.id)
                if why:
                    self._lose(job, why)
                for i in live:
                    if self.followed[i].done:
                        continue
                    if self.api.job_state(self._api_address(i), job.id) == "left":
                        self.left.add(i)
                    else:
                        self.left.discard(i)  # taken in again

    def _lose(self, job: Job, why: str) -> None:
        job.lost = why
        if all(j.lost for j in self.plan.jobs):
            if len(self.plan.jobs) == 1:
                self._fail(why)
            self._fail("every copy was lost: " + "; ".join(f"{j.name}: {j.lost}" for j in self.plan.jobs))
        self.display.output(f"{job.name} lost ({why}); the other copy carries the output", "stderr")

    def _pump(self) -> None:
        took = False
        for i, f in enumerate(self.followed):
            while (line := f.child.next_line(timeout=0)) is not None:
                took = True
                if line.text is None:
                    continue
                try:
                    progress = f.take(line)
                except ProtocolError as e:
                    raise ProtocolError(f"{f.title} broke the progress contract: {e}: {line.text}") from None
                if progress is not None:
                    self._progressed(i, progress)
            if f.child.exit_code() is not None and not f.child.output_ended:
                # The process is gone; anything left in its group holds the pipes open, so end it.
                f.child.kill_group(signal.SIGKILL)
        self.display.tick()
        if not took:
            time.sleep(0.05)

    def _progressed(self, i: int, progress: Progress) -> None:
        if self.live:
            self.live.progress(self.plan.processes[i].name, progress)
        if i in self.job_of:
            self.running = True
            self.reported.add(i)
            if not self.shared_start:
                self.t0 = min(self.t0 or math.inf, time.time() - progress.elapsed_s)
        members = [i for i in self.plan.finishers if self._live(i)] if self.plan.consumer is None else []
        leader = self.plan.consumer if self.plan.consumer is not None else next(iter(members), None)
        if i == leader:
            jobs = [[self.followed[m].progress for m in job.members if self._live(m) and self.followed[m].progress]
                    for job in self.plan.jobs if not job.lost]
            self.display.update(run_progress(progress, jobs, latency_from_leader=self.plan.consumer is not None))

    def _wait_for_live_members(self) -> None:
        """Once the run has ended, the members of live jobs still at it get DONE_WAIT_S to write their files
        (with a consumer, they end after it)."""
        until = time.monotonic() + DONE_WAIT_S

        def waiting():
            return [i for job in self.plan.jobs if not job.lost for i in job.members
                    if self.plan.processes[i].serves and not self._finished(i)]
        while waiting() and time.monotonic() < until and self.signals.first is None:
            self._pump()
