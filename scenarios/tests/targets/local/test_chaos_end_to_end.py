"""./fournines chaos with real members: one trial of each fault kind under exactly-once, and a kill
under at-least-once, each a 3-member cluster of JVMs running a bounded Q5, checked against the
reference computation over the same events (the short version of `./fournines chaos q5 TRIALS=100`);
and fed through a real Kafka broker, a kill and a kill between the commit messages, with the results
topic read as committed. The checker's own detection of lost, duplicated and wrong results is tested
in tests/chaos."""
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from fournines import REPO_ROOT

SCENARIO = """name: chaos-test
query: {name: q5, window_ms: 1000, slide_ms: 10}
load: {rate: 20000, keys: 1000}
cluster: {members: 3, threads: 1, jvm_opts: [-Xms512m, -Xmx512m], gc: serial}
guarantee: exactly-once
snapshot_interval_ms: 200
warmup: 0s
duration: 60s
"""


def _chaos(tmp_path: Path, *args: str) -> tuple[int, dict, str]:
    scenario = tmp_path / "chaos-test.yaml"
    scenario.write_text(SCENARIO)
    env = {**os.environ, "PYTHONPATH": f"{REPO_ROOT / 'scenarios'}:{REPO_ROOT / 'analysis'}"}
    chaos = subprocess.Popen([sys.executable, "-m", "fournines", "chaos", str(scenario), "TRIALS=1", "SEED=7", *args,
                              "--results-root", str(tmp_path / "results")],
                             cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        output, _ = chaos.communicate(timeout=240)
    finally:
        if chaos.poll() is None:
            chaos.send_signal(signal.SIGINT)
            chaos.wait(30)
    (report,) = (tmp_path / "results").glob("*-chaos-chaos-test/chaos.json")
    return chaos.returncode, json.loads(report.read_text()), output


@pytest.mark.parametrize("kind", ["kill", "kill-coordinator", "stop", "partition", "exception", "commit-kill"])
def test_exactly_once_loses_duplicates_and_alters_nothing_under_each_fault(tmp_path, kind):
    code, report, output = _chaos(tmp_path, f"FAULTS={kind}")
    (trial,) = report["trials"]
    assert trial["fault"]["kind"] == kind
    assert trial["fired"], output
    assert trial["status"] == "completed", output
    assert trial["expected"] > 300
    assert (trial["lost"], trial["duplicated"], trial["wrong"]) == (0, 0, 0), output
    assert code == 0, output


def test_at_least_once_loses_nothing_when_a_member_is_killed(tmp_path):
    code, report, output = _chaos(tmp_path, "FAULTS=kill", "GUARANTEE=at-least-once")
    (trial,) = report["trials"]
    assert report["guarantee"] == "at-least-once"
    assert trial["fired"] and trial["status"] == "completed", output
    assert trial["lost"] == 0, output
    assert code == 0, output


@pytest.mark.parametrize("kind", ["kill", "commit-kill"])
def test_fed_through_kafka_the_results_topic_read_as_committed_holds_each_result_once(tmp_path, kind):
    code, report, output = _chaos(tmp_path, f"FAULTS={kind}", "SOURCE=kafka")
    (trial,) = report["trials"]
    assert trial["fired"] and trial["status"] == "completed", output
    assert trial["results_topic"]["expected"] > 300
    assert (trial["lost"], trial["duplicated"], trial["wrong"]) == (0, 0, 0), output
    topic = trial["results_topic"]
    assert (topic["lost"], topic["duplicated"], topic["wrong"]) == (0, 0, 0), output
    assert code == 0, output
