"""Trends: a metric across the runs of one scenario, in time order, with Apache Otava's change points
marked (trend.py, as `./fournines trend` finds them). Without Otava's venv the series is drawn alone
and the page says `make venv` adds the change points."""
import html
from pathlib import Path
from urllib.parse import quote

from fournines_analysis.dashboard.charts import values
from fournines_analysis.dashboard.layout import page
from fournines_analysis.errors import BadInput
from fournines_analysis.trend import metric_series, trend


def trends_page(scenarios: dict[str, list[Path]], scenario: str | None, otava_python: Path) -> str:
    """`scenarios`: scenario name -> its results folders (those of runs in progress left out)."""
    links = " ".join(f'<a href="/trends?scenario={quote(s)}">{html.escape(s)}</a> ({len(f)} runs)'
                     for s, f in sorted(scenarios.items()))
    head = f"<h1>Trends</h1><p>Scenarios: {links or 'no runs yet'}.</p>"
    if scenario is None:
        return page("Trends", head + "<p>Pick a scenario to see its metrics across its runs.</p>")
    folders = scenarios.get(scenario, [])
    if len(folders) < 3:
        return page("Trends", head + f'<div class="alert problem"><p>A trend needs at least 3 runs; '
                                     f'{html.escape(scenario)} has {len(folders)} here.</p></div>')
    try:
        if otava_python.exists():
            found = trend(folders, otava_python)
            table, columns, left_out, settings = found.table, found.columns, found.left_out, found.settings
            changes = [{"metric": c.metric, "index": int(c.index), "run": c.run, "relative": float(c.relative),
                        "worse": bool(c.worse)} for c in found.changes]
            note = f"Change points: {html.escape(settings)}."
        else:
            table, columns, left_out = metric_series(folders)
            changes, note = [], "Change points need Apache Otava's venv: <code>make venv</code> makes it."
    except BadInput as e:  # too few runs that stand, or one that cannot be read: the reader's words
        return page("Trends", head + f'<div class="alert problem"><p>{html.escape(str(e))}</p></div>')
    options = "".join(f"<option>{html.escape(m)}</option>" for m in columns)
    body = (head + f"<h2>{html.escape(scenario)}: {len(table)} runs</h2><p id=\"trend-note\">{note}</p>"
            + "".join(f'<p class="problem">left out: {html.escape(line)}</p>' for line in left_out)
            + f'<p><label>metric <select id="metric">{options}</select></label></p><div id="trend" class="chart"></div>')
    data = {"page": "trends", "runs": list(table.index), "changes": changes,
            "series": {m: {"unit": c.unit, "values": values(table[m])} for m, c in columns.items()}}
    return page(f"Trends: {scenario}", body, data)
