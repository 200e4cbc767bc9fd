"""A run whose snapshots stopped committing does not pass for a good one: its report says so first,
its title carries the mark, and the gate refuses it (snapshots.py)."""
import shutil

import pytest

from fournines_analysis.errors import BadInput
from fournines_analysis.gate import RunsRefused, gate
from fournines_analysis.report import write_report
from fournines_analysis.results import load_run
from fournines_analysis.snapshots import snapshot_stalls
from synthetic import edit_run_json

SNAPSHOTS = dict(guarantee="exactly-once", snapshot_interval_ms=1000, snapshots_committed=20)


def test_a_latest_commit_within_the_engines_snapshot_timeout_is_no_stall(stall_run):
    edit_run_json(stall_run, **SNAPSHOTS, snapshot_commit_age_s=10.0)
    assert snapshot_stalls(load_run(stall_run)) == []


def test_a_latest_commit_older_than_the_timeout_is_a_stall_the_report_opens_with(stall_run):
    edit_run_json(stall_run, **SNAPSHOTS, snapshot_commit_age_s=14.5)
    (stall,) = snapshot_stalls(load_run(stall_run))
    assert "the latest committed 14.5 s before the members ended" in stall.problem
    assert "gives a snapshot up after 10 s" in stall.problem
    text = write_report(stall_run)[0].read_text()
    title, first, alert = text.split("\n\n")[:3]
    assert title.endswith(" — SNAPSHOTS STALLED") and first == "Status: completed."
    assert "Snapshots stopped committing" in alert and "run.json: snapshots stopped committing" in alert


def test_the_timeout_grows_with_the_snapshot_interval(stall_run):
    edit_run_json(stall_run, **{**SNAPSHOTS, "snapshot_interval_ms": 2000}, snapshot_commit_age_s=19.0)
    assert snapshot_stalls(load_run(stall_run)) == []
    edit_run_json(stall_run, snapshot_commit_age_s=21.0)
    assert snapshot_stalls(load_run(stall_run))


def test_a_run_without_a_guarantee_has_no_snapshots_to_stall(stall_run):
    edit_run_json(stall_run, guarantee="none", snapshot_commit_age_s=99.0)
    assert snapshot_stalls(load_run(stall_run)) == []


def test_a_stalled_run_is_refused_by_the_gate_with_the_rule_it_breaks(stall_run, tmp_path):
    baseline = shutil.copytree(stall_run, tmp_path / "baseline")
    edit_run_json(stall_run, **SNAPSHOTS, snapshot_commit_age_s=60.0)
    with pytest.raises(RunsRefused) as refused:
        gate([baseline], [stall_run])
    assert "snapshots stopped committing" in str(refused.value) and "runs whose snapshots kept committing only" in str(refused.value)


def test_an_age_that_is_no_number_is_refused_naming_the_field(stall_run):
    edit_run_json(stall_run, **SNAPSHOTS, snapshot_commit_age_s="soon")
    with pytest.raises(BadInput, match="snapshot_commit_age_s"):
        snapshot_stalls(load_run(stall_run))
