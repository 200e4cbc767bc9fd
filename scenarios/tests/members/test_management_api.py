"""The runner's calls to a member's management API, over TCP and over a Unix socket (the way an SSH
forward reaches a remote member), against a stand-in API that checks the bearer token."""
import http.server
import json
import socketserver
import threading

import pytest

from fournines.members.management_api import ManagementApi

TOKEN = "t0ken"


class _StandIn(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self._answer(202, {"job": 7}) if body == {"query": "q5"} else self._answer(400, {"error": "bad job"})

    def do_GET(self):
        self._answer(200, {"state": "failed", "cause": "boom"} if self.path == "/jobs/7" else {"state": "running"})

    def _answer(self, status, body):
        if self.headers["Authorization"] != f"Bearer {TOKEN}":
            status, body = 401, {"error": "no token"}
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


class _TcpServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


@pytest.fixture(params=["tcp", "unix"])
def address(request, tmp_path):
    if request.param == "tcp":
        server = _TcpServer(("127.0.0.1", 0), _StandIn)
        where = f"127.0.0.1:{server.server_address[1]}"
    else:
        server = _UnixServer(str(tmp_path / "api.sock"), _StandIn)
        where = f"unix:{tmp_path / 'api.sock'}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield where
    server.shutdown()
    server.server_close()


def test_submit_and_ask(address):
    api = ManagementApi(TOKEN)
    assert api.submit(address, {"query": "q5"}) == 7
    assert api.submit(address, {"query": "q9"}) == '(400): {"error": "bad job"}'
    assert api.job_state(address, 3) == "running"
    assert api.job_failure(address, 7) == "job 7 failed: boom"
    assert ManagementApi("wrong").job_state(address, 3) is None


def test_a_member_that_does_not_answer_says_nothing(tmp_path):
    api = ManagementApi(TOKEN)
    assert api.job_state(f"unix:{tmp_path / 'nobody.sock'}", 1) is None
    assert api.submit(f"unix:{tmp_path / 'nobody.sock'}", {}).startswith("(0): ")
