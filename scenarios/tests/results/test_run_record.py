"""run.json: the runner's context merged with the member's report, readable by the analysis."""
import json

import pytest

from fournines.results.run_record import MemberReportError, assemble, read_member_report, write_run_json
from fournines.spec.scenario import load_scenario
from fournines_analysis.runinfo import read_run_info

CONTEXT = {"host": "h", "cores": 2, "kernel": "6.1", "cpu_model": "AMD EPYC", "git_sha": "abc", "git_dirty": False}
MEMBER = {"started_at": "2026-01-01T00:00:00Z", "jdk": "17.0.15+6", "gc": "G1 Young Generation, G1 Old Generation",
          "jvm_flags": ["-Xmx2g", "-XX:+UseG1GC"], "achieved_rate": 499_800.5, "events_generated": 40_000_000,
          "events_processed": 39_999_000, "late_events": 3, "dropped_events": 0, "queue_high_water": 512}


def record(member=MEMBER, status="completed", failure=None, profile=None):
    scenario = load_scenario("q5")
    return assemble(scenario, CONTEXT, ["-Xmx2g"], ["java", "-jar", "m.jar"], status, failure, member, profile)


def test_runner_context_and_member_counters_are_merged():
    r = record()
    assert r["format"] == 1 and r["status"] == "completed" and "failure" not in r
    assert r["scenario"]["name"] == "q5"
    assert (r["warmup_s"], r["duration_s"], r["target_rate"]) == (20.0, 60.0, 1_000_000)
    assert r["host"] == "h" and r["git_sha"] == "abc" and r["command"] == ["java", "-jar", "m.jar"]
    for name, value in MEMBER.items():  # the member's word on what it saw, including extra fields
        assert r[name] == value


def test_without_a_member_report_the_runners_flags_and_gc_stand():
    r = record(member=None, status="failed", failure="the member exited with code 1")
    assert r["jvm_flags"] == ["-Xmx2g"] and r["gc"] == "ZGC"
    assert r["failure"] == "the member exited with code 1"
    assert "events_processed" not in r


def test_the_runner_keeps_the_fields_it_owns(capsys):
    r = record(member={**MEMBER, "warmup_s": 0, "scenario": {}})
    assert r["warmup_s"] == 20.0 and r["scenario"]["name"] == "q5"
    assert "member.json sets warmup_s, which the runner owns" in capsys.readouterr().err


def test_the_analysis_reads_what_the_runner_writes(tmp_path):
    write_run_json(tmp_path, record(profile="profile.jfr"))
    info = read_run_info(tmp_path / "run.json")
    assert info.warmup_s == 20.0 and info.scenario_name == "q5"
    assert info.fields["profile"] == "profile.jfr"


def test_member_report_is_read(tmp_path):
    (tmp_path / "member.json").write_text(json.dumps(MEMBER))
    assert read_member_report(tmp_path / "member.json") == MEMBER


@pytest.mark.parametrize("content, message", [
    (None, "member.json: missing"),
    ("{", "member.json: unreadable"),
    ("[]", "member.json: must hold a JSON object"),
    (json.dumps({"events_processed": "many"}), 'field events_processed must be of type int; is "many"'),
    (json.dumps({"late_events": True}), "field late_events must be of type int; is true"),
    (json.dumps({"jvm_flags": "-Xmx1g"}), "field jvm_flags must be of type list"),
])
def test_a_bad_member_report_is_named(tmp_path, content, message):
    if content is not None:
        (tmp_path / "member.json").write_text(content)
    with pytest.raises(MemberReportError, match=message):
        read_member_report(tmp_path / "member.json")


def test_every_gc_a_scenario_may_name_has_a_name_in_run_json():
    from fournines.results.run_record import GC_NAMES
    from fournines.spec.scenario import GC_FLAGS
    assert GC_NAMES.keys() == GC_FLAGS.keys()
