"""The Kafka side of a run with real processes: the local broker (infra/kafka-local), the run's topic
and the load generator start, and stop without leftovers, also when the runner is killed outright.
Needs the Java jars (make test builds them first; ensure_jar builds them otherwise)."""
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from fournines import REPO_ROOT
from fournines.targets.local.kafka_load import build_jars, kafka_load
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario



@pytest.fixture(scope="module", autouse=True)
def jars():
    build_jars()


def scenario():
    return load_scenario("q5-kafka", parse_overrides(["RATE=2000", "WARMUP=1s", "DURATION=1s"]))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(") ")[-1][0] != "Z"


def wait_until(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"not within {seconds:g} s: {what}")


def broker_pids(run_dir: Path) -> tuple[int, str]:
    text = (run_dir / "broker-launcher.log").read_text()
    return int(re.search(r'"broker_pid":(\d+)', text).group(1)), re.search(r'"bootstrap":"([^"]+)"', text).group(1)


def test_broker_topic_and_load_generator_start_and_stop_in_order(tmp_path):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    with kafka_load(scenario(), run_dir) as kafka:
        broker, bootstrap = broker_pids(run_dir)
        assert kafka.member_args == ["--kafka-bootstrap", bootstrap, "--kafka-topic", "fournines-run"]
        t0_ns = (time.time_ns() // 1_000_000 + 2_000) * 1_000_000  # a cluster's shared start, just ahead
        kafka.start_load(t0_ns)
        wait_until(lambda: '"type":"loadgen"' in (run_dir / "loadgen.log").read_text(), 60, "a loadgen progress line")
        loadgen = kafka.loadgen.process.pid
        assert alive(broker) and alive(loadgen)
    assert not alive(loadgen) and not alive(broker)
    assert kafka.failure() is None
    summary = json.loads((run_dir / "loadgen.json").read_text())
    assert summary["sent"] > 0 and summary["acked"] == summary["sent"] and summary["send_errors"] == 0
    assert summary["start_epoch_ns"] == t0_ns
    assert "Kafka Server started" in (run_dir / "broker.log").read_text()
    assert json.loads((run_dir / "kafka.json").read_text()) == {"bootstrap": bootstrap, "topic": "fournines-run", "external": False}


def test_a_checked_runs_load_ends_after_its_events_on_its_schedule_and_its_results_topic_is_read_back(tmp_path):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    job = scenario()
    t0_ns = 1_700_000_000_123 * 1_000_000  # long past: every event is overdue, the load is sent at once
    job["load"]["events"], job["start_epoch_ns"], job["record_results"] = 3_000, t0_ns, True
    with kafka_load(job, run_dir) as kafka:
        assert kafka.job_fields["kafka_endpoint"]["results_topic"] == "fournines-run-results"
        kafka.start_load(None)  # the job's own start_epoch_ns is the t0
        wait_until(lambda: kafka.loadgen.exit_code() is not None, 60, "the bounded load sent")
        assert kafka.loadgen.exit_code() == 0
        assert kafka.read_results() is None
    summary = json.loads((run_dir / "loadgen.json").read_text())
    assert (summary["sent"], summary["acked"], summary["start_epoch_ns"]) == (3_000, 3_000, t0_ns)
    assert summary["partitions_ended"] == job["load"]["partitions"]
    assert (run_dir / "kafka-results.jsonl").read_text() == ""  # nothing wrote results: the topic exists, empty


def test_a_killed_runner_leaves_no_broker_or_load_generator(tmp_path):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import time
        from fournines.targets.local.kafka_load import kafka_load
        from fournines.spec.overrides import parse_overrides
        from fournines.spec.scenario import load_scenario
        s = load_scenario("q5-kafka", parse_overrides(["RATE=2000"]))
        with kafka_load(s, __import__("pathlib").Path({str(run_dir)!r})) as kafka:
            kafka.start_load(None)
            print(kafka.loadgen.process.pid, flush=True)
            time.sleep(600)
        """)], env={**os.environ, "PYTHONPATH": f"{REPO_ROOT / 'scenarios'}:{REPO_ROOT / 'analysis'}"}, stdout=subprocess.PIPE, text=True)
    try:
        loadgen = int(holder.stdout.readline())
        broker, _ = broker_pids(run_dir)
        assert alive(broker) and alive(loadgen)
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        wait_until(lambda: not alive(loadgen) and not alive(broker), 60, "broker and load generator gone after SIGKILL of the runner")
    finally:
        holder.kill()
        holder.wait()
