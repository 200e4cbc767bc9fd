"""A real local cluster (3 member JVMs) with member-2 killed mid-run: the runner fires the fault,
records it, and the run leaves run.json and a report with a "Faults" section. Without a guarantee
the job has no snapshot to restart from, so it fails and the report says the latency never
recovered; with exactly-once snapshots the survivors restart it from the latest one and the run
completes, its report showing the time to recover and the restarts, also when the load comes
through Kafka (the survivors' sources seek the snapshot's offsets); a member restarted by a fault,
or stopped or cut off by a partition for longer than the failure timeout, joins again and is taken back
into the job. No member process may outlive any run, nor the proxy of a partitioned one, nor the broker
or load generator of a Kafka run."""
import json
import os
from pathlib import Path

import pytest

from fournines.spec.overrides import parse_overrides
from fournines.targets.local.run import member_launcher, run
from fournines.targets.prepare import prepare

SCENARIO = """\
name: fault-e2e
query: {name: q5, window_ms: 1_000, slide_ms: 100}
load: {rate: 5_000, keys: 1_000}
cluster: {members: 3, threads: 1, jvm_opts: [-Xmx768m], gc: serial}
faults: [{at: 6s, action: kill, target: member-2}]
warmup: 2s
duration: 12s
"""


SNAPSHOTS = "guarantee: exactly-once\nsnapshot_interval_ms: 500\n"


def run_scenario(tmp_path: Path, text: str) -> tuple[int, Path, dict]:
    """Runs the scenario `text` into tmp_path/results: the runner's exit code, the run's folder, its run.json."""
    (tmp_path / "scenario.yaml").write_text(text)
    scenario, jar = prepare(str(tmp_path / "scenario.yaml"), parse_overrides([]))
    exit_code = run(scenario, member_launcher(jar, scenario), profile=False, results_root=tmp_path / "results")
    (run_dir,) = (tmp_path / "results").iterdir()
    return exit_code, run_dir, json.loads((run_dir / "run.json").read_text())


def test_a_killed_member_is_recorded_and_the_report_says_the_run_never_recovered(tmp_path):
    exit_code, run_dir, record = run_scenario(tmp_path, SCENARIO)
    (fault,) = record["faults_injected"]
    assert (fault["action"], fault["target"], fault["at_s"]) == ("kill", "member-2", 6.0)
    assert 6.0 <= fault["since_load_start_s"] < 7.0
    assert (exit_code, record["status"]) == (1, "failed"), record.get("failure")
    assert "lost the connection to member 1" in record["failure"]  # the engine's member 1 is member-2
    report = (run_dir / "report.md").read_text()
    assert "## Faults" in report and "| kill member-2 |" in report and "never recovered" in report
    assert (run_dir / "plots" / "fault-1.png").is_file()
    assert processes_in(run_dir) == []


def test_with_snapshots_the_survivors_restart_the_job_and_the_run_completes(tmp_path):
    exit_code, run_dir, record = run_scenario(tmp_path, SCENARIO + SNAPSHOTS)
    assert (exit_code, record["status"]) == (0, "completed"), record.get("failure")
    for member in ("member-1", "member-3"):
        (restart,) = json.loads((run_dir / member / "member.json").read_text())["recoveries"]
        assert restart["attempt"] == 1 and restart["members"] == [0, 2] and restart["snapshot"] >= 1, restart
    report = (run_dir / "report.md").read_text()
    faults = report.split("## Faults")[1]
    (row,) = [line for line in faults.splitlines() if line.startswith("| kill member-2 |")]
    assert row.split(" | ")[3].endswith(" s"), row  # a time to recover, not "never recovered"
    assert "| member-1 |" in faults and "| member-3 |" in faults  # the restarts table
    assert processes_in(run_dir) == []


def test_killing_member_1_the_coordinator_the_runner_follows_the_job_through_the_next(tmp_path):
    exit_code, run_dir, record = run_scenario(tmp_path, SCENARIO.replace("target: member-2", "target: member-1") + SNAPSHOTS)
    assert (exit_code, record["status"]) == (0, "completed"), record.get("failure")
    for member in ("member-2", "member-3"):
        (restart,) = json.loads((run_dir / member / "member.json").read_text())["recoveries"]
        assert restart["members"] == [1, 2], restart
    assert "restarting as attempt 1 on members 1,2" in (run_dir / "member-2" / "member.log").read_text()
    throughput = (run_dir / "throughput.csv").read_text().splitlines()
    assert float(throughput[-1].split(",")[0]) >= 13  # to the end of the run, past member 1's last sample
    faults = (run_dir / "report.md").read_text().split("## Faults")[1]
    (row,) = [line for line in faults.splitlines() if line.startswith("| kill member-1 |")]
    assert row.split(" | ")[3].endswith(" s"), row
    assert processes_in(run_dir) == []


@pytest.mark.parametrize("fault", ["{at: 5s, action: restart, target: member-1, duration: 1s}",
                                   "{at: 5s, action: stop, target: member-1, duration: 5s}"])
def test_member_1_back_from_a_fault_is_taken_in_without_taking_the_coordinators_role_back(tmp_path, fault):
    exit_code, run_dir, record = run_scenario(tmp_path, SCENARIO.replace("{at: 6s, action: kill, target: member-2}", fault)
                                              .replace("duration: 12s", "duration: 16s") + SNAPSHOTS)
    assert (exit_code, record["status"]) == (0, "completed"), record.get("failure")
    # Member 2 (engine member 1) took over and stays the coordinator: it restarts the job both times.
    second = json.loads((run_dir / "member-2" / "member.json").read_text())["recoveries"]
    assert [(r["attempt"], r["members"]) for r in second] == [(1, [1, 2]), (2, [0, 1, 2])]
    log = (run_dir / "member-2" / "member.log").read_text()
    assert "restarting as attempt 1 on members 1,2" in log and "restarting as attempt 2 on members 0,1,2" in log
    (joined,) = json.loads((run_dir / "member-1" / "joined-1" / "member.json").read_text())["recoveries"]
    assert joined["attempt"] == 2
    assert processes_in(run_dir) == []


def test_a_kafka_fed_cluster_restarts_from_the_snapshots_offsets(tmp_path):
    # The kill waits until 10 s: with the broker and the load generator beside three members on two
    # cores, the load stalled ~3 s at the start and the first snapshot committed only after 6.8 s
    # (a CI run of this test, killed at 6 s, restarted from no snapshot and so not from any offsets).
    kafka_fed = SCENARIO.replace("keys: 1_000}", "keys: 1_000, source: kafka, partitions: 3}")
    exit_code, run_dir, record = run_scenario(tmp_path, kafka_fed.replace("{at: 6s, action: kill", "{at: 10s, action: kill")
                                              .replace("duration: 12s", "duration: 16s") + SNAPSHOTS)
    assert (exit_code, record["status"]) == (0, "completed"), record.get("failure")
    for member in ("member-1", "member-3"):
        report = json.loads((run_dir / member / "member.json").read_text())
        (restart,) = report["recoveries"]
        assert restart["members"] == [0, 2] and restart["snapshot"] >= 1, restart
        assert report["source"] == "kafka" and report["kafka_snapshot_offsets_total"] > 0, report
    merged = json.loads((run_dir / "member.json").read_text())
    # After the restart the two survivors read all three partitions, and their last snapshot says where.
    assert merged["kafka_snapshot_partitions"] == 3 and merged["malformed_records"] == 0, merged
    # No time to recover asserted: on a loaded machine the broker, load generator and three members
    # may not emit a window before the fault at 6 s, and the report then has no pre-fault p99.
    assert "| kill member-2 |" in (run_dir / "report.md").read_text().split("## Faults")[1]
    assert processes_in(run_dir) == []


@pytest.mark.parametrize("fault, leaves", [
    # Started again 1 s after the kill, the member needs a JVM start, the join and the 2 s scale-out delay: 16 s is room for that.
    ("{at: 5s, action: restart, target: member-2, duration: 1s}", False),
    ("{at: 5s, action: stop, target: member-2, duration: 5s}", True),  # past the failure timeout: its part leaves
    ("{at: 5s, action: partition, target: member-2, duration: 5s}", True),  # cut off from a majority: it pauses, then leaves
], ids=["restarted", "stopped past the failure timeout", "partitioned past the failure timeout"])
def test_a_member_back_from_a_fault_is_taken_back_into_the_job(tmp_path, fault, leaves):
    exit_code, run_dir, record = run_scenario(tmp_path, SCENARIO.replace("{at: 6s, action: kill, target: member-2}", fault)
                                              .replace("duration: 12s", "duration: 16s") + SNAPSHOTS)
    assert (exit_code, record["status"]) == (0, "completed"), record.get("failure")
    first = json.loads((run_dir / "member-1" / "member.json").read_text())["recoveries"]
    assert [(r["attempt"], r["members"]) for r in first] == [(1, [0, 2]), (2, [0, 1, 2])]
    if leaves:
        assert "left job" in (run_dir / "member-2" / "member.log").read_text()
    (joined,) = json.loads((run_dir / "member-2" / "joined-1" / "member.json").read_text())["recoveries"]
    assert joined["attempt"] == 2
    if not leaves:
        assert joined["members"] == [0, 1, 2] and joined["state_bytes"] > 0
    assert processes_in(run_dir) == []


def processes_in(folder: Path) -> list[int]:
    """Live processes whose working directory is in `folder` (each member works in its member-<i>/)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and Path(os.readlink(proc / "cwd")).is_relative_to(folder.resolve()):
                found.append(int(proc.name))
        except OSError:
            pass  # gone meanwhile, or not ours to look at
    return found
