"""The Kafka side of a remote run (`load.source: kafka` on TARGET=aws or TARGET=hosts), the remote
counterpart of targets/local/kafka_load.py:

- brokers in KRaft mode on hosts of their own (infra/ansible roles/kafka; on AWS they keep running
  between runs), installed from the same Maven-resolved Kafka the local broker runs;
- the run's topic made before the members start (start.yml, from the first load generator host),
  with the scenario's partitions, fsync policy and replication factor (default 3, or the number of
  brokers if fewer);
- load generators on hosts of their own, each sending its share of one schedule (loadgen `--share
  K/N`), started as a local cluster's is when the job is submitted, with the job's start as their
  shared t0 (written on each host into the file its command line reads, START_ARGS);
- the members reading the topic as a local cluster's do (`kafka_endpoint` in the job).

When the run ends the load generators are stopped (stop.yml on the loadgens group), their output is
fetched into loadgen-<k>/loadgen.log and their files collected with the members'; their summaries
are added up into loadgen.json, and a load generator that failed fails the run.
"""
import base64
import json
import os
import secrets
import subprocess
import zipfile
from pathlib import Path, PurePosixPath

from fournines.members.java_build import JARS
from fournines.targets.loadgen_commands import create_topic, fsync_configs, loadgen_run
from fournines.targets.remote.cluster import Cluster, ExtraHosts, ExtraHostsRefused
from fournines.targets.remote.commands import RemoteHost, run_dir as host_run_dir
from fournines.targets.remote.plan import service_control
from fournines_analysis.errors import write_text

DEFAULT_REPLICATION_FACTOR = 3
KAFKA_PORT = 9092  # kafka_port in infra/ansible/roles/kafka/defaults/main.yml
HOST_JAR = PurePosixPath("lib/fournines-loadgen.jar")  # where the loadgen role puts it under fournines_home
START_ARGS = "loadgen-start.args"  # in the run's directory on a load generator host: `--start-epoch-ms T`
FETCH_S = 60.0
_BROKER_CLASSPATH = "io/fournines/kafkalocal/broker.classpath"
_UUID_BYTES = 16
_FIELDS_SUMMED = ("sent", "acked", "send_errors", "target_rate", "achieved_rate", "partitions_ended")


def check_kafka_hosts(scenario: dict, hosts: ExtraHosts) -> None:
    """ExtraHostsRefused, naming the field or setting, if a Kafka load cannot run on these hosts."""
    if scenario["load"]["source"] != "kafka":
        return
    replication_factor(scenario, hosts.brokers)
    if hosts.loadgens < 1:
        raise ExtraHostsRefused("LOADGENS=0: a Kafka load needs at least one load generator host")
    load = scenario["load"]
    if load["partitions"] % (hosts.loadgens * load["kafka"]["producers"]):
        raise ExtraHostsRefused(
            f"field load.partitions={load['partitions']}: must be a multiple of LOADGENS ({hosts.loadgens}) x "
            f"load.kafka.producers ({load['kafka']['producers']}), so each partition is written by one sender")


def replication_factor(scenario: dict, brokers: int) -> int:
    """The run's topic's replicas: load.kafka.replication_factor, else 3, or `brokers` if fewer."""
    if brokers < 1:
        raise ExtraHostsRefused("BROKERS=0: a Kafka load needs at least one broker host")
    given = scenario["load"]["kafka"].get("replication_factor")
    if given is not None and given > brokers:
        raise ExtraHostsRefused(f"field load.kafka.replication_factor={given}: more replicas than brokers (BROKERS={brokers})")
    return given or min(DEFAULT_REPLICATION_FACTOR, brokers)


class RemoteKafka:
    """A remote run's Kafka load: the playbooks' variables, the job's endpoint, the load generators'
    start, stop and summaries."""

    def __init__(self, cluster: Cluster, scenario: dict, run_name: str):
        self.cluster, self.scenario = cluster, scenario
        self.brokers, self.loadgens = cluster.hosts("brokers"), cluster.hosts("loadgens")
        self.replication_factor = replication_factor(scenario, len(self.brokers))
        port = cluster.inventory["vars"].get("kafka_port", KAFKA_PORT)
        self.bootstrap = ",".join(f"{b.private_ip}:{port}" for b in self.brokers)
        self.topic = f"fournines-{run_name}"
        self.run_name = run_name
        self.t0_epoch_ms: int | None = None
        self.unstarted: list[str] = []  # load generators that could not be started, and why

    @property
    def job_fields(self) -> dict:
        return {"kafka_endpoint": {"bootstrap": self.bootstrap, "topic": self.topic}}

    def ansible_vars(self) -> dict:
        """What deploy.yml and start.yml need for the brokers, the topic and the load generators, but the
        broker's jars (kafka_libs_dir: broker_libs)."""
        first = self.loadgens[0]
        return {"kafka_cluster_id": self.cluster.kafka_cluster_id,
                "loadgen_jar": str(JARS["loadgen"].path.resolve()), "loadgen_commands": self.loadgen_commands(),
                "loadgen_topic_command": create_topic(str(first.home / HOST_JAR), self.bootstrap, self.topic,
                                                      self.scenario["load"]["partitions"], self.replication_factor,
                                                      fsync_configs(self.scenario))}

    def loadgen_commands(self) -> dict[str, list[str]]:
        """Each load generator host's command line: its share of the schedule, t0 read from START_ARGS."""
        count = len(self.loadgens)
        return {host.name: [*loadgen_run(self.scenario, str(host.home / HOST_JAR), self.bootstrap, self.topic),
                            "--share", f"{k + 1}/{count}", "--summary", "loadgen.json",
                            f"@{host_run_dir(host, self.run_name) / START_ARGS}"]
                for k, host in enumerate(self.loadgens)}

    def start_load(self, t0_epoch_ns: int) -> None:
        """Starts every load generator with the job's start as t0 (for `play`: a remote run's jobs always
        have one, run.py shares it); one that could not be started fails the run when it ends
        (summarize), as a local one that failed does."""
        self.t0_epoch_ms = t0_epoch_ns // 1_000_000
        starts = [subprocess.Popen(self._on(host, ["sh", "-c", f'printf "%s\\n" --start-epoch-ms {self.t0_epoch_ms} > "$1" && exec "$2" loadgen start',
                                                   "start-load", str(host_run_dir(host, self.run_name) / START_ARGS),
                                                   service_control(host)]),
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                  for host in self.loadgens]
        for host, start in zip(self.loadgens, starts):
            try:
                _, err = start.communicate(timeout=FETCH_S)
            except subprocess.TimeoutExpired:
                start.kill()
                _, err = start.communicate()
            if start.returncode:
                self.unstarted.append(f"{host.name} was not started (exit {start.returncode}: {err.decode().strip()})")

    def fetch_logs(self, run_dir: Path) -> dict[str, int | None]:
        """Each load generator's output into loadgen-<k>/loadgen.log (it has ended: stop.yml stopped it);
        its exit code by host name (None: its output could not be fetched)."""
        codes = {}
        for host in self.loadgens:
            folder = run_dir / host.name
            folder.mkdir(parents=True, exist_ok=True)
            with open(folder / "loadgen.log", "wb") as log:
                try:
                    codes[host.name] = subprocess.run(self._on(host, [service_control(host), "loadgen", "follow"]),
                                                      stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                                      timeout=FETCH_S).returncode
                except subprocess.TimeoutExpired:
                    codes[host.name] = None
        return codes

    def summarize(self, run_dir: Path, codes: dict[str, int | None]) -> str | None:
        """kafka.json and loadgen.json (every host's summary, and their sums); why the load is not to be
        trusted, or None."""
        write_text(run_dir / "kafka.json", json.dumps({"bootstrap": self.bootstrap, "topic": self.topic, "external": False,
                                                       "brokers": len(self.brokers), "replication_factor": self.replication_factor},
                                                      indent=2) + "\n")
        summaries, problems = {}, list(self.unstarted)
        for host in self.loadgens:
            path = run_dir / host.name / "loadgen.json"
            try:
                summaries[host.name] = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as e:
                problems.append(f"{host.name} wrote no summary ({e}; exit {codes.get(host.name)}); see {host.name}/loadgen.log")
                continue
            summary = summaries[host.name]
            if summary["send_errors"] or summary["acked"] != summary["sent"]:
                problems.append(f"{host.name}: {summary['sent'] - summary['acked']} of {summary['sent']} events not acknowledged, "
                                f"{summary['send_errors']} send errors (first: {summary['first_error']}); see {host.name}/loadgen.log")
        if summaries:
            merged = {name: sum(s[name] for s in summaries.values()) for name in _FIELDS_SUMMED}
            merged["max_behind_ms"] = max(s["max_behind_ms"] for s in summaries.values())
            merged["first_error"] = next((s["first_error"] for s in summaries.values() if s["first_error"]), None)
            write_text(run_dir / "loadgen.json", json.dumps({**merged, "start_epoch_ns": (self.t0_epoch_ms or 0) * 1_000_000,
                                                             "hosts": summaries}, indent=2) + "\n")
        return "the load generators: " + "; ".join(problems) if problems else None

    def _on(self, host: RemoteHost, remote: list[str]) -> list[str]:
        return self.cluster.ssh("loadgens", host, remote)


def new_kafka_cluster_id() -> str:
    """A KRaft cluster id as Kafka's storage tool makes one: a random UUID in URL-safe base64, 22 characters."""
    return base64.urlsafe_b64encode(secrets.token_bytes(_UUID_BYTES)).decode().rstrip("=")


def broker_libs(folder: Path) -> Path:
    """A folder of links to the broker's jars, the classpath Maven resolved for the local broker
    (infra/kafka-local writes it into its jar), so both targets run one Kafka version."""
    with zipfile.ZipFile(JARS["kafka-local"].path) as jar:
        classpath = jar.read(_BROKER_CLASSPATH).decode().strip().split(os.pathsep)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for entry in map(Path, classpath):
        (folder / entry.name).symlink_to(entry)
    return folder
