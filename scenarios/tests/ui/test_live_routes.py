"""The live view's routes and the controls without a browser: the event stream of a run that ended and
of one whose runner vanished, a run in progress on the runs page, a stop asked of a run not playing,
the start form's check, problem by field, exactly as the CLI's, and a trend asked of too few runs, a variant of ENGINE=a,b playing."""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tornado.testing import AsyncHTTPTestCase

from fournines.ui import server
from fournines.ui.start_request import SCENARIO_FIELD, assignments, problems
from fournines_analysis.dashboard.run_index import run_folder, run_rows
from synthetic import write_run

PLAYING, LOST, ENDED = "20260101T000000Z-q0", "20260101T000100Z-q0", "20260101T000200Z-q0"
PROGRESS = {"type": "progress", "member": "member", "elapsed_s": 1.0, "phase": "warmup", "target_rate": 1000,
            "achieved_rate": 990.0, "p99_us": 850, "p9999_us": 4100, "behind_ms": 0.3, "at": 1.0}


def live_log(folder: Path, pid: int, *records: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    start = {"type": "start", "runner_pid": pid, "scenario": "q0", "expected_s": 4.0, "at": 0.0}
    (folder / "live.jsonl").write_text("".join(json.dumps(r) + "\n" for r in (start, *records)))


def events(body: bytes) -> list[tuple[str, dict]]:
    found = []
    for block in body.decode().strip().split("\n\n"):
        name, data = block.split("\n")
        found.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return found


class LiveRoutesTest(AsyncHTTPTestCase):
    def get_app(self):
        self.root = Path(tempfile.mkdtemp(prefix="fournines-ui-test-"))
        live_log(self.root / PLAYING, os.getpid(), PROGRESS)  # this test's pid: a runner that runs
        gone = subprocess.Popen([sys.executable, "-c", "pass"])
        gone.wait()
        live_log(self.root / LOST, gone.pid, PROGRESS)
        live_log(write_run(self.root / ENDED, seed=1), 1, PROGRESS, {"type": "end", "status": "completed", "failure": None, "at": 2.0})
        return server.make_app(self.root)

    def test_an_ended_run_streams_its_records_then_says_it_ended(self):
        response = self.fetch(f"/live/{ENDED}/events")
        assert response.headers["Content-Type"] == "text/event-stream"
        got = events(response.body)
        assert [name for name, _ in got] == ["record"] * 3 + ["state"]
        assert got[1][1]["achieved_rate"] == 990.0 and got[-1][1] == {"state": "ended", "status": "completed"}

    def test_a_run_whose_runner_vanished_is_lost_not_a_trace(self):
        got = events(self.fetch(f"/live/{LOST}/events").body)
        assert got[-1][0] == "state" and got[-1][1]["state"] == "lost"
        assert "gone without writing run.json" in got[-1][1]["message"]

    def test_a_run_in_progress_is_listed_as_running_with_its_live_view(self):
        page = self.fetch("/").body.decode()
        assert f'href="/live/{PLAYING}">live view</a>' in page
        response = self.fetch(f"/runs/{PLAYING}", follow_redirects=False)
        assert response.code == 302 and response.headers["Location"] == f"/live/{PLAYING}"
        assert self.fetch(f"/live/{ENDED}", follow_redirects=False).headers["Location"] == f"/runs/{ENDED}"

    def test_a_run_not_playing_cannot_be_stopped(self):
        self.fetch("/start")  # for the XSRF cookie
        page = self.fetch("/start")
        token = page.headers["Set-Cookie"].split("_xsrf=")[1].split(";")[0]
        response = self.fetch(f"/live/{LOST}/stop", method="POST", body=f"_xsrf={token}",
                              headers={"Cookie": f"_xsrf={token}"})
        assert response.code == 409 and f"{LOST} is not playing" in response.body.decode()

    def test_a_post_without_the_xsrf_token_is_refused(self):
        assert self.fetch(f"/live/{PLAYING}/stop", method="POST", body="").code == 403


def test_blank_fields_keep_the_scenarios_values():
    assert assignments({"scenario": "q0", "RATE": " 1000 ", "WARMUP": "", "DURATION": "3s"}) == ["RATE=1000", "DURATION=3s"]


def test_problems_are_put_by_field_as_the_cli_words_them():
    assert problems("q0", ["WARMUP=1s", "DURATION=3s", "RATE=1000"]) == {}
    found = problems("q0", ["RATE=lots"])
    assert list(found) == ["RATE"] and "(set by override RATE=lots)" in found["RATE"][0]
    engines = problems("q0", ["ENGINE=fournines,nosuch"])  # a compared setting: each value checked
    assert list(engines) == ["ENGINE"] and 'is "nosuch" (set by override ENGINE=nosuch)' in engines["ENGINE"][0]
    assert "no scenario of that name" in problems("nosuch", [])[SCENARIO_FIELD][0]


class TrendsRouteTest(AsyncHTTPTestCase):
    def get_app(self):
        self.root = Path(tempfile.mkdtemp(prefix="fournines-ui-test-"))
        write_run(self.root / ENDED, seed=1)
        return server.make_app(self.root)

    def test_too_few_runs_for_a_trend_is_said_on_the_page(self):
        for scenario, count in (("synthetic", 1), ("nosuch", 0)):
            response = self.fetch(f"/trends?scenario={scenario}")
            assert response.code == 200
            assert f"A trend needs at least 3 runs; {scenario} has {count} here." in response.body.decode()


def test_a_variant_playing_has_its_live_view(tmp_path):
    """ENGINE=a,b: the first variant plays while the second's folder is still to come."""
    live_log(tmp_path / "20260101T000000Z-q5" / "fournines", os.getpid(), PROGRESS)
    assert run_folder(tmp_path, "20260101T000000Z-q5/fournines") == tmp_path / "20260101T000000Z-q5" / "fournines"
    assert [(r.run_id, r.status) for r in run_rows(tmp_path)] == [("20260101T000000Z-q5/fournines", "running")]
