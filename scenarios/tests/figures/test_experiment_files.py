"""Experiment files: every committed one loads with every run planned, the issue's experiments are
all there, and each kind of mistake is refused before anything runs, naming file, field and value."""
import textwrap

import pytest

from fournines import REPO_ROOT
from fournines.figures.experiment import PUBLISHED, RUN, SCHEMA, ExperimentError, available, load_experiment
from fournines.spec.overrides import parse_overrides

ISSUE_EXPERIMENTS = {"jet-fig7", "jet-fig8-9", "jet-fig13", "jet-7.7", "green-threads", "jet-kafka-gc", "client-payload"}

GOOD = """
name: t
figure: a figure
plot: distribution
runs:
  - {name: a, scenario: q5, set: {RATE: 1000}}
  - {name: b, scenario: q5, set: {RATE: 2000}}
published:
  - {run: a, metric: p99.99, value: 5, unit: ms, source: somewhere}
"""


def write(tmp_path, text: str) -> str:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text))
    return str(path)


def errors(tmp_path, text: str, overrides=()) -> list[str]:
    with pytest.raises(ExperimentError) as e:
        load_experiment(write(tmp_path, text), parse_overrides(overrides))
    return e.value.lines


def test_the_issue_experiments_are_all_there():
    assert ISSUE_EXPERIMENTS <= set(available())


@pytest.mark.parametrize("name", available())
def test_every_committed_experiment_loads_and_names_its_figure(name):
    experiment = load_experiment(name)
    assert experiment.name == name and experiment.figure and experiment.runs
    assert experiment.published or experiment.published_note  # no values, then why not
    for value in experiment.published:
        assert value["source"].strip()


def test_fig8_9_asks_every_query_for_a_million_events_a_second_and_skips_none():
    experiment = load_experiment("jet-fig8-9")
    assert [r.scenario for r in experiment.runs] == ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q13"]
    for run in experiment.runs:
        assert run.skip is None and ("RATE", "1000000") in {(o.key, o.text) for o in run.overrides.fields}


def test_green_threads_sweeps_the_rate_for_each_idle_strategy_and_skips_none():
    runs = load_experiment("green-threads").runs
    assert {r.curve for r in runs} == {"IDLE=park-backoff", "IDLE=busy-spin", "IDLE=jet-backoff"}
    assert len(runs) == 15 and all(r.skip is None for r in runs)


def test_client_payload_pads_the_kafka_events_and_skips_none():
    runs = load_experiment("client-payload").runs
    assert [dict((o.key, o.text) for o in r.overrides.fields)["PADDING"] for r in runs] == ["16B", "1KB", "10KB", "100KB"]
    assert all(r.skip is None for r in runs)


def test_a_sweep_makes_a_run_per_combination_on_a_curve_per_value():
    runs = load_experiment("jet-fig7").runs
    assert len(runs) == 12 and runs[0].name == "q5-keys-1000-rate-250000" and runs[0].curve == "KEYS=1000"


def test_the_users_overrides_apply_to_every_run_and_win_over_the_experiments():
    experiment = load_experiment("jet-fig8-9", parse_overrides(["DURATION=5s", "RATE=1000"]))
    for run in experiment.runs:
        assert {(o.key, o.text) for o in run.overrides.fields} >= {("DURATION", "5s"), ("RATE", "1000")}


def test_a_good_file_loads(tmp_path):
    experiment = load_experiment(write(tmp_path, GOOD))
    assert [r.name for r in experiment.runs] == ["a", "b"]


@pytest.mark.parametrize("change, message", [
    (("plot: distribution", "plot: bars"), 'plot: must be one of latency-against-load, percentiles, distribution, cpu-against-rate; is "bars"'),
    (("figure: a figure\n", "figure: a figure\ncolour: red\n"), "colour: unknown field; allowed here: name, figure"),
    (("set: {RATE: 1000}", "set: {RAT: 1000}"), "runs[0].set.RAT: unknown override; allowed: CLUSTER"),
    (("set: {RATE: 1000}", "set: {RATE: 0}"), 'runs[0] (a): ', ),
    (("{run: a,", "{run: c,"), 'published[0].run: must be one of the runs, a, b; is "c"'),
    (("unit: ms", "unit: percent"), "published[0].unit: must be ms or us for metric p99.99; is percent"),
    (("value: 5", "value: -5"), 'published[0].value: must be a number ≥ 0; is -5'),
    (("name: b,", "name: a,"), "runs[1].name: must be unique; 'a' is also runs[0]"),
    (("name: t\n", "name: u\n"), "name: must be the file's name, 't'; is \"u\""),
    (("set: {RATE: 1000}}", "set: {RATE: 1000}, curve: KEYS}"), 'runs[0].curve: must be one of the run\'s sweep keys (it has none); is "KEYS"'),
])
def test_a_mistake_is_refused_naming_file_field_and_value(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    lines = errors(tmp_path, GOOD.replace(old, new, 1))
    assert any(line.startswith(f"{tmp_path / 't.yaml'}: ") and message in line for line in lines), lines


def test_a_run_whose_scenario_is_wrong_with_its_overrides_names_the_run_the_field_and_the_value(tmp_path):
    (line,) = errors(tmp_path, GOOD.replace("set: {RATE: 1000}", "set: {RATE: 0}"))
    assert "runs[0] (a): " in line and "load.rate: must be an integer from 1" in line and "is 0 (set by override RATE=0)" in line


def test_no_published_value_needs_a_note_saying_why(tmp_path):
    text = GOOD[:GOOD.index("published:")] + "published: []\n"
    assert any("published_note: missing" in line for line in errors(tmp_path, text))


def test_an_override_of_what_the_experiment_varies_is_refused(tmp_path):
    (line,) = errors(tmp_path, GOOD, ["RATE=5000"])
    assert "RATE varies between the experiment's runs" in line and "(override RATE=5000)" in line


def test_a_bad_user_override_is_reported_once_for_a_whole_sweep():
    with pytest.raises(ExperimentError) as e:
        load_experiment("jet-fig7", parse_overrides(["DURATION=0s"]))
    (line,) = e.value.lines
    assert "runs[0] (q5-keys-1000-rate-250000 and 11 more)" in line and 'is "0s" (set by override DURATION=0s)' in line


FIGURES_MD = (REPO_ROOT / "scenarios" / "docs" / "figures.md").read_text()


@pytest.mark.parametrize("path", [*(f for f in SCHEMA.fields if f not in ("runs", "published")),
                                  *(f"runs[].{f}" for f in RUN.fields)])
def test_docs_have_a_row_for_every_field(path):
    assert f"\n| `{path}` |" in FIGURES_MD or f"\n| `{path}`," in FIGURES_MD


@pytest.mark.parametrize("field", PUBLISHED.fields)
def test_docs_have_a_row_for_every_published_field(field):
    assert f"`published[].{field}`" in FIGURES_MD or f"`.{field}`" in FIGURES_MD


@pytest.mark.parametrize("name", available())
def test_docs_say_what_each_experiment_reproduces(name):
    assert f"\n| `{name}` |" in FIGURES_MD
