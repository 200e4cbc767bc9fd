from pathlib import Path

from fournines.members.jvm import member_command, jvm_flags
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario


def test_flags_are_the_scenarios_then_gc_then_gc_log():
    scenario = load_scenario("q5", parse_overrides(["JVM_OPTS=-Xmx1g -Xms1g", "GC=zgc"]))
    assert jvm_flags(scenario, profile=False) == [
        "-Xmx1g", "-Xms1g", "-XX:+UseZGC", "-Xlog:gc*:file=gc.log:time,uptime,level,tags"]


def test_profile_adds_a_flight_recording():
    flags = jvm_flags(load_scenario("q5"), profile=True)
    assert flags[-1] == "-XX:StartFlightRecording=filename=profile.jfr,settings=profile,dumponexit=true"


def test_the_member_command(tmp_path):
    jar = tmp_path / "fournines-member.jar"
    assert member_command(jar, ["-Xmx1g"], tmp_path / "run") == [
        "java", "-Xmx1g", "-jar", str(jar), "run", "--scenario", str(tmp_path / "run" / "scenario.json"),
        "--out", str(tmp_path / "run")]


def test_relative_paths_become_absolute_for_a_member_running_in_the_results_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    command = member_command(Path("member.jar"), [], Path("results/x"))
    assert command[2] == str(tmp_path / "member.jar") and command[-1] == str(tmp_path / "results" / "x")
