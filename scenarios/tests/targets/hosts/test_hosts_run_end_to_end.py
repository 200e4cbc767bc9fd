"""A short run on 3 emulated hosts (root only, else skipped with the reason): the runner builds the
hosts, runs the same Ansible playbooks as TARGET=aws over SSH (deploy, start, follow, collect), the
members serve on their own addresses and the job completes, each host's files come back into
member-<i>/ and merge into a full report; afterwards nothing is left: no namespace, no process, no
key, no host folder; nor after Ctrl-C, while the hosts are being made or while the members run. A
partition fault cuts a member's routes on the emulated network; a Kafka load comes from hosts of its
own; active-active runs its result consumer on a host of the harness's."""
import glob
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from fournines.spec.overrides import parse_overrides
from fournines.targets.hosts import network
from fournines.targets.hosts import target as hosts_target
from fournines.targets.prepare import prepare

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="emulated hosts need root (network namespaces)")

SCENARIO = """\
name: hosts-e2e
query: {name: q5, window_ms: 1_000, slide_ms: 100}
load: {rate: 5_000, keys: 1_000}
cluster: {members: 3, threads: 1, jvm_opts: [-Xmx1536m], gc: serial}
target: hosts
warmup: 2s
duration: 6s
"""


PARTITION = """\
guarantee: exactly-once
snapshot_interval_ms: 500
faults: [{at: 4s, action: partition, target: member-2, duration: 5s}]
"""


def test_three_emulated_hosts_run_q5_through_the_playbooks_and_leave_nothing_behind(tmp_path):
    """Exactly-once, with member-2's routes to the other members blackholed inside their namespaces
    for 5 s, past the failure timeout: members 1 and 3 go on from a snapshot without it, and the
    report's Faults section has the partition."""
    (tmp_path / "scenario.yaml").write_text(SCENARIO.replace("duration: 6s", "duration: 14s") + PARTITION)
    scenario, jar = prepare(str(tmp_path / "scenario.yaml"), parse_overrides([]))
    leftovers_before = glob.glob("/tmp/fournines-hosts-*")
    exit_code = hosts_target.run(scenario, jar, profile=False, results_root=tmp_path / "results")
    (run_dir,) = (tmp_path / "results").iterdir()
    record = json.loads((run_dir / "run.json").read_text())
    assert (exit_code, record["status"]) == (0, "completed"), record.get("failure")
    assert json.loads((run_dir / "member.json").read_text())["members"] == 3
    command = record["command"]  # member-1's, as it ran on its host
    assert command[command.index("--members") + 1] == "198.18.0.10:5701,198.18.0.11:5701,198.18.0.12:5701"
    for i in (1, 2, 3):
        folder = run_dir / f"member-{i}"
        # member-2's part left while it was cut off; its second part, once taken back in, wrote into joined-1/.
        report = folder / "joined-1" / "member.json" if i == 2 else folder / "member.json"
        assert report.is_file() and (folder / "latency.hlog").is_file(), sorted(os.listdir(folder))
        assert json.loads((folder / "host.json").read_text())["instance_type"] == "emulated"
    (fault,) = record["faults_injected"]
    assert (fault["action"], fault["target"], fault["healed_at_us"] - fault["injected_at_us"] >= 5_000_000) == \
        ("partition", "member-2", True)
    first = json.loads((run_dir / "member-1" / "member.json").read_text())["recoveries"]
    assert (first[0]["attempt"], first[0]["members"]) == (1, [0, 2]), first  # the majority, without member-2
    report = (run_dir / "report.md").read_text()
    assert "Status: completed." in report and "| partition member-2 |" in report.split("## Faults")[1]
    assert network.namespaces() == []
    assert glob.glob("/tmp/fournines-hosts-*") == leftovers_before
    assert subprocess.run(["pgrep", "-f", "/tmp/fournines-hosts-"], capture_output=True).stdout == b""


def test_a_kafka_load_from_a_host_of_its_own_through_a_broker_on_its_own(tmp_path, monkeypatch):
    """SOURCE=kafka: a KRaft broker and a load generator on hosts of their own (BROKERS=1 keeps it
    short), the topic made before the members start, the load started once they run."""
    monkeypatch.setenv("BROKERS", "1")
    (tmp_path / "scenario.yaml").write_text(SCENARIO.replace("rate: 5_000, keys: 1_000", "rate: 5_000, keys: 1_000, source: kafka"))
    scenario, jar = prepare(str(tmp_path / "scenario.yaml"), parse_overrides([]))
    exit_code = hosts_target.run(scenario, jar, profile=False, results_root=tmp_path / "results")
    (run_dir,) = (tmp_path / "results").iterdir()
    record = json.loads((run_dir / "run.json").read_text())
    assert (exit_code, record["status"]) == (0, "completed"), record.get("failure")
    kafka = json.loads((run_dir / "kafka.json").read_text())
    assert (kafka["bootstrap"], kafka["brokers"], kafka["replication_factor"]) == ("198.18.0.13:9092", 1, 1)
    loadgen = json.loads((run_dir / "loadgen.json").read_text())
    assert loadgen["sent"] == loadgen["acked"] > 0 and loadgen["send_errors"] == 0, loadgen
    assert (run_dir / "loadgen-1" / "loadgen.log").stat().st_size > 0
    member = json.loads((run_dir / "member.json").read_text())
    assert member["kafka_polls"] > 0 and member["events_processed"] > 0, member
    assert network.namespaces() == []
    assert subprocess.run(["pgrep", "-f", "/tmp/fournines-hosts-"], capture_output=True).stdout == b""


def test_active_active_copies_on_hosts_of_their_own_and_the_consumer_on_a_third_outlive_a_killed_copy(tmp_path):
    """Two one-member copies and the result consumer on the load generator host; member-2 (copy 2) is
    killed through its host's service manager, and copy 1 carries the output to the end."""
    (tmp_path / "scenario.yaml").write_text(
        SCENARIO.replace("members: 3", "members: 2").replace("duration: 6s", "duration: 8s")
        + "mode: active-active\nfaults: [{at: 4s, action: kill, target: member-2}]\n")
    scenario, jar = prepare(str(tmp_path / "scenario.yaml"), parse_overrides([]))
    exit_code = hosts_target.run(scenario, jar, profile=False, results_root=tmp_path / "results")
    (run_dir,) = (tmp_path / "results").iterdir()
    record = json.loads((run_dir / "run.json").read_text())
    assert (exit_code, record["status"]) == (0, "completed"), record.get("failure")
    (fault,) = record["faults_injected"]
    assert (fault["action"], fault["target"], "pid" in fault) == ("kill", "member-2", False)
    copies = json.loads((run_dir / "active-active.json").read_text())
    assert [c["outcome"] for c in copies["copies"]] == ["ran to the end", "lost"], copies
    assert copies["consumer"]["results_kept"] > 0 and copies["consumer"]["mismatched_duplicates"] == 0, copies["consumer"]
    assert (run_dir / "latency.hlog").read_bytes() == (run_dir / "consumer" / "latency.hlog").read_bytes()
    assert not (run_dir / "loadgen-1" / "consumer").exists()
    assert network.namespaces() == []
    assert subprocess.run(["pgrep", "-f", "/tmp/fournines-hosts-"], capture_output=True).stdout == b""


@pytest.mark.parametrize("when", ["building the hosts", "running"])
def test_ctrl_c_leaves_nothing_behind(tmp_path, when):
    """Ctrl-C (SIGINT to the runner's process group, as a terminal sends it) once the hosts' namespaces
    exist, or once the members run: the run stops with 130 and the hosts are gone."""
    (tmp_path / "scenario.yaml").write_text(SCENARIO.replace("duration: 6s", "duration: 120s"))
    output = tmp_path / "runner.err"
    with open(output, "w") as err:
        # As from a terminal: SIGINT acted on even if this test runs where it is ignored (a background job of a script).
        runner = subprocess.Popen([sys.executable, "-m", "fournines", "run", str(tmp_path / "scenario.yaml"),
                                   "--results-root", str(tmp_path / "results")],
                                  stderr=err, stdout=subprocess.DEVNULL, start_new_session=True,
                                  env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
                                  preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 300
        while not (len(network.namespaces()) >= 3 if when == "building the hosts" else "warmup" in output.read_text()):
            assert runner.poll() is None and time.monotonic() < deadline, output.read_text()[-3000:]
            time.sleep(0.02)
        os.killpg(runner.pid, signal.SIGINT)
        runner.wait(timeout=180)
    finally:
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGKILL)
            runner.wait()
    assert runner.returncode == 130, output.read_text()[-3000:]
    assert network.namespaces() == []
    assert glob.glob("/tmp/fournines-hosts-*") == [] and list(network.OWNERS.glob("*")) == []
    assert subprocess.run(["pgrep", "-f", "/tmp/fournines-hosts-"], capture_output=True).stdout == b""
