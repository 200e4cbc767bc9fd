"""Scenario files (scenarios/<name>.yaml): the schema, loading, overrides, and resolution into the
scenario.json the member reads. The fields are documented in scenarios/README.md.

Loading checks everything before anything starts: unknown fields, wrong types, bad values, and the
rules between fields. All problems are reported at once, each as `FILE: FIELD: problem`, with the
override that set the field when there is one.
"""
import re
from pathlib import Path

import yaml

from fournines import REPO_ROOT
from fournines.spec.durations import parse_duration
from fournines.spec.kafka_settings import KAFKA, check_rules as check_kafka_rules
from fournines.spec.overrides import Overrides
from fournines.spec.query_field import QuerySpec
from fournines.spec.registry import ENGINES, QUERIES
from fournines.spec.schema import (OPTIONAL, Choice, Duration, Field, Integer, IntegerOr, JdkName, ListOf, Problems, Record,
                                   Size, Strings, Text)

SCENARIOS_DIR = REPO_ROOT / "scenarios"
NAME_PATTERN = r"[a-z0-9][a-z0-9-]*"

# --gc -> the JVM flag that selects it (the runner adds it; jvm_opts must not).
GC_FLAGS = {
    "g1": "-XX:+UseG1GC",
    "zgc": "-XX:+UseZGC",
    "generational-zgc": "-XX:+UseZGC",  # plus -XX:+ZGenerational on JDK 21 and 22 (members/jvm.py)
    "parallel": "-XX:+UseParallelGC",
    "serial": "-XX:+UseSerialGC",
    "shenandoah": "-XX:+UseShenandoahGC",
}
# What the reference engine's cooperative workers do with nothing to do (engine/docs/execution.md,
# "Idling"); the first, its own deadline-aware parking, is the default.
IDLE_STRATEGIES = ("park-backoff", "busy-spin", "jet-backoff")
# load.padding's limit: the client-benchmarking post's largest payload, and NexmarkRecords.MAX_PADDING_BYTES.
MAX_PADDING_BYTES = 100 * 1024
# Copies of the query on one member (`jobs`): the Jet paper's multiplexing ran 100; ten times that
# is still a test of the engine, more would be one of the heap.
MAX_JOBS = 1000
# Jet's default snapshot interval, used when a guarantee is asked for without an interval.
DEFAULT_SNAPSHOT_INTERVAL_MS = 10_000
# Micro-batch and group execution without batch_ms or group_size (scenarios/README.md, "Scenario files").
DEFAULT_BATCH_MS = 100
DEFAULT_GROUP_SIZE = 10
# group_size: auto without latency_target_ms: the target the "highest rate" is measured at.
DEFAULT_LATENCY_TARGET_MS = 1000

# Meanings, defaults and rules of every field: scenarios/README.md, "Scenario files".
FAULT = Record({
    "at": Field(Duration()),
    "action": Field(Choice("kill", "stop", "restart", "partition")),
    "target": Field(Text(r"member-[1-9][0-9]*", "member-N, N from 1 to cluster.members")),
    "duration": Field(Duration(0), OPTIONAL),  # stop, partition: how long (≥ 1ms, checked below); restart: the delay before it
})

SCHEMA = Record({
    "name": Field(Text(NAME_PATTERN, "lower-case letters, digits and '-' (it names the results folder)")),
    "description": Field(Text(), ""),
    "engine": Field(Choice(*ENGINES), "fournines"),
    "query": Field(QuerySpec()),
    "load": Field(Record({
        "rate": Field(Integer(1, 1_000_000_000)),
        "source": Field(Choice("in-process", "kafka"), "in-process"),
        "partitions": Field(Integer(1, 100_000), OPTIONAL),  # default: members × threads
        "keys": Field(Integer(0, 1_000_000_000), 10_000),
        "padding": Field(Size(MAX_PADDING_BYTES), 0),  # bytes each event carries on the wire; Kafka NEXMark loads only
        "kafka": Field(KAFKA, OPTIONAL),  # only with source kafka; defaults filled then
    })),
    "cluster": Field(Record({
        "members": Field(Integer(1, 1000), 1),
        "threads": Field(Integer(1, 1024), 2),
        "jvm_opts": Field(Strings(), []),
        "gc": Field(Choice(*GC_FLAGS), "g1"),
        "jdk": Field(JdkName(), OPTIONAL),  # default: the java on PATH
    }), {}),
    "guarantee": Field(Choice("none", "at-least-once", "exactly-once"), "none"),
    "snapshot_interval_ms": Field(Integer(0, 86_400_000), OPTIONAL),  # default: by guarantee
    "mode": Field(Choice("single", "active-active"), "single"),
    "jobs": Field(Integer(1, MAX_JOBS), 1),
    "idle": Field(Choice(*IDLE_STRATEGIES), IDLE_STRATEGIES[0]),
    "execution": Field(Choice("continuous", "micro-batch", "group"), "continuous"),
    "batch_ms": Field(Integer(1, 3_600_000), OPTIONAL),  # default: DEFAULT_BATCH_MS when batched
    "group_size": Field(IntegerOr("auto", 1, 1_000_000), OPTIONAL),  # default: 1 for micro-batch, DEFAULT_GROUP_SIZE for group
    "latency_target_ms": Field(Integer(1, 3_600_000), OPTIONAL),  # with group_size auto; default DEFAULT_LATENCY_TARGET_MS
    "faults": Field(ListOf(FAULT), []),
    "warmup": Field(Duration(), "10s"),
    "duration": Field(Duration(1), "60s"),
    "target": Field(Choice("local", "aws", "hosts"), "local"),
})


class ScenarioError(Exception):
    """Everything wrong with a scenario, one line per problem, each naming file and field."""

    def __init__(self, lines: list[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


def scenario_path(ref: str) -> Path:
    """`q5` -> scenarios/q5.yaml; anything that looks like a path is taken as one."""
    if "/" in ref or ref.endswith((".yaml", ".yml")):
        path = Path(ref)
        if not path.is_file():
            raise ScenarioError([f"{ref}: no such scenario file"])
        return path
    path = SCENARIOS_DIR / f"{ref}.yaml"
    if not path.is_file():
        raise ScenarioError([f"{ref}: no scenario of that name; available: {', '.join(available())}"])
    return path


def available() -> list[str]:
    """Scenario names, q2 before q13."""
    return sorted((p.stem for p in SCENARIOS_DIR.glob("*.yaml")),
                  key=lambda name: [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)])


def load_scenario(ref: str, overrides: Overrides = Overrides()) -> dict:
    """The resolved scenario: file + overrides, checked, defaults filled, warmup_s/duration_s added."""
    path = scenario_path(ref)
    raw = read_yaml(path)
    origins = {}
    for override in overrides.fields:
        _set(raw, override.path, _spec_at(override.path).from_text(override.text))
        origins[override.path] = str(override)
    problems = Problems()
    scenario = SCHEMA.check(raw, "", problems)
    if not problems.found:
        _check_rules(scenario, problems)
    if problems.found:
        raise ScenarioError([f"{shown_path(path)}: {p.path}: {p.message}{_origin(p.path, origins)}"
                             for p in problems.found])
    return _resolve(scenario)


def _origin(problem_path: str, origins: dict[str, str]) -> str:
    """" (set by override X=...)" when an override set the field or the list/record holding it."""
    for path, override in origins.items():
        if problem_path == path or problem_path.startswith((path + "[", path + ".")):
            return f" (set by override {override})"
    return ""


def shown_path(path: Path) -> Path:
    """The file as the user would type it: relative to the working directory when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path


def _check_rules(s: dict, problems: Problems) -> None:
    """The rules between fields, once every field is valid on its own."""
    cluster = s["cluster"]
    for i, opt in enumerate(cluster["jvm_opts"]):
        if opt in GC_FLAGS.values() or re.fullmatch(r"-XX:[+-]Use\w+GC", opt):
            problems.add(f"cluster.jvm_opts[{i}]", f"{opt!r} selects a GC; set cluster.gc instead "
                         f"(one of {', '.join(GC_FLAGS)})")
    if "latency_target_ms" in s and s.get("group_size") != "auto":
        problems.add("latency_target_ms", "only with group_size auto (it is the tuned group size's target); "
                     f"group_size is {s.get('group_size', 'left out')}")
    interval = s.get("snapshot_interval_ms")
    if s["guarantee"] == "none" and interval:
        problems.add("snapshot_interval_ms", f"must be 0 or left out when guarantee is none; is {interval}")
    if s["guarantee"] != "none" and interval == 0:
        problems.add("snapshot_interval_ms", f"must be ≥ 1 when guarantee is {s['guarantee']}; is 0")
    if s["mode"] == "active-active" and cluster["members"] % 2:
        problems.add("cluster.members", "must be even (two disjoint halves) when mode is active-active; "
                     f"is {cluster['members']}")
    if s["jobs"] > s["load"]["rate"]:
        problems.add("jobs", f"must be at most load.rate ({s['load']['rate']}): each job runs at load.rate / jobs "
                     f"events/s, at least 1; is {s['jobs']}")
    name, source = s["query"]["name"], s["load"]["source"]
    sources = QUERIES[name].sources
    if source not in sources:
        problems.add("load.source", f"must be {' or '.join(sources)} for query {name} (the sources that make its "
                     f"events, in the query registry); is {source}")
    check_kafka_rules(s, problems)
    _check_padding(s, problems)
    end_s = parse_duration(s["warmup"]) + parse_duration(s["duration"])
    for i, fault in enumerate(s["faults"]):
        member = int(fault["target"].removeprefix("member-"))
        if member > cluster["members"]:
            problems.add(f"faults[{i}].target", f"must be member-1 … member-{cluster['members']} "
                         f"(cluster.members); is {fault['target']!r}")
        if parse_duration(fault["at"]) >= end_s:
            problems.add(f"faults[{i}].at", f"must be before the end of the run (warmup + duration = {end_s:g}s); "
                         f"is {fault['at']!r}")
        lasting = {"stop": "how long to stop", "partition": "how long the member is cut off"}.get(fault["action"])
        if lasting and "duration" not in fault:
            problems.add(f"faults[{i}].duration", f"missing; required when action is {fault['action']} ({lasting})")
        elif lasting and parse_duration(fault["duration"]) < 0.001:
            problems.add(f"faults[{i}].duration", f"must be at least 1ms when action is {fault['action']}; "
                         f"is {fault['duration']!r}")
        if fault["action"] == "kill" and "duration" in fault:
            problems.add(f"faults[{i}].duration", "not allowed when action is kill (a killed member stays "
                         "down; use restart to bring it back)")


def _check_padding(s: dict, problems: Problems) -> None:
    """Padding is bytes on the wire: the load generator's NEXMark records (nexmark/core NexmarkRecords).
    The in-process generator hands events over in memory, and the other inputs have codecs of their own."""
    padding, source, name = s["load"]["padding"], s["load"]["source"], s["query"]["name"]
    if not padding:
        return
    if source != "kafka":
        problems.add("load.padding", f"only with load.source kafka: the {source} generator hands its events over in "
                     f"memory, with no wire to pad; is {padding} bytes")
    elif QUERIES[name].input != "nexmark":
        problems.add("load.padding", f"only for NEXMark events; query {name} reads {QUERIES[name].input} events; "
                     f"is {padding} bytes")


def _resolve(s: dict) -> dict:
    """Fills the fields whose defaults depend on others and adds the durations as seconds, so the
    Java side never parses "10s" (scenarios/docs/member-contract.md)."""
    s["load"].setdefault("partitions", s["cluster"]["members"] * s["cluster"]["threads"])
    s.setdefault("snapshot_interval_ms", 0 if s["guarantee"] == "none" else DEFAULT_SNAPSHOT_INTERVAL_MS)
    # Each model's own settings, so one file serves a comparison of models (EXECUTION=a,b,c): a model
    # that does not use a setting leaves it out of what it runs.
    if s["execution"] == "continuous":
        s.pop("batch_ms", None)
        s.pop("group_size", None)
    else:
        s.setdefault("batch_ms", DEFAULT_BATCH_MS)
        s["group_size"] = s.get("group_size", DEFAULT_GROUP_SIZE) if s["execution"] == "group" else 1
    if s.get("group_size") == "auto":
        s.setdefault("latency_target_ms", DEFAULT_LATENCY_TARGET_MS)
    else:
        s.pop("latency_target_ms", None)
    for fault in s["faults"]:
        if fault["action"] == "restart":
            fault.setdefault("duration", "0s")
    s["warmup_s"] = parse_duration(s["warmup"])
    s["duration_s"] = parse_duration(s["duration"])
    return s


def _spec_at(path: str):
    """The spec of the field at a dotted path; query parameters are looked up across queries."""
    parts = path.split(".")
    if parts[0] == "query":
        return next(q.parameters[parts[1]].spec for q in QUERIES.values() if parts[1] in q.parameters)
    spec = SCHEMA
    for part in parts:
        spec = spec.fields[part].spec
    return spec


def _set(raw: dict, path: str, value) -> None:
    *parents, last = path.split(".")
    node = raw
    for part in parents:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            return  # the file's own value is wrong here; validation reports it
        node = child
    node[last] = value


class _StrictLoader(yaml.SafeLoader):
    """PyYAML keeps the last of two equal keys; in a scenario that hides a typo, so it is an error."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(None, None, f"field {key!r} appears twice",
                                                        key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def read_yaml(path: Path) -> dict:
    try:
        raw = yaml.load(read_text(path), Loader=_StrictLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise ScenarioError([f"{shown_path(path)}{where}: not valid YAML: {getattr(e, 'problem', None) or e}"]) from None
    if not isinstance(raw, dict):
        raise ScenarioError([f"{shown_path(path)}: must hold a mapping of fields (name, query, load, ...)"])
    return raw


def read_text(path: Path) -> str:
    """The file as UTF-8 text, or a ScenarioError naming it: the byte that is not UTF-8, or why it
    cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ScenarioError([f"{shown_path(path)}: unreadable: {e.strerror}"]) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise ScenarioError([f"{shown_path(path)}: not UTF-8 at byte {e.start} (line {line})"]) from None
