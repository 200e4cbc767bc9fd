"""./fournines trend on a committed history of real runs with one injected step (fixtures/trend-series)."""
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from fournines import REPO_ROOT
from fournines.cli import cli
from fournines_analysis.errors import BadInput
from fournines_analysis.trend import trend
from synthetic import edit_run_json

SERIES = Path(__file__).parent / "fixtures" / "trend-series"
OTAVA = REPO_ROOT / ".venv-otava" / "bin" / "python"
FIRST_SLOWER = "20261124T072650Z-q5-gate"  # run 13, the first with the injected work


def test_the_injected_step_is_found_where_it_was_injected_and_nowhere_else():
    found = trend([SERIES], OTAVA)
    assert len(found.table) == 24 and found.table.index[12] == FIRST_SLOWER
    cpu = [c for c in found.changes if c.metric == "CPU per event"]
    assert [(c.index, c.run, c.worse) for c in cpu] == [(12, FIRST_SLOWER, True)]
    assert 1.15 < cpu[0].after / cpu[0].before < 1.4 and cpu[0].pvalue <= 0.001
    per_core = [c for c in found.changes if c.metric == "events/s per core"]
    assert [(c.index, c.worse) for c in per_core] == [(12, True)]


def test_the_command_prints_the_change_and_plots_the_series(tmp_path):
    result = CliRunner().invoke(cli, ["trend", str(SERIES), "--plot", str(tmp_path / "trend.png")])
    assert result.exit_code == 0, result.output
    assert "trend over 24 runs, 20261124T072535Z-q5-gate … 20261124T072758Z-q5-gate" in result.output
    (line,) = [line for line in result.output.splitlines() if line.startswith("CPU per event")]
    assert f"13: {FIRST_SLOWER}" in line and "worse" in line
    assert (tmp_path / "trend.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_run_that_did_not_complete_is_left_out_and_named(tmp_path):
    history = Path(shutil.copytree(SERIES, tmp_path / "history"))
    broken = history / FIRST_SLOWER
    edit_run_json(broken, status="failed", failure="member 1 exited with code 137")
    found = trend([history], OTAVA)
    assert FIRST_SLOWER not in found.table.index and len(found.table) == 23
    assert found.left_out == [f"{broken / 'run.json'}: status: failed"]


def test_too_few_runs_or_a_folder_without_runs_is_bad_input(tmp_path):
    runs = sorted(SERIES.iterdir())
    with pytest.raises(BadInput, match="a trend needs at least 3 runs that stand, found 2"):
        trend([d for d in runs if d.is_dir()][:2], OTAVA)
    result = CliRunner().invoke(cli, ["trend", str(tmp_path)])
    assert result.exit_code == 2
    assert f"{tmp_path}: neither a results folder (no run.json) nor a folder of results folders" in result.output


def test_a_missing_otava_venv_is_named():
    with pytest.raises(FileNotFoundError, match="Apache Otava's venv is missing; `make venv` makes it"):
        trend([SERIES], Path("/nonexistent/python"))
