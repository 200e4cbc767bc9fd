"""What a local run starts and submits: a lone member, a cluster, or two copies and a consumer."""
import json

from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.local.kafka_load import KafkaLoad
from fournines.targets.local.plan import KAFKA_START_LEAD_S, plan_for

KAFKA = KafkaLoad("127.0.0.1:9092", "fournines-run")


def launcher(flags, run_dir):
    return ["java", *flags, "-jar", "m.jar", "run", "--scenario", str(run_dir / "scenario.json"), "--out", str(run_dir)]


def plan_of(tmp_path, name: str, overrides=()):
    scenario = load_scenario(name, parse_overrides(list(overrides)))
    return scenario, plan_for(scenario, launcher, ["-Xmx1g"], tmp_path)


def test_a_lone_member_runs_its_own_job_reading_the_topic_from_its_command_line(tmp_path):
    _, plan = plan_of(tmp_path, "q5")
    [member] = plan.processes
    assert (member.command, member.folder, member.serves) == (launcher(["-Xmx1g"], tmp_path), tmp_path, False)
    assert [(job.members, job.spec) for job in plan.jobs] == [([0], None)] and plan.token is None
    plan.feed(KAFKA)
    assert member.command[-4:] == ["--kafka-bootstrap", "127.0.0.1:9092", "--kafka-topic", "fournines-run"]


def test_a_cluster_serves_one_job_that_is_sent_the_topic(tmp_path):
    scenario, plan = plan_of(tmp_path, "q5-fault")
    assert [p.name for p in plan.processes] == ["member-1", "member-2", "member-3"]
    assert all(p.serves and p.command[p.command.index("--out") + 1] == str(p.folder) for p in plan.processes)
    [job] = plan.jobs
    assert job.members == [0, 1, 2] and job.spec == {**scenario, "faults": []}  # the faults are the runner's
    assert plan.token and (tmp_path / "cluster.secret").is_file()
    assert plan.start_at(1_000_123_456) is None  # without a Kafka load the coordinator picks the start
    plan.feed(KAFKA)
    assert job.body(None, None)["kafka_endpoint"] == {"bootstrap": "127.0.0.1:9092", "topic": "fournines-run"}
    assert scenario["faults"]  # the run's scenario is left as it was


def test_a_cluster_fed_through_kafka_starts_with_its_load_at_an_instant_well_ahead(tmp_path):
    """The load generator is started at submission with that instant as its t0 (play.py)."""
    _, plan = plan_of(tmp_path, "q5-fault")
    plan.feed(KAFKA)
    start = plan.start_at(1_000_123_456)
    assert start == 1_000_000_000 + round(KAFKA_START_LEAD_S * 1e9)  # a whole millisecond: the load generator's t0 is in ms
    assert plan.jobs[0].body(None, start)["start_epoch_ns"] == start


def test_a_checked_runs_own_start_is_the_shared_one(tmp_path):
    _, plan = plan_of(tmp_path, "q5-fault")
    plan.jobs[0].spec["start_epoch_ns"] = 7_000_000
    plan.feed(KAFKA)
    assert plan.start_at(1_000_123_456) == 7_000_000


def test_copies_number_members_over_both_clusters(tmp_path):
    _, plan = plan_of(tmp_path, "q5", ["MODE=active-active", "CLUSTER=6"])
    assert [(job.copy, job.members) for job in plan.jobs] == [(1, [0, 1, 2]), (2, [3, 4, 5])]
    assert [p.name for p in plan.processes] == [f"member-{i}" for i in range(1, 7)] + ["consumer"]
    assert plan.consumer == 6 and plan.finishers == [6]
    # Each copy is a cluster of its own: its members know each other only.
    members = [p.command[p.command.index("--members") + 1] for p in plan.processes[:6]]
    assert len(set(members[:3])) == len(set(members[3:])) == 1 and members[0] != members[3]


def test_each_copy_runs_the_job_on_its_own_members_from_the_shared_start(tmp_path):
    scenario, plan = plan_of(tmp_path, "q5-active-active")
    job = plan.jobs[1].body("127.0.0.1:4000", 123)
    assert (job["cluster"]["members"], job["load"]["partitions"], job["faults"]) == (2, 2, [])
    assert job["active_active"] == {"copy": 1, "consumer": "127.0.0.1:4000", "start_epoch_ns": 123}
    assert scenario["cluster"]["members"] == 4 and scenario["faults"]  # the run's scenario is left as it was
    assert json.loads((tmp_path / "consumer" / "scenario.json").read_text())["faults"] == []
    assert load_scenario("q5", parse_overrides(["MODE=active-active", "CLUSTER=4"]))["load"]["partitions"] == 8
