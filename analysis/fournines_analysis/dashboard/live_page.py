"""A run's live view: its progress as the runner shows it, every second, read from the run's live.jsonl
through the server's event stream (dashboard.js draws it): each member's p99 and p99.99 of the last
interval, target against achieved rate, schedule lag, the faults as they fire (listed, and marked
on the charts), and the job graph with each vertex's items in and out, busy and backpressured share
and input queue fill over the latest second (from the members' graph.json and vertices.csv), and the
snapshot timeline once a snapshot committed (snapshots.csv)."""
import html
from urllib.parse import quote

from fournines_analysis.dashboard.layout import page


def live_page(run_id: str, scenario: str | None, xsrf_field: str) -> str:
    address = quote(run_id)
    # A folder just made has no live.jsonl yet, so no scenario name: the run id says it.
    title = f"{html.escape(scenario)} <small>{html.escape(run_id)}</small>" if scenario else html.escape(run_id)
    body = f"""<h1>Live: {title}</h1>
<p id="live-status" class="live-status">connecting…</p>
<form id="stop-form" method="post" action="/live/{address}/stop">{xsrf_field}
<button id="stop" type="submit">Stop the run (as Ctrl-C)</button></form>
<table id="live-members"><thead><tr><th>member</th><th>elapsed</th><th>phase</th><th>achieved / target ev/s</th>
<th>p99</th><th>p99.99</th><th>behind</th></tr></thead><tbody></tbody></table>
<h2>Faults</h2><ul id="live-faults"><li class="none">none so far</li></ul>
<h2>Job graph</h2>
<div id="live-graph"><p class="none">Not written yet: the engine writes its graph once the job runs (peer engines write none).</p></div>
<div id="live-latency" class="chart"></div>
<div id="live-rate" class="chart"></div>
<div id="live-lag" class="chart"></div>
<div id="live-snapshots" class="chart" hidden></div>
<p>When the run ends, its <a href="/runs/{address}">report</a> replaces this view.</p>"""
    return page(f"Live: {scenario or run_id}", body, data={"page": "live", "events": f"/live/{address}/events",
                                                           "run": f"/runs/{address}"})
