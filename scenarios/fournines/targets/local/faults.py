"""Fault injection: a scenario's `faults` fired at member processes while a run plays.

The loop that follows the members calls `poll()` often (every few tens of ms); each fault fires at
the first poll at or after its time, and the exact wall-clock time of the signal is what is recorded
(`injected()`, run.json `faults_injected`), so the report places it exactly even if the poll came late.

A fault may carry `when_file` (a path; glob wildcards allowed, `**` for any depth) instead of or
besides `at`: it fires at the first poll where a file matches, and not before `at` if it has one.
This is how a runner reacts to a member (`./fournines chaos` kills a coordinator the moment it writes
that it froze at a chaos point); such a fault is watched from the first poll on, before the load's
t=0 is known. The `duration` of a stop, restart or partition always counts from its firing (a late
poll delays the end as much as the start): a 5 s partition lasts at least 5 s.

- kill: SIGKILL;
- stop: SIGSTOP, then SIGCONT after `duration`;
- restart: SIGKILL, then the same member started again after `duration` (the caller's `restart`);
- partition: the member cut off from every other member, both ways, then joined to them again after
  `duration` (the caller's `partition`: a proxy between the members drops their traffic).

Signals go to the target's whole process group (a member and anything it started), unless the target
shares the runner's group, where only the process itself is hit: a fault must never reach the runner.
A member on another host is signalled by the caller's `send` instead (targets/remote: through the
host's service manager over SSH); its record then has no pid, and its time is when `send` returned,
within one SSH round trip after the signal.
`release()` continues whatever is still stopped, so the caller's ordinary SIGTERM-then-SIGKILL stop
ends it on Ctrl-C as on any other exit.

Usage (play.py; any runner with named processes can do the same):

    schedule = FaultSchedule(scenario["faults"], {"member-2": child, ...}, restart=start_again, announce=print,
                             partition=cut_off)
    schedule.start(load_t0_epoch_s)   # when the load's t=0 was; `at` counts from it
    while running: schedule.poll(); ...
    schedule.release()                # before stopping the processes
    record["faults_injected"] = schedule.injected()
"""
import glob
import os
import signal
import time
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Protocol

from fournines.spec.durations import parse_duration


class FaultError(Exception):
    """A fault could not be injected (a remote member's host did not take the signal); the run fails."""


class Process(Protocol):
    @property
    def pid(self) -> int: ...


@dataclass
class _Fault:
    index: int
    action: str
    target: str
    at_s: float | None  # None: when_file alone says when
    when_file: str | None
    duration_s: float | None
    record: dict = field(default_factory=dict)
    fired: bool = False
    fired_clock: float = 0.0  # the clock once fired: where the duration counts from
    ended: bool = False  # stop: continued; restart: started again; partition: healed; kill: never


class FaultSchedule:
    def __init__(self, faults: list[dict], targets: MutableMapping[str, Process],
                 restart: Callable[[str], Process] | None = None,
                 announce: Callable[[str], None] = lambda text: None, clock: Callable[[], float] = time.time,
                 partition: Callable[[str, bool], None] | None = None,
                 send: Callable[[str, int], None] | None = None):
        """`targets`: name -> process handle (anything with a pid); a restart puts the new handle in it.
        `restart(name)` starts the named process again and returns its handle; `partition(name, cut)`
        cuts the named member off from the others (True) or joins it to them again (False);
        `send(name, signal)`: how a signal reaches a target that is not this machine's process."""
        self._faults = [_Fault(i, f["action"], f["target"], parse_duration(f["at"]) if "at" in f else None,
                               f.get("when_file"), parse_duration(f["duration"]) if "duration" in f else None)
                        for i, f in enumerate(faults)]
        for fault in self._faults:
            if fault.at_s is None and fault.when_file is None:
                raise ValueError(f"faults[{fault.index}]: needs `at`, `when_file` or both")
            if fault.target not in targets:
                raise ValueError(f"faults[{fault.index}].target: no such process {fault.target!r}; "
                                 f"known: {', '.join(targets)}")
            if fault.action == "restart" and restart is None:
                raise ValueError(f"faults[{fault.index}].action: restart, but this run cannot restart {fault.target}")
            if fault.action == "partition" and partition is None:
                raise ValueError(f"faults[{fault.index}].action: partition, but this run has no proxy between its members")
        self.targets, self._restart, self._announce, self._clock = targets, restart, announce, clock
        self._partition, self._send = partition, send
        self._t0: float | None = None

    def start(self, t0_epoch_s: float) -> None:
        """The load's t=0 (epoch seconds); every `at` counts from it. May be called again with a better
        estimate; faults already fired keep their times (a when_file fault fired before the first
        estimate gets its time since t=0 from it)."""
        self._t0 = t0_epoch_s
        for fault in self._faults:
            if fault.fired and fault.record["since_load_start_s"] is None:
                fault.record["since_load_start_s"] = self._since_t0(fault.record["injected_at_us"])

    def poll(self) -> None:
        """Fires every fault (and every end of a stop, restart or partition) that is due."""
        for fault in self._faults:
            if not fault.fired:
                if self._due(fault):
                    self._fire(fault)
            elif not fault.ended and fault.duration_s is not None and self._over(fault):
                self._end(fault)

    def _due(self, fault: _Fault) -> bool:
        if fault.at_s is not None and (self._t0 is None or self._clock() - self._t0 < fault.at_s):
            return False
        return fault.when_file is None or self._matched(fault) is not None

    def _over(self, fault: _Fault) -> bool:
        """Whether a fired stop, restart or partition has lasted its duration."""
        return self._clock() >= fault.fired_clock + fault.duration_s

    @staticmethod
    def _matched(fault: _Fault) -> str | None:
        return next(glob.iglob(fault.when_file, recursive=True), None)

    def down(self, target: str) -> bool:
        """Whether `target`'s process is dead by this schedule's hand (killed, not started again yet):
        its exit is the fault, not a crash."""
        return any(f.fired and not f.ended and f.action in ("kill", "restart") and f.target == target
                   for f in self._faults)

    def silenced(self, target: str) -> bool:
        """Whether `target` is down or stopped by this schedule's hand: it says nothing now."""
        return self.down(target) or any(f.fired and not f.ended and f.action == "stop" and f.target == target
                                        for f in self._faults)

    def hit(self, target: str) -> bool:
        """Whether the process `target` started the run with was killed: it will not finish the job."""
        return any(f.fired and f.action in ("kill", "restart") and f.target == target for f in self._faults)

    def release(self) -> None:
        """Continues every stopped target, so a SIGTERM that follows is acted on."""
        for fault in self._faults:
            if fault.fired and not fault.ended and fault.action == "stop":
                self._end(fault)

    def injected(self) -> list[dict]:
        """run.json `faults_injected`: one record per fault fired, in firing order."""
        fired = sorted((f for f in self._faults if f.fired), key=lambda f: f.record["injected_at_us"])
        return [dict(f.record) for f in fired]

    def _fire(self, fault: _Fault) -> None:
        pid = None if self._send else self.targets[fault.target].pid
        matched = self._matched(fault) if fault.when_file is not None else None
        if fault.action == "partition":
            self._partition(fault.target, True)
            how = "cut off from the other members"
        else:
            sig = signal.SIGSTOP if fault.action == "stop" else signal.SIGKILL
            self._signal(fault.target, pid, sig)
            how = signal.Signals(sig).name
        at_us = self._now_us()
        fault.fired, fault.fired_clock = True, at_us / 1e6
        fault.record = {"action": fault.action, "target": fault.target, "at_s": fault.at_s,
                        **({"pid": pid} if pid is not None else {}),
                        "injected_at_us": at_us, "since_load_start_s": self._since_t0(at_us)}
        if fault.when_file is not None:
            fault.record["when_file"] = fault.when_file
        if fault.duration_s is not None:
            fault.record["duration_s"] = fault.duration_s
        since = fault.record["since_load_start_s"]
        when = f"at {since:.3f} s" if since is not None else "before the load's t=0 was known"
        self._announce(f"fault: {fault.action} {fault.target} ({f'pid {pid}, ' if pid is not None else ''}{how}) {when}"
                       + (f", on {matched}" if matched else "") + self._for(fault))

    def _end(self, fault: _Fault) -> None:
        fault.ended = True
        if fault.action == "stop":
            self._signal(fault.target, fault.record.get("pid"), signal.SIGCONT)
            fault.record["resumed_at_us"] = self._now_us()
            self._announce(f"fault: {fault.target} continued (SIGCONT) after {self._lasted(fault, 'resumed_at_us')}")
        elif fault.action == "partition":
            self._partition(fault.target, False)
            fault.record["healed_at_us"] = self._now_us()
            self._announce(f"fault: {fault.target} joined to the other members again after "
                           f"{self._lasted(fault, 'healed_at_us')}")
        else:
            self.targets[fault.target] = self._restart(fault.target)
            fault.record["restarted_at_us"] = self._now_us()
            again = ""
            if not self._send:
                fault.record["restarted_pid"] = self.targets[fault.target].pid
                again = f" (pid {fault.record['restarted_pid']})"
            self._announce(f"fault: {fault.target} started again{again} after {self._lasted(fault, 'restarted_at_us')}")

    def _signal(self, target: str, pid: int | None, sig: int) -> None:
        if self._send:
            self._send(target, sig)
        else:
            signal_group(pid, sig)

    def _now_us(self) -> int:
        return int(self._clock() * 1e6)

    def _since_t0(self, at_us: int) -> float | None:
        return None if self._t0 is None else round(at_us / 1e6 - self._t0, 6)

    @staticmethod
    def _for(fault: _Fault) -> str:
        if fault.action in ("stop", "partition"):
            return f" for {fault.duration_s:g} s"
        return f", back after {fault.duration_s:g} s" if fault.action == "restart" else ""

    @staticmethod
    def _lasted(fault: _Fault, end: str) -> str:
        return f"{(fault.record[end] - fault.record['injected_at_us']) / 1e6:.3f} s"


def signal_group(pid: int, sig: int) -> None:
    """`sig` to the process group `pid` leads or belongs to, or to `pid` alone if that group is the
    runner's own; nothing if the process is gone already."""
    try:
        group = os.getpgid(pid)
        if group == os.getpgrp():
            os.kill(pid, sig)
        else:
            os.killpg(group, sig)
    except ProcessLookupError:
        pass
