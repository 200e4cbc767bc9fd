"""Plays an active-active run (`mode: active-active`): the job runs twice, on two disjoint local
clusters of cluster.members / 2 members each (copy 1: member-1 … member-k, copy 2: member-(k+1) …
member-2k, so a fault's `member-N` names one process of one copy), and a result consumer keeps the
first copy of each (window, key).

Both copies compute identical results: the in-process generator makes event i from (seed, config,
i) and schedules it at t0 + i/rate, and the runner gives both clusters the same t0 (chosen once every
member has joined, START_LEAD_S ahead, and sent in the job as `active_active.start_epoch_ns`).

The consumer is `fournines-member consume` (engine/member ResultConsumer), a process of its own:
every member's second sink sends its results over a loopback TCP connection to it. A JVM on the
data path, like the members, so it measures with the same HdrHistogram logs and window recorder, and
a dead member costs it one closed connection. Its logs are the run's latency.hlog and
completion.hlog: the latency of the deduplicated output. Each member's own logs stay in its folder.

A copy is lost when one of its members exits or its job fails; the run goes on while one copy and
the consumer live, and ends when the consumer is done (warm-up + duration after t0).
"""
import dataclasses
import json
import os
import shutil
import signal
import time
from contextlib import ExitStack
from pathlib import Path

from fournines.members.child_process import ChildProcess
from fournines.cluster_play import (JOIN_S, _Follow, _call, _lift_job_files, api_token, jar_command_prefix,
                                    member_commands, member_dir, write_secret)
from fournines.results.member_merge import merge_members
from fournines.targets.local.play import EXIT_FAILED, STARTUP_AND_FLUSH_S, STOP_GRACE_S, Outcome
from fournines.members.progress import Done, Progress, ProtocolError, parse_line
from fournines.members.progress_display import ProgressDisplay
from fournines.members.signals import SignalCatcher

COPIES = 2
START_LEAD_S = 3.0  # submit -> shared start: both coordinators hear of the job and tell their members in time
CONSUMER_HEAP = ["-Xms512m", "-Xmx512m"]
DONE_WAIT_S = 15.0  # after the consumer is done, for the live copies' members to write their files
RECORD_RESULTS_ENV = "FOURNINES_RECORD_RESULTS"  # 1: the consumer also writes every result (tests)


@dataclasses.dataclass
class Copy:
    number: int  # 1 or 2, as in reports
    members: list[int]  # indexes into the run's member list (member-(i+1))
    job: int | None = None
    lost: str | None = None  # why this copy stopped early; None while it runs or once it completed


def consumer_dir(run_dir: Path) -> Path:
    return run_dir / "consumer"


def copies_of(members: int) -> list[Copy]:
    k = members // COPIES
    return [Copy(c + 1, list(range(c * k, (c + 1) * k))) for c in range(COPIES)]


def run_active_active(scenario: dict, launcher, flags: list[str], run_dir: Path, display: ProgressDisplay,
                      expected_s: float) -> tuple[list[str], Outcome]:
    """Plays the run and leaves its files where the report looks; returns member-1's command and the outcome."""
    members = scenario["cluster"]["members"]
    copies = copies_of(members)
    commands = [c for copy in copies
                for c in member_commands(launcher, flags, run_dir, len(copy.members), copy.members[0], members)]
    heapless = [f for f in flags if not f.startswith(("-Xms", "-Xmx"))]
    consumer = [*jar_command_prefix(launcher, CONSUMER_HEAP + heapless, run_dir), "consume",
                "--scenario", str((consumer_dir(run_dir) / "scenario.json").resolve()), "--out", str(consumer_dir(run_dir).resolve()),
                "--copies", str(COPIES), "--members-per-copy", str(members // COPIES),
                *(["--record-results"] if os.environ.get(RECORD_RESULTS_ENV) == "1" else [])]
    try:
        outcome = play_active_active(consumer, commands, copies, scenario, run_dir, display, expected_s)
    finally:
        for copy in copies:
            if copy.job is not None:
                _lift_job_files(run_dir, members, copy.job)
        merge_active_active(run_dir, copies)
    return commands[0], outcome


def play_active_active(consumer_command: list[str], commands: list[list[str]], copies: list[Copy], scenario: dict,
                       run_dir: Path, display: ProgressDisplay, expected_s: float) -> Outcome:
    injected: list[dict] = []
    outcome = _play(consumer_command, commands, copies, scenario, run_dir, display, expected_s, injected)
    return dataclasses.replace(outcome, faults_injected=injected) if scenario["faults"] else outcome


def _fault_schedule(faults: list[dict], children: list[ChildProcess], display: ProgressDisplay):
    """The scenario's faults (faults.py) aimed at the run's members, numbered over both copies; None without faults."""
    if not faults:
        return None
    from fournines.targets.local.faults import FaultSchedule  # only a run with faults needs fault injection
    return FaultSchedule(faults, {f"member-{i + 1}": child for i, child in enumerate(children)},
                         announce=lambda text: display.output(text, "stderr"))


def _play(consumer_command: list[str], commands: list[list[str]], copies: list[Copy], scenario: dict,
          run_dir: Path, display: ProgressDisplay, expected_s: float, injected: list[dict]) -> Outcome:
    token = api_token(write_secret(run_dir))
    for i in range(len(commands)):
        member_dir(run_dir, i).mkdir(parents=True, exist_ok=True)
    consumer_dir(run_dir).mkdir(parents=True, exist_ok=True)
    # What the consumer reads (query, rate, warm-up, duration); the faults are the runner's.
    (consumer_dir(run_dir) / "scenario.json").write_text(json.dumps({**scenario, "faults": []}, indent=2) + "\n",
                                                        encoding="utf-8")
    with SignalCatcher() as signals, ExitStack() as stack, display:
        consumer_log = stack.enter_context(open(consumer_dir(run_dir) / "consumer.log", "a", encoding="utf-8"))
        consumer = _Consumer(stack.enter_context(ChildProcess(consumer_command, cwd=consumer_dir(run_dir))),
                             consumer_log, display)
        logs = [stack.enter_context(open(member_dir(run_dir, i) / "member.log", "a", encoding="utf-8"))
                for i in range(len(commands))]
        children = [stack.enter_context(ChildProcess(c, cwd=member_dir(run_dir, i))) for i, c in enumerate(commands)]
        follow = _Follow(children, logs, _MemberOutput(display))
        schedule = _fault_schedule(scenario["faults"], children, display)

        def stop(status, cause, exit_code):
            if schedule is not None:
                schedule.release()
                injected[:] = schedule.injected()
            for child in [*children, consumer.child]:
                child.kill_group(signal.SIGTERM)
            for child in [*children, consumer.child]:
                child.stop(STOP_GRACE_S, hurry=signals.repeated)
            return Outcome(status, cause, exit_code)

        def interrupted():
            return stop("interrupted", f"stopped by {signal.Signals(signals.first).name}", 128 + signals.first)

        deadline = time.monotonic() + JOIN_S
        while consumer.address is None or len(follow.http) < len(children):
            if signals.first is not None:
                return interrupted()
            if time.monotonic() > deadline or follow.exited() or consumer.exited():
                return stop("failed", f"the copies and the consumer did not start within {JOIN_S:g} s: "
                            f"{follow.exited() or consumer.exited() or 'members missing'}" + follow.tail(), EXIT_FAILED)
            consumer.pump()
            follow.pump()
        start_epoch_ns = time.time_ns() + int(START_LEAD_S * 1e9)
        for copy in copies:
            status, body = _call(follow.http[copy.members[0]], "POST", "/jobs", token,
                                 json.dumps(copy_job(scenario, copy, consumer.address, start_epoch_ns)).encode())
            if status != 202:
                return stop("failed", f"copy {copy.number} refused the job ({status}): {body.strip()}", EXIT_FAILED)
            copy.job = json.loads(body)["job"]
        if schedule is not None:
            schedule.start(start_epoch_ns / 1e9)  # `at` counts from the copies' shared start
        deadline = time.monotonic() + START_LEAD_S + expected_s + STARTUP_AND_FLUSH_S
        next_status = time.monotonic() + 1
        while not consumer.done:
            if schedule is not None:
                schedule.poll()
            if signals.first is not None:
                return interrupted()
            if time.monotonic() > deadline:
                return stop("failed", f"the consumer did not finish within {expected_s:g} s (warm-up + duration) "
                                      f"+ {STARTUP_AND_FLUSH_S:g} s", EXIT_FAILED)
            if consumer.exited():
                return stop("failed", consumer.exited() + consumer.tail(), EXIT_FAILED)
            if time.monotonic() > next_status:
                next_status = time.monotonic() + 1
                _check_copies(copies, children, follow, token, display)
                if all(copy.lost for copy in copies):
                    return stop("failed", "every copy was lost: " + "; ".join(f"copy {c.number}: {c.lost}" for c in copies)
                                + follow.tail(), EXIT_FAILED)
            try:
                follow.pump()
            except ProtocolError as e:
                return stop("failed", f"a member broke the progress contract: {e}", EXIT_FAILED)
            consumer.pump(_copy_rates(copies, follow.progress))
        until = time.monotonic() + DONE_WAIT_S
        live = [i for copy in copies if not copy.lost for i in copy.members]
        while not set(live) <= follow.done and time.monotonic() < until and signals.first is None:
            follow.pump()
        return stop("completed", None, 0)


def copy_job(scenario: dict, copy: Copy, consumer: str, start_epoch_ns: int) -> dict:
    """The job one copy runs: the scenario on its own cluster's members, its generator split over
    them, with the copy's part (engine/member ActiveActiveCopy)."""
    job = json.loads(json.dumps(scenario))
    job["cluster"]["members"] = len(copy.members)
    job["load"]["partitions"] = len(copy.members) * scenario["cluster"]["threads"]
    job["faults"] = []  # the runner's to inject
    job["active_active"] = {"copy": copy.number - 1, "consumer": consumer, "start_epoch_ns": start_epoch_ns}
    return job


def _check_copies(copies: list[Copy], children: list[ChildProcess], follow: _Follow, token: str,
                  display: ProgressDisplay) -> None:
    """Marks a copy lost when one of its members exited or its job failed; the other copy goes on."""
    for copy in copies:
        if copy.lost:
            continue
        for i in copy.members:
            code = children[i].exit_code()
            if code is not None:
                how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exited with code {code}"
                copy.lost = f"member-{i + 1} {how}"
                break
        else:
            try:
                code, body = _call(follow.http[copy.members[0]], "GET", f"/jobs/{copy.job}", token)
            except OSError:  # a member going down right now: its exit is seen next time
                continue
            state = json.loads(body) if code == 200 else {}
            if state.get("state") == "failed" or state.get("cause"):
                copy.lost = f"job {copy.job} failed: {state.get('cause')}"
        if copy.lost:
            display.output(f"copy {copy.number} lost ({copy.lost}); the other copy carries the output", "stderr")


def _copy_rates(copies: list[Copy], progress: dict[int, Progress]) -> float:
    """Events/s of the fastest live copy: what the job processes once (the other copy does the same again)."""
    rates = [sum(progress[i].achieved_rate for i in copy.members if i in progress) for copy in copies if not copy.lost]
    return max(rates, default=0.0)


class _MemberOutput:
    """The display as the members see it: their output passes through, but the progress line is the
    consumer's (the deduplicated output's latency), not a copy's."""

    def __init__(self, display: ProgressDisplay):
        self.output, self.tick = display.output, display.tick

    def update(self, progress: Progress) -> None:
        pass


class _Consumer:
    """Reads the consumer's output: its address, its progress (the run's progress line, with the
    copies' event rate), done; everything else into consumer.log and through to the user."""

    def __init__(self, child: ChildProcess, log, display: ProgressDisplay):
        self.child, self.log, self.display = child, log, display
        self.address: str | None = None
        self.done = False
        self.lines: list[str] = []

    def pump(self, events_per_s: float | None = None) -> None:
        while (line := self.child.next_line(timeout=0)) is not None:
            if line.text is None:
                continue
            if line.stream == "stdout" and line.text.startswith('{"type":"ready"'):
                self.address = json.loads(line.text)["consumer"]
                continue
            message = parse_line(line.text) if line.stream == "stdout" else None
            if isinstance(message, Progress):
                # Its rate counts results; the line shows the copies' events/s and the output's latency.
                self.display.update(dataclasses.replace(message, achieved_rate=events_per_s or 0.0))
            elif isinstance(message, Done):
                self.done = True
            else:
                self.log.write(f"{line.text}\n")
                self.log.flush()
                self.display.output(f"consumer: {line.text}", line.stream)
                if line.stream == "stderr":
                    self.lines = (self.lines + [line.text])[-10:]

    def exited(self) -> str | None:
        code = self.child.exit_code()
        if code is None or (code == 0 and self.done):
            return None
        return f"the result consumer {'was killed by ' + signal.Signals(-code).name if code < 0 else f'exited with code {code}'}"

    def tail(self) -> str:
        return "; its last words on stderr:\n  " + "\n  ".join(self.lines) if self.lines else ""


def merge_active_active(run_dir: Path, copies: list[Copy]) -> None:
    """The run's files: latency from the consumer (the deduplicated output); events, throughput and
    CPU from one copy (the first that ran to the end), as the job's cost once; member.json says so
    and adds each copy's outcome and the consumer's counts."""
    whole = [c for c in copies if not c.lost and all((member_dir(run_dir, i) / "member.json").is_file() for i in c.members)]
    merged = (whole or copies)[0]
    merge_members(run_dir, [member_dir(run_dir, i) for i in merged.members])
    for name in ("latency.hlog", "completion.hlog"):
        source = consumer_dir(run_dir) / name
        if source.is_file():
            shutil.copyfile(source, run_dir / name)
        else:
            (run_dir / name).unlink(missing_ok=True)  # a copy's own latency is not the output's
    summary = {"copies": [{"copy": c.number, "members": [f"member-{i + 1}" for i in c.members], "job": c.job,
                           "outcome": "lost" if c.lost else "ran to the end", "cause": c.lost} for c in copies],
               "counts_and_cpu_from_copy": merged.number}
    consumer_json = consumer_dir(run_dir) / "consumer.json"
    if consumer_json.is_file():
        summary["consumer"] = json.loads(consumer_json.read_text(encoding="utf-8"))
    (run_dir / "active-active.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    member_json = run_dir / "member.json"
    if member_json.is_file():
        report = json.loads(member_json.read_text(encoding="utf-8"))
        report["active_active"] = summary
        member_json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
