"""Several jobs on one member (`jobs`, `JOBS=`): checked before anything starts, each job at least
1 event/s of the rate, and refused by name with the engines and settings that cannot run them yet."""
import pytest

from fournines.spec.overrides import parse_overrides
from fournines.spec.registry import ENGINES
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.spec.support import unsupported

NOT_YET = "not supported yet by this build"


def scenario(tmp_path, text: str) -> str:
    path = tmp_path / "j.yaml"
    path.write_text("name: j\nquery: {name: q5}\nload: {rate: 1000}\n" + text)
    return str(path)


def test_a_file_or_the_override_sets_the_jobs(tmp_path):
    assert load_scenario(scenario(tmp_path, ""))["jobs"] == 1
    assert load_scenario(scenario(tmp_path, "jobs: 100\n"))["jobs"] == 100
    assert load_scenario(scenario(tmp_path, "jobs: 100\n"), parse_overrides(["JOBS=3"]))["jobs"] == 3
    assert unsupported(load_scenario("q5", parse_overrides(["JOBS=100"]))) == []


@pytest.mark.parametrize("text, overrides, message", [
    ("jobs: 0\n", [], "jobs: must be an integer from 1 to 1_000; is 0"),
    ("jobs: 1001\n", [], "jobs: must be an integer from 1 to 1_000; is 1001"),
    ("jobs: two\n", [], 'jobs: must be an integer from 1 to 1_000; is "two"'),
    ("", ["JOBS=1001"], "jobs: must be an integer from 1 to 1_000; is 1001 (set by override JOBS=1001)"),
    ("jobs: 1000\n", ["RATE=999"],
     "jobs: must be at most load.rate (999): each job runs at load.rate / jobs events/s, at least 1; is 1000"),
])
def test_a_bad_number_of_jobs_is_refused_naming_the_field(tmp_path, text, overrides, message):
    with pytest.raises(ScenarioError) as e:
        load_scenario(scenario(tmp_path, text), parse_overrides(overrides))
    assert [line.split(": ", 1)[1] for line in e.value.lines] == [message]


@pytest.mark.parametrize("engine", [name for name, e in ENGINES.items() if not e.several_jobs])
def test_an_engine_that_runs_one_job_refuses_several(engine):
    assert unsupported(load_scenario("q5", parse_overrides([f"ENGINE={engine}", "JOBS=2"]))) == [
        f"engine {engine} runs with jobs=1 only; field jobs=2"]


def test_the_reference_engine_runs_several_jobs():
    assert ENGINES["fournines"].several_jobs


@pytest.mark.parametrize("overrides, field", [
    (["CLUSTER=2"], "cluster.members=2 (so far several jobs run on one member; supported: cluster.members=1)"),
    (["TARGET=hosts"], "target=hosts (so far several jobs run on this machine; supported: target=local)"),
    (["SOURCE=kafka"], "load.source=kafka (so far several jobs run on the in-process generator; "
                       "supported: load.source=in-process)"),
    (["GUARANTEE=exactly-once"], "guarantee=exactly-once (so far several jobs run without snapshots; "
                                 "supported: guarantee=none)"),
    (["EXECUTION=micro-batch"], "execution=micro-batch (so far several jobs run in continuous execution; "
                                "supported: execution=continuous)"),
])
def test_several_jobs_with_what_they_cannot_run_with_yet_are_refused(overrides, field):
    assert f"{NOT_YET}: field jobs=4 with {field}" in unsupported(load_scenario("q5", parse_overrides(["JOBS=4", *overrides])))
    assert unsupported(load_scenario("q5", parse_overrides(["JOBS=1", *overrides]))) == [], "one job runs with all of them"


def test_active_active_with_several_jobs_is_refused():
    problems = unsupported(load_scenario("q5", parse_overrides(["JOBS=2", "MODE=active-active", "CLUSTER=2"])))
    assert f"{NOT_YET}: field jobs=2 with mode=active-active (so far several jobs run as one copy; supported: mode=single)" in problems
