"""The report's Faults section on synthetic logs whose answer is known: a steady second (the same 200
values, so every interval's p99 equals the pooled one), a fault, slow or empty seconds, recovery."""
import json

import numpy as np
import pytest

from fournines_analysis.errors import BadInput
from fournines_analysis.faults import fault_time_s, per_second, recoveries
from fournines_analysis.hlog import read_hlog
from fournines_analysis.report import write_report
from synthetic import START_TIME_S, hlog_text

STEADY = np.repeat(np.arange(300, 500), 5)  # 1 000 events; p99: the 990th, 300 + 989 // 5 = 497 µs
SLOW = np.full(1000, 50_000)
EMPTY = np.array([])


def fault(at_s: float, action: str = "kill", target: str = "member-2") -> dict:
    return {"action": action, "target": target, "at_s": round(at_s), "pid": 4242,
            "injected_at_us": int((START_TIME_S + at_s) * 1e6), "since_load_start_s": at_s}


def write_run(folder, per_second, faults, planned=None, **fields):
    folder.mkdir()
    (folder / "latency.hlog").write_text(hlog_text(per_second))
    (folder / "run.json").write_text(json.dumps({"scenario": {"name": "q5-fault", "faults": [{}] * (planned or len(faults))},
                                                 "warmup_s": 5, "faults_injected": faults, **fields}))
    return folder


def log_of(folder):
    return read_hlog(folder / "latency.hlog")[0]


def test_recovery_is_the_first_second_from_the_fault_back_under_the_pre_fault_p99(tmp_path):
    # 0-19 steady, fault at 20.3, 20 steady (its events came before the fault), 21-24 slow, 25-29 steady
    run = write_run(tmp_path / "r", [STEADY] * 21 + [SLOW] * 4 + [STEADY] * 5, [fault(20.3)])
    (r,) = recoveries([fault(20.3)], log_of(run), warmup_s=5)
    assert r.fault_s == pytest.approx(20.3, abs=1e-6)
    assert r.pre_fault_p99 == 497  # seconds 5-19, not the warm-up, not the fault's own second
    assert r.recovered_s == 25.0
    assert r.time_to_recover_s == pytest.approx(4.7, abs=1e-6)
    assert r.recovery_events == 5000  # seconds 20-24
    assert r.recovery_p9999 == pytest.approx(50_000, rel=1e-3)
    assert r.recovery_max == pytest.approx(50_000, rel=1e-3)


def test_a_second_without_results_is_a_stall_not_a_recovery(tmp_path):
    run = write_run(tmp_path / "r", [STEADY] * 21 + [EMPTY] * 3 + [SLOW] + [STEADY] * 5, [fault(20.5)])
    (r,) = recoveries([fault(20.5)], log_of(run), warmup_s=5)
    assert r.recovered_s == 25.0
    assert r.recovery_events == 2000


def test_a_run_that_ends_slow_or_silent_never_recovered(tmp_path):
    run = write_run(tmp_path / "r", [STEADY] * 21 + [SLOW] * 2 + [EMPTY] * 3, [fault(20.5)])
    (r,) = recoveries([fault(20.5)], log_of(run), warmup_s=5)
    assert r.recovered_s is None and r.time_to_recover_s is None
    assert r.recovery_p9999 == pytest.approx(50_000, rel=1e-3)


def test_an_undisturbed_run_recovers_at_the_next_interval(tmp_path):
    run = write_run(tmp_path / "r", [STEADY] * 30, [fault(20.25)])
    (r,) = recoveries([fault(20.25)], log_of(run), warmup_s=5)
    assert r.time_to_recover_s == pytest.approx(0.75, abs=1e-6)
    assert r.recovery_p9999 == 499


def test_the_baseline_of_a_second_fault_starts_after_the_first_ones_recovery(tmp_path):
    higher = STEADY * 2  # after the first fault the cluster settles at twice the latency
    per_second = [STEADY] * 11 + [SLOW] * 2 + [higher] * 7 + [SLOW] * 3 + [higher] * 7
    faults = [fault(10.5), fault(20.5, "stop", "member-3")]
    run = write_run(tmp_path / "r", per_second, faults)
    first, second = recoveries(faults, log_of(run), warmup_s=5)
    assert (first.pre_fault_p99, first.recovered_s) == (497, None)  # never back under 497 µs
    assert second.pre_fault_p99 is None  # no baseline left after a fault that never recovered


def test_the_fault_time_falls_back_to_the_runners_count_without_a_wall_clock_start(tmp_path):
    run = write_run(tmp_path / "r", [STEADY] * 3, [])
    text = (run / "latency.hlog").read_text().replace("#[StartTime", "#[Ignored")
    (run / "latency.hlog").write_text(text.replace(f"{START_TIME_S}", "0").replace(f"{START_TIME_S + 1}", "1"))
    assert fault_time_s({"injected_at_us": 123, "since_load_start_s": 1.5}, log_of(run)) == 1.5


def test_the_report_of_a_failed_run_shows_the_fault_and_that_it_never_recovered(tmp_path):
    run = write_run(tmp_path / "20261123T000000Z-q5-fault", [STEADY] * 21 + [EMPTY], [fault(20.5)],
                    status="failed", failure="job 1 failed: member-2 left the cluster")
    md, html = write_report(run)
    text = md.read_text()
    assert "## Faults" in text
    assert "The run failed: job 1 failed: member-2 left the cluster" in text
    assert "| kill member-2 | 20.500 | 497 µs | never recovered" in text
    assert (run / "plots" / "fault-1.png").read_bytes().startswith(b"\x89PNG")
    assert "fault-1.png" in text


def test_planned_faults_that_never_fired_are_said_so(tmp_path):
    run = write_run(tmp_path / "r", [STEADY] * 8, [], planned=1, status="failed", failure="member-3 exited with code 1")
    text = write_report(run)[0].read_text()
    assert "planned 1 fault(s); none was injected" in text


def test_a_run_without_faults_has_no_fault_section(stall_run):
    assert "## Faults" not in write_report(stall_run)[0].read_text()


def test_a_clusters_interleaved_member_intervals_are_summed_per_second(tmp_path):
    # Member 1's intervals start on the second, member 2's 0.3 s later; member 2 records nothing.
    run = write_run(tmp_path / "r", [STEADY] * 4, [])
    lines = (run / "latency.hlog").read_text().splitlines(keepends=True)
    empty = hlog_text([EMPTY]).splitlines(keepends=True)[-1].split(",", 1)[1]
    shifted = [f"{START_TIME_S + k + 0.3:.3f},{empty}" for k in range(4)]
    (run / "latency.hlog").write_text("".join(lines[:3] + sorted(lines[3:] + shifted)))
    binned = per_second(log_of(run))
    assert binned.start_s.tolist() == [0, 1, 2, 3]
    assert binned.counts.sum(axis=1).tolist() == [1000] * 4


def test_the_engines_restarts_are_listed_from_each_members_record(tmp_path):
    run = write_run(tmp_path / "20261123T000000Z-q5-fault", [STEADY] * 21 + [SLOW] + [STEADY] * 3, [fault(20.5)],
                    status="completed")
    restart = {"type": "recovered", "elapsed_s": 20.61, "attempt": 1, "snapshot": 19, "members": [0, 2],
               "state_bytes": 1441478, "restart_ms": 97.782}
    for folder, record in (("member-1", {"recoveries": [restart]}), ("member-2", {}),
                           ("member-2/joined-1", {"recoveries": [{**restart, "attempt": 2, "members": [0, 1, 2]}]}),
                           ("member-3", {"recoveries": [{**restart, "snapshot": -1}]})):
        (run / folder).mkdir()
        (run / folder / "member.json").write_text(json.dumps(record))
    (run / "member.json").write_text(json.dumps({"window_results_after_completion": 4120}))
    text = write_report(run)[0].read_text()
    faults = text.split("## Faults")[1].split("\n## ")[0]
    assert "Window results emitted again for windows already complete: 4,120." in faults
    assert "| member-1 | 20.610 | 1 | 19 | member-1, member-3 | 1,441,478 | 97.8 ms |" in faults
    assert "| member-2 (joined 1) | 20.610 | 2 | 19 | member-1, member-2, member-3 |" in faults
    assert "| member-3 | 20.610 | 1 | none: from the start | member-1, member-3 |" in faults
    assert "| member-2 |" not in faults
    assert "| member-2 (joined 1) |" in text.split("## Per member")[1]


def test_a_restart_record_missing_a_field_is_named(tmp_path):
    run = write_run(tmp_path / "r", [STEADY] * 8, [fault(6.5)])
    (run / "member-1").mkdir()
    (run / "member-1" / "member.json").write_text(json.dumps({"recoveries": [{"attempt": 1}]}))
    with pytest.raises(BadInput, match=r"recoveries\[0\].*elapsed_s"):
        write_report(run)
