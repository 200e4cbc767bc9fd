"""Scenario files: every committed one is valid; every kind of mistake is refused naming file and field."""
import textwrap

import pytest

from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import SCENARIOS_DIR, ScenarioError, available, load_scenario

MINIMAL = """
name: t
query: {name: q5}
load: {rate: 1000}
"""


def write(tmp_path, text: str) -> str:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text))
    return str(path)


def errors(tmp_path, text: str) -> list[str]:
    with pytest.raises(ScenarioError) as e:
        load_scenario(write(tmp_path, text))
    return e.value.lines


def one_error(tmp_path, text: str) -> str:
    (line,) = errors(tmp_path, text)
    assert line.startswith(str(tmp_path / "t.yaml"))
    return line


@pytest.mark.parametrize("name", available())
def test_every_committed_scenario_is_valid_and_named_after_its_file(name):
    scenario = load_scenario(name)
    assert scenario["name"] == name
    assert scenario["description"]


def test_the_issue_asks_for_these_scenarios_at_least():
    assert {"q0", "q1", "q2", "q5", "q7", "q8", "q13"} <= set(available())
    assert available().index("q2") < available().index("q13")


def test_defaults_are_filled_and_durations_added_in_seconds(tmp_path):
    s = load_scenario(write(tmp_path, MINIMAL))
    assert s["engine"] == "fournines" and s["target"] == "local" and s["mode"] == "single" and s["jobs"] == 1
    assert s["query"] == {"name": "q5", "window_ms": 10_000, "slide_ms": 5_000}
    assert s["cluster"] == {"members": 1, "threads": 2, "jvm_opts": [], "gc": "g1"}
    assert s["load"] == {"rate": 1000, "source": "in-process", "keys": 10_000, "padding": 0, "partitions": 2}
    assert (s["guarantee"], s["snapshot_interval_ms"], s["faults"]) == ("none", 0, [])
    assert (s["warmup"], s["warmup_s"], s["duration"], s["duration_s"]) == ("10s", 10.0, "60s", 60.0)


def test_a_guarantee_gets_jets_default_snapshot_interval(tmp_path):
    s = load_scenario(write(tmp_path, MINIMAL + "guarantee: exactly-once\n"))
    assert s["snapshot_interval_ms"] == 10_000


@pytest.mark.parametrize("text, message", [
    (MINIMAL.replace("rate: 1000", "rate: 1000, rat: 5"),
     "load.rat: unknown field; allowed here: rate, source, partitions, keys, padding, kafka"),
    (MINIMAL + "warm_up: 5s\n", "warm_up: unknown field; allowed here: name, description, engine, query, load, "
                                "cluster, guarantee, snapshot_interval_ms, mode, jobs, idle, execution, batch_ms, group_size, latency_target_ms, faults, warmup, duration, target"),
    (MINIMAL.replace("rate: 1000", "rate: fast"), 'load.rate: must be an integer from 1 to 1_000_000_000; is "fast"'),
    (MINIMAL + "cluster: {threads: true}\n", "cluster.threads: must be an integer from 1 to 1_024; is true"),
    (MINIMAL + "guarantee: exactly_once\n",
     'guarantee: must be one of none, at-least-once, exactly-once; is "exactly_once"'),
    (MINIMAL + "duration: 10\n",
     'duration: must be a duration of at least 1s, e.g. "500ms", "10s", "2m", "1h", "1m30s"; is 10'),
    ("name: t\nquery: {name: q1}\n", "load: missing; required, a mapping of fields"),
    (MINIMAL.replace("q5", "q99"), 'query.name: is "q99"; must be one of q0, q1, q2, q3, q4, q5, q6, q7, q8, q13, trades, ysb, sums'),
    (MINIMAL.replace("{name: q5}", "{name: q1, window_ms: 1000}"),
     "query.window_ms: not a parameter of q1; q1 takes: no parameters"),
    (MINIMAL.replace("{name: q5}", "{name: q5, window_ms: 1000, slide_ms: 300}"),
     "query.slide_ms: must divide window_ms (1000); is 300"),
    (MINIMAL + "cluster: {jvm_opts: [-Xmx1g, -XX:+UseZGC]}\n",
     "cluster.jvm_opts[1]: '-XX:+UseZGC' selects a GC; set cluster.gc instead (one of g1, zgc, generational-zgc, parallel, serial, shenandoah)"),
    (MINIMAL + "cluster: {jvm_opts: -Xmx1g}\n", 'cluster.jvm_opts: must be a list of strings; is "-Xmx1g"'),
    (MINIMAL + "snapshot_interval_ms: 1000\n", "snapshot_interval_ms: must be 0 or left out when guarantee is none; is 1000"),
    (MINIMAL + "mode: active-active\ncluster: {members: 3}\n",
     "cluster.members: must be even (two disjoint halves) when mode is active-active; is 3"),
], ids=["unknown field", "unknown top-level field", "wrong type", "a boolean is no integer", "bad choice",
        "a duration without a unit", "missing field", "unknown query", "a parameter the query does not take",
        "slide not dividing the window", "a GC chosen in jvm_opts", "jvm_opts not a list",
        "snapshot interval without a guarantee", "active-active on an odd number of members"])
def test_a_mistake_is_refused_naming_field_value_and_what_is_allowed(tmp_path, text, message):
    assert one_error(tmp_path, text).endswith(f": {message}")


FAULTS = MINIMAL + textwrap.dedent("""\
    cluster: {members: 2}
    warmup: 10s
    duration: 20s
    faults:
      - {at: 5s, action: stop, target: member-2}
      - {at: 40s, action: kill, target: member-3, duration: 1s}
      - {at: 6s, action: partition, target: member-1}
    """)


def test_fault_fields_are_checked(tmp_path):
    lines = errors(tmp_path, FAULTS + "  - {at: 5s, action: explode, target: m1}\n")
    text = "\n".join(lines)
    assert "faults[3].action: must be one of kill, stop, restart, partition" in text
    assert "faults[3].target: must be member-N" in text
    assert len(lines) == 2  # field-by-field problems first; the rules between fields need valid fields


def test_fault_rules_between_fields(tmp_path):
    lines = errors(tmp_path, FAULTS)
    text = "\n".join(lines)
    assert "faults[0].duration: missing; required when action is stop" in text
    assert "faults[1].target: must be member-1 … member-2" in text
    assert "faults[1].at: must be before the end of the run (warmup + duration = 30s)" in text
    assert "faults[1].duration: not allowed when action is kill" in text
    assert "faults[2].duration: missing; required when action is partition (how long the member is cut off)" in text


def test_a_restart_fault_gets_a_zero_delay_by_default(tmp_path):
    s = load_scenario(write(tmp_path, MINIMAL + "cluster: {members: 2}\nfaults: [{at: 20s, action: restart, target: member-1}]\n"))
    assert s["faults"] == [{"at": "20s", "action": "restart", "target": "member-1", "duration": "0s"}]


def test_a_restart_may_say_its_zero_delay_but_a_stop_needs_a_duration(tmp_path):
    s = load_scenario(write(tmp_path, MINIMAL + "cluster: {members: 2}\nfaults: [{at: 20s, action: restart, target: member-2, duration: 0s}]\n"))
    assert s["faults"][0]["duration"] == "0s"
    line = one_error(tmp_path, MINIMAL + "cluster: {members: 2}\nfaults: [{at: 20s, action: stop, target: member-2, duration: 0s}]\n")
    assert "faults[0].duration: must be at least 1ms when action is stop; is '0s'" in line


def test_all_problems_are_reported_at_once(tmp_path):
    lines = errors(tmp_path, "name: T\nquery: {name: q1}\nload: {rate: 0}\nmode: dual\n")
    assert [line.split(": ")[1] for line in lines] == ["name", "load.rate", "mode"]


def test_a_key_given_twice_is_an_error_with_its_line(tmp_path):
    line = one_error(tmp_path, MINIMAL + "load: {rate: 5}\n")
    assert "t.yaml:5: not valid YAML: field 'load' appears twice" in line


def test_invalid_yaml_names_the_line(tmp_path):
    assert "t.yaml:2: not valid YAML" in one_error(tmp_path, "name: t\n  bad: indent\n")


def test_a_file_that_is_not_utf8_is_named_with_the_byte(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_bytes(b"name: t\ndescription: caf\xe9\n")
    with pytest.raises(ScenarioError) as e:
        load_scenario(str(path))
    assert e.value.lines == [f"{path}: not UTF-8 at byte 24 (line 2)"]


def test_a_file_that_is_not_a_mapping(tmp_path):
    assert "must hold a mapping of fields" in one_error(tmp_path, "- q5\n")


def test_unknown_scenario_name_lists_the_available_ones():
    with pytest.raises(ScenarioError, match=r"nope: no scenario of that name; available: q0, q1, q2"):
        load_scenario("nope")


def test_scenarios_dir_is_where_the_files_are():
    assert (SCENARIOS_DIR / "q5.yaml").is_file()


def test_each_execution_model_runs_with_its_own_settings_from_one_file():
    group = load_scenario("ysb-group")
    assert (group["execution"], group["batch_ms"], group["group_size"]) == ("group", 100, 10)
    micro = load_scenario("ysb-group", parse_overrides(["EXECUTION=micro-batch"]))
    assert (micro["batch_ms"], micro["group_size"]) == (100, 1)
    continuous = load_scenario("ysb-group", parse_overrides(["EXECUTION=continuous"]))
    assert "batch_ms" not in continuous and "group_size" not in continuous
    assert load_scenario("q5", parse_overrides(["EXECUTION=micro-batch"]))["batch_ms"] == 100


def test_a_tuned_group_size_has_a_latency_target_and_only_it_does():
    tuned = load_scenario("ysb-group", parse_overrides(["GROUP_SIZE=auto"]))
    assert (tuned["group_size"], tuned["latency_target_ms"]) == ("auto", 1000)
    assert load_scenario("ysb-group", parse_overrides(["GROUP_SIZE=auto", "LATENCY_TARGET_MS=400"]))["latency_target_ms"] == 400
    # A comparison of the models from one file: the others run without it.
    assert "latency_target_ms" not in load_scenario("ysb-group", parse_overrides(["GROUP_SIZE=auto", "EXECUTION=micro-batch"]))
    with pytest.raises(ScenarioError, match=r"latency_target_ms: only with group_size auto .*; group_size is 10"):
        load_scenario("ysb-group", parse_overrides(["LATENCY_TARGET_MS=400"]))
    with pytest.raises(ScenarioError, match=r"group_size: .*an integer from 1 to 1_000_000, or auto"):
        load_scenario("ysb-group", parse_overrides(["GROUP_SIZE=some"]))
