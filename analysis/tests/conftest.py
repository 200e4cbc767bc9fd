import json
import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def stall_run(tmp_path) -> Path:
    """A copy of the Java-written fixture run, so reports are written outside the repository."""
    return Path(shutil.copytree(FIXTURES / "stall-run", tmp_path / "20260101T000000Z-q5-stall"))


@pytest.fixture(scope="session")
def java_expected() -> dict:
    """What Java's HdrHistogram 2.2.2 computed from the same logs (GenerateFixtures.java)."""
    return json.loads((FIXTURES / "stall-run.expected.json").read_text())
