"""A member's management API as the runner uses it: submit a job, ask how it is doing. Every call
carries the bearer token derived from the run's secret (secret.py).

A member is reached at `host:port`, or at `unix:PATH`: a Unix socket that SSH forwards to a remote
member's API on its host's loopback (targets/remote), which no network route leads to."""
import http.client
import json
import socket

TIMEOUT_S = 10
UNIX = "unix:"


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, socket_path: str):
        super().__init__("localhost", timeout=TIMEOUT_S)
        self.socket_path = socket_path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.socket_path)


def _connection(address: str) -> http.client.HTTPConnection:
    if address.startswith(UNIX):
        return _UnixConnection(address[len(UNIX):])
    return http.client.HTTPConnection(address, timeout=TIMEOUT_S)


class ManagementApi:
    def __init__(self, token: str):
        self.token = token

    def _call(self, address: str, method: str, path: str, body: bytes | None = None) -> tuple[int, str]:
        """The status and body of a call to the member at `address`; (0, why) when it did not answer."""
        connection = _connection(address)
        try:
            connection.request(method, path, body=body, headers={"Authorization": f"Bearer {self.token}",
                                                                 "Content-Type": "application/json"})
            response = connection.getresponse()
            return response.status, response.read().decode()
        except (OSError, http.client.HTTPException) as e:  # refused or timed out: a member a fault has just taken down
            return 0, str(e)
        finally:
            connection.close()

    def submit(self, address: str, job: dict) -> int | str:
        """The new job's id, or why the member refused it."""
        status, body = self._call(address, "POST", "/jobs", json.dumps(job).encode())
        return json.loads(body)["job"] if status == 202 else f"({status}): {body.strip()}"

    def job_state(self, address: str, job: int) -> str | None:
        """The state of the member's part of the job (running, completed, left, ...); None if it did not answer."""
        status, body = self._call(address, "GET", f"/jobs/{job}")
        return json.loads(body).get("state") if status == 200 else None

    def job_failure(self, address: str, job: int) -> str | None:
        """Why the job failed, if the member says it did. A part that left (its member was paused and
        dropped) is no failure: the others run on. A member that did not answer says nothing."""
        status, body = self._call(address, "GET", f"/jobs/{job}")
        state = json.loads(body) if status == 200 else {}
        if state.get("state") != "left" and (state.get("state") == "failed" or state.get("cause")):
            return f"job {job} failed: {state.get('cause')}"
        return None
