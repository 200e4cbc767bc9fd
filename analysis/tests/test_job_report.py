"""A run of several jobs on one member: the report's figures are the merged logs', and one line
gives the number of jobs and the lowest and highest per-job p99.99, naming the jobs."""
import numpy as np

from fournines_analysis.jobs import job_blocks
from fournines_analysis.report import write_report
from synthetic import hlog_text, write_run


def write_job(run, k: int, latency_us: float, seconds: int = 25) -> None:
    folder = run / f"job-{k}"
    folder.mkdir()
    (folder / "latency.hlog").write_text(hlog_text([np.full(1000, latency_us) for _ in range(seconds)]))


def test_the_report_names_the_jobs_and_their_p9999_range(tmp_path):
    run = write_run(tmp_path / "run", seed=1)
    for k, latency in ((1, 500), (2, 2_000), (3, 900)):
        write_job(run, k, latency)
    md, _ = write_report(run)
    text = md.read_text()
    assert "3 jobs on one member" in text
    assert "Per-job p99.99: 500 µs (job-1) … 2,000 µs (job-2)." in text


def test_one_job_has_no_line_and_a_job_without_latency_is_named(tmp_path):
    run = write_run(tmp_path / "run", seed=1)
    assert job_blocks(run, 5) == []
    write_job(run, 1, 500)
    write_job(run, 2, 500, seconds=3)  # nothing after the 5 s warm-up
    (text,) = [block.text for block in job_blocks(run, 5)]
    assert text.endswith("Per-job p99.99: 500 µs (job-1) … 500 µs (job-1). No latency after the warm-up from job-2.")
