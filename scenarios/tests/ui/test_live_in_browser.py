"""The dashboard's controls, live view and trends in headless Chromium: a short q0 run started from the
page (its member the stand-in, process_scaffolding/stand_in_child.py, so no engine is built), its live
view watched until its numbers move, stopped from the page as Ctrl-C stops it; a cluster run's faults
shown as they fire; then the trend of a committed history with its change point. Screenshots into target/ui-screenshots/; the server's exit
leaves no process of the run behind."""
import json
import os
import shutil
import sys

import pytest

from browser import REPO, drawn, screenshot, served

SCAFFOLDING = REPO / "scenarios" / "tests" / "process_scaffolding"
HISTORY = REPO / "analysis" / "tests" / "fixtures" / "trend-series"  # 24 runs of q5-gate, a step at run 13
FIRST_SLOWER = "20261124T072650Z-q5-gate"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return shutil.copytree(HISTORY, tmp_path_factory.mktemp("results") / "results")


@pytest.fixture(scope="module")
def dashboard(root):
    with served([sys.executable, str(SCAFFOLDING / "dashboard_with_stand_in.py"), str(root), "endless"]) as address:
        yield address


def elapsed(browser) -> str:
    """The member's elapsed time in the table, read in the page: the rows are redrawn every second."""
    return browser.execute_script(
        "const cell = document.querySelector('#live-members tbody tr td:nth-child(2)');"
        "return cell ? cell.textContent : '';")


def test_bad_overrides_are_shown_by_field(dashboard, browser):
    from selenium.webdriver.common.by import By

    browser.get(dashboard + "start")
    browser.find_element(By.ID, "field-RATE").send_keys("lots")
    browser.find_element(By.ID, "start").click()
    (problem,) = browser.find_elements(By.CSS_SELECTOR, '.field-problem[data-field="RATE"]')
    assert "load.rate: must be an integer" in problem.text and "(set by override RATE=lots)" in problem.text
    screenshot(browser, "start-refused")


def test_a_run_started_from_the_page_is_watched_live_and_stopped(dashboard, browser, root):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    browser.get(dashboard + "start")
    Select(browser.find_element(By.ID, "field-scenario")).select_by_visible_text("q0")
    for key, value in (("WARMUP", "1s"), ("DURATION", "3s"), ("RATE", "1000")):
        browser.find_element(By.ID, f"field-{key}").send_keys(value)
    browser.find_element(By.ID, "start").click()
    # The page answers once the runner made its results folder, which a loaded machine takes seconds to reach.
    WebDriverWait(browser, 60).until(lambda b: "/live/" in b.current_url or b.find_elements(By.CSS_SELECTOR, ".alert"),
                                     "the start page neither opened the live view nor said why")
    assert "/live/" in browser.current_url, browser.find_element(By.TAG_NAME, "main").text
    run_id = browser.current_url.rsplit("/live/", 1)[1]
    WebDriverWait(browser, 20).until(elapsed)
    first = elapsed(browser)
    WebDriverWait(browser, 20).until(lambda b: elapsed(b) != first)  # the numbers move without a reload
    for chart in ("live-latency", "live-rate", "live-lag"):
        drawn(browser, chart)
    assert "playing" in browser.find_element(By.ID, "live-status").text
    screenshot(browser, "live")
    browser.get(dashboard)
    assert "running" in browser.find_element(By.CSS_SELECTOR, f'tr[data-search*="{run_id}"]').text
    browser.back()
    browser.find_element(By.ID, "stop").click()
    # The stop's answer loads the live view again: an element of the page before it may go stale under the wait.
    WebDriverWait(browser, 60, ignored_exceptions=[StaleElementReferenceException]).until(
        lambda b: "ended" in b.find_element(By.ID, "live-status").text)
    assert browser.find_element(By.ID, "live-status").text.startswith("The run ended: interrupted")
    screenshot(browser, "live-stopped")
    pids = [int(p) for p in (root / run_id / "pids").read_text().split()]
    assert not [p for p in pids if _alive(p)], "the stand-in member or its child outlived the stop"


def test_a_run_started_from_a_terminal_shows_its_faults_as_they_fire(dashboard, browser, root):
    """A live.jsonl as a cluster run's runner writes it; this test's process stands for the runner."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    run = root / "20261201T000000Z-q5-fault"
    run.mkdir()
    progress = {"type": "progress", "phase": "measure", "target_rate": 1000, "achieved_rate": 1000.0,
                "p99_us": 900, "p9999_us": 5000, "behind_ms": 0.1}
    records = [{"type": "start", "runner_pid": os.getpid(), "scenario": "q5-fault", "expected_s": 20.0, "at": 0.0},
               *({**progress, "member": f"member-{m}", "elapsed_s": 5.0, "at": 5.0} for m in (1, 2, 3)),
               {"type": "fault", "text": "kill member-2 at t=5.0 s", "at": 5.0}]
    (run / "live.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    browser.get(f"{dashboard}live/{run.name}")
    WebDriverWait(browser, 10).until(lambda b: "kill member-2" in b.find_element(By.ID, "live-faults").text)
    WebDriverWait(browser, 10).until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#live-members tbody tr")) == 3)
    with open(run / "live.jsonl", "a") as log:  # the runner writes on: the page follows
        log.write(json.dumps({**progress, "member": "member-1", "elapsed_s": 6.0, "at": 6.0}) + "\n")
    WebDriverWait(browser, 10).until(lambda b: "6.0 s" in b.find_element(By.ID, "live-members").text)
    assert browser.find_elements(By.CSS_SELECTOR, "#live-latency .shapelayer path")  # the fault, marked
    screenshot(browser, "live-faults")
    shutil.rmtree(run)


def test_the_job_graph_and_snapshots_of_a_run_in_progress_are_drawn_as_the_members_write_them(dashboard, browser, root):
    """Two members' graph.json, vertices.csv and snapshots.csv as the engine writes them; the page follows new rows."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    run = root / "20261201T000000Z-q5-graph"
    graph = {"vertices": [{"name": "bids", "parallelism": 2}, {"name": "count", "parallelism": 2},
                          {"name": "hottest", "parallelism": 1}],
             "edges": [{"from": "bids", "to": "count", "routing": "partitioned", "distributed": True},
                       {"from": "count", "to": "hottest", "routing": "all-to-one", "distributed": True}]}
    header = "time_s,vertex,items_in,items_out,sampled_us,busy_us,backpressured_us,queued_item_us,queue_room_us\n"
    for member in ("member-1", "member-2"):
        (run / member).mkdir(parents=True)
        (run / member / "graph.json").write_text(json.dumps(graph))
        (run / member / "vertices.csv").write_text(header + "".join(
            f"{t}.0,{v},{1000 * t},{1000 * t},{50 * t},{busy * t},0,{512 * 50 * t},{1024 * 50 * t}\n"
            for t in (1, 2) for v, busy in (("bids", 10), ("count", 40), ("hottest", 0))))
        (run / member / "snapshots.csv").write_text("id,started_s,saved_s,committed_s,bytes\n1,1.0,1.02,1.05,4096\n")
    start = {"type": "start", "runner_pid": os.getpid(), "scenario": "q5", "expected_s": 20.0, "at": 0.0}
    progress = {"type": "progress", "member": "member-1", "phase": "measure", "target_rate": 1000,
                "achieved_rate": 1000.0, "p99_us": 900, "p9999_us": 5000, "behind_ms": 0.1, "elapsed_s": 2.0, "at": 2.0}
    (run / "live.jsonl").write_text(json.dumps(start) + "\n" + json.dumps(progress) + "\n")
    browser.get(f"{dashboard}live/{run.name}")
    WebDriverWait(browser, 10).until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#live-graph svg .vertex")) == 3)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#live-graph svg .edge")) == 2
    text = browser.find_element(By.ID, "live-graph").text
    assert "count ×4" in text and "in 2,000/s" in text and "busy 80 %" in text and "input queues 50 % full" in text
    with open(run / "member-1" / "vertices.csv", "a") as rows:  # member-1's next second: count always busy
        rows.write("3.0,count,3000,3000,150,130,0,76800,153600\n")
    with open(run / "live.jsonl", "a") as log:
        log.write(json.dumps({**progress, "elapsed_s": 3.0, "at": 3.0}) + "\n")
    # member-1's count over its latest second: 50 of 50 samples busy; member-2's still 40 of 50.
    WebDriverWait(browser, 10).until(lambda b: "busy 90 %" in b.find_element(By.ID, "live-graph").text)
    screenshot(browser, "live-graph")
    assert browser.find_element(By.ID, "live-snapshots").is_displayed()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#live-snapshots .bars path")) == 2  # start to saved, start to commit
    shutil.rmtree(run)


def test_the_trend_of_a_history_marks_its_change_point(dashboard, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(dashboard + "trends")
    browser.find_element(By.LINK_TEXT, "q5-gate").click()
    Select(browser.find_element(By.ID, "metric")).select_by_visible_text("CPU per event")
    drawn(browser, "trend")
    note = browser.find_element(By.ID, "trend-note").text
    if "make venv" not in note:  # Otava's venv is there: the step is marked where it was injected
        assert browser.find_elements(By.CSS_SELECTOR, "#trend .shapelayer path")
        assert "worse" in browser.find_element(By.ID, "trend").text
    screenshot(browser, "trends")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone, only not yet reaped
        return stat.read().split(")")[-1].split()[0] != "Z"
