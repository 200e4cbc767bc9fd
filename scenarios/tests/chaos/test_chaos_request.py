"""What ./fournines chaos accepts (fournines/chaos/request.py): its own keys, the overrides it leaves
to the user, and scenarios it can check; everything else refused with exit 2 before anything starts."""
import pytest
from click.testing import CliRunner

from fournines.chaos.request import parse_request
from fournines.cli import cli
from fournines.spec.overrides import OverrideError
from fournines.targets.prepare import RunRefused


def test_a_request_takes_its_keys_and_sets_the_trials_job():
    r = parse_request("q5", ["TRIALS=3", "SEED=41", "FAULTS=stop,kill", "KEYS=100", "RATE=20_000"])
    assert (r.name, r.query, r.trials, r.seed, r.kinds) == ("q5", "q5", 3, 41, ("kill", "stop"))
    assert r.guarantee == "exactly-once"  # q5's own is none
    fields = {o.key: o.text for o in r.overrides.fields}
    assert fields == {"KEYS": "100", "CLUSTER": "3", "THREADS": "1", "RATE": "20000", "WARMUP": "0s",
                      "DURATION": "60s", "SNAPSHOT_INTERVAL_MS": "200", "MODE": "single", "TARGET": "local",
                      "GUARANTEE": "exactly-once"}
    assert r.replay(43) == "./fournines chaos q5 SEED=43 TRIALS=1 FAULTS=stop,kill KEYS=100 RATE=20_000"


def test_defaults_all_kinds_a_fresh_seed_and_the_scenarios_own_guarantee():
    r = parse_request("q5-fault", [], new_seed=lambda: 1234)
    assert (r.trials, r.seed, r.guarantee) == (10, 1234, "exactly-once")
    assert r.kinds == ("kill", "kill-coordinator", "stop", "partition", "exception", "commit-kill")
    assert parse_request("q5-fault", ["GUARANTEE=at-least-once"]).guarantee == "at-least-once"


@pytest.mark.parametrize("args, message", [
    (["RATE=50000"], "override RATE=50000: chaos runs every trial with load.rate = 20000"),
    (["CLUSTER=5"], "override CLUSTER=5: chaos runs every trial with cluster.members = 3"),
    (["FAULTS=kill,split"], "override FAULTS=kill,split: unknown fault kind 'split'; kinds: kill, "),
    (["FAULTS=stop,stop"], "override FAULTS=stop,stop: stop is given twice"),
    (["GUARANTEE=none"], "override GUARANTEE=none: chaos checks exactly-once or at-least-once"),
    (["TRIALS=many"], "override TRIALS=many: must be an integer from 1 to 10_000"),
    (["SEED=-1"], "override SEED=-1: must be an integer from 0 to"),
    (["SEED=1", "SEED=2"], "override SEED=2: SEED is given twice"),
    (["SPEED=1"], "override SPEED=1: unknown key 'SPEED'; allowed: TRIALS, SEED, GUARANTEE, FAULTS, JVM_OPTS"),
])
def test_bad_keys_and_values_are_refused_naming_them(args, message):
    with pytest.raises(OverrideError) as e:
        parse_request("q5", args)
    assert str(e.value).startswith(message)


@pytest.mark.parametrize("scenario, args, message", [
    ("q13", [], "q13: query q13 has no reference computation to check its output against"),
    ("q5", ["ENGINE=flink"], "q5: engine flink: chaos runs the reference engine's member"),
    ("q5", ["WINDOW_MS=0"], "scenarios/q5.yaml: query.window_ms: must be an integer from 1"),
])
def test_scenarios_chaos_cannot_check_are_refused(scenario, args, message):
    with pytest.raises(RunRefused) as e:
        parse_request(scenario, args)
    assert str(e.value).startswith(message)


def test_a_kafka_fed_scenario_is_checked_too():
    request = parse_request("q5", ["SOURCE=kafka", "TRIALS=2"])
    assert (request.query, request.trials) == ("q5", 2)
    assert "SOURCE=kafka" in request.replay(7)


@pytest.mark.parametrize("args", [["q5", "RATE=1000"], ["q13"], ["q5", "FAULTS=flood"]])
def test_the_command_exits_2_before_anything_starts(args, tmp_path):
    result = CliRunner().invoke(cli, ["chaos", *args, "--results-root", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert not any(tmp_path.iterdir())
