"""Two jobs of Q5 on one real member process (`jobs: 2`): the run completes as a one-job run does,
each job leaves its own latency logs in job-<k>/ and its counts in run.json's per_job, the run's
logs hold both jobs' values, and the report gives the per-job p99.99s."""
import json

from fournines.spec.overrides import parse_overrides
from fournines.targets.local.run import member_launcher, run
from fournines.targets.prepare import prepare
from fournines_analysis.hlog import read_hlog

SCENARIO = """\
name: jobs-e2e
query: {name: q5, window_ms: 1_000, slide_ms: 100}
load: {rate: 2_001, keys: 1_000}
cluster: {threads: 1, jvm_opts: [-Xmx256m], gc: serial}
jobs: 2
warmup: 1s
duration: 3s
"""


def values(hlog) -> int:
    return sum(int(log.counts.sum()) for log in read_hlog(hlog))


def test_two_jobs_on_one_member_are_recorded_each_and_merged(tmp_path):
    (tmp_path / "scenario.yaml").write_text(SCENARIO)
    scenario, jar = prepare(str(tmp_path / "scenario.yaml"), parse_overrides([]))
    exit_code = run(scenario, member_launcher(jar, scenario), profile=False, results_root=tmp_path / "results")
    (run_dir,) = (tmp_path / "results").iterdir()
    record = json.loads((run_dir / "run.json").read_text())
    assert (exit_code, record["status"]) == (0, "completed"), record.get("failure")
    assert record["scenario"]["jobs"] == 2
    assert [(j["job"], j["target_rate"], j["seed"]) for j in record["per_job"]] == [(1, 1_001, 1), (2, 1_000, 2)]
    assert record["events_processed"] == sum(j["events_processed"] for j in record["per_job"])
    for log in ("latency.hlog", "completion.hlog"):
        per_job = [values(run_dir / f"job-{k}" / log) for k in (1, 2)]
        assert all(per_job), log
        assert values(run_dir / log) == sum(per_job), log
    assert "2 jobs on one member" in (run_dir / "report.md").read_text()
