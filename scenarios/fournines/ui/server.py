"""The dashboard's routes on Tornado. Pages are rendered off the event loop, one at a time (matplotlib
and the .hlog readers are CPU-bound), so the loop stays free for long-lived responses such as the
live view's server-sent events, which will be one more route here. Bad input never reaches the
reader as a stack trace: an unknown run is a 404 page naming it, a folder that cannot be read a page
with the reader's message (file, line, field), anything else a 500 page with the error's one line
while the trace goes to the terminal."""
import asyncio
import http
from concurrent.futures import ThreadPoolExecutor
from importlib.resources import files
from pathlib import Path

import tornado.httpserver
import tornado.netutil
import tornado.web

import fournines_analysis.dashboard
from fournines_analysis.dashboard.compare_page import compare_page
from fournines_analysis.dashboard.layout import PLOTLY_PATH, STATIC_PATH, problem_page
from fournines_analysis.dashboard.run_files import served_file
from fournines_analysis.dashboard.run_index import UnknownRun, run_folder
from fournines_analysis.dashboard.run_page import run_page
from fournines_analysis.dashboard.runs_page import runs_page
from fournines_analysis.errors import BadInput

PLOTLY_JS = files("plotly") / "package_data" / "plotly.min.js"
STATIC_DIR = Path(fournines_analysis.dashboard.__file__).parent / "static"


class ProblemPages(tornado.web.RequestHandler):
    """Errors as pages with one line: the status's reason, or an unexpected error's type and message."""

    def write_error(self, status_code, **kwargs):
        error = kwargs.get("exc_info", (None, None))[1]
        unexpected = error is not None and not isinstance(error, tornado.web.HTTPError)
        message = f"{type(error).__name__}: {error} (the trace is in the terminal)" if unexpected \
            else http.HTTPStatus(status_code).phrase
        self.finish(problem_page(f"Error {status_code}", message))


class NoSuchPage(ProblemPages):
    def prepare(self):
        raise tornado.web.HTTPError(404)


class PageHandler(ProblemPages):
    """Renders a page in the application's one rendering thread and turns bad input into a page."""

    def initialize(self, results_root: Path, renderer: ThreadPoolExecutor):
        self.results_root, self.renderer = results_root, renderer

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
        await self.render_page(lambda: run_page(self.folder(run_id), run_id))


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


class PlotlyHandler(tornado.web.RequestHandler):
    """plotly.min.js from the pinned plotly package: the pages work offline."""

    def get(self):
        self.set_header("Content-Type", "application/javascript")
        self.set_header("Cache-Control", "max-age=86400")
        self.finish(PLOTLY_JS.read_bytes())


def make_app(results_root: Path) -> tornado.web.Application:
    pages = {"results_root": results_root, "renderer": ThreadPoolExecutor(max_workers=1, thread_name_prefix="ui-render")}
    return tornado.web.Application([
        (r"/", RunsHandler, pages),
        (r"/runs/(.+?)/files/(.+)", RunFileHandler, pages),
        (r"/runs/(.+)", RunHandler, pages),
        (r"/compare", CompareHandler, pages),
        (PLOTLY_PATH, PlotlyHandler),
        (STATIC_PATH + r"/(.*)", tornado.web.StaticFileHandler, {"path": str(STATIC_DIR)}),
    ], default_handler_class=NoSuchPage)


async def serve(results_root: Path, host: str, port: int, ready) -> None:
    """Listens until cancelled; `ready(address)` is called with the address once it listens."""
    sockets = tornado.netutil.bind_sockets(port, address=host)
    tornado.httpserver.HTTPServer(make_app(results_root)).add_sockets(sockets)
    shown = f"[{host}]" if ":" in host else host
    ready(f"http://{shown}:{sockets[0].getsockname()[1]}/")
    await asyncio.Event().wait()
