"""./fournines simulate end to end on a tiny scenario: a results folder that `report` turns into a
report titled simulated; and a bad request refused before anything starts (exit 2, no folder)."""
import json

import pytest
from click.testing import CliRunner

from fournines.cli import cli

TINY = ["CLUSTER=2", "THREADS=2", "RATE=100000", "KEYS=1000", "WARMUP=1s", "DURATION=3s"]


def test_simulate_writes_a_folder_that_report_titles_simulated(tmp_path):
    result = CliRunner().invoke(cli, ["simulate", "q5", *TINY, "SEED=3", "--results-root", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (folder,) = tmp_path.iterdir()
    assert folder.name.endswith("-q5-sim")
    record = json.loads((folder / "run.json").read_text())
    assert record["simulated"] is True and record["status"] == "completed"
    assert record["calibration"].startswith(str(folder / "calibration.yaml")) and "sha256:" in record["calibration"]
    assert {p.name for p in folder.glob("*.hlog")} == {"latency.hlog", "completion.hlog"}
    for series in ("throughput.csv", "cpu.csv", "load.csv"):
        assert (folder / series).is_file()
    (folder / "report.md").unlink()
    report = CliRunner().invoke(cli, ["report", str(folder)])
    assert report.exit_code == 0, report.output
    title = (folder / "report.md").read_text().splitlines()[0]
    assert title == f"# q5: {folder.name} — SIMULATED"


@pytest.mark.parametrize("request_, says", [
    (["q5", "KEYS=many"], "load.keys"),
    (["no-such-scenario"], "no-such-scenario"),
    (["q1"], "the simulator models query.name=q5 only so far; field query.name=q1"),
    (["q5", "GUARANTEE=exactly-once"], "the simulator models guarantee=none only so far"),
    (["q5", "MACHINE=cray"], "MACHINE=cray: not a machine profile"),
])
def test_a_bad_request_fails_before_anything_starts(tmp_path, request_, says):
    result = CliRunner().invoke(cli, ["simulate", *request_, "--results-root", str(tmp_path)])
    assert result.exit_code == 2
    assert says in result.output
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("execution", ["micro-batch", "group"])
def test_a_batched_simulation_writes_the_engines_batches_csv_and_the_report_breaks_it_down(tmp_path, execution):
    result = CliRunner().invoke(cli, ["simulate", "q5", *TINY, f"EXECUTION={execution}", "BATCH_MS=100",
                                      "--results-root", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (folder,) = tmp_path.iterdir()
    assert json.loads((folder / "member.json").read_text())["engine"] == f"simulator ({execution} model)"
    report = (folder / "report.md").read_text()
    assert "## Batches" in report and "batches after the warm-up" in report
