"""ENGINE=a,b,c (or EXECUTION=a,b,c) plays the scenario with each value into one folder with a
comparison report; what a value cannot run is refused up front, for every value at once."""
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from fournines import REPO_ROOT
from fournines.cli import cli
from fournines.compare import variants
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.local import run as local
from fournines.targets.prepare import RunRefused

FIXTURE_RUN = REPO_ROOT / "analysis" / "tests" / "fixtures" / "stall-run"


def test_several_engines_or_execution_models_are_split_from_the_other_overrides():
    key, values, rest = variants.split_variants(parse_overrides(["RATE=5", "ENGINE=fournines,jet,flink"]))
    assert (key, values) == ("ENGINE", ["fournines", "jet", "flink"])
    assert [str(o) for o in rest.fields] == ["RATE=5"]
    assert variants.split_variants(parse_overrides(["ENGINE=jet"]))[:2] == (None, [])
    key, values, _ = variants.split_variants(parse_overrides(["EXECUTION=continuous,micro-batch,group"]))
    assert (key, values) == ("EXECUTION", ["continuous", "micro-batch", "group"])


@pytest.mark.parametrize("text", ["jet,jet", "jet,", ",flink"])
def test_a_malformed_list_is_refused(text):
    with pytest.raises(RunRefused, match="name each value once"):
        variants.split_variants(parse_overrides([f"ENGINE={text}"]))


def test_one_setting_is_compared_at_a_time():
    with pytest.raises(RunRefused, match="ENGINE=fournines,jet, EXECUTION=continuous,group: compare one setting at a time"):
        variants.split_variants(parse_overrides(["ENGINE=fournines,jet", "EXECUTION=continuous,group"]))


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
    assert variants.run_all(prepared, "ENGINE", profile=False, results_root=tmp_path) == 0
    [folder] = tmp_path.iterdir()
    assert folder.name.endswith("-q5-fournines-jet")
    assert played == ["fournines", "jet"]
    report = (folder / "report.md").read_text()
    assert "| metric | fournines | jet |" in report


def test_execution_models_land_in_one_folder_each_in_its_own(tmp_path, monkeypatch):
    played = []

    def stand_in_run(scenario, launcher, profile, results_root=None, run_dir=None):
        played.append((scenario["execution"], scenario.get("group_size")))
        shutil.copytree(FIXTURE_RUN, run_dir, dirs_exist_ok=True)
        (run_dir / "report.md").write_text("per-run report\n")
        return 0

    monkeypatch.setattr(local, "run", stand_in_run)
    key, models, rest = variants.split_variants(parse_overrides(["EXECUTION=continuous,micro-batch,group"]))
    prepared = [(load_scenario("ysb-group", parse_overrides([f"EXECUTION={m}"])), Path("unused.jar")) for m in models]
    assert variants.run_all(prepared, key, profile=False, results_root=tmp_path) == 0
    [folder] = tmp_path.iterdir()
    assert folder.name.endswith("-ysb-group-continuous-micro-batch-group")
    assert sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name != "plots") == ["continuous", "group", "micro-batch"]
    assert played == [("continuous", None), ("micro-batch", 1), ("group", 10)]
    assert "| metric | continuous | micro-batch | group |" in (folder / "report.md").read_text()
