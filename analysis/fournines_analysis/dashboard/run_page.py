"""A run's page: its standing and the interactive plots (the spectrum on the nines axis, latency and
throughput over time with the warm-up, GC cycles and pauses, and faults marked), links to its logs and profiles, then the report's
content as `./fournines report` writes it (the report's pictures rendered aside, so the results
folder is left untouched)."""
import html
import tempfile
from pathlib import Path
from urllib.parse import quote

from fournines_analysis.dashboard import charts
from fournines_analysis.dashboard.layout import page
from fournines_analysis.dashboard.run_files import run_files
from fournines_analysis.document import Heading, html_body
from fournines_analysis.report import report_blocks
from fournines_analysis.results import load_run
from fournines_analysis.standing import standing_of, titled
from fournines_analysis.summary import summarize


def run_page(folder: Path, run_id: str) -> str:
    """BadInput, naming file and field, if the folder cannot be read."""
    run = load_run(folder)
    summary = summarize(run)
    title = titled(f"{run.info.scenario_name or run.label}: {run_id}", standing_of(run))
    with tempfile.TemporaryDirectory(prefix="fournines-ui-") as plots_dir:
        report = report_blocks(run, summary, Path(plots_dir))
        # The report's own title is the page's; its pictures are embedded before the folder goes.
        report_html = html_body([b for b in report if not (isinstance(b, Heading) and b.level == 1)])
    body = [f"<h1>{html.escape(title)}</h1>", _simulated(run.info.fields),
            "<h2>Plots</h2>",
            f'<p>Latencies in microseconds; the first {run.warmup_s:g} s are warm-up, shaded grey, and left out of the spectrum. '
            f'Over time, concurrent GC cycles are shaded purple, GC pauses of a millisecond or more are red lines, and faults '
            f'dotted dark red lines labelled with what fired (the report below lists each).</p>',
            '<div id="spectrum" class="chart"></div>',
            *(f'<div id="latency-{i}" class="chart"></div>' for i in range(len(run.latency))),
            '<div id="throughput" class="chart"></div>',
            _files(folder, run_id),
            '<h2>Report</h2>', report_html]
    data = {"page": "run", "axis": charts.nines_axis(), "spectra": charts.spectra([(run_id, run)]),
            "over_time": charts.over_time(run)}
    return page(title, "\n".join(body), data)


def _simulated(fields: dict) -> str:
    """The simulated mark DESIGN.md §4 asks of every view, with the calibration the run used."""
    if not fields.get("simulated"):
        return ""
    calibration = fields.get("calibration")
    used = f" from calibration {calibration}" if isinstance(calibration, str) else ""
    return f'<div class="alert simulated"><strong>SIMULATED</strong>: not measured{html.escape(used)}.</div>'


def _files(folder: Path, run_id: str) -> str:
    files = run_files(folder)
    parts = ["<h2>Logs and profiles</h2>"]
    for kind, names in files.items():
        links = ", ".join(f'<a href="/runs/{quote(run_id)}/files/{quote(n)}">{html.escape(n)}</a>' for n in names)
        parts.append(f"<p>{kind.capitalize()}: {links or 'none in this folder'}.</p>")
    return "\n".join(parts)
