"""Coverage: logs that miss seconds of the measurement, a missing latency.hlog, and a cluster's logs
from fewer members than ran are flagged at the top of the report (the gate's refusal: test_gate.py).
The fixture run measures 5–25 s (warm-up 5 s, duration 20 s) with one interval a second."""
import json
import shutil

import numpy as np

from fournines_analysis.report import write_report
from synthetic import drop_intervals, edit_run_json


def top_of_report(run) -> str:
    """The report down to its first section: the title, the status line and any warning block."""
    return write_report(run)[0].read_text().split("\n## ")[0]


def test_a_log_cut_at_a_line_boundary_is_flagged_at_the_top(stall_run):
    drop_intervals(stall_run / "latency.hlog", lambda i: i < 12)  # 0–12 s: 7 of the 20 measured seconds
    top = top_of_report(stall_run)
    assert top.splitlines()[0].endswith(" — INCOMPLETE")
    assert "\n\nStatus: completed.\n\n> **Coverage" in top  # right under the status line
    assert "> - latency.hlog: no intervals in 13 of the 20 measured seconds (12–25 s since the load started)" in top
    assert "completion.hlog" not in top


def test_a_hole_in_the_middle_is_flagged(stall_run):
    drop_intervals(stall_run / "completion.hlog", lambda i: i not in (10, 11))
    top = top_of_report(stall_run)
    assert "> - completion.hlog: no intervals in 2 of the 20 measured seconds (10–12 s since" in top


def test_a_second_missing_at_either_end_is_start_and_stop_jitter(stall_run):
    drop_intervals(stall_run / "latency.hlog", lambda i: i not in (5, 24))  # the first and last measured seconds
    top = top_of_report(stall_run)
    assert "Coverage" not in top and "INCOMPLETE" not in top


def test_two_seconds_missing_at_the_end_are_not_jitter(stall_run):
    drop_intervals(stall_run / "latency.hlog", lambda i: i < 23)
    assert "no intervals in 2 of the 20 measured seconds (23–25 s since" in top_of_report(stall_run)


def test_a_windowed_run_without_latency_hlog_is_flagged(stall_run):
    (stall_run / "latency.hlog").unlink()
    top = top_of_report(stall_run)
    assert top.splitlines()[0].endswith(" — INCOMPLETE")
    assert "> - latency.hlog: missing" in top and "completion.hlog alone" in top


def test_a_cluster_run_missing_one_members_logs_is_flagged(stall_run):
    edit_run_json(stall_run, scenario={"name": "q5-stall", "cluster": {"members": 3}})
    logs = ("latency.hlog", "completion.hlog")
    for folder in ("member-1", "member-2/joined-1", "member-3"):  # member-2 restarted and wrote again
        (stall_run / folder).mkdir(parents=True)
        (stall_run / folder / "member.json").write_text(json.dumps({"events_processed": 1}))
    for log in logs:
        for folder in ("member-1", "member-2/joined-1"):
            shutil.copy(stall_run / log, stall_run / folder / log)
    top = top_of_report(stall_run)
    for log in logs:
        assert f"> - {log}: merged from the logs of 2 of the 3 members; none from member-3" in top
    assert "member-2" not in top


def test_without_a_recorded_duration_the_end_cannot_be_checked(stall_run):
    edit_run_json(stall_run, duration_s=...)
    assert "> - run.json: no duration_s" in top_of_report(stall_run)


def written_counts(run) -> dict[str, int]:
    """What the member would have recorded in member.json for the fixture's logs as they are."""
    from fournines_analysis.hlog import read_hlog

    return {name: sum(int(log.counts.sum()) for log in read_hlog(run / name))
            for name in ("latency.hlog", "completion.hlog")}


def test_logs_holding_what_the_member_wrote_are_complete(stall_run):
    edit_run_json(stall_run, hlog_values_written=written_counts(stall_run))
    assert "Coverage" not in top_of_report(stall_run)


def test_a_log_that_lost_written_latencies_is_flagged_even_at_the_exempt_end(stall_run):
    written = written_counts(stall_run)
    edit_run_json(stall_run, hlog_values_written=written)
    drop_intervals(stall_run / "latency.hlog", lambda i: i < 24)  # the last measured second: no seconds gap
    held = written_counts(stall_run)["latency.hlog"]
    assert held < written["latency.hlog"]
    top = top_of_report(stall_run)
    assert top.splitlines()[0].endswith(" — INCOMPLETE")
    assert (f"> - latency.hlog: holds {held:,} of the {written['latency.hlog']:,} latencies the member(s) wrote "
            f"to it: {written['latency.hlog'] - held:,} lost") in top


def test_more_than_written_is_no_loss_and_a_written_log_that_is_gone_is_missing(stall_run):
    written = written_counts(stall_run)
    edit_run_json(stall_run, hlog_values_written={"latency.hlog": written["latency.hlog"] - 5, "extra.hlog": 7})
    top = top_of_report(stall_run)
    assert "latency.hlog" not in top  # a member killed mid-run leaves intervals but no count
    assert "> - extra.hlog: missing, though the member(s) wrote 7 latencies to it" in top


def test_a_log_that_recorded_nothing_after_the_warm_up_is_flagged_and_still_reported(stall_run):
    """A load that never reached the members: every second covered by an empty interval."""
    from synthetic import hlog_text

    (stall_run / "latency.hlog").write_text(hlog_text([np.empty(0)] * 25))
    top = top_of_report(stall_run)
    assert top.splitlines()[0].endswith(" — INCOMPLETE")
    assert "> - latency.hlog: holds no latency after the warm-up: no event reached the sink while it was measured" in top
    assert "completion.hlog" not in top
    assert (stall_run / "plots" / "nines.png").is_file() and (stall_run / "plots" / "over-time-latency.png").is_file()
