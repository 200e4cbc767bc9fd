"""Where no browser can be installed, the browser tests are skipped with a plain reason."""
import pytest

import browser


def test_without_chromium_and_not_root_the_tests_skip_saying_why(monkeypatch):
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    monkeypatch.setattr(browser.os, "geteuid", lambda: 1000)
    with pytest.raises(pytest.skip.Exception, match="dashboard browser tests skipped: no headless Chromium "
                                                    r"\(not root, so chromium and chromium-driver cannot be installed"):
        browser.chromium_paths()
