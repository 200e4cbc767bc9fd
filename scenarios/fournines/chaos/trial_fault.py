"""A trial's one fault, drawn from the trial's seed alone: the same seed and fault kinds give the same
kind, target and time, so `SEED=S TRIALS=1` (with the same FAULTS) replays a trial.

- kill: kill -9 of member-2 or member-3 at 1-4 s of the 6 s of events;
- kill-coordinator: kill -9 of member-1, the coordinator the members elect as the cluster forms, in
  the same window;
- stop: SIGSTOP of any member for 5 s, past the 3 s failure timeout, so the others go on without it
  and it joins again, at 1-3 s;
- partition: any member cut off from the other two for 5 s, at 1-3 s: the proxy between the members
  drops everything either way while the connections stay open; the member, without a majority, pauses
  its part, the other two restart the job without it, and when healed it is taken in again;
- exception: a chaos point on any member: it throws once at the K-th event reaching the query's
  first stage there (K 7 000-27 000, 1-4 s of its third of the events), a processor failure the job
  recovers from; the member stays up (events, not results: a query's results may all reach one
  member, Q5's member-1);
- commit-kill: a chaos point on the coordinator: it freezes right after the K-th snapshot commit
  (K 2-6) and the runner kills it with kill -9 as soon as it says so (its chaos-point-reached file):
  a coordinator dead between the cluster's commit and its own.

Times count from the job's t=0, as every fault's `at` does (targets/local/faults.py)."""
import glob
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fournines.chaos.job import MEMBERS
from fournines.results.folder import member_dir

CHAOS_POINT_FILE = "chaos-point-reached"  # what a member writes into its folder at its chaos point


@dataclass(frozen=True)
class TrialFault:
    kind: str
    member: int  # the member hit, 0-based as the members number themselves (the runner's member-<i+1>)
    at: str  # when: a time since t=0 ("2345ms"), or the chaos point ("event:9000", "committed:3")
    action: str | None = None  # the runner's fault action (kill, stop, partition); None: the member fails by itself
    duration: str | None = None  # how long a stop or partition lasts
    chaos_point: dict | None = None  # the job's `chaos_point`

    @property
    def target(self) -> str:
        return member_dir(Path(), self.member).name

    def described(self) -> dict:
        """As chaos.json and check.json show it."""
        return {"kind": self.kind, "target": self.target, "at": self.at}

    def faults(self, run_dir: Path) -> list[dict]:
        """The job's `faults`, fired by the runner: at `at`, or for a chaos point as soon as the member
        writes that it reached it (anywhere under its folder: the job's own folder is below it)."""
        if self.action is None:
            return []
        fault = {"action": self.action, "target": self.target}
        if self.chaos_point is None:
            fault["at"] = self.at
        else:
            fault["when_file"] = f"{glob.escape(str(member_dir(run_dir, self.member)))}/**/{CHAOS_POINT_FILE}"
        if self.duration is not None:
            fault["duration"] = self.duration
        return [fault]


def _time_ms(rng: random.Random, first_s: int, last_s: int) -> str:
    return f"{rng.randint(first_s * 1000, last_s * 1000)}ms"


def _kill(rng):
    return TrialFault("kill", rng.randrange(1, MEMBERS), _time_ms(rng, 1, 4), "kill")


def _kill_coordinator(rng):
    return TrialFault("kill-coordinator", 0, _time_ms(rng, 1, 4), "kill")


def _stop(rng):
    return TrialFault("stop", rng.randrange(MEMBERS), _time_ms(rng, 1, 3), "stop", duration="5s")


def _partition(rng):
    return TrialFault("partition", rng.randrange(MEMBERS), _time_ms(rng, 1, 3), "partition", duration="5s")


def _exception(rng):
    member, at = rng.randrange(MEMBERS), f"event:{rng.randint(7_000, 27_000)}"
    return TrialFault("exception", member, at, chaos_point={"member": member, "at": at, "then": "fail"})


def _commit_kill(rng):
    at = f"committed:{rng.randint(2, 6)}"
    return TrialFault("commit-kill", 0, at, "kill", chaos_point={"member": "coordinator", "at": at, "then": "freeze"})


KINDS: dict[str, Callable[[random.Random], TrialFault]] = {
    "kill": _kill, "kill-coordinator": _kill_coordinator, "stop": _stop, "partition": _partition,
    "exception": _exception, "commit-kill": _commit_kill}


def draw(seed: int, kinds) -> TrialFault:
    """The fault of the trial with `seed`, one of `kinds` (taken in KINDS' order, however given)."""
    rng = random.Random(seed)
    return KINDS[rng.choice([kind for kind in KINDS if kind in kinds])](rng)
