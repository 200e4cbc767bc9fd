"""Every view of a run opens with how it ended (run.json's status): report.md, report.html, the
comparison and the notebook say so in the title and the first line when it did not complete, or when
run.json does not say."""
import shutil

import nbformat

from fournines_analysis.compare import write_compare
from fournines_analysis.notebook import run_notebook
from fournines_analysis.report import write_report
from synthetic import edit_run_json


def title_and_first_line(markdown) -> tuple[str, str]:
    title, first, *_ = markdown.read_text().split("\n\n")
    return title, first


def test_an_interrupted_runs_report_says_so_in_its_title_and_first_line(interrupted_run):
    expected_title = f"q5-stall: {interrupted_run.name} — INTERRUPTED"
    md, html = write_report(interrupted_run)
    title, first = title_and_first_line(md)
    assert title == f"# {expected_title}"
    assert first.startswith("Status: interrupted (stopped by SIGINT). The run did not complete")
    page = html.read_text()
    assert f"<title>{expected_title}</title>" in page
    assert f"<h1>{expected_title}</h1>\n<p>Status: interrupted (stopped by SIGINT)." in page


def test_a_failed_runs_report_gives_its_cause_first(stall_run):
    edit_run_json(stall_run, status="failed", failure="member-2 exited with code 137")
    title, first = title_and_first_line(write_report(stall_run)[0])
    assert title.endswith(" — FAILED")
    assert first.startswith("Status: failed (member-2 exited with code 137).")


def test_a_completed_run_says_so_and_its_title_carries_no_mark(stall_run):
    title, first = title_and_first_line(write_report(stall_run)[0])
    assert (title, first) == (f"# q5-stall: {stall_run.name}", "Status: completed.")


def test_a_run_json_without_status_is_not_taken_for_completed(stall_run):
    edit_run_json(stall_run, status=...)
    title, first = title_and_first_line(write_report(stall_run)[0])
    assert title.endswith(" — STATUS NOT RECORDED")
    assert first.startswith("Status: not recorded.")


def test_status_and_failure_are_in_the_run_context(interrupted_run):
    text = write_report(interrupted_run)[0].read_text()
    assert "| status | interrupted |" in text and "| failure | stopped by SIGINT |" in text


def test_a_comparison_with_an_interrupted_run_says_so_at_the_top_and_per_run(stall_run, tmp_path):
    interrupted = shutil.copytree(stall_run, tmp_path / "20260101T000100Z-q5-stall")
    edit_run_json(interrupted, status="interrupted", failure="stopped by SIGINT")
    md, html = write_compare([stall_run, interrupted], tmp_path / "cmp")
    text = md.read_text()
    title, first = title_and_first_line(md)
    assert title == "# Comparison of 2 runs — 1 INCOMPLETE"
    assert first.startswith("> **")  # the warning block, before anything else
    assert f"> - {interrupted.name}: status: interrupted (stopped by SIGINT)" in text.split("\n## ")[0]
    assert f"| metric | {stall_run.name} | {interrupted.name} (INTERRUPTED) |" in text
    assert f"| {stall_run.name} | completed | q5-stall |" in text
    assert f"| {interrupted.name} | interrupted (stopped by SIGINT) | q5-stall |" in text
    assert "<title>Comparison of 2 runs — 1 INCOMPLETE</title>" in html.read_text()


def test_the_notebook_opens_with_the_status(interrupted_run):
    notebook = nbformat.read(run_notebook(interrupted_run), as_version=4)
    printed = "".join(o.get("text", "") for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs)
    assert "Status: interrupted (stopped by SIGINT). The run did not complete" in printed
