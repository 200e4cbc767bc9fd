"""The dashboard's routes on Tornado. Pages are rendered off the event loop, one at a time (matplotlib
and the .hlog readers are CPU-bound), so the loop stays free for long-lived responses such as the
live view's server-sent events (live_events.py). Forms that start or stop a run carry Tornado's XSRF
token, so another web page open in the same browser cannot post them; beyond loopback every request
needs the access token (login.py). Bad input never reaches the
reader as a stack trace: an unknown run is a 404 page naming it, a folder that cannot be read a page
with the reader's message (file, line, field), anything else a 500 page with the error's one line
while the trace goes to the terminal."""
import asyncio
import http
import signal
from concurrent.futures import ThreadPoolExecutor
from importlib.resources import files
from pathlib import Path
from urllib.parse import quote

import tornado.httpserver
import tornado.netutil
import tornado.web

import fournines_analysis.dashboard
from fournines import REPO_ROOT
from fournines.spec.overrides import FIELDS, KEYS
from fournines.spec.scenario import available
from fournines.ui.launches import LaunchFailed, Launches, run_command
from fournines.ui.live_events import LiveEventsHandler
from fournines.ui.login import Guarded, LoginHandler
from fournines.ui.start_request import assignments, problems
from fournines_analysis.dashboard.compare_page import compare_page
from fournines_analysis.dashboard.layout import PLOTLY_PATH, STATIC_PATH, problem_page
from fournines_analysis.dashboard.live_page import live_page
from fournines_analysis.dashboard.live_records import is_live, start_record
from fournines_analysis.dashboard.run_files import served_file
from fournines_analysis.dashboard.run_index import UnknownRun, run_folder, run_rows
from fournines_analysis.dashboard.run_page import run_page
from fournines_analysis.dashboard.runs_page import runs_page
from fournines_analysis.dashboard.start_page import start_page
from fournines_analysis.dashboard.trends_page import trends_page
from fournines_analysis.errors import BadInput

PLOTLY_JS = files("plotly") / "package_data" / "plotly.min.js"
STATIC_DIR = Path(fournines_analysis.dashboard.__file__).parent / "static"
OTAVA_PYTHON = REPO_ROOT / ".venv-otava" / "bin" / "python"


class ProblemPages(Guarded):
    """Errors as pages with one line: the status's reason, or an unexpected error's type and message."""

    def write_error(self, status_code, **kwargs):
        error = kwargs.get("exc_info", (None, None))[1]
        unexpected = error is not None and not isinstance(error, tornado.web.HTTPError)
        message = f"{type(error).__name__}: {error} (the trace is in the terminal)" if unexpected \
            else http.HTTPStatus(status_code).phrase
        self.finish(problem_page(f"Error {status_code}", message))


class NoSuchPage(ProblemPages):
    def prepare(self):
        super().prepare()  # behind a token, not even which pages exist is said without it
        if not self._finished:
            raise tornado.web.HTTPError(404)


class PageHandler(ProblemPages):
    """Renders a page in the application's one rendering thread and turns bad input into a page."""

    def initialize(self, results_root: Path, renderer: ThreadPoolExecutor, launches: Launches):
        self.results_root, self.renderer, self.launches = results_root, renderer, launches

    async def render_page(self, view, *args):
        loop = asyncio.get_running_loop()
        try:
            self.finish(await loop.run_in_executor(self.renderer, view, *args))
        except UnknownRun as e:
            self.problem(404, "Unknown run", str(e))
        except BadInput as e:
            self.problem(422, "This results folder cannot be read", str(e))

    def problem(self, status: int, title: str, message: str):
        self.set_status(status)
        self.finish(problem_page(title, message))

    def folder(self, run_id: str) -> Path:
        return run_folder(self.results_root, run_id)


class RunsHandler(PageHandler):
    async def get(self):
        await self.render_page(runs_page, self.results_root)


class RunHandler(PageHandler):
    async def get(self, run_id):
        try:
            playing = is_live(self.folder(run_id))
        except UnknownRun as e:
            self.problem(404, "Unknown run", str(e))
            return
        if playing:  # no run.json yet: its report does not exist
            self.redirect(f"/live/{quote(run_id)}")
            return
        await self.render_page(lambda: run_page(self.folder(run_id), run_id))


class LiveHandler(PageHandler):
    async def get(self, run_id):
        try:
            ended = (self.folder(run_id) / "run.json").exists()
        except UnknownRun as e:
            self.problem(404, "Unknown run", str(e))
            return
        if ended:  # its report says all the live view did
            self.redirect(f"/runs/{quote(run_id)}")
            return
        await self.render_page(lambda: live_page(run_id, self._scenario(self.folder(run_id)), self.xsrf_form_html()))

    @staticmethod
    def _scenario(folder: Path) -> str | None:
        """From the runner's start record; none yet in a folder just made (the page waits for it)."""
        return start_record(folder).get("scenario") if (folder / "live.jsonl").is_file() else None


class StopHandler(PageHandler):
    """The same clean stop as Ctrl-C at the runner's terminal, then back to the live view to watch it end."""

    def post(self, run_id):
        try:
            folder = self.folder(run_id)
            pid = start_record(folder)["runner_pid"] if is_live(folder) else None
        except (UnknownRun, BadInput) as e:
            self.problem(404, "No run to stop", str(e))
            return
        if pid is None or not self.launches.running(pid):
            self.problem(409, "No run to stop", f"{run_id} is not playing")
            return
        self.launches.stop(pid)
        self.redirect(f"/live/{quote(run_id)}")


class StartHandler(PageHandler):
    """The start form, checked as the CLI checks it; a valid run is started and its live view opened."""

    def get(self):
        self.finish(self._form({"scenario": self.get_query_argument("scenario", "")}, {}))

    async def post(self):
        form = {name: self.get_body_argument(name, "") for name in ("scenario", *KEYS)}
        args = assignments(form)
        found = problems(form["scenario"], args)
        if found:
            self.set_status(422)
            self.finish(self._form(form, found))
            return
        try:
            run_id = await self.launches.start(form["scenario"], args)
        except LaunchFailed as e:
            self.set_status(500)
            self.finish(self._form(form, {}, str(e)))
            return
        self.redirect(f"/live/{quote(run_id)}")

    def _form(self, form, found, failure=None) -> str:
        keys = {key: FIELDS.get(key, "run option") for key in KEYS}
        return start_page(available(), keys, form, found, self.xsrf_form_html(), failure)


class TrendsHandler(PageHandler):
    async def get(self):
        scenario = self.get_query_argument("scenario", None)

        def view():
            by_scenario: dict[str, list[Path]] = {}
            for row in run_rows(self.results_root):
                if row.scenario and row.status != "running":
                    by_scenario.setdefault(row.scenario, []).append(self.results_root / row.run_id)
            return trends_page(by_scenario, scenario, OTAVA_PYTHON)
        await self.render_page(view)


class CompareHandler(PageHandler):
    async def get(self):
        run_ids = self.get_query_arguments("run")
        if len(run_ids) < 2:
            self.problem(400, "Compare", f"Pick at least two runs to compare ({len(run_ids)} picked).")
            return
        await self.render_page(lambda: compare_page([(r, self.folder(r)) for r in run_ids]))


class RunFileHandler(PageHandler):
    """A log or profile the run page links to, as plain text or as the file it is."""

    async def get(self, run_id, name):
        try:
            path = served_file(self.folder(run_id), name)
        except UnknownRun as e:
            self.problem(404, "Unknown run", str(e))
            return
        if path is None:
            self.problem(404, "No such file", f"{run_id} has no log or profile named {name!r}")
            return
        self.set_header("Content-Type", "text/plain; charset=utf-8" if path.suffix == ".log"
                        else "application/octet-stream" if path.suffix in (".jfr", ".collapsed") else "text/html")
        self.finish(path.read_bytes())


class PlotlyHandler(Guarded):
    """plotly.min.js from the pinned plotly package: the pages work offline."""

    def get(self):
        self.set_header("Content-Type", "application/javascript")
        self.set_header("Cache-Control", "max-age=86400")
        self.finish(PLOTLY_JS.read_bytes())


class StaticHandler(Guarded, tornado.web.StaticFileHandler):
    pass


def make_app(results_root: Path, launches: Launches | None = None, access_token: str | None = None) -> tornado.web.Application:
    """`access_token`: every request must present it (listening beyond loopback); None asks for nothing."""
    launches = launches or Launches(results_root)
    pages = {"results_root": results_root, "launches": launches,
             "renderer": ThreadPoolExecutor(max_workers=1, thread_name_prefix="ui-render")}
    return tornado.web.Application([
        (r"/", RunsHandler, pages),
        (r"/runs/(.+?)/files/(.+)", RunFileHandler, pages),
        (r"/runs/(.+)", RunHandler, pages),
        (r"/compare", CompareHandler, pages),
        (r"/trends", TrendsHandler, pages),
        (r"/start", StartHandler, pages),
        (r"/live/(.+)/events", LiveEventsHandler, {"results_root": results_root, "launches": launches}),
        (r"/live/(.+)/stop", StopHandler, pages),
        (r"/live/(.+)", LiveHandler, pages),
        (r"/login", LoginHandler),
        (PLOTLY_PATH, PlotlyHandler),
        (STATIC_PATH + r"/(.*)", StaticHandler, {"path": str(STATIC_DIR)}),
    ], default_handler_class=NoSuchPage, xsrf_cookies=True, access_token=access_token)


async def serve(results_root: Path, host: str, port: int, ready, command=run_command, access_token: str | None = None) -> None:
    """Listens until cancelled, then stops the runs it started; `ready(address)` is called with the
    address once it listens; `command` makes a run's command line (launches.run_command)."""
    launches = Launches(results_root, command)
    sockets = tornado.netutil.bind_sockets(port, address=host)
    tornado.httpserver.HTTPServer(make_app(results_root, launches, access_token)).add_sockets(sockets)
    shown = f"[{host}]" if ":" in host else host
    ready(f"http://{shown}:{sockets[0].getsockname()[1]}/")
    # SIGTERM ends it as Ctrl-C does (asyncio.run cancels on SIGINT): the runs it started are stopped either way.
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
    try:
        await asyncio.Event().wait()
    finally:
        launches.stop_all()
