"""The query registry (queries.json) is what the runner reads: the queries a scenario may name, their
parameters and the sources that make their events; every engine's member, built where JARS says."""
import textwrap

import pytest

from fournines import REPO_ROOT
from fournines.members.java_build import JARS
from fournines.spec.registry import ENGINES, QUERIES
from fournines.spec.scenario import SCHEMA, ScenarioError, load_scenario


def errors(tmp_path, text: str) -> list[str]:
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent(text))
    with pytest.raises(ScenarioError) as e:
        load_scenario(str(path))
    return [line.split(": ", 1)[1] for line in e.value.lines]


def test_every_engine_has_a_member_jar_built_by_a_module_of_this_checkout():
    assert set(ENGINES) == set(SCHEMA.fields["engine"].spec.values)
    for engine in ENGINES:
        assert (REPO_ROOT / JARS[engine].module / "pom.xml").is_file(), engine


def test_what_an_engine_runs_is_something_a_scenario_can_ask_for():
    for engine in ENGINES.values():
        assert set(engine.queries) <= set(QUERIES), engine
        assert set(engine.sources) <= set(SCHEMA.fields["load"].spec.fields["source"].spec.values), engine
        assert set(engine.guarantees) <= set(SCHEMA.fields["guarantee"].spec.values), engine
        assert set(engine.modes) <= set(SCHEMA.fields["mode"].spec.values), engine


def test_a_parameter_gets_its_default_and_range_from_the_registry(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("name: t\nquery: {name: q2}\nload: {rate: 5}\n")
    assert load_scenario(str(path))["query"] == {"name": "q2", "auction_skip": 123}
    assert errors(tmp_path, "name: t\nquery: {name: q2, auction_skip: 0}\nload: {rate: 5}\n") == [
        "query.auction_skip: must be an integer from 1 to 1_000_000_000; is 0"]


def test_the_scheduling_micro_benchmark_needs_the_in_process_load(tmp_path):
    assert errors(tmp_path, "name: t\nquery: {name: sums}\nload: {rate: 1000, source: kafka}\n") == [
        "load.source: must be in-process for query sums (the sources that make its events, in the query registry); "
        "is kafka"]
