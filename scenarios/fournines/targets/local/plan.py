"""What a local run starts and submits, as data for the one play loop (play.py). Three plans:

- a lone member (cluster.members = 1): one process that runs its own job and stops by itself;
- a cluster: cluster.members processes that serve, each in member-<i>/, and one job the runner
  submits to member-1;
- active-active: two such clusters of cluster.members / 2 (copy 1: member-1 … member-k, copy 2:
  member-(k+1) … member-2k, so a fault's `member-N` names one process of one copy), each running a
  copy of the job, and a result consumer (`consume`, a JVM of its own) to which every member's second
  sink sends its results over loopback TCP; it keeps the first copy of each (window, key), and its
  logs are the run's latency: that of the deduplicated output.

Both copies compute identical results: the in-process generator makes event i from (seed, config,
i) and schedules it at t0 + i/rate, and both copies are given the same t0 (START_LEAD_S after the
jobs are submitted). A copy is lost when one of its members exits or its job fails; the run goes on
while one copy and the consumer live.

A cluster whose faults include a partition runs behind a proxy (the member jar's `proxy`, a process of
the plan): the member list names the proxy's addresses, each member listens behind its own, and the
runner cuts a member off by writing to the proxy's stdin.

Serving members share a secret generated for the run (cluster.secret, mode 0600, in the results
folder); the runner's API calls carry the bearer token derived from it.
"""
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from fournines.members.jvm import Launcher, MemberAddresses, consume_command, proxy_command, serve_commands
from fournines.members.secret import api_token, write_secret
from fournines.results.folder import consumer_dir, member_dir
from fournines.results.member_merge import CopyResult, lift_job_files, merge_active_active, merge_members
from fournines.targets.local.kafka_load import KafkaLoad
from fournines_analysis.errors import write_text

COPIES = 2
START_LEAD_S = 3.0  # submit -> shared start: both coordinators hear of the job and tell their members in time
# submit -> shared start of a cluster fed through Kafka: the load generator, started at submission,
# needs its JVM and its warm-up events (LoadRun.WARMUP_EVENTS: about 4.5 s on an idle 2-core host)
# before its t0; events it sends late are measured late.
KAFKA_START_LEAD_S = 10.0
RECORD_RESULTS_ENV = "FOURNINES_RECORD_RESULTS"  # 1: the consumer also writes every result (tests)


@dataclass(frozen=True)
class Process:
    name: str  # in faults and before its output lines: "member-2", "consumer"
    title: str  # in messages: "member-2", "the member", "the result consumer"
    command: list[str]
    folder: Path  # its working directory, where it writes its files
    log: str  # the file in `folder` its own output goes to
    serves: bool  # says where it serves (a `ready` line) and runs until stopped; else it runs its own job and exits
    takes_input: bool = False  # reads commands on its stdin (the proxy)
    api: str | None = None  # where the runner reaches its management API, if not where its `ready` line says (a remote member's)


@dataclass(frozen=True)
class RemoteMembers:
    """How faults reach members that run on other hosts (targets/remote), not as this runner's children."""
    signal: Callable[[str, int], None]  # a signal to the named member's process group on its host
    start: Callable[[str], None]  # the named member's process started again on its host (then followed anew)
    partition: Callable[[str, bool], None] | None = None  # the named member cut off from the others, or joined again


@dataclass
class Job:
    """A job of the run and the members that run it."""
    name: str  # "the job", "copy 2"
    members: list[int]  # indexes into the plan's processes; the first is sent the job
    spec: dict | None  # the job the runner submits; None: its member runs its own
    copy: int | None = None  # active-active: the copy's number (1, 2)
    id: int | None = None  # as the members number it, once submitted
    lost: str | None = None  # why it stopped early

    def body(self, consumer: str | None, start_epoch_ns: int | None) -> dict:
        """The job as submitted, with the shared start if there is one; a copy also learns its part of the
        active-active run (nexmark/fournines ActiveActiveCopy): its number, the consumer's address and the shared start."""
        if self.copy is None:
            return {**self.spec, "start_epoch_ns": start_epoch_ns} if start_epoch_ns is not None else self.spec
        return {**self.spec, "active_active": {"copy": self.copy - 1, "consumer": consumer,
                                               "start_epoch_ns": start_epoch_ns}}


@dataclass
class Plan:
    processes: list[Process]
    jobs: list[Job]
    consumer: int | None = None  # the result consumer's index: its progress is the run's, its done ends it
    token: str | None = None  # the management API's, for a plan that submits jobs
    proxy: int | None = None  # the index of the proxy between the members, for a plan with partition faults
    start_lead_s: float = 0.0  # > 0: the jobs share a start this long after they are submitted
    remote: RemoteMembers | None = None  # the members run on other hosts: how faults reach them
    merge: Callable[[], None] = field(default=lambda: None)  # the members' files into the run's own

    @property
    def finishers(self) -> list[int]:
        """The processes whose end is the run's end: the consumer, else the members."""
        return [self.consumer] if self.consumer is not None else [i for job in self.jobs for i in job.members]

    def start_at(self, submitted_ns: int) -> int | None:
        """The instant (epoch ns, a whole ms) every job starts from when submitted at `submitted_ns`: a
        checked run's own (`start_epoch_ns` in its job), or start_lead_s later; None: each job starts
        when its members are ready."""
        given = {job.spec["start_epoch_ns"] for job in self.jobs if job.spec and "start_epoch_ns" in job.spec}
        if given:
            (start,) = given
            return start
        if not self.start_lead_s:
            return None
        return (submitted_ns // 1_000_000 + round(self.start_lead_s * 1000)) * 1_000_000

    def feed(self, kafka: KafkaLoad) -> None:
        """The Kafka load's endpoint (nothing without one): into each job the runner submits, or onto
        the command line of a member that runs its own."""
        for job in self.jobs:
            if job.spec is None:
                self.processes[job.members[0]].command.extend(kafka.member_args)
            else:
                job.spec.update(kafka.job_fields)
        if kafka.topic:
            self.share_start_with_load()

    def share_start_with_load(self) -> None:
        """Submitted jobs and the Kafka load start at one instant, far enough ahead for the load
        generator to be sending by then: the members' warm-up, the faults' `at` and the load's t0
        all count from it."""
        if any(job.spec is not None for job in self.jobs):
            self.start_lead_s = max(self.start_lead_s, KAFKA_START_LEAD_S)

    def gather_files(self) -> None:
        """However the run ended, what the members wrote goes where the report looks for it."""
        for job in self.jobs:
            if job.id is not None:
                for i in job.members:
                    lift_job_files(self.processes[i].folder, job.id)
        self.merge()


def plan_for(scenario: dict, launcher: Launcher, flags: list[str], run_dir: Path) -> Plan:
    if scenario["mode"] == "active-active":
        return active_active(scenario, launcher, flags, run_dir)
    if scenario["cluster"]["members"] > 1:
        return cluster(scenario, launcher, flags, run_dir)
    return lone(launcher(flags, run_dir), run_dir)


def lone(command: list[str], folder: Path) -> Plan:
    """One member that runs the job by itself."""
    return Plan([Process("member", "the member", command, folder, "member.log", serves=False)],
                [Job("the job", [0], None)])


def cluster(scenario: dict, launcher: Launcher, flags: list[str], run_dir: Path) -> Plan:
    folders = [member_dir(run_dir, i) for i in range(scenario["cluster"]["members"])]
    behind_proxy = any(f["action"] == "partition" for f in scenario["faults"])
    addresses = MemberAddresses.free(len(folders), behind_proxy)
    processes = _members(serve_commands(launcher, flags, run_dir, folders, len(folders), addresses), folders)
    job = Job("the job", list(range(len(processes))), {**scenario, "faults": []})  # the faults are the runner's to inject
    proxy = None
    if behind_proxy:
        proxy = len(processes)
        processes.append(Process("proxy", "the member proxy", proxy_command(launcher, run_dir, addresses), run_dir,
                                 "proxy.log", serves=True, takes_input=True))
    return Plan(processes, [job], token=api_token(write_secret(run_dir)), proxy=proxy,
                merge=lambda: merge_members(run_dir, folders))


def active_active(scenario: dict, launcher: Launcher, flags: list[str], run_dir: Path) -> Plan:
    count = scenario["cluster"]["members"]
    folders = [member_dir(run_dir, i) for i in range(count)]
    k = count // COPIES
    copies = [Job(f"copy {c + 1}", list(range(c * k, (c + 1) * k)), copy_job(scenario, k), copy=c + 1)
              for c in range(COPIES)]
    commands = [command for copy in copies
                for command in serve_commands(launcher, flags, run_dir, [folders[i] for i in copy.members], count,
                                              MemberAddresses.free(k, behind_proxy=False))]
    consumer_folder = consumer_dir(run_dir)
    consumer_folder.mkdir(parents=True, exist_ok=True)
    # What the consumer reads (query, rate, warm-up, duration); the faults are the runner's.
    write_text(consumer_folder / "scenario.json", json.dumps({**scenario, "faults": []}, indent=2) + "\n")
    consumer = Process("consumer", "the result consumer",
                       consume_command(launcher, flags, run_dir, consumer_folder, COPIES, k,
                                       record_results=os.environ.get(RECORD_RESULTS_ENV) == "1"),
                       consumer_folder, "consumer.log", serves=True)

    def merge():
        merge_active_active(run_dir, [CopyResult(c.copy, [folders[i] for i in c.members], c.id, c.lost) for c in copies])
    return Plan([*_members(commands, folders), consumer], copies, consumer=count, token=api_token(write_secret(run_dir)),
                start_lead_s=START_LEAD_S, merge=merge)


def copy_job(scenario: dict, members: int) -> dict:
    """The job one copy runs: the scenario on its own cluster's `members`, its generator split over them."""
    job = json.loads(json.dumps(scenario))
    job["cluster"]["members"] = members
    job["load"]["partitions"] = members * scenario["cluster"]["threads"]
    job["faults"] = []  # the runner's to inject
    return job


def _members(commands: list[list[str]], folders: list[Path]) -> list[Process]:
    return [Process(folder.name, folder.name, command, folder, "member.log", serves=True)
            for command, folder in zip(commands, folders)]
