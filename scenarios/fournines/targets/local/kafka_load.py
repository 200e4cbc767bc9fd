"""The Kafka side of a run with `load.source: kafka`: the broker, the run's topic and the load
generator, around the member that `play` runs or the members of a cluster (scenarios/docs/kafka-load.md).

In order: a real local broker (infra/kafka-local, a child JVM from the Maven jars, on loopback), or
the cluster named by KAFKA_BOOTSTRAP=host:port; a fresh topic named after the results folder, with
the scenario's partitions and fsync policy. The member starts (on a cluster, every member, each
reading its share of the partitions), then the load generator (loadgen/, its own JVM), which runs
until it is stopped. A cluster's job is submitted with a start instant (local/plan.py
KAFKA_START_LEAD_S ahead) and the load generator is started at once with that t0, so the load, the
members' warm-up and the faults' `at` count from one instant. A lone member runs its job as soon as
it is up: its load generator starts once it reports progress, with t0 when its warm-up events are
done; starting it earlier would make the member begin with a backlog of events that waited for its
start-up (several seconds on a busy machine). On the way out, whatever happened (Ctrl-C,
a crash), the load generator and then the broker get SIGTERM, a grace period, then SIGKILL; the
broker removes its data. Their output stays in the results folder: loadgen.log, loadgen.json,
broker.log (the broker's own log), broker.out and broker-launcher.log.

A checked run (`record_results`, `chaos`) gets a bounded load on a known schedule: the load generator
sends the job's `load.events` events from its `start_epoch_ns` and then marks the end of every
partition, where the members' sources end. Its cluster also writes every result to a second topic,
`<topic>-results`, which is read back before the broker stops, into kafka-results.jsonl, as a reader
downstream sees it: under exactly-once, only what committed transactions wrote.
"""
import json
import os
import re
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

from fournines.members.child_process import die_with_parent, kill_group
from fournines.members.java_build import JARS, ensure_jar
from fournines.targets.loadgen_commands import create_topic, fsync_configs, loadgen_run
from fournines_analysis.errors import write_text

LOADGEN, BROKER = JARS["loadgen"], JARS["kafka-local"]
BOOTSTRAP_ENV = "KAFKA_BOOTSTRAP"
BROKER_START_S = 120.0
STOP_GRACE_S = 30.0  # the load generator flushes its producers; the broker shuts down in ~1 s
RESULTS_FILE = "kafka-results.jsonl"
# How long the results' reader waits for open transactions to end: a member killed mid-transaction is
# fenced when the job restarts, within seconds; one still open after this holds output back.
STABLE_S = 10
_READY = re.compile(r'\{"type":"ready","bootstrap":"([^"]+)"')


class KafkaLoadError(Exception):
    """The broker, the topic or the load generator could not be started; the message says why."""


class _Sidecar:
    """A helper process beside the member: its own session (so its group can be signalled), SIGTERM
    from the kernel if the runner dies, output straight into a log file in the results folder."""

    def __init__(self, name: str, command: list[str], log: Path, cwd: Path):
        self.name, self.log = name, log
        with open(log, "ab") as out:
            self.process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True,
                                            preexec_fn=die_with_parent)
        self.stopped = False

    def exit_code(self) -> int | None:
        return self.process.poll()

    def stop(self, grace_s: float) -> None:
        self.stopped = True
        kill_group(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(grace_s)
        except subprocess.TimeoutExpired:
            pass
        kill_group(self.process.pid, signal.SIGKILL)
        self.process.wait()


class KafkaLoad:
    """What the member needs (its extra arguments), the load generator to start once the member runs,
    and to check afterwards."""

    def __init__(self, bootstrap: str | None = None, topic: str | None = None, start_loadgen=None,
                 results_topic: str | None = None, read_results=None):
        self.bootstrap, self.topic, self._start_loadgen = bootstrap, topic, start_loadgen
        self.results_topic, self._read_results = results_topic, read_results
        self.loadgen: _Sidecar | None = None

    def start_load(self, t0_epoch_ns: int | None) -> None:
        """Starts the load generator with the jobs' shared start as its t0, or with its own if None
        (for `play`); nothing without a Kafka load."""
        if self._start_loadgen is not None and self.loadgen is None:
            self.loadgen = self._start_loadgen(t0_epoch_ns)

    @property
    def member_args(self) -> list[str]:
        """What a member alone (`run`) needs to read the topic."""
        return ["--kafka-bootstrap", self.bootstrap, "--kafka-topic", self.topic] if self.topic else []

    @property
    def job_fields(self) -> dict:
        """What a cluster needs to read the topic: added to the job it is sent (nexmark/driver KafkaEndpoint)."""
        if not self.topic:
            return {}
        results = {"results_topic": self.results_topic} if self.results_topic else {}
        return {"kafka_endpoint": {"bootstrap": self.bootstrap, "topic": self.topic, **results}}

    def read_results(self) -> str | None:
        """A checked run's results topic into RESULTS_FILE; why it could not be read whole, or None."""
        return self._read_results() if self._read_results else None

    def failure(self) -> str | None:
        """Why the load is not to be trusted: the load generator ended by itself with an error."""
        if self._start_loadgen is None:
            return None
        if self.loadgen is None:
            return "the member never reported progress, so the load generator was never started"
        code = self.loadgen.exit_code()
        if code not in (None, 0) and not self.loadgen.stopped:
            return f"the load generator exited with code {code}; see {self.loadgen.log.name}"
        return None


def build_jars() -> None:
    """Builds the load generator and the broker launcher if stale (before the run starts)."""
    ensure_jar(LOADGEN)
    ensure_jar(BROKER)


@contextmanager
def kafka_load(scenario: dict, run_dir: Path):
    """Yields a KafkaLoad (empty unless load.source is kafka) with the broker, topic and load generator
    up; stops them, load generator first, when the block ends."""
    if scenario["load"]["source"] != "kafka":
        yield KafkaLoad()
        return
    loadgen_jar, broker_jar = LOADGEN.path, BROKER.path
    external = os.environ.get(BOOTSTRAP_ENV)
    replication_factor = scenario["load"]["kafka"].get("replication_factor", 1)
    if replication_factor > 1 and not external:
        raise KafkaLoadError(f"load.kafka.replication_factor={replication_factor}: the local target runs one broker; "
                             f"set {BOOTSTRAP_ENV} to a cluster of {replication_factor} or more, or use a remote target")
    sidecars: list[_Sidecar] = []
    try:
        bootstrap = external or _start_broker(broker_jar, run_dir, sidecars)
        topic = f"fournines-{run_dir.name}"
        jar = str(loadgen_jar.resolve())
        _create_topic(create_topic(jar, bootstrap, topic, scenario["load"]["partitions"], replication_factor,
                                   fsync_configs(scenario)), topic, bootstrap, run_dir)
        results_topic = f"{topic}-results" if scenario.get("record_results") else None
        if results_topic:
            _create_topic(create_topic(jar, bootstrap, results_topic, 1, replication_factor), results_topic, bootstrap, run_dir)
        _describe(run_dir, bootstrap, topic, external=bool(external))

        def start_loadgen(t0_epoch_ns: int | None) -> _Sidecar:
            command = [*loadgen_run(scenario, jar, bootstrap, topic, t0_epoch_ns),
                       "--summary", str((run_dir / "loadgen.json").resolve())]
            loadgen = _Sidecar("loadgen", command, run_dir / "loadgen.log", run_dir)
            sidecars.append(loadgen)
            return loadgen

        def read_results() -> str | None:
            return _read_topic(loadgen_jar, bootstrap, results_topic, scenario["guarantee"] == "exactly-once", run_dir)

        yield KafkaLoad(bootstrap, topic, start_loadgen, results_topic, read_results if results_topic else None)
    finally:
        for sidecar in reversed(sidecars):
            sidecar.stop(STOP_GRACE_S)


def _start_broker(jar: Path, run_dir: Path, sidecars: list) -> str:
    log = run_dir / "broker-launcher.log"
    broker = _Sidecar("broker", ["java", "-Xmx64m", "-cp", str(jar.resolve()), "io.fournines.kafkalocal.LocalKafka",
                                 str(run_dir.resolve())], log, run_dir)
    sidecars.append(broker)
    deadline = time.monotonic() + BROKER_START_S
    while time.monotonic() < deadline:
        ready = _READY.search(log.read_text(encoding="utf-8", errors="replace"))
        if ready:
            return ready.group(1)
        if broker.exit_code() is not None:
            raise KafkaLoadError(f"the local Kafka broker did not start (exit {broker.exit_code()}); see {log} and {run_dir / 'broker.out'}")
        time.sleep(0.1)
    raise KafkaLoadError(f"the local Kafka broker was not ready within {BROKER_START_S:g} s; see {log}")


def _create_topic(command: list[str], topic: str, bootstrap: str, run_dir: Path) -> None:
    code = _loadgen_tool(command, run_dir)
    if code:
        raise KafkaLoadError(f"creating topic {topic} on {bootstrap} failed (exit {code}); see {run_dir / 'loadgen.log'}")


def _read_topic(jar: Path, bootstrap: str, topic: str, committed: bool, run_dir: Path) -> str | None:
    """The topic into RESULTS_FILE; None, or why not all of it could be read (the tool's last words)."""
    as_committed = ["--committed", "--stable-s", str(STABLE_S)] if committed else []
    code = _loadgen_tool(["java", "-jar", str(jar.resolve()), "read-topic", "--bootstrap", bootstrap, "--topic", topic,
                          *as_committed, "--out", str((run_dir / RESULTS_FILE).resolve())], run_dir)
    if not code:
        return None
    lines = (run_dir / "loadgen.log").read_text(encoding="utf-8", errors="replace").strip().splitlines()
    return f"reading the results topic {topic} failed (exit {code}): {lines[-1] if lines else 'no output'}"


def _loadgen_tool(command: list[str], run_dir: Path) -> int:
    """One of the load generator's short commands, its output appended to loadgen.log; its exit code."""
    with open(run_dir / "loadgen.log", "ab") as log:
        return subprocess.run(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=run_dir).returncode


def _describe(run_dir: Path, bootstrap: str, topic: str, external: bool) -> None:
    write_text(run_dir / "kafka.json", json.dumps({"bootstrap": bootstrap, "topic": topic, "external": external}, indent=2) + "\n")

