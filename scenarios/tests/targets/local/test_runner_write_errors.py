"""The runner's own files on a full disk: each is named, and the run ends as failed, not as completed.
A file made a symlink to /dev/full fails its writes with ENOSPC, as a full disk would; the member is
the stand-in child (process_scaffolding/), which completes normally."""
import json
import sys
from pathlib import Path

import pytest

from fournines import REPO_ROOT
from fournines.results.outcome import EXIT_FAILED
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.local.run import run

STAND_IN = REPO_ROOT / "scenarios" / "tests" / "process_scaffolding" / "stand_in_child.py"
FULL = "No space left on device"


def play(run_dir: Path) -> int:
    scenario = load_scenario("q0", parse_overrides(["WARMUP=1s", "DURATION=2s", "RATE=1000"]))

    def launcher(flags, folder):
        return [sys.executable, str(STAND_IN), "complete", "--scenario", str(folder / "scenario.json"),
                "--out", str(folder)]

    return run(scenario, launcher, profile=False, run_dir=run_dir)


@pytest.fixture
def run_dir(tmp_path) -> Path:
    folder = tmp_path / "20260101T000000Z-q0"
    folder.mkdir()
    return folder


def test_a_scenario_json_that_cannot_be_written_stops_the_run_before_it_starts(run_dir, capsys):
    (run_dir / "scenario.json").symlink_to("/dev/full")
    assert play(run_dir) == EXIT_FAILED
    assert f"run failed before it started: {run_dir / 'scenario.json'}: cannot write: {FULL}" in capsys.readouterr().err
    assert not (run_dir / "member.json").exists()  # no member was started


def test_a_run_json_that_cannot_be_written_fails_the_run_naming_it(run_dir, capsys):
    (run_dir / "run.json").symlink_to("/dev/full")
    assert play(run_dir) == EXIT_FAILED
    err = capsys.readouterr().err
    assert f"run failed: {run_dir / 'run.json'}: cannot write: {FULL}" in err
    assert not (run_dir / "report.md").exists()


def test_a_report_that_cannot_be_written_fails_the_run_and_run_json_says_so(run_dir, capsys):
    (run_dir / "report.md").symlink_to("/dev/full")
    assert play(run_dir) == EXIT_FAILED
    assert f"run failed: {run_dir / 'report.md'}: cannot write: {FULL}" in capsys.readouterr().err
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "failed"
    assert record["failure"] == f"{run_dir / 'report.md'}: cannot write: {FULL}"
