"""Reading .hlog files as Java's HistogramLogWriter writes them, and refusing broken ones loudly."""
import numpy as np
import pytest

from fournines_analysis.errors import BadInput
from fournines_analysis.hlog import read_hlog


def test_absolute_timestamps_become_seconds_since_start(stall_run):
    [log] = read_hlog(stall_run / "latency.hlog")
    assert log.name == "latency"
    np.testing.assert_array_equal(log.start_s, np.arange(25.0))
    np.testing.assert_array_equal(log.length_s, np.ones(25))
    assert log.counts.sum(axis=1).tolist() == [1000] * 25


def test_relative_timestamps_with_base_time_and_resizing_histograms(stall_run):
    [log] = read_hlog(stall_run / "completion.hlog")
    np.testing.assert_array_equal(log.start_s, np.arange(25.0))
    assert log.counts.sum() == 2500


def test_warmup_selects_intervals_by_their_midpoint(stall_run):
    [log] = read_hlog(stall_run / "latency.hlog")
    assert log.measured(5).sum() == 20
    assert log.measured(5.4).sum() == 20  # [5, 6) is mostly after 5.4 s
    assert log.measured(5.6).sum() == 19


def test_tagged_lines_are_separate_series(stall_run, tmp_path):
    lines = (stall_run / "latency.hlog").read_text().splitlines()
    header, intervals = lines[:3], lines[3:]
    tagged = header + [f"Tag=gc,{line}" if i % 5 == 0 else line for i, line in enumerate(intervals)]
    path = tmp_path / "mixed.hlog"
    path.write_text("\n".join(tagged) + "\n")
    series = {log.name: log for log in read_hlog(path)}
    assert set(series) == {"mixed", "mixed[gc]"}
    assert len(series["mixed[gc]"].start_s) == 5 and len(series["mixed"].start_s) == 20
    np.testing.assert_array_equal(series["mixed[gc]"].start_s, [0, 5, 10, 15, 20])


def test_warmup_tagged_lines_belong_to_the_untagged_series(stall_run, tmp_path):
    lines = (stall_run / "latency.hlog").read_text().splitlines()
    header, intervals = lines[:3], lines[3:]
    tagged = header + [f"Tag=warmup,{line}" if i < 5 else line for i, line in enumerate(intervals)]
    path = tmp_path / "member.hlog"
    path.write_text("\n".join(tagged) + "\n")
    [log] = read_hlog(path)
    assert log.name == "member"
    np.testing.assert_array_equal(log.start_s, np.arange(25.0))


def _corrupt(stall_run, line_number, transform):
    path = stall_run / "latency.hlog"
    lines = path.read_text().splitlines()
    lines[line_number - 1] = transform(lines[line_number - 1])
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BadInput) as error:
        read_hlog(path)
    return error.value


def test_a_corrupt_payload_names_file_line_and_field(stall_run):
    error = _corrupt(stall_run, 9, lambda line: line[:-12] + "AAAAAAAAAAAA")
    assert (error.path.name, error.line, error.field) == ("latency.hlog", 9, "Interval_Compressed_Histogram")
    assert str(error).startswith(f"{stall_run / 'latency.hlog'}:9: field 'Interval_Compressed_Histogram':")


def test_a_bad_number_names_its_field(stall_run):
    error = _corrupt(stall_run, 5, lambda line: "12:00," + line.split(",", 1)[1])
    assert (error.line, error.field) == (5, "StartTimestamp")
    assert "'12:00'" in str(error)


def test_a_truncated_line_is_an_error_not_a_skip(stall_run):
    error = _corrupt(stall_run, 6, lambda line: line.rsplit(",", 1)[0])
    assert error.line == 6 and "expected 4 comma-separated fields" in str(error)


def test_a_log_without_intervals_is_an_error(tmp_path):
    path = tmp_path / "empty.hlog"
    path.write_text("#[StartTime: 1767225600.000 (seconds since epoch), x]\n")
    with pytest.raises(BadInput, match="no interval histograms"):
        read_hlog(path)


def test_binary_garbage_is_named_not_a_traceback(tmp_path):
    path = tmp_path / "latency.hlog"
    path.write_bytes(b"#[StartTime: 0 (seconds since epoch)]\n\xff\xfe\x00")
    with pytest.raises(BadInput, match="not UTF-8 text") as error:
        read_hlog(path)
    assert error.value.line == 2
