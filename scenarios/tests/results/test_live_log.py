"""live.jsonl as the runner writes it and the dashboard reads it: every record readable while the file
is still open, a line half-written when read left for the next read, a broken line named."""
import pytest

from fournines.members.progress import Progress
from fournines.results.live_log import LIVE_LOG, LiveLog
from fournines_analysis.dashboard.live_records import is_live, read_records, start_record
from fournines_analysis.errors import BadInput

SCENARIO = {"name": "q0", "warmup_s": 1.0, "duration_s": 3.0}


def test_records_are_readable_as_they_are_written_and_whole_lines_only(tmp_path):
    live = LiveLog(tmp_path, SCENARIO)
    live.progress("member-2", Progress(1.0, "warmup", 1000, 990.0, None, None, 0.3))
    records, offset = read_records(tmp_path)
    assert [r["type"] for r in records] == ["start", "progress"] and is_live(tmp_path)
    assert start_record(tmp_path)["expected_s"] == 4.0 and records[1]["member"] == "member-2"
    with open(tmp_path / LIVE_LOG, "a") as f:  # as if read in the middle of a write
        f.write('{"type": "fau')
    assert read_records(tmp_path, offset) == ([], offset)
    (tmp_path / LIVE_LOG).write_bytes((tmp_path / LIVE_LOG).read_bytes()[:offset])
    live.fault("kill member-2 at t=2.0 s")
    live.end("completed", None)
    records, _ = read_records(tmp_path, offset)
    assert [(r["type"], r.get("text"), r.get("status")) for r in records] == [
        ("fault", "kill member-2 at t=2.0 s", None), ("end", None, "completed")]


def test_a_broken_line_is_named(tmp_path):
    (tmp_path / LIVE_LOG).write_text('{"type": "start"}\nnot json\n')
    with pytest.raises(BadInput, match=r"live.jsonl: line 2 after byte 0 is not JSON"):
        read_records(tmp_path)
