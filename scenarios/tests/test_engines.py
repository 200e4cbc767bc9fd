"""Peer engines: what each can run is refused up front when it cannot, and ENGINE=a,b,c plays the
scenario on each engine into one folder with a comparison report."""
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from fournines.compare import engines as engine_comparison
from fournines.targets.local import run as runner
from fournines.__main__ import cli
from fournines.engines import ENGINES, PEER_QUERIES
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import available, load_scenario
from fournines.spec.support import unsupported

FIXTURE_RUN = Path(__file__).resolve().parents[2] / "analysis" / "tests" / "fixtures" / "stall-run"


def _peer_can_run(scenario: dict) -> bool:
    """A peer query, fed in-process, without snapshots, one copy: what the adapters run."""
    return (scenario["query"]["name"] in PEER_QUERIES and scenario["guarantee"] == "none"
            and scenario["load"]["source"] == "in-process" and scenario["mode"] == "single")


@pytest.mark.parametrize("engine", ["jet", "flink"])
@pytest.mark.parametrize("name", [n for n in available() if _peer_can_run(load_scenario(n))])
def test_every_committed_scenario_of_a_peer_query_runs_on_the_peers(name, engine):
    assert unsupported(load_scenario(name, parse_overrides([f"ENGINE={engine}"]))) == []


@pytest.mark.parametrize("engine", ["jet", "flink"])
def test_a_query_a_peer_cannot_run_is_refused_by_name(engine):
    problems = unsupported(load_scenario("q13", parse_overrides([f"ENGINE={engine}"])))
    assert problems == [f"engine {engine} cannot run query q13: its adapter runs q1, q2, q5, q7, q8"]


@pytest.mark.parametrize("override, message", [
    ("SOURCE=kafka", "engine jet runs with load.source=in-process only; field load.source=kafka"),
    ("GUARANTEE=exactly-once", "engine jet runs with guarantee=none only; field guarantee=exactly-once"),
    ("TARGET=aws", "engine jet runs with target=local only; field target=aws"),
])
def test_peers_run_with_the_in_process_generator_and_no_guarantee(override, message):
    assert message in unsupported(load_scenario("q5", parse_overrides(["ENGINE=jet", override])))


def test_every_engine_names_a_module_with_a_pom():
    for engine in ENGINES.values():
        assert (runner.REPO_ROOT / engine.module / "pom.xml").is_file(), engine


def test_several_engines_are_split_from_the_other_overrides():
    engines, rest = engine_comparison.split_engines(parse_overrides(["RATE=5", "ENGINE=fournines,jet,flink"]))
    assert engines == ["fournines", "jet", "flink"]
    assert [str(o) for o in rest.fields] == ["RATE=5"]
    assert engine_comparison.split_engines(parse_overrides(["ENGINE=jet"]))[0] == []


@pytest.mark.parametrize("text", ["jet,jet", "jet,", ",flink"])
def test_a_malformed_engine_list_is_refused(text):
    with pytest.raises(runner.RunRefused, match="name each engine once"):
        engine_comparison.split_engines(parse_overrides([f"ENGINE={text}"]))


def test_every_engine_problem_is_reported_before_anything_is_built():
    result = CliRunner().invoke(cli, ["run", "q13", "ENGINE=jet,flink"])
    assert result.exit_code == 2
    assert "[ENGINE=jet] q13: engine jet cannot run query q13" in result.output
    assert "[ENGINE=flink] q13: engine flink cannot run query q13" in result.output


def test_an_unknown_engine_in_the_list_is_refused_by_the_schema():
    result = CliRunner().invoke(cli, ["run", "q5", "ENGINE=jet,spark"])
    assert result.exit_code == 2
    assert "[ENGINE=spark]" in result.output and "engine" in result.output


def test_the_runs_land_in_one_folder_with_a_comparison(tmp_path, monkeypatch):
    played = []

    def stand_in_run(scenario, launcher, profile, results_root=None, run_dir=None):
        # The real runner would start the engine's member; the fixture's files stand in for its output.
        played.append(scenario["engine"])
        shutil.copytree(FIXTURE_RUN, run_dir, dirs_exist_ok=True)
        (run_dir / "report.md").write_text("per-run report\n")
        return 0

    monkeypatch.setattr(runner, "run", stand_in_run)
    prepared = [(load_scenario("q5", parse_overrides([f"ENGINE={e}"])), Path("unused.jar")) for e in ("fournines", "jet")]
    assert engine_comparison.run_all(prepared, profile=False, results_root=tmp_path) == 0
    [folder] = tmp_path.iterdir()
    assert folder.name.endswith("-q5-fournines-jet")
    assert played == ["fournines", "jet"]
    report = (folder / "report.md").read_text()
    assert "| metric | fournines | jet |" in report
