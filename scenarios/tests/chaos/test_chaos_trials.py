"""The chaos trials end to end with the member side stood in for (fournines/chaos/trials.py, trial.py):
the run is a function that writes what members and runner would (run.json, recorded results), the
expected results a fixed file; no Java, no process."""
import json
from pathlib import Path

import pytest

from fournines.chaos import trial as trial_module
from fournines.chaos.job import EVENTS, KAFKA_EVENTS, trial_job
from fournines.chaos.request import Prepared, parse_request
from fournines.chaos.trial_fault import draw
from fournines.chaos.trials import run_chaos
from fournines.spec.scenario import load_scenario
from fournines.targets.local.plan import plan_for
from fournines.targets.local.run import member_launcher

EXPECTED = [json.dumps({"start": s, "end": s + 10, "auction": 7, "count": 2}) for s in (0, 10, 20)]


class StandIn:
    """Plays each trial's run as told: its status, exit code, recorded lines and (Kafka-fed, when
    read back) the results topic's lines, in turn."""

    def __init__(self, monkeypatch, runs):
        self.runs, self.jobs = list(runs), []
        monkeypatch.setattr(trial_module.local, "run", self.run)
        monkeypatch.setattr(trial_module, "expected_results", self.expected)

    def run(self, job, launcher, profile, results_root, run_dir):
        status, code, lines, *topic = self.runs.pop(0)
        self.jobs.append(job)
        record = {"status": status, "faults_injected": [{"action": "kill"}] if job["faults"] else None}
        if status != "completed":
            record["failure"] = "the job failed: member 2 lost\nmore detail"
        (run_dir / "run.json").write_text(json.dumps(record))
        recorded = run_dir / "member-2" / "job-1" / "recorded"
        recorded.mkdir(parents=True)
        (recorded / "1.committed").write_text("".join(line + "\n" for line in lines))
        (recorded / "2.pending").write_text(EXPECTED[0] + "\n")  # never published: not output
        if topic and topic[0] is not None:
            (run_dir / "kafka-results.jsonl").write_text("".join(line + "\n" for line in topic[0]))
        return code

    @staticmethod
    def expected(job, folder, jar, signals):
        (folder / "expected.jsonl").write_text("\n".join(EXPECTED) + "\n")
        return folder / "expected.jsonl"


def chaos(tmp_path, args):
    request = parse_request("q5", ["FAULTS=kill,stop", *args])
    prepared = Prepared(load_scenario("q5", request.overrides), Path("member.jar"), Path("nexmark.jar"))
    code = run_chaos(request, prepared, tmp_path)
    (folder,) = [f for f in tmp_path.iterdir() if f.name.endswith("-chaos-q5")]
    return code, folder, json.loads((folder / "chaos.json").read_text())


def test_each_trial_is_checked_a_violation_exits_1_and_its_seed_replays_the_fault(tmp_path, monkeypatch, capsys):
    stand_in = StandIn(monkeypatch, [("completed", 0, EXPECTED), ("completed", 0, [*EXPECTED, EXPECTED[1]])])
    code, folder, report = chaos(tmp_path / "first", ["TRIALS=2", "SEED=100"])
    assert code == 1
    job = stand_in.jobs[0]
    assert (job["load"]["events"], job["record_results"], job["cluster"]["members"]) == (EVENTS, True, 3)
    assert job["start_epoch_ns"] % 1_000_000 == 0 and job["guarantee"] == "exactly-once"
    first, second = report["trials"]
    assert (first["seed"], first["verdict"], first["expected"], first["lost"]) == (100, "ok", 3, 0)
    assert (second["seed"], second["verdict"], second["duplicated"]) == (101, "violation", 1)
    assert second["violations"] == ["1 duplicated"]
    checked = json.loads((folder / "trial-002" / "check.json").read_text())
    assert checked["recorded_files"] == ["member-2/job-1/recorded/1.committed"]
    assert checked["examples"]["duplicated"] == [{"result": json.loads(EXPECTED[1]), "expected": 1, "recorded": 2}]
    assert "--base-time" in checked["events_command"]
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["trial", "seed", "fault", "target", "at", "run", "expected", "lost",
                                           "duplicated", "wrong", "verdict"]
    assert "replay: ./fournines chaos q5 SEED=101 TRIALS=1 FAULTS=kill,stop" in out

    StandIn(monkeypatch, [("completed", 0, EXPECTED)])
    _, _, replayed = chaos(tmp_path / "replay", ["SEED=101", "TRIALS=1"])
    assert replayed["trials"][0]["fault"] == second["fault"]


def test_a_run_that_did_not_complete_is_a_violation_even_with_all_its_results(tmp_path, monkeypatch):
    StandIn(monkeypatch, [("failed", 1, EXPECTED)])
    code, _, report = chaos(tmp_path, ["TRIALS=1", "SEED=5"])
    assert code == 1
    assert report["trials"][0]["violations"] == ["run failed: the job failed: member 2 lost"]


@pytest.mark.parametrize("exit_code", [130, 143])
def test_a_signal_ends_the_trials_with_its_exit_code_and_keeps_those_done(tmp_path, monkeypatch, exit_code):
    StandIn(monkeypatch, [("completed", 0, EXPECTED), ("interrupted", exit_code, [])])
    code, _, report = chaos(tmp_path, ["TRIALS=5", "SEED=5"])
    assert code == exit_code
    assert [t["trial"] for t in report["trials"]] == [1]


def test_the_cluster_is_sent_the_checked_runs_fields_and_the_runner_keeps_the_faults(tmp_path):
    request = parse_request("q5", ["SEED=1", "FAULTS=commit-kill"])
    fault = draw(request.seed, request.kinds)
    job = trial_job(load_scenario("q5", request.overrides), fault.faults(tmp_path), fault.chaos_point, 7_000_000)
    submitted = plan_for(job, member_launcher(Path("member.jar"), job), [], tmp_path).jobs[0].spec
    assert submitted["load"]["events"] == EVENTS
    assert (submitted["start_epoch_ns"], submitted["record_results"]) == (7_000_000, True)
    assert submitted["chaos_point"] == {"member": "coordinator", "at": fault.at, "then": "freeze"}
    assert submitted["faults"] == [] and job["faults"][0]["target"] == "member-1"


def test_a_kafka_fed_trial_checks_what_its_results_topic_holds_on_its_own(tmp_path, monkeypatch, capsys):
    stand_in = StandIn(monkeypatch, [("completed", 0, EXPECTED, EXPECTED[:2]), ("completed", 0, EXPECTED, None),
                          ("completed", 0, EXPECTED, EXPECTED)])
    code, folder, report = chaos(tmp_path, ["TRIALS=3", "SEED=100", "SOURCE=kafka"])
    assert code == 1
    assert stand_in.jobs[0]["load"]["events"] == KAFKA_EVENTS
    lost, unread, passed = report["trials"]
    assert lost["violations"] == ["results topic: 1 lost"]
    assert (lost["lost"], lost["results_topic"]["lost"], lost["results_topic"]["recorded"]) == (0, 1, 2)
    assert unread["violations"] == ["the results topic was not read back"] and unread["results_topic"]["lost"] is None
    assert passed["verdict"] == "ok"
    checked = json.loads((folder / "trial-001" / "check.json").read_text())
    assert (checked["results_topic"]["lost"], checked["results_topic"]["file"]) == (1, "kafka-results.jsonl")
    first_row = capsys.readouterr().out.splitlines()[1].split()
    assert first_row[7] == "1" and first_row[-1] == "violation"  # lost: the files' and the topic's together
