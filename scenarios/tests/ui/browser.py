"""Headless Chromium for the dashboard's browser tests: Debian's chromium and chromium-driver, installed
with apt-get when missing and this is root; otherwise the tests are skipped with the reason."""
import os
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

PACKAGES = ("chromium", "chromium-driver")


def _found() -> tuple[str, str] | None:
    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


def _install() -> str | None:
    """Installs the packages; None when done, else why not."""
    if os.geteuid() != 0:
        return f"not root, so {' and '.join(PACKAGES)} cannot be installed (apt-get install {' '.join(PACKAGES)})"
    if not shutil.which("apt-get"):
        return f"no apt-get to install {' and '.join(PACKAGES)} with"
    env = os.environ | {"DEBIAN_FRONTEND": "noninteractive"}
    def apt_get(*args):
        return subprocess.run(["apt-get", *args], env=env, capture_output=True, text=True, timeout=900)

    done = apt_get("install", "-y", "-q", *PACKAGES)
    if done.returncode != 0:  # a fresh container has no package lists yet: update once and retry
        apt_get("update", "-q")
        done = apt_get("install", "-y", "-q", *PACKAGES)
    if done.returncode != 0:
        return f"apt-get install {' '.join(PACKAGES)} failed: {done.stderr.strip().splitlines()[-1:]}"
    return None


def chromium_paths() -> tuple[str, str]:
    """(browser, driver), installing them if needed; skips the test with the reason if it cannot."""
    found = _found()
    if found:
        return found
    why = _install()
    found = _found()
    if not found:
        pytest.skip(f"dashboard browser tests skipped: no headless Chromium ({why or 'installed, yet not on PATH'})")
    return found


REPO = Path(__file__).resolve().parents[3]
SCREENSHOTS = REPO / "target" / "ui-screenshots"


def screenshot(browser, name: str) -> None:
    """The page as the browser shows it, into target/ui-screenshots/ (ignored by git)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def drawn(browser, chart_id: str) -> None:
    """Waits until Plotly has drawn into the element (its SVG is there)."""
    from selenium.webdriver.common.by import By

    assert browser.find_element(By.CSS_SELECTOR, f"#{chart_id} .main-svg")


@contextmanager
def served(command: list[str]):
    """The dashboard started by `command` (it prints its address first); its address. SIGTERM at the
    end, which stops the runs it started before it exits."""
    env = os.environ | {"PYTHONPATH": f"{REPO / 'scenarios'}:{REPO / 'analysis'}"}
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        line = server.stdout.readline()
        assert line.startswith("fournines dashboard: http://127.0.0.1:"), line
        yield line.split()[2]
    finally:
        server.terminate()
        server.wait(timeout=90)
