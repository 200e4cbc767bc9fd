"""The comparison page: two or more runs, their spectra overlaid, the comparison report's tables
(compare.py, ratios against the first run), and the gate's verdict on each other run against the
first (gate.py; one run a side, so the verdict covers noise within a run only, as the gate notes)."""
import html
import tempfile
from pathlib import Path

from fournines_analysis.compare import compare_blocks
from fournines_analysis.dashboard import charts
from fournines_analysis.dashboard.layout import page
from fournines_analysis.document import Heading, html_body
from fournines_analysis.gate import RunsRefused, gate
from fournines_analysis.results import load_run

VERDICT_HEADER = ["series", "metric", "baseline", "candidate", "ratio", "99% interval", "verdict"]


def compare_page(folders: list[tuple[str, Path]]) -> str:
    """`folders`: (run id, folder), the first the reference. BadInput, naming file and field, if one cannot be read."""
    runs = [(run_id, load_run(folder)) for run_id, folder in folders]
    with tempfile.TemporaryDirectory(prefix="fournines-ui-") as out:
        blocks = compare_blocks([run for _, run in runs], Path(out))
        title = blocks[0].text
        tables = html_body([b for b in blocks if not (isinstance(b, Heading) and b.level == 1)])
    reference_id, reference = runs[0]
    verdicts = [_verdict(reference_id, reference.path, run_id, run.path) for run_id, run in runs[1:]]
    body = [f"<h1>{html.escape(title)}</h1>",
            "<h2>Spectra</h2>", '<div id="spectrum" class="chart"></div>',
            "<h2>The gate's verdict</h2>", *verdicts, tables]
    data = {"page": "compare", "axis": charts.nines_axis(), "spectra": charts.spectra(runs)}
    return page(title, "\n".join(body), data)


def _verdict(base_id: str, base: Path, candidate_id: str, candidate: Path) -> str:
    heading = f"<h3>{html.escape(candidate_id)} against {html.escape(base_id)}</h3>"
    try:
        result = gate([base], [candidate])
    except RunsRefused as refused:
        lines = "".join(f"<li>{html.escape(line)}</li>" for line in str(refused).splitlines())
        return heading + f'<div class="alert"><strong>The gate refuses to judge:</strong><ul>{lines}</ul></div>'
    head = "".join(f"<th>{h}</th>" for h in VERDICT_HEADER)
    rows = "".join(
        f'<tr class="{v.verdict.replace(" ", "-")}">' + "".join(f"<td>{html.escape(c)}</td>" for c in (
            v.series, v.metric, v.baseline, v.candidate, f"{v.ratio:.3f}", f"[{v.low:.3f}, {v.high:.3f}]", v.verdict))
        + "</tr>" for v in result.verdicts)
    verdict = result.format().splitlines()[-1]
    notes = "".join(f"<p>{html.escape(n.strip())}</p>" for n in result.notes)
    return heading + f'<table class="verdicts"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{notes}' \
                     f'<p class="verdict"><strong>{html.escape(verdict)}</strong></p>'
