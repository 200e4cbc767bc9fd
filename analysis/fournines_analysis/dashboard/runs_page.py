"""The runs page: every results folder of the checkout in a table, newest first, with a filter and
check boxes to compare the runs picked."""
import html
from pathlib import Path
from urllib.parse import quote

from fournines_analysis import formatting
from fournines_analysis.dashboard.layout import page
from fournines_analysis.dashboard.run_index import RunRow, run_rows

HEADER = ["", "run", "status", "scenario", "engine", "started (UTC)", "throughput", "p99", "p99.99", "cores busy"]


def runs_page(root: Path) -> str:
    rows = run_rows(root)
    if not rows:
        body = f"<h1>Runs</h1><p>No results folders under {html.escape(str(root))} yet: <code>make bench-q5</code> makes one.</p>"
        return page("Runs", body)
    head = "".join(f"<th>{h}</th>" for h in HEADER)
    body = (f"<h1>Runs</h1><p>{len(rows)} results folders under {html.escape(str(root))}.</p>"
            '<form action="/compare" method="get">'
            '<p><input id="filter" type="search" placeholder="filter: scenario, engine, status, date…" size="40"> '
            '<button id="compare" type="submit">Compare the runs ticked</button></p>'
            f'<table id="runs"><thead><tr>{head}</tr></thead><tbody>{"".join(map(_row, rows))}</tbody></table>'
            "</form>")
    return page("Runs", body, data={"page": "runs"}, plots=False)


def _row(row: RunRow) -> str:
    link = f'<a href="/runs/{quote(row.run_id)}">{html.escape(row.run_id)}</a>'
    if row.status == "running":
        link += f' <a class="live" href="/live/{quote(row.run_id)}">live view</a>'
    if row.problem:
        return (f'<tr class="broken" data-search="{html.escape(row.searchable)}"><td></td><td>{link}</td>'
                f'<td>unreadable</td><td colspan="{len(HEADER) - 3}" class="problem">{html.escape(row.problem)}</td></tr>')
    status = html.escape(row.status) + (f' <span class="mark">{html.escape(row.mark)}</span>' if row.mark else "")
    if row.simulated:
        status += ' <span class="mark simulated">SIMULATED</span>'
    cells = [f'<input type="checkbox" name="run" value="{html.escape(row.run_id)}">', link, status,
             html.escape(row.scenario or formatting.MISSING), html.escape(row.engine or formatting.MISSING),
             html.escape(row.started or formatting.MISSING), formatting.rate(row.rate), formatting.micros(row.p99),
             formatting.micros(row.p9999), formatting.number(row.cores)]
    figures = len(HEADER) - 6  # the last columns are figures, aligned right
    return (f'<tr data-search="{html.escape(row.searchable)}">' + "".join(f"<td>{c}</td>" for c in cells[:-figures])
            + "".join(f'<td class="figure">{c}</td>' for c in cells[-figures:]) + "</tr>")
