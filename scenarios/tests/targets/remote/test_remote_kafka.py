"""A remote run's Kafka side, without hosts: how many brokers and load generators, refused by name
when they cannot carry the scenario; the topic, the load generators' shares of one schedule, the
job's endpoint; the load generators' summaries added up, and a failed or silent one failing the run."""
import json
from pathlib import Path, PurePosixPath

import pytest

from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.remote.cluster import Cluster, ExtraHosts, ExtraHostsRefused, host_counts
from fournines.targets.remote.commands import Ports
from fournines.targets.remote.kafka import RemoteKafka, check_kafka_hosts, new_kafka_cluster_id

HOME = PurePosixPath("/opt/fournines")
RUN = "20261125T080000Z-q5-kafka"


def kafka_scenario(*overrides: str) -> dict:
    return load_scenario("q5", parse_overrides(["SOURCE=kafka", "TARGET=aws", "CLUSTER=3", *overrides]))


def cluster(brokers: int, loadgens: int) -> Cluster:
    def group(role: str, count: int, first: int) -> dict:
        return {"hosts": {f"{role}-{i}": {"ansible_host": f"10.0.{first}.{i}", "private_ip": f"10.0.{first}.{i}", "host_index": i}
                          for i in range(1, count + 1)}}
    inventory = {"vars": {"ansible_user": "ubuntu", "ansible_ssh_private_key_file": "/keys/id", "ansible_ssh_common_args": "",
                          "kafka_port": 9092},
                 "children": {"members": group("member", 3, 1), "brokers": group("broker", brokers, 2),
                              "loadgens": group("loadgen", loadgens, 3)}}
    return Cluster(Path("inventory.yml"), inventory, lambda _: HOME, Ports(5701, 5801), "s" * 64, Path("private"),
                   sudo=["sudo", "-n"], kafka_cluster_id=new_kafka_cluster_id())


def option(command: list[str], name: str) -> str:
    assert command.count(name) == 1, f"{name} in {command}"
    return command[command.index(name) + 1]


def test_a_kafka_load_gets_three_brokers_and_a_load_generator_unless_told_otherwise():
    assert host_counts(True, {}) == ExtraHosts(3, 1)
    assert host_counts(False, {}) == ExtraHosts(0, 0)
    assert host_counts(True, {"BROKERS": "5", "LOADGENS": "2"}) == ExtraHosts(5, 2)
    assert host_counts(False, {}, consumer=True) == ExtraHosts(0, 1)  # active-active: its result consumer's host


@pytest.mark.parametrize("overrides, hosts, message", [
    (["REPLICATION_FACTOR=3"], ExtraHosts(1, 1), "field load.kafka.replication_factor=3: more replicas than brokers (BROKERS=1)"),
    ([], ExtraHosts(0, 1), "BROKERS=0: a Kafka load needs at least one broker host"),
    ([], ExtraHosts(3, 0), "LOADGENS=0: a Kafka load needs at least one load generator host"),
    (["PARTITIONS=6", "PRODUCERS=2"], ExtraHosts(3, 2), "field load.partitions=6: must be a multiple of LOADGENS (2) x "
                                                        "load.kafka.producers (2)"),
])
def test_kafka_hosts_that_cannot_carry_the_scenario_are_refused_by_name(overrides, hosts, message):
    with pytest.raises(ExtraHostsRefused, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_kafka_hosts(kafka_scenario(*overrides), hosts)


def test_a_count_that_is_not_a_number_is_refused():
    with pytest.raises(ExtraHostsRefused, match="BROKERS=three: must be a whole number of hosts"):
        host_counts(True, {"BROKERS": "three"})


def test_the_topic_is_replicated_three_times_or_on_every_broker_if_fewer():
    assert option(RemoteKafka(cluster(3, 1), kafka_scenario(), RUN).ansible_vars()["loadgen_topic_command"],
                  "--replication-factor") == "3"
    assert RemoteKafka(cluster(2, 1), kafka_scenario(), RUN).replication_factor == 2
    assert RemoteKafka(cluster(5, 1), kafka_scenario("REPLICATION_FACTOR=1"), RUN).replication_factor == 1


def test_load_generators_share_one_schedule_into_the_runs_topic_on_every_broker():
    scenario = kafka_scenario("PARTITIONS=12", "PRODUCERS=2", "RATE=300000")
    kafka = RemoteKafka(cluster(3, 2), scenario, RUN)
    bootstrap = "10.0.2.1:9092,10.0.2.2:9092,10.0.2.3:9092"
    assert kafka.job_fields == {"kafka_endpoint": {"bootstrap": bootstrap, "topic": f"fournines-{RUN}"}}
    variables = kafka.ansible_vars()
    topic = variables["loadgen_topic_command"]
    assert topic[topic.index("-jar") + 1:topic.index("-jar") + 3] == ["/opt/fournines/lib/fournines-loadgen.jar", "create-topic"]
    assert (option(topic, "--bootstrap"), option(topic, "--topic"), option(topic, "--partitions")) == (bootstrap, f"fournines-{RUN}", "12")
    commands = variables["loadgen_commands"]
    assert sorted(commands) == ["loadgen-1", "loadgen-2"]
    for k, name in enumerate(("loadgen-1", "loadgen-2"), start=1):
        command = commands[name]
        assert option(command, "--share") == f"{k}/2"
        assert (option(command, "--rate"), option(command, "--producers"), option(command, "--bootstrap")) == ("300000", "2", bootstrap)
        assert command[-1] == f"@/opt/fournines/runs/{RUN}/loadgen-start.args"  # t0, written when the load starts
    assert len(variables["kafka_cluster_id"]) == 22


def summary(sent: int, acked: int, errors: int = 0, first_error=None) -> dict:
    return {"sent": sent, "acked": acked, "send_errors": errors, "first_error": first_error, "target_rate": 1000.0,
            "achieved_rate": 990.0, "partitions_ended": 0, "max_behind_ms": 1.5}


def test_the_load_generators_summaries_add_up_into_loadgen_json(tmp_path):
    kafka = RemoteKafka(cluster(3, 2), kafka_scenario("PARTITIONS=6"), RUN)
    for name, sent in (("loadgen-1", 100), ("loadgen-2", 101)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "loadgen.json").write_text(json.dumps(summary(sent, sent)))
    assert kafka.summarize(tmp_path, {"loadgen-1": 143, "loadgen-2": 143}) is None
    merged = json.loads((tmp_path / "loadgen.json").read_text())
    assert (merged["sent"], merged["acked"], merged["target_rate"], merged["max_behind_ms"]) == (201, 201, 2000.0, 1.5)
    assert sorted(merged["hosts"]) == ["loadgen-1", "loadgen-2"]
    assert json.loads((tmp_path / "kafka.json").read_text())["replication_factor"] == 3


def test_a_load_generator_that_lost_events_or_wrote_nothing_fails_the_run(tmp_path):
    kafka = RemoteKafka(cluster(3, 2), kafka_scenario("PARTITIONS=6"), RUN)
    (tmp_path / "loadgen-1").mkdir()
    (tmp_path / "loadgen-1" / "loadgen.json").write_text(json.dumps(summary(100, 90, 10, "TimeoutException")))
    failure = kafka.summarize(tmp_path, {"loadgen-1": 1, "loadgen-2": 1})
    assert "loadgen-1: 10 of 100 events not acknowledged, 10 send errors (first: TimeoutException)" in failure
    assert "loadgen-2 wrote no summary" in failure and "exit 1" in failure
