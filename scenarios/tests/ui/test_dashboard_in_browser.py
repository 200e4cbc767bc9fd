"""./fournines ui in headless Chromium over synthetic results folders: list the runs and filter
them, open one, compare two, an unknown run and a broken folder. A screenshot of each page is saved
into target/ui-screenshots/ (ignored by git)."""
import json
import sys

import pytest

from browser import drawn, screenshot, served
from synthetic import write_run

BASE, SLOWER, BROKEN = "20260101T000000Z-q5", "20260101T000100Z-q5", "20260101T000200Z-q5"


@pytest.fixture(scope="module")
def dashboard(tmp_path_factory):
    """The dashboard, started as a user would, on a results root of three folders; its address."""
    root = tmp_path_factory.mktemp("results")
    write_run(root / BASE, seed=1)
    write_run(root / SLOWER, seed=2, slowdown=1.3)
    (write_run(root / BROKEN, seed=3) / "run.json").write_text(json.dumps({"warmup_s": "five"}))
    with served([sys.executable, "-m", "fournines", "ui", "--port", "0", "--results", str(root)]) as address:
        yield address


def test_the_runs_are_listed_and_filtered(dashboard, browser):
    from selenium.webdriver.common.by import By

    browser.get(dashboard)
    rows = browser.find_elements(By.CSS_SELECTOR, "#runs tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, "a").text for r in rows] == [BROKEN, SLOWER, BASE]
    assert "field 'warmup_s': must be a number" in rows[0].text
    assert "completed" in rows[2].text and "µs" in rows[2].text
    screenshot(browser, "runs")
    browser.find_element(By.ID, "filter").send_keys("000100Z")
    assert [r.is_displayed() for r in rows] == [False, True, False]


def test_a_run_opens_with_its_plots_and_report(dashboard, browser):
    from selenium.webdriver.common.by import By

    browser.get(dashboard)
    browser.find_element(By.LINK_TEXT, BASE).click()
    for chart in ("spectrum", "latency-0", "throughput"):
        drawn(browser, chart)
    page = browser.find_element(By.TAG_NAME, "main").text
    assert "Latency after warm-up" in page and "Run context" in page and "Traceback" not in page
    assert all(s.get_attribute("src").startswith(dashboard) for s in browser.find_elements(By.CSS_SELECTOR, "script[src]"))
    screenshot(browser, "run")


def test_two_runs_compared_with_the_gates_verdict(dashboard, browser):
    from selenium.webdriver.common.by import By

    browser.get(dashboard)
    for run in (BASE, SLOWER):
        browser.find_element(By.CSS_SELECTOR, f'input[value="{run}"]').click()
    browser.find_element(By.ID, "compare").click()
    drawn(browser, "spectrum")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#spectrum .scatterlayer .trace")) == 2
    # The runs come in the table's order, newest first: the slower run is the reference, so the base
    # run, 30% faster, is an improvement.
    assert browser.find_element(By.TAG_NAME, "h3").text == f"{BASE} against {SLOWER}"
    assert browser.find_elements(By.CSS_SELECTOR, "table.verdicts tr.improvement")
    assert browser.find_element(By.CSS_SELECTOR, ".verdict").text == "gate: passed, no regression"
    screenshot(browser, "compare")


@pytest.mark.parametrize("run_id, title, message", [
    ("20991231T000000Z-none", "Unknown run", "no run '20991231T000000Z-none' under"),
    (BROKEN, "This results folder cannot be read", f"{BROKEN}/run.json: field 'warmup_s': must be a number"),
], ids=["unknown-run", "broken-folder"])
def test_bad_input_is_a_clear_message(dashboard, browser, run_id, title, message):
    from selenium.webdriver.common.by import By

    browser.get(f"{dashboard}runs/{run_id}")
    assert browser.find_element(By.TAG_NAME, "h1").text == title
    text = browser.find_element(By.CSS_SELECTOR, ".problem").text
    assert message in text and "Traceback" not in browser.page_source
    screenshot(browser, "unknown-run" if run_id != BROKEN else "broken-folder")
