"""Experiment files (scenarios/experiments/<name>.yaml): a published figure as data, namely what it
reproduces, the runs that make our version of it, and the values its source states in words. The
fields are documented in scenarios/docs/figures.md.

Loading checks everything before anything runs, as for scenarios: unknown fields, wrong types, bad
values, the rules between fields, and every run's scenario with its overrides (the experiment's,
then the user's). All problems are reported at once, each as `FILE: FIELD: problem`.
"""
import itertools
import shlex
from dataclasses import dataclass
from pathlib import Path

from fournines.members.jdks import installed_jdks
from fournines.spec.overrides import FIELDS, Override, Overrides
from fournines.spec.scenario import (NAME_PATTERN, SCENARIOS_DIR, ScenarioError, load_scenario, read_yaml,
                                     scenario_path, shown_path)
from fournines.spec.schema import OPTIONAL, Choice, Field, ListOf, Number, Problems, Record, Spec, Text, shown
from fournines_analysis.figure import PLOTS  # the ways of drawing a figure

EXPERIMENTS_DIR = SCENARIOS_DIR / "experiments"
PERCENTILES = {"p50": 50.0, "p99": 99.0, "p99.9": 99.9, "p99.99": 99.99}
# A published value's metric: a latency percentile, or the CPU the run used (percent of one core).
METRICS = (*PERCENTILES, "cpu")
UNITS = {"ms": 1_000.0, "us": 1.0, "percent": None}
# An experiment's name; a dot is allowed, for a paper's section (jet-7.7).
EXPERIMENT_NAME = r"[a-z0-9][a-z0-9.-]*"
# `JDK: newest` in an experiment: the newest JDK installed on this machine.
NEWEST_JDK = "newest"


class ExperimentError(ScenarioError):
    """Everything wrong with an experiment file, one line per problem, each naming file and field."""


class Settings(Spec):
    """Scenario overrides as a mapping, `{RATE: 1000000, GC: zgc}`: keys as on the command line,
    values scalars (a list of strings for JVM_OPTS); kept as the override's text."""

    allowed = f"a mapping of overrides, keys among {', '.join(FIELDS)}"

    def check(self, value, path, problems):
        if not isinstance(value, dict):
            problems.wrong(path, value, self.allowed)
            return None
        checked = {}
        for key, item in value.items():
            if key not in FIELDS:
                problems.add(f"{path}.{key}", f"unknown override; allowed: {', '.join(FIELDS)}")
            else:
                text = _text(item)
                if text is None:
                    problems.wrong(f"{path}.{key}", item, "a number, a string or a list of strings")
                checked[key] = text
        return checked


class Sweep(Spec):
    """Overrides each given a list of values, `{RATE: [250000, 500000], KEYS: [1000, 10000]}`: a run
    per combination."""

    allowed = f"a mapping of overrides to lists of values, keys among {', '.join(FIELDS)}"

    def check(self, value, path, problems):
        if not isinstance(value, dict) or not value:
            problems.wrong(path, value, self.allowed)
            return None
        checked = {}
        for key, items in value.items():
            where = f"{path}.{key}"
            if key not in FIELDS:
                problems.add(where, f"unknown override; allowed: {', '.join(FIELDS)}")
                continue
            texts = [_text(v) for v in items] if isinstance(items, list) else []
            if not texts or None in texts or len(set(texts)) != len(texts):
                problems.wrong(where, items, "a list of numbers or strings, each once")
                continue
            checked[key] = texts
        return checked


def _text(value) -> str | None:
    """An override's text for a YAML value; None if it cannot be one."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return shlex.join(value)
    return None


SOMETHING = r".*\S.*"
RUN = Record({
    "name": Field(Text(NAME_PATTERN, "lower-case letters, digits and '-' (it names the run's folder)")),
    "scenario": Field(Text(NAME_PATTERN, "a scenario's name (scenarios/<name>.yaml)")),
    "label": Field(Text(SOMETHING, "a short text for the figure's legend and tables"), OPTIONAL),
    "set": Field(Settings(), {}),
    "sweep": Field(Sweep(), OPTIONAL),
    "curve": Field(Text(SOMETHING, "one of the run's sweep keys"), OPTIONAL),
    "skip": Field(Text(SOMETHING, "why this run cannot be made by this build"), OPTIONAL),
})
PUBLISHED = Record({
    "run": Field(Text(NAME_PATTERN, "the name of one of the experiment's runs")),
    "metric": Field(Choice(*METRICS)),
    "value": Field(Number()),
    "unit": Field(Choice(*UNITS)),
    "source": Field(Text(SOMETHING, "where the value is stated: the section or post, and what it says")),
})
SCHEMA = Record({
    "name": Field(Text(EXPERIMENT_NAME, "lower-case letters, digits, '.' and '-' (the file's name)")),
    "figure": Field(Text(SOMETHING, "the figure reproduced: its source and what it shows")),
    "description": Field(Text(), ""),
    "plot": Field(Choice(*PLOTS)),
    "metric": Field(Choice(*PERCENTILES), "p99.99"),
    "runs": Field(ListOf(RUN)),
    "published": Field(ListOf(PUBLISHED)),
    "published_note": Field(Text(SOMETHING, "what the source states and what it only plots"), OPTIONAL),
})


@dataclass(frozen=True)
class PlannedRun:
    name: str  # its folder in the experiment's folder
    label: str  # in the legend and the tables
    curve: str  # the curve it is drawn on ("" when the figure has one)
    entry: str  # the name of the `runs` entry it comes from (a sweep makes several runs of one entry)
    scenario: str
    overrides: Overrides
    skip: str | None  # why it is not made here; None when it is


@dataclass(frozen=True)
class Experiment:
    name: str
    figure: str
    description: str
    plot: str
    metric: str
    runs: list[PlannedRun]
    published: list[dict]
    published_note: str | None


def experiment_path(ref: str) -> Path:
    """`jet-fig7` -> scenarios/experiments/jet-fig7.yaml; anything that looks like a path is taken as one."""
    path = Path(ref) if "/" in ref or ref.endswith((".yaml", ".yml")) else EXPERIMENTS_DIR / f"{ref}.yaml"
    if not path.is_file():
        raise ExperimentError([f"{ref}: no experiment of that name; available: {', '.join(available())}"])
    return path


def available() -> list[str]:
    return sorted(p.stem for p in EXPERIMENTS_DIR.glob("*.yaml"))


def load_experiment(ref: str, user: Overrides = Overrides()) -> Experiment:
    """The experiment with its runs planned: each run's overrides are the experiment's, then the
    user's (`user`, given on the command line for every run); ExperimentError naming everything wrong."""
    path = experiment_path(ref)
    try:
        raw = read_yaml(path)
    except ScenarioError as e:
        raise ExperimentError(e.lines) from None
    problems = Problems()
    experiment = SCHEMA.check(raw, "", problems)
    if not problems.found:
        _check_rules(experiment, path, problems)
    runs = [] if problems.found else _planned(experiment, user, problems)
    if problems.found:
        raise ExperimentError([f"{shown_path(path)}: {p.path}: {p.message}" for p in problems.found])
    return Experiment(experiment["name"], experiment["figure"], experiment["description"], experiment["plot"],
                      experiment["metric"], runs, experiment["published"], experiment.get("published_note"))


def _check_rules(e: dict, path: Path, problems: Problems) -> None:
    if e["name"] != path.stem:
        problems.add("name", f"must be the file's name, {path.stem!r}; is {shown(e['name'])}")
    if not e["runs"]:
        problems.add("runs", "must name at least one run")
    names = [r["name"] for r in e["runs"]]
    for i, run in enumerate(e["runs"]):
        if names.index(run["name"]) != i:
            problems.add(f"runs[{i}].name", f"must be unique; {run['name']!r} is also runs[{names.index(run['name'])}]")
        sweep = run.get("sweep", {})
        if "curve" in run and run["curve"] not in sweep:
            problems.add(f"runs[{i}].curve", f"must be one of the run's sweep keys ({', '.join(sweep) or 'it has none'}); "
                         f"is {shown(run['curve'])}")
        for key in set(sweep) & set(run["set"]):
            problems.add(f"runs[{i}].sweep.{key}", "is also in set: give it in one of them")
    for i, value in enumerate(e["published"]):
        if value["run"] not in names:
            problems.add(f"published[{i}].run", f"must be one of the runs, {', '.join(names)}; is {shown(value['run'])}")
        expected = "percent" if value["metric"] == "cpu" else "ms or us"
        if (value["unit"] == "percent") != (value["metric"] == "cpu"):
            problems.add(f"published[{i}].unit", f"must be {expected} for metric {value['metric']}; is {value['unit']}")
    if not e["published"] and "published_note" not in e:
        problems.add("published_note", "missing; required when published is empty (say what the source states "
                     "and why no value is given)")


def varied(e: dict) -> set[str]:
    """The overrides the experiment varies between its runs: swept, or set to different values (or in
    some runs only). A user's override of one would erase a dimension of the figure."""
    keys = {k for r in e["runs"] for k in r.get("sweep", {})}
    for key in {k for r in e["runs"] for k in r["set"]}:
        if len({r["set"].get(key) for r in e["runs"]}) > 1:
            keys.add(key)
    return keys


def _planned(e: dict, user: Overrides, problems: Problems) -> list[PlannedRun]:
    """Every run, sweeps expanded, each checked as a scenario with its overrides."""
    for key in sorted(varied(e) & {o.key for o in user.fields}):
        problems.add("runs", f"{key} varies between the experiment's runs; it cannot be overridden for all of them "
                     f"(override {next(o for o in user.fields if o.key == key)})")
    if problems.found:
        return []
    runs, wrong = [], {}  # scenario problem -> (entry index, the runs that have it)
    for i, entry in enumerate(e["runs"]):
        sweep = entry.get("sweep", {})
        for combination in itertools.product(*sweep.values()):
            point = dict(zip(sweep, combination))
            name = "-".join([entry["name"], *(f"{k.lower().replace('_', '-')}-{v}" for k, v in point.items())])
            values = entry["set"] | point
            skip = entry.get("skip")
            if values.get("JDK") == NEWEST_JDK:
                newest = max((j.feature for j in installed_jdks()), default=None)
                if newest is None:
                    skip = skip or "JDK=newest: no JDK is installed in the usual places"
                else:
                    values["JDK"] = str(newest)
            overrides = Overrides(tuple(Override(k, v) for k, v in values.items()), user.profile).replacing(
                {o.key: o.text for o in user.fields})
            curve = f"{entry['curve']}={point[entry['curve']]}" if "curve" in entry else ""
            label = entry.get("label", entry["name"]) + "".join(
                f" {k}={v}" for k, v in point.items() if k != entry.get("curve"))
            try:  # a skipped run's scenario must exist; one that runs must be valid with its overrides
                if skip:
                    scenario_path(entry["scenario"])
                else:
                    load_scenario(entry["scenario"], overrides)
            except ScenarioError as err:
                for line in err.lines:
                    wrong.setdefault(line, (i, []))[1].append(name)
            runs.append(PlannedRun(name, label, curve, entry["name"], entry["scenario"], overrides, skip))
    for line, (i, names) in wrong.items():  # one line for a problem every run of a sweep has
        problems.add(f"runs[{i}] ({names[0]}{f' and {len(names) - 1} more' if len(names) > 1 else ''})", line)
    return runs
