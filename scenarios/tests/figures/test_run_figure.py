"""An experiment end to end through the real runner, with a stand-in member of set capacity
(process_scaffolding/capacity_member.py): each run a results folder inside the experiment's folder,
a report with our points, the published values overlaid and beside ours, and the runs skipped with
why, whether the experiment skips them or this machine refuses them; the command's exit codes."""
import json
import sys
import textwrap

import pytest
from click.testing import CliRunner

from fournines import REPO_ROOT
from fournines.cli import cli
from fournines.figures.experiment import load_experiment
from fournines.figures.run_figure import run_figure
from fournines.spec.overrides import parse_overrides
from fournines.targets.local import run as local

CAPACITY_MEMBER = REPO_ROOT / "scenarios" / "tests" / "process_scaffolding" / "capacity_member.py"
CAPACITY = 30_000

EXPERIMENT = """
name: tiny
figure: a figure of a paper
plot: {plot}
metric: p99
runs:
  - name: q5
    scenario: q5
    label: Q5
    sweep: {{KEYS: [100], RATE: [20000, 40000]}}
    curve: KEYS
  - {{name: other-idling, scenario: q5, skip: the engine has no such setting}}
  - {{name: missing-jdk, scenario: q5, set: {{JDK: "99", RATE: 10000}}}}
published:
  - {{run: q5, metric: p99, value: 0.7, unit: ms, source: "section 7: a sentence"}}
"""


def member_play(scenario, run_dir):
    def launcher(flags, folder):
        return [sys.executable, str(CAPACITY_MEMBER), str(CAPACITY), "--scenario", str(folder / "scenario.json"),
                "--out", str(folder)]
    return local.run(scenario, launcher, False, run_dir=run_dir)


def experiment_file(tmp_path, plot: str):
    path = tmp_path / "tiny.yaml"
    path.write_text(textwrap.dedent(EXPERIMENT.format(plot=plot)))
    return str(path)


@pytest.mark.parametrize("plot, image", [("latency-against-load", "latency-against-load.png"),
                                         ("percentiles", "percentiles.png"),
                                         ("distribution", "distribution.png"),
                                         ("cpu-against-rate", "cpu-against-rate.png")])
def test_an_experiment_runs_what_it_can_and_reports_it_beside_the_published_values(tmp_path, plot, image):
    experiment = load_experiment(experiment_file(tmp_path, plot), parse_overrides(["WARMUP=1s", "DURATION=6s"]))
    results = tmp_path / "results"
    assert run_figure(experiment, member_play, results) == 0
    [folder] = results.iterdir()
    assert folder.name.endswith("-figure-tiny")
    made = sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name != "plots")
    assert made == ["q5-keys-100-rate-20000", "q5-keys-100-rate-40000"]  # the skipped runs have no folder
    assert all(json.loads((folder / m / "run.json").read_text())["status"] == "completed" for m in made)
    assert (folder / "plots" / image).is_file()
    report = (folder / "report.md").read_text()
    assert "Reproduces a figure of a paper." in report and "2 of 4 runs made, 1 of them sustained their rate; 2 skipped" in report
    # ours beside the published value, for each run of the entry it names, with its curve
    assert "| Q5 RATE=20000 (KEYS=100) | p99 |" in report and "| 700 µs | section 7: a sentence |" in report
    assert "not sustained" in report  # 40 000 events/s is above the member's capacity, and says so
    assert "| other-idling | the engine has no such setting |" in report
    assert "| missing-jdk | refused here: " in report and "no JDK 99 found" in report
    record = json.loads((folder / "figure.json").read_text())
    assert [r["folder"] for r in record["runs"]] == made and record["published"][0]["value"] == 0.7
    assert {s["run"] for s in record["skipped"]} == {"other-idling", "missing-jdk"}
    assert (folder / "report.html").is_file()


def test_a_refused_request_starts_nothing_and_exits_2(tmp_path):
    path = experiment_file(tmp_path, "distribution")
    for args, message in [([path, "RATE=5"], "RATE varies between the experiment's runs"),
                          ([path, "DURATION=x"], 'duration: must be a duration'),
                          ([path, "TARGET=aws"], "figures run on this machine for now"),
                          (["no-such-experiment"], "no experiment of that name; available: client-payload"),
                          ([], "figure needs an experiment's name")]:
        result = CliRunner().invoke(cli, ["figure", *args, "--results-root", str(tmp_path / "results")])
        assert result.exit_code == 2 and message in result.output, result.output
    assert not (tmp_path / "results").exists()


def test_the_list_names_each_experiment_with_its_figure():
    result = CliRunner().invoke(cli, ["figure", "--list"])
    assert result.exit_code == 0
    assert any(line.startswith("jet-fig7 ") and "Fig. 7" in line for line in result.output.splitlines())
