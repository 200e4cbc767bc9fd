"""The server's answers to what no page expects, without a browser: a route that does not exist and a
view that fails unexpectedly are pages with one line, never a stack trace; a file the run page
does not link to is not served."""
import logging
from unittest import mock

from tornado.testing import AsyncHTTPTestCase

from fournines.ui import server
from synthetic import write_run


class ServerErrorsTest(AsyncHTTPTestCase):
    def get_app(self):
        import tempfile
        from pathlib import Path

        self.root = Path(tempfile.mkdtemp(prefix="fournines-ui-test-"))
        write_run(self.root / "20260101T000000Z-q5", seed=1)
        return server.make_app(self.root)

    def test_an_unknown_route_is_a_404_page(self):
        response = self.fetch("/nowhere")
        assert response.code == 404 and b"<h1>Error 404</h1>" in response.body and b"Not Found" in response.body

    def test_an_unexpected_failure_is_one_line_not_a_trace(self):
        with mock.patch.object(server, "run_page", side_effect=RuntimeError("disk on fire")), \
                mock.patch.object(logging.getLogger("tornado.application"), "error"):
            response = self.fetch("/runs/20260101T000000Z-q5")
        assert response.code == 500
        assert b"RuntimeError: disk on fire (the trace is in the terminal)" in response.body
        assert b"Traceback" not in response.body

    def test_only_linked_files_are_served(self):
        assert self.fetch("/runs/20260101T000000Z-q5/files/run.json").code == 404
        assert self.fetch("/runs/20260101T000000Z-q5/files/..%2F..%2Fetc%2Fpasswd").code == 404
        (self.root / "20260101T000000Z-q5" / "member.log").write_text("started\n")
        response = self.fetch("/runs/20260101T000000Z-q5/files/member.log")
        assert response.code == 200 and response.body == b"started\n"

    def test_plotly_is_served_from_the_package(self):
        response = self.fetch("/static/plotly.min.js")
        assert response.code == 200 and len(response.body) > 1_000_000
