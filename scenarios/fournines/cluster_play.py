"""Plays one run on a local cluster (cluster.members > 1): starts the member processes (each its own
JVM, ports and folder member-<i>/), waits until they have all joined, submits the job through the
first member's management API, follows the job through the first member a fault has not taken
down (its status, its progress line as the cluster's), and stops every member at the end, on a
signal, on a crash or when the job fails. No process outlives the runner: each is a
ChildProcess in its own group, killed on exit, with a parent-death signal.

Faults (the scenario's `faults`) are fired at the members by faults.py from the loop that follows
them, counted from the job's t=0 (the members share it); a member a fault killed is expected to be
gone, not a crash.

The members share a secret generated for the run (cluster.secret, mode 0600, in the results
folder); API calls carry the bearer token derived from it.
"""
import hashlib
import hmac
import json
import math
import os
import re
import secrets
import signal
import socket
import time
import dataclasses
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path

from fournines.members.child_process import ChildProcess
from fournines.targets.local.faults import FaultSchedule
from fournines.targets.local.play import EXIT_FAILED, STARTUP_AND_FLUSH_S, STOP_GRACE_S, Outcome
from fournines.members.progress import Done, Progress, ProtocolError, parse_line
from fournines.members.progress_display import ProgressDisplay
from fournines.members.signals import SignalCatcher

JOIN_S = 120.0  # every member's JVM started and connected to the others
MIN_HEAP_MB = 256
_HEAP_FLAG = re.compile(r"-Xm([sx])(\d+)([kKmMgG]?)$")
_UNIT_MB = {"": 1 / (1 << 20), "k": 1 / 1024, "m": 1, "g": 1024}


def member_dir(run_dir: Path, index: int) -> Path:
    """Member i's folder; members are numbered from 1 in results, as faults name them (member-N)."""
    return run_dir / f"member-{index + 1}"


def shared_heap_flags(flags: list[str], members: int) -> list[str]:
    """The scenario's heap is for the whole machine: each of N local members gets 1/N of it (at
    least MIN_HEAP_MB), so CLUSTER=10 does not ask for ten times the memory."""
    def scaled(flag: str) -> str:
        m = _HEAP_FLAG.match(flag)
        if not m:
            return flag
        mb = max(MIN_HEAP_MB, int(int(m.group(2)) * _UNIT_MB[m.group(3).lower()] / members))
        return f"-Xm{m.group(1)}{mb}m"
    return [scaled(f) for f in flags]


def api_token(secret: str) -> str:
    """The management API's bearer token: HMAC-SHA256 of a fixed label under the secret (the
    member's ClusterSecret.apiToken)."""
    return hmac.new(secret.encode(), b"fournines-management-api", hashlib.sha256).hexdigest()


def _free_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _call(http: str, method: str, path: str, token: str, body: bytes | None = None) -> tuple[int, str]:
    """The status and body of a management API call; (0, why) when the member did not answer."""
    request = urllib.request.Request(f"http://{http}{path}", data=body, method=method,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
    except OSError as e:  # refused or timed out: a member a fault has just taken down
        return 0, str(e)


def member_commands(launcher, flags: list[str], run_dir: Path, members: int, first: int = 0,
                    machine_members: int | None = None) -> list[list[str]]:
    """One `serve` command per member: the single member's command (`... run --scenario F --out D`,
    the member contract) up to its subcommand, then serve's arguments. The member ports are free
    loopback ports chosen here (every member needs the list); each management API binds a port of
    its member's choosing, reported in its `ready` line, so no port sits free for another process to
    take in between.
    `first`: the folder number of this cluster's first member, when several clusters share the run
    (active-active); `machine_members`: the members sharing the machine's heap (default `members`)."""
    prefix = jar_command_prefix(launcher, shared_heap_flags(flags, machine_members or members), run_dir)
    addresses = ",".join(f"127.0.0.1:{p}" for p in _free_ports(members))
    secret_file = run_dir.resolve() / "cluster.secret"
    return [[*prefix, "serve", "--index", str(i),
             "--members", addresses, "--secret-file", str(secret_file), "--http", "127.0.0.1:0",
             "--out", str(member_dir(run_dir, first + i).resolve())] for i in range(members)]


def jar_command_prefix(launcher, flags: list[str], run_dir: Path) -> list[str]:
    """The member jar's command line up to its subcommand: the single member's command
    (`... run --scenario F --out D`) without `run` and what follows."""
    single = launcher(flags, run_dir)
    return single[:len(single) - 1 - single[::-1].index("run")]


def write_secret(run_dir: Path) -> str:
    """A new secret for the run's members, in cluster.secret (mode 0600)."""
    secret = secrets.token_hex(32)
    secret_file = run_dir / "cluster.secret"
    secret_file.write_text(secret + "\n", encoding="utf-8")
    os.chmod(secret_file, 0o600)
    return secret


def play_cluster(commands: list[list[str]], run_dir: Path, display: ProgressDisplay, expected_s: float,
                 job_fields: dict | None = None, on_running=None) -> Outcome:
    """`job_fields`: added to the job sent to the members (the Kafka endpoint); `on_running`: called
    once, when a member first reports progress (the job runs)."""
    token = api_token(write_secret(run_dir))
    for i in range(len(commands)):
        member_dir(run_dir, i).mkdir(parents=True, exist_ok=True)
    jobs: list[int] = []
    faults = json.loads((run_dir / "scenario.json").read_text(encoding="utf-8"))["faults"]
    injected: list[dict] = []
    try:
        outcome = _play(commands, run_dir, display, expected_s, token, jobs, faults, injected, job_fields or {}, on_running)
        return dataclasses.replace(outcome, faults_injected=injected) if faults else outcome
    finally:
        # However the run ended, what the members wrote is kept where the report looks for it.
        for job in jobs:
            _lift_job_files(run_dir, len(commands), job)


def _play(commands: list[list[str]], run_dir: Path, display: ProgressDisplay, expected_s: float, token: str,
          jobs: list[int], faults: list[dict], injected: list[dict], job_fields: dict, on_running) -> Outcome:
    with SignalCatcher() as signals, ExitStack() as stack, display:
        logs = [stack.enter_context(open(member_dir(run_dir, i) / "member.log", "a", encoding="utf-8"))
                for i in range(len(commands))]
        children = [stack.enter_context(ChildProcess(c, cwd=member_dir(run_dir, i))) for i, c in enumerate(commands)]
        follow = _Follow(children, logs, display)

        def start_again(name: str) -> ChildProcess:
            i = int(name.removeprefix("member-")) - 1
            children[i] = stack.enter_context(ChildProcess(commands[i], cwd=member_dir(run_dir, i)))
            return children[i]

        schedule = FaultSchedule(faults, {f"member-{i + 1}": c for i, c in enumerate(children)}, start_again,
                                 lambda text: display.output(text, "stderr"))
        follow.expected_gone, follow.silenced = schedule.down, schedule.silenced

        def stop(status, cause, exit_code):
            schedule.release()
            injected[:] = schedule.injected()
            for child in children:
                child.kill_group(signal.SIGTERM)
            for child in children:
                child.stop(STOP_GRACE_S, hurry=signals.repeated)
            return Outcome(status, cause, exit_code)

        deadline = time.monotonic() + JOIN_S
        while len(follow.http) < len(children):
            if signals.first is not None:
                return stop("interrupted", f"stopped by {signal.Signals(signals.first).name}", 128 + signals.first)
            if time.monotonic() > deadline or follow.exited():
                return stop("failed", f"the cluster did not form within {JOIN_S:g} s: {follow.exited() or 'members missing'}"
                            + follow.tail(), EXIT_FAILED)
            follow.pump()
        # The faults are the runner's to inject; the members run the job without them.
        job_scenario = {**json.loads((run_dir / "scenario.json").read_text(encoding="utf-8")), "faults": [], **job_fields}
        status, body = _call(follow.http[0], "POST", "/jobs", token, json.dumps(job_scenario).encode())
        if status != 202:
            return stop("failed", f"member 1 refused the job ({status}): {body.strip()}", EXIT_FAILED)
        job = json.loads(body)["job"]
        jobs.append(job)
        deadline = time.monotonic() + expected_s + STARTUP_AND_FLUSH_S
        next_status = time.monotonic() + 1
        while any(i not in follow.done and not schedule.hit(f"member-{i + 1}") for i in range(len(children))):
            if follow.t0 is not None:
                schedule.start(follow.t0)
                if on_running is not None:
                    on_running, running = None, on_running
                    running()
            schedule.poll()
            if signals.first is not None:
                return stop("interrupted", f"stopped by {signal.Signals(signals.first).name}", 128 + signals.first)
            if time.monotonic() > deadline:
                return stop("failed", f"the members did not finish within {expected_s:g} s (warm-up + duration) "
                                      f"+ {STARTUP_AND_FLUSH_S:g} s", EXIT_FAILED)
            if follow.exited():
                return stop("failed", follow.exited() + follow.tail(), EXIT_FAILED)
            if time.monotonic() > next_status:
                next_status = time.monotonic() + 1
                code, body = _call(follow.http[follow.first_live()], "GET", f"/jobs/{job}", token)
                state = json.loads(body) if code == 200 else {}
                # A part that left (its member was paused and dropped) is no failure: the others run on.
                if state.get("state") != "left" and (state.get("state") == "failed" or state.get("cause")):
                    return stop("failed", f"job {job} failed: {state.get('cause')}" + follow.tail(), EXIT_FAILED)
            try:
                follow.pump()
            except ProtocolError as e:
                return stop("failed", f"a member broke the progress contract: {e}", EXIT_FAILED)
        return stop("completed", None, 0)


def _lift_job_files(run_dir: Path, members: int, job: int) -> None:
    """member-i/job-ID/* -> member-i/: one job per run, so the folder needs no job level."""
    for i in range(members):
        job_dir = member_dir(run_dir, i) / f"job-{job}"
        if job_dir.is_dir():
            for f in job_dir.iterdir():
                f.replace(member_dir(run_dir, i) / f.name)
            job_dir.rmdir()


class _Follow:
    """Reads every member's output: readiness, progress (shown for the whole cluster), done lines;
    everything else into the member's member.log and through to the user."""

    def __init__(self, children: list[ChildProcess], logs, display: ProgressDisplay):
        self.children, self.logs, self.display = children, logs, display
        self.http: dict[int, str] = {}
        self.done: set[int] = set()
        self.tails: dict[int, list[str]] = {}
        self.progress: dict[int, Progress] = {}
        # The job's t=0 (epoch s): arrival minus elapsed_s of the progress lines (the members start
        # the job at one instant). A line can arrive late, never early, so the earliest estimate is the best.
        self.t0: float | None = None
        self.expected_gone = lambda name: False  # a member a fault killed: its exit is no crash
        self.silenced = lambda name: False  # killed or stopped by a fault: it says nothing now

    def pump(self) -> None:
        took = False
        for i, child in enumerate(self.children):
            while (line := child.next_line(timeout=0)) is not None:
                took = True
                if line.text is not None:
                    self._take(i, line.stream, line.text)
        self.display.tick()
        if not took:
            time.sleep(0.05)

    def _take(self, i: int, stream: str, text: str) -> None:
        if stream == "stdout" and text.startswith('{"type":"ready"'):
            self.http[i] = json.loads(text)["http"]
            return
        message = parse_line(text) if stream == "stdout" else None
        if isinstance(message, Progress):
            self.progress[i] = message
            self.t0 = min(self.t0 or math.inf, time.time() - message.elapsed_s)
            if i == self.first_live():
                # A member a fault took down sends no more lines: its last one is no longer the cluster's.
                live = [p for j, p in self.progress.items() if not self.silenced(f"member-{j + 1}")]
                self.display.update(_cluster_progress(message, live))
        elif isinstance(message, Done):
            self.done.add(i)
        else:
            self.logs[i].write(f"{text}\n")
            self.logs[i].flush()
            self.display.output(f"member-{i + 1}: {text}", stream)
            if stream == "stderr":
                self.tails[i] = (self.tails.get(i, []) + [text])[-10:]

    def first_live(self) -> int:
        """The first member no fault has silenced: the one whose API and progress speak for the job."""
        return next((i for i in range(len(self.children)) if not self.silenced(f"member-{i + 1}")), 0)

    def exited(self) -> str | None:
        """Why the run cannot go on: a member that exited (they run until stopped)."""
        for i, child in enumerate(self.children):
            code = child.exit_code()
            if code is not None and not self.expected_gone(f"member-{i + 1}"):
                how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exited with code {code}"
                return f"member-{i + 1} {how}"
        return None

    def tail(self) -> str:
        lines = [f"member-{i + 1}: {t}" for i, tail in sorted(self.tails.items()) for t in tail]
        return "; last words on stderr:\n  " + "\n  ".join(lines) if lines else ""


def _cluster_progress(first: Progress, latest: list[Progress]) -> Progress:
    """The first live member's progress line made the cluster's: the members' achieved rates summed,
    the worst latency and schedule lag of their last intervals."""
    def worst(values):
        values = [v for v in values if v is not None]
        return max(values) if values else None
    return dataclasses.replace(first, achieved_rate=sum(p.achieved_rate for p in latest),
                               p99_us=worst(p.p99_us for p in latest), p9999_us=worst(p.p9999_us for p in latest),
                               behind_ms=max(p.behind_ms for p in latest))

