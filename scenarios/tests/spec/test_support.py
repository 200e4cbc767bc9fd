"""Fields the schema accepts but this build, or the scenario's engine, cannot run are refused by name,
never ignored. What each engine runs is the query registry's word."""
import pytest

from fournines.spec.overrides import parse_overrides
from fournines.spec.registry import ENGINES
from fournines.spec.scenario import available, load_scenario
from fournines.spec.support import unsupported

PEERS = [name for name in ENGINES if name != "fournines"]


@pytest.mark.parametrize("name", available())
def test_every_committed_scenario_runs_on_this_build(name):
    assert unsupported(load_scenario(name)) == []


@pytest.mark.parametrize("name, overrides", [
    ("q5-fault", ["GUARANTEE=none", "SNAPSHOT_INTERVAL_MS=0"]),  # faults without a guarantee
    ("q5-fault", ["SOURCE=kafka"]),  # a Kafka load into a cluster with faults
    ("q5", ["MODE=active-active", "CLUSTER=4", "THREADS=1"]),  # two local clusters
    ("q5", ["GUARANTEE=exactly-once", "CLUSTER=2"]),  # a guarantee on a cluster
    ("q5", ["SOURCE=kafka", "TARGET=aws", "CLUSTER=3"]),  # brokers and load generators on hosts of their own
    ("q5", ["SOURCE=kafka", "TARGET=hosts", "CLUSTER=3"]),
    ("q5", ["MODE=active-active", "CLUSTER=4", "TARGET=aws"]),  # two clusters of hosts, the consumer on a load generator host
    ("q5", ["MODE=active-active", "CLUSTER=2", "TARGET=hosts"]),
    ("q5", ["EXECUTION=micro-batch"]),  # one member on the generator, batched
    ("q5", ["EXECUTION=group", "CLUSTER=3"]),  # a cluster, its first member scheduling
    ("ysb", ["EXECUTION=micro-batch", "CLUSTER=3"]),  # through Kafka, batches cut by arrival
])
def test_these_run_on_this_build(name, overrides):
    assert unsupported(load_scenario(name, parse_overrides(overrides))) == []


@pytest.mark.parametrize("overrides, message", [
    (["SOURCE=kafka", "CLUSTER=2", "MODE=active-active"], "field load.source=kafka in mode=active-active"),
    (["ENGINE=jet", "TARGET=aws"], "field target=aws with engine=jet"),
    (["EXECUTION=micro-batch", "MODE=active-active", "CLUSTER=2"], "field mode=active-active with execution=micro-batch"),
])
def test_unsupported_fields_are_named(overrides, message):
    problems = unsupported(load_scenario("q5", parse_overrides(overrides)))
    assert any(p.startswith(f"not supported yet by this build: {message} (") for p in problems), problems


def test_faults_are_injected_into_any_of_a_clusters_members_on_every_target(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("name: f\nquery: {name: q0}\nload: {rate: 5}\n"
                    "faults: [{at: 5s, action: restart, target: member-1, duration: 1s}, {at: 6s, action: stop, target: member-2, duration: 1s}]\n")
    for target in ("local", "hosts", "aws"):
        assert unsupported(load_scenario(str(path), parse_overrides(["CLUSTER=3", f"TARGET={target}"]))) == []
    one = tmp_path / "one.yaml"
    one.write_text("name: one\nquery: {name: q0}\nload: {rate: 5}\nfaults: [{at: 5s, action: kill, target: member-1}]\n")
    assert unsupported(load_scenario(str(one))) == [
        "not supported yet by this build: field faults with cluster.members=1 (a fault on the only member ends "
        "the run; supported: cluster.members > 1)"]


def test_a_partition_needs_one_cluster_on_a_network_the_runner_owns(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("name: p\nquery: {name: q0}\nload: {rate: 5}\n"
                    "faults: [{at: 5s, action: partition, target: member-2, duration: 2s}]\n")
    assert unsupported(load_scenario(str(path), parse_overrides(["CLUSTER=3"]))) == []
    assert unsupported(load_scenario(str(path), parse_overrides(["CLUSTER=3", "TARGET=hosts"]))) == []
    assert unsupported(load_scenario(str(path), parse_overrides(["CLUSTER=3", "TARGET=aws"]))) == [
        "not supported yet by this build: field faults with action=partition and target=aws (the runner does not "
        "own the hosts' network; supported: target local or hosts)"]
    assert unsupported(load_scenario(str(path), parse_overrides(["CLUSTER=4", "MODE=active-active"]))) == [
        "not supported yet by this build: field faults with action=partition in mode=active-active (the proxy "
        "stands between the members of one cluster; supported: kill, stop)"]


def _engine_can_run(scenario: dict, engine: str) -> bool:
    runs = ENGINES[engine]
    return (scenario["query"]["name"] in runs.queries and scenario["guarantee"] in runs.guarantees
            and scenario["load"]["source"] in runs.sources and scenario["mode"] in runs.modes
            and scenario["execution"] in runs.executions and (runs.clusters or scenario["cluster"]["members"] == 1))


@pytest.mark.parametrize("name, engine", [(n, e) for e in PEERS for n in available() if _engine_can_run(load_scenario(n), e)])
def test_every_committed_scenario_a_peer_can_run_runs_on_it(name, engine):
    assert unsupported(load_scenario(name, parse_overrides([f"ENGINE={engine}"]))) == []


@pytest.mark.parametrize("engine", PEERS)
def test_a_query_a_peer_cannot_run_is_refused_by_name(engine):
    problems = unsupported(load_scenario("q13", parse_overrides([f"ENGINE={engine}"])))
    assert problems == [f"engine {engine} cannot run query q13: its member runs q1, q2, q5, q7, q8"]


@pytest.mark.parametrize("overrides, message", [
    (["SOURCE=kafka"], "engine jet runs with load.source=in-process only; field load.source=kafka"),
    (["GUARANTEE=exactly-once"], "engine jet runs with guarantee=none only; field guarantee=exactly-once"),
    (["MODE=active-active", "CLUSTER=2"], "engine jet runs with mode=single only; field mode=active-active"),
    (["CLUSTER=2"], "engine jet runs with cluster.members=1 only; field cluster.members=2"),
    (["EXECUTION=micro-batch"], "engine jet runs with execution=continuous only; field execution=micro-batch"),
])
def test_a_peer_runs_only_what_the_registry_says(overrides, message):
    assert message in unsupported(load_scenario("q5", parse_overrides(["ENGINE=jet", *overrides])))
