"""The reference engine's idle strategy (`idle`, `IDLE=`): checked before anything starts, and refused
by name by the engines that idle their own way."""
import pytest

from fournines.spec.overrides import parse_overrides
from fournines.spec.registry import ENGINES
from fournines.spec.scenario import IDLE_STRATEGIES, ScenarioError, load_scenario
from fournines.spec.support import unsupported


def scenario(tmp_path, text: str) -> str:
    path = tmp_path / "i.yaml"
    path.write_text("name: i\nquery: {name: q5}\nload: {rate: 1000}\n" + text)
    return str(path)


def test_a_file_or_the_override_sets_the_idle_strategy(tmp_path):
    assert load_scenario(scenario(tmp_path, ""))["idle"] == "park-backoff"
    assert load_scenario(scenario(tmp_path, "idle: busy-spin\n"))["idle"] == "busy-spin"
    assert load_scenario(scenario(tmp_path, "idle: busy-spin\n"), parse_overrides(["IDLE=jet-backoff"]))["idle"] == "jet-backoff"


@pytest.mark.parametrize("idle", IDLE_STRATEGIES)
def test_the_reference_engine_idles_each_way(idle):
    assert ENGINES["fournines"].idle_strategies == IDLE_STRATEGIES
    assert unsupported(load_scenario("q5", parse_overrides([f"IDLE={idle}"]))) == []


@pytest.mark.parametrize("text, overrides, message", [
    ("idle: spin\n", [], 'idle: must be one of park-backoff, busy-spin, jet-backoff; is "spin"'),
    ("idle: 1\n", [], "idle: must be one of park-backoff, busy-spin, jet-backoff; is 1"),
    ("", ["IDLE=yield"], 'idle: must be one of park-backoff, busy-spin, jet-backoff; is "yield" (set by override IDLE=yield)'),
])
def test_a_bad_idle_strategy_is_refused_naming_file_field_and_value(tmp_path, text, overrides, message):
    path = scenario(tmp_path, text)
    with pytest.raises(ScenarioError) as e:
        load_scenario(path, parse_overrides(overrides))
    assert e.value.lines == [f"{path}: {message}"]


@pytest.mark.parametrize("engine", [name for name in ENGINES if name != "fournines"])
@pytest.mark.parametrize("idle", IDLE_STRATEGIES[1:])
def test_an_engine_that_idles_its_own_way_refuses_another_strategy(engine, idle):
    assert unsupported(load_scenario("q5", parse_overrides([f"ENGINE={engine}", f"IDLE={idle}"]))) == [
        f"engine {engine} idles its own way, so it runs with idle=park-backoff (the default) only; field idle={idle}"]
    assert unsupported(load_scenario("q5", parse_overrides([f"ENGINE={engine}"]))) == []
