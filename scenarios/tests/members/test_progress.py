"""The member's progress lines: parsed when they follow the contract, refused when they claim to be
progress but break it, passed through as output otherwise."""
import json

import pytest

from fournines.members.progress import Done, Progress, ProtocolError, parse_line
from fournines.members.progress_display import describe

GOOD = {"type": "progress", "elapsed_s": 12.0, "phase": "measure", "target_rate": 1000000,
        "achieved_rate": 998000.0, "p99_us": 850, "p9999_us": 4100, "behind_ms": 0.3}


def test_a_progress_line():
    assert parse_line(json.dumps(GOOD)) == Progress(12.0, "measure", 1e6, 998000.0, 850.0, 4100.0, 0.3)


def test_done():
    assert parse_line('{"type":"done"}') == Done()


def test_percentiles_may_be_null_before_the_first_latency():
    progress = parse_line(json.dumps({**GOOD, "phase": "warmup", "p99_us": None, "p9999_us": None}))
    assert (progress.p99_us, progress.p9999_us) == (None, None)


@pytest.mark.parametrize("line", [
    "Starting member ...", "", "{not json", '{"level":"INFO","msg":"json logging"}', '{"type":"metric"}', "[1, 2]",
])
def test_other_lines_are_output(line):
    assert parse_line(line) is None


@pytest.mark.parametrize("change, message", [
    ({"phase": "warm"}, 'phase must be one of warmup, measure; is "warm"'),
    ({"achieved_rate": "fast"}, 'achieved_rate must be a number ≥ 0; is "fast"'),
    ({"behind_ms": None}, "behind_ms must be a number ≥ 0; is null"),
    ({"p99_us": -1}, "p99_us must be a number ≥ 0 or null; is -1"),
    ({"elapsed_s": True}, "elapsed_s must be a number ≥ 0; is true"),
])
def test_broken_progress_is_a_protocol_error_naming_the_field(change, message):
    with pytest.raises(ProtocolError, match=message.replace("(", r"\(")):
        parse_line(json.dumps({**GOOD, **change}))


def test_a_missing_field_is_named():
    with pytest.raises(ProtocolError, match="p9999_us is missing"):
        parse_line(json.dumps({k: v for k, v in GOOD.items() if k != "p9999_us"}))


def test_the_progress_line_shows_what_the_issue_asks_for():
    line = describe(parse_line(json.dumps(GOOD)), "q5", 80, 13.0)
    assert line == "q5  12.0/80s measure 998,000/1,000,000 ev/s  p99 850 µs  p99.99 4,100 µs  behind 0.3 ms"


def test_before_the_first_progress_the_line_says_what_it_waits_for():
    assert describe(None, "q5", 80, 3.2) == "q5 starting the member (3 s)"
    assert "p99 –" in describe(Progress(1, "warmup", 1, 1, None, None, 0), "q5", 80, 1)
