"""The start form: a scenario and the overrides `./fournines run` takes, each problem the check found
shown beside its field. The server supplies the scenario names, the override keys with the scenario
field each sets, and the problems; this file only draws them."""
import html

from fournines_analysis.dashboard.layout import page


def start_page(scenarios: list[str], keys: dict[str, str], form: dict[str, str], problems: dict[str, list[str]],
               xsrf_field: str, failure: str | None = None) -> str:
    """`keys`: override key -> the scenario field it sets ('' for a run option); `form`: what was typed."""
    chosen = form.get("scenario", "")
    options = "".join(f'<option{" selected" if s == chosen else ""}>{html.escape(s)}</option>' for s in scenarios)
    rows = [_row("scenario", f'<select id="field-scenario" name="scenario">{options}</select>', "", problems)]
    for key, path in keys.items():
        value = html.escape(form.get(key, ""))
        rows.append(_row(key, f'<input id="field-{key}" name="{key}" value="{value}" placeholder="scenario\'s value">',
                         path, problems))
    alert = f'<div class="alert problem"><p>{html.escape(failure)}</p></div>' if failure else ""
    body = (f"<h1>Start a run</h1>{alert}<p>As <code>./fournines run SCENARIO KEY=VALUE…</code>: a blank field "
            "keeps the scenario's value. The run plays on this machine; its live view opens once it has made "
            f'its results folder.</p><form method="post" action="/start">{xsrf_field}'
            f'<table class="start">{"".join(rows)}</table><button id="start" type="submit">Start</button></form>')
    return page("Start a run", body)


def _row(name: str, field: str, path: str, problems: dict[str, list[str]]) -> str:
    said = "".join(f'<div class="problem field-problem" data-field="{name}">{html.escape(p)}</div>'
                   for p in problems.get(name, []))
    return (f'<tr><th><label for="field-{name}">{name}</label></th><td>{field}{said}</td>'
            f'<td class="hint">{html.escape(path)}</td></tr>')
