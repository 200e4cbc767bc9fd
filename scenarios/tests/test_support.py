"""Fields the schema accepts but this build cannot run are refused by name, never ignored."""
import pytest

from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import available, load_scenario
from fournines.spec.support import unsupported


@pytest.mark.parametrize("name", available())
def test_every_committed_scenario_runs_on_this_build(name):
    assert unsupported(load_scenario(name)) == []


def test_q5_fault_runs_without_a_guarantee():
    assert unsupported(load_scenario("q5-fault", parse_overrides(["GUARANTEE=none", "SNAPSHOT_INTERVAL_MS=0"]))) == []


def test_kafka_load_runs_on_a_cluster_with_faults():
    assert unsupported(load_scenario("q5-fault", parse_overrides(["SOURCE=kafka"]))) == []


def test_active_active_runs_on_local_clusters():
    assert unsupported(load_scenario("q5", parse_overrides(["MODE=active-active", "CLUSTER=4", "THREADS=1"]))) == []


@pytest.mark.parametrize("overrides, message", [
    (["SOURCE=kafka", "CLUSTER=2", "MODE=active-active"], "field load.source=kafka in mode=active-active"),
    (["MODE=active-active", "CLUSTER=2", "TARGET=aws"], "field mode=active-active with engine=fournines target=aws"),
    (["MODE=active-active", "CLUSTER=2", "ENGINE=jet"], "field mode=active-active with engine=jet target=local"),
])
def test_unsupported_fields_are_named(overrides, message):
    problems = unsupported(load_scenario("q5", parse_overrides(overrides)))
    assert any(p.startswith(f"not supported yet by this build: {message} (") for p in problems), problems


def test_a_guarantee_runs_on_a_cluster():
    assert unsupported(load_scenario("q5", parse_overrides(["GUARANTEE=exactly-once", "CLUSTER=2"]))) == []


def test_faults_are_injected_into_any_of_a_local_clusters_members(tmp_path):
    path = tmp_path / "f.yaml"
    path.write_text("name: f\nquery: {name: q0}\nload: {rate: 5}\n"
                    "faults: [{at: 5s, action: restart, target: member-1, duration: 1s}, {at: 6s, action: stop, target: member-2, duration: 1s}]\n")
    assert unsupported(load_scenario(str(path), parse_overrides(["CLUSTER=3"]))) == []
    assert unsupported(load_scenario(str(path), parse_overrides(["CLUSTER=2", "TARGET=aws"]))) == [
        "not supported yet by this build: field faults with target=aws (faults are injected into local member "
        "processes; supported: target=local)"]
    one = tmp_path / "one.yaml"
    one.write_text("name: one\nquery: {name: q0}\nload: {rate: 5}\nfaults: [{at: 5s, action: kill, target: member-1}]\n")
    assert unsupported(load_scenario(str(one))) == [
        "not supported yet by this build: field faults with cluster.members=1 (a fault on the only member ends "
        "the run; supported: cluster.members > 1)"]
