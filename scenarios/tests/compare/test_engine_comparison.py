"""ENGINE=a,b,c plays the scenario on each engine into one folder with a comparison report; what an
engine cannot run is refused up front, for every engine at once."""
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from fournines import REPO_ROOT
from fournines.cli import cli
from fournines.compare import engines as engine_comparison
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.local import run as local
from fournines.targets.prepare import RunRefused

FIXTURE_RUN = REPO_ROOT / "analysis" / "tests" / "fixtures" / "stall-run"


def test_several_engines_are_split_from_the_other_overrides():
    engines, rest = engine_comparison.split_engines(parse_overrides(["RATE=5", "ENGINE=fournines,jet,flink"]))
    assert engines == ["fournines", "jet", "flink"]
    assert [str(o) for o in rest.fields] == ["RATE=5"]
    assert engine_comparison.split_engines(parse_overrides(["ENGINE=jet"]))[0] == []


@pytest.mark.parametrize("text", ["jet,jet", "jet,", ",flink"])
def test_a_malformed_engine_list_is_refused(text):
    with pytest.raises(RunRefused, match="name each engine once"):
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

    monkeypatch.setattr(local, "run", stand_in_run)
    prepared = [(load_scenario("q5", parse_overrides([f"ENGINE={e}"])), Path("unused.jar")) for e in ("fournines", "jet")]
    assert engine_comparison.run_all(prepared, profile=False, results_root=tmp_path) == 0
    [folder] = tmp_path.iterdir()
    assert folder.name.endswith("-q5-fournines-jet")
    assert played == ["fournines", "jet"]
    report = (folder / "report.md").read_text()
    assert "| metric | fournines | jet |" in report
