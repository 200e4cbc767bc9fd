"""KEY=VALUE overrides: each key sets its field; a bad one is refused naming key, field and value."""
import pytest

from fournines.spec.overrides import FIELDS, OverrideError, parse_overrides
from fournines.spec.scenario import ScenarioError, load_scenario

# key -> (text on the command line, the value it must set). Every key in FIELDS must be here.
SAMPLES = {
    "CLUSTER": ("4", 4),
    "THREADS": ("3", 3),
    "JVM_OPTS": ("-Xmx1g  -Dname='a b'", ["-Xmx1g", "-Dname=a b"]),
    "GC": ("parallel", "parallel"),
    "JDK": ("25", "25"),
    "RATE": ("200_000", 200_000),
    "KEYS": ("0", 0),
    "PADDING": ("1KB", 1024),
    "SOURCE": ("kafka", "kafka"),
    "PARTITIONS": ("12", 12),
    "WINDOW_MS": ("2000", 2000),
    "SLIDE_MS": ("500", 500),
    "WARMUP": ("5s", "5s"),
    "DURATION": ("2m", "2m"),
    "GUARANTEE": ("at-least-once", "at-least-once"),
    "SNAPSHOT_INTERVAL_MS": ("500", 500),
    "MODE": ("active-active", "active-active"),
    "JOBS": ("100", 100),
    "IDLE": ("busy-spin", "busy-spin"),
    "EXECUTION": ("group", "group"),
    "BATCH_MS": ("250", 250),
    "GROUP_SIZE": ("4", 4),
    "LATENCY_TARGET_MS": ("400", 400),
    "ENGINE": ("jet", "jet"),
    "TARGET": ("aws", "aws"),
    "PRODUCERS": ("2", 2),
    "ACKS": ("all", "all"),
    "LINGER_MS": ("0", 0),
    "BATCH_SIZE": ("16384", 16384),
    "FLUSH_MESSAGES": ("1", 1),
    "FLUSH_MS": ("1000", 1000),
    "REPLICATION_FACTOR": ("3", 3),
}


def field(scenario: dict, path: str):
    """The field's value; None for an optional field left out."""
    for part in path.split("."):
        scenario = scenario.get(part)
    return scenario


def test_every_override_key_has_a_sample():
    assert SAMPLES.keys() == FIELDS.keys()


@pytest.mark.parametrize("key", FIELDS)
def test_each_override_sets_its_field(key):
    text, expected = SAMPLES[key]
    # What the other fields need for this value to be valid on its own.
    kafka = ["SOURCE=kafka"] if FIELDS[key].startswith("load.kafka.") else []
    extra = {"PADDING": ["SOURCE=kafka"], "MODE": ["CLUSTER=2"], "SNAPSHOT_INTERVAL_MS": ["GUARANTEE=exactly-once"], "BATCH_MS": ["EXECUTION=group"],
             "GROUP_SIZE": ["EXECUTION=group"], "LATENCY_TARGET_MS": ["EXECUTION=group", "GROUP_SIZE=auto"]}.get(key, kafka)
    scenario = load_scenario("q5", parse_overrides([f"{key}={text}", *extra]))
    assert field(scenario, FIELDS[key]) == expected
    before = load_scenario("q5", parse_overrides(extra))
    with_default = FIELDS[key].removeprefix("load.kafka.") in before["load"].get("kafka", {}) or not kafka
    assert not with_default or field(before, FIELDS[key]) != expected  # the override changed something


def test_durations_in_seconds_follow_the_overrides():
    s = load_scenario("q5", parse_overrides(["WARMUP=1s", "DURATION=1m30s"]))
    assert (s["warmup_s"], s["duration_s"]) == (1.0, 90.0)


def test_a_bad_value_names_the_override_and_the_field():
    with pytest.raises(ScenarioError) as e:
        load_scenario("q5", parse_overrides(["RATE=fast"]))
    (line,) = e.value.lines
    assert line.endswith('q5.yaml: load.rate: must be an integer from 1 to 1_000_000_000; '
                         'is "fast" (set by override RATE=fast)')


def test_a_bad_jvm_opt_names_the_override():
    with pytest.raises(ScenarioError, match=r"cluster.jvm_opts\[1\]: .* \(set by override JVM_OPTS=-Xmx1g -XX:\+UseZGC\)"):
        load_scenario("q5", parse_overrides(["JVM_OPTS=-Xmx1g -XX:+UseZGC"]))


def test_a_window_override_on_a_query_without_windows():
    with pytest.raises(ScenarioError, match=r"query.window_ms: not a parameter of q1.*\(set by override WINDOW_MS=100\)"):
        load_scenario("q1", parse_overrides(["WINDOW_MS=100"]))


@pytest.mark.parametrize("arg, message", [
    ("FOO=1", "override FOO=1: unknown key 'FOO'; allowed: CLUSTER, THREADS"),
    ("RATE", "'RATE': expected KEY=VALUE"),
    ("RATE=", "override RATE=: empty value"),
    ("rate=5", "unknown key 'rate'"),
    ("PROFILE=yes", "PROFILE must be 1"),
])
def test_malformed_overrides_are_refused(arg, message):
    with pytest.raises(OverrideError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_overrides([arg])


def test_an_override_given_twice_is_refused():
    with pytest.raises(OverrideError, match="RATE is given twice"):
        parse_overrides(["RATE=1", "RATE=2"])


def test_profile_is_a_run_option_not_a_field():
    overrides = parse_overrides(["PROFILE=1", "RATE=5"])
    assert overrides.profile and [str(o) for o in overrides.fields] == ["RATE=5"]
    assert not parse_overrides(["PROFILE=0"]).profile
