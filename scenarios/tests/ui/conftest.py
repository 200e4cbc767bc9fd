import sys
from pathlib import Path

import pytest

# The synthetic results folders are the analysis tests' (analysis/tests/synthetic.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis" / "tests"))


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium driven by Selenium, one per test module."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from browser import chromium_paths

    chromium, driver = chromium_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,2000"):
        options.add_argument(flag)
    with webdriver.Chrome(options=options, service=Service(driver)) as chrome:
        chrome.implicitly_wait(30)
        yield chrome
