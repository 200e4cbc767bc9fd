"""The frame every dashboard page shares: title, navigation, the locally served scripts, and the
page a problem gets instead of a stack trace."""
import html
import json

PLOTLY_PATH = "/static/plotly.min.js"  # the server serves it from the pinned plotly package
STATIC_PATH = "/static/dashboard"  # dashboard.js and dashboard.css from static/ beside this file


def page(title: str, body: str, data: dict | None = None, plots: bool = True) -> str:
    """A whole page. `data`, when given, is handed to dashboard.js as JSON; `plots`: the page draws
    with Plotly, so its script is loaded first."""
    # "</" would end the script element early; "<\/" is the same JSON string.
    embedded = "" if data is None else json.dumps(data).replace("</", "<\\/")
    script = "" if data is None else (
        f'<script type="application/json" id="chart-data">{embedded}</script>'
        + (f'<script src="{PLOTLY_PATH}"></script>' if plots else "")
        + f'<script src="{STATIC_PATH}/dashboard.js"></script>')
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} · fournines</title>
<link rel="stylesheet" href="{STATIC_PATH}/dashboard.css"></head>
<body><nav><a href="/">Runs</a> <a href="/trends">Trends</a> <a href="/start">Start a run</a></nav>
<main>
{body}
</main>
{script}
</body></html>
"""


def problem_page(title: str, message: str) -> str:
    """What the reader sees for an unknown run or a folder that cannot be read: the message names the
    folder, file and field; the way back is one link."""
    return page(title, f'<h1>{html.escape(title)}</h1><div class="alert problem"><p>{html.escape(message)}</p></div>'
                       f'<p><a href="/">Back to the runs</a></p>')
