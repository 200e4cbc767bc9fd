"""The runner with real processes: a stand-in child tree (process_scaffolding/) started through the
real runner, interrupted, crashing, hanging on SIGTERM, breaking the progress contract, completing."""
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fournines import REPO_ROOT

SCAFFOLDING = REPO_ROOT / "scenarios" / "tests" / "process_scaffolding"
ENV = {**os.environ, "PYTHONPATH": f"{REPO_ROOT / 'scenarios'}:{REPO_ROOT / 'analysis'}"}


@pytest.fixture(autouse=True)
def no_leftovers(tmp_path):
    """If a test fails half-way, its process tree must not outlive it: kill what the pids file names."""
    yield
    for pids in tmp_path.glob("*/pids"):
        for pid in map(int, pids.read_text().split()):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def start_runner(results_root: Path, behaviour: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(SCAFFOLDING / "drive_runner.py"), str(results_root), behaviour],
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_dir_of(results_root: Path) -> Path:
    (run_dir,) = results_root.iterdir()
    return run_dir


def wait_for_pids(results_root: Path, runner: subprocess.Popen) -> list[int]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        files = list(results_root.glob("*/pids"))
        if files:
            return [int(p) for p in files[0].read_text().split()]
        assert runner.poll() is None, f"runner exited early: {runner.communicate()}"
        time.sleep(0.05)
    raise AssertionError("the stand-in child never wrote its pids")


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie. A zombie has ended; it only waits for its
    parent (here possibly an init that does not reap) to collect its exit status."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def assert_all_gone(pids: list[int]) -> None:
    deadline = time.monotonic() + 5  # a killed grandchild may take a moment to be torn down
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p for p in pids if alive(p)] == []


def finish(runner: subprocess.Popen) -> tuple[int, str, str]:
    out, err = runner.communicate(timeout=60)
    return runner.returncode, out, err


def run_json(results_root: Path) -> dict:
    return json.loads((run_dir_of(results_root) / "run.json").read_text())


def test_sigint_stops_child_and_grandchild(tmp_path):
    runner = start_runner(tmp_path, "endless")
    pids = wait_for_pids(tmp_path, runner)
    assert all(alive(p) for p in pids)
    runner.send_signal(signal.SIGINT)
    code, _, err = finish(runner)
    assert code == 128 + signal.SIGINT, err
    assert_all_gone(pids)
    record = run_json(tmp_path)
    assert record["status"] == "interrupted"
    assert record["failure"] == "stopped by SIGINT"
    assert "closing logs after SIGTERM" in (run_dir_of(tmp_path) / "member.log").read_text()  # its last words kept


def test_sigterm_to_the_runner_also_stops_the_tree(tmp_path):
    runner = start_runner(tmp_path, "endless")
    pids = wait_for_pids(tmp_path, runner)
    runner.send_signal(signal.SIGTERM)
    code, _, err = finish(runner)
    assert code == 128 + signal.SIGTERM, err
    assert_all_gone(pids)


def test_a_second_sigint_kills_a_child_that_ignores_sigterm(tmp_path):
    runner = start_runner(tmp_path, "stubborn")
    pids = wait_for_pids(tmp_path, runner)
    time.sleep(0.3)  # let the child install its SIGTERM handler
    runner.send_signal(signal.SIGINT)
    time.sleep(0.5)
    assert alive(pids[1]), "the stubborn child should still be waited for after SIGTERM"
    started = time.monotonic()
    runner.send_signal(signal.SIGINT)
    code, _, err = finish(runner)
    assert time.monotonic() - started < 5, "the second SIGINT should not wait out the grace period"
    assert code == 128 + signal.SIGINT, err
    assert_all_gone(pids)


def test_a_crash_fails_the_run_with_the_members_last_words_and_leaves_nothing(tmp_path):
    runner = start_runner(tmp_path, "crash")
    code, _, err = finish(runner)
    pids = [int(p) for p in (run_dir_of(tmp_path) / "pids").read_text().split()]
    assert code == 1
    assert_all_gone(pids)
    record = run_json(tmp_path)
    assert record["status"] == "failed"
    assert "exited with code 3" in record["failure"] and "out of cheese" in record["failure"]
    assert "out of cheese" in (run_dir_of(tmp_path) / "member.log").read_text()
    assert "no report: the run recorded no latency" in err


def test_a_broken_progress_line_stops_the_run_naming_the_field(tmp_path):
    runner = start_runner(tmp_path, "bad-progress")
    code, _, err = finish(runner)
    assert code == 1
    record = run_json(tmp_path)
    assert "progress contract" in record["failure"] and "phase" in record["failure"]
    assert_all_gone([int(p) for p in (run_dir_of(tmp_path) / "pids").read_text().split()])


def test_a_completed_run_writes_scenario_run_json_log_and_report(tmp_path):
    runner = start_runner(tmp_path, "complete")
    code, out, err = finish(runner)
    assert code == 0, err
    run_dir = run_dir_of(tmp_path)
    assert re.fullmatch(r"\d{8}T\d{6}Z-q0", run_dir.name)
    scenario = json.loads((run_dir / "scenario.json").read_text())
    assert (scenario["warmup_s"], scenario["duration_s"], scenario["load"]["rate"]) == (1.0, 2.0, 1000)
    record = run_json(tmp_path)
    assert record["status"] == "completed" and "failure" not in record
    assert record["scenario"] == scenario
    assert record["events_processed"] == 25000 and record["jvm_flags"] == ["-Xmx1g"]  # the member's word wins
    assert record["command"][-4:] == ["--scenario", str(run_dir / "scenario.json"), "--out", str(run_dir)]
    assert (run_dir / "member.log").read_text() == "stand-in: plain output line\n"  # progress lines are not output
    assert "stand-in: plain output line" in out
    assert "measure" in err and "p99 850 µs" in err  # the plain progress line, stderr not being a terminal
    assert (run_dir / "report.md").is_file() and (run_dir / "report.html").is_file()
    assert_all_gone([int(p) for p in (run_dir / "pids").read_text().split()])


def test_what_the_runner_shows_is_kept_in_live_jsonl_for_the_dashboard(tmp_path):
    runner = start_runner(tmp_path, "complete")
    code, _, err = finish(runner)
    assert code == 0, err
    records = [json.loads(line) for line in (run_dir_of(tmp_path) / "live.jsonl").read_text().splitlines()]
    assert [r["type"] for r in records] == ["start", "progress", "progress", "end"]
    assert records[0]["runner_pid"] == runner.pid and records[0]["expected_s"] == 3.0
    assert [(r["member"], r["phase"], r["p99_us"]) for r in records[1:3]] == [("member", "warmup", None),
                                                                              ("member", "measure", 850.0)]
    assert records[-1]["status"] == "completed" and records[-1]["failure"] is None


def test_the_child_gets_sigterm_when_the_runner_is_killed(tmp_path):
    runner = start_runner(tmp_path, "endless")
    _, child = wait_for_pids(tmp_path, runner)
    runner.kill()
    runner.wait()
    assert_all_gone([child])
    # The grandchild is not covered by the parent-death signal (no_leftovers ends it): the member
    # contract says the member starts no processes of its own.
