import json
import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def stall_run(tmp_path) -> Path:
    """A copy of the Java-written fixture run, so reports are written outside the repository."""
    return Path(shutil.copytree(FIXTURES / "stall-run", tmp_path / "20260101T000000Z-q5-stall"))


@pytest.fixture
def interrupted_run(stall_run) -> Path:
    """The fixture run as Ctrl-C leaves it: the runner recorded the status and the cause in run.json."""
    from synthetic import edit_run_json

    edit_run_json(stall_run, status="interrupted", failure="stopped by SIGINT")
    return stall_run


@pytest.fixture(scope="session")
def java_expected() -> dict:
    """What Java's HdrHistogram 2.2.2 computed from the same logs (GenerateFixtures.java)."""
    return json.loads((FIXTURES / "stall-run.expected.json").read_text())


@pytest.fixture(scope="session")
def synthetic_runs(tmp_path_factory) -> dict[str, list[Path]]:
    """Three runs each: a baseline, a candidate 30% slower, one 30% faster, one with the baseline's
    latency but 10% more CPU per event, and one that only differs by its random seeds (run-to-run
    and second-to-second noise, occasional pauses)."""
    from synthetic import write_run

    root = tmp_path_factory.mktemp("synthetic")
    kinds = {"baseline": (0, 1.0, 1.0), "slower": (100, 1.3, 1.0), "faster": (200, 0.7, 1.0),
             "heavier": (400, 1.0, 1.1), "same": (300, 1.0, 1.0)}
    return {kind: [write_run(root / f"{kind}-{i}", seed + i, slowdown, cpu_slowdown=cpu) for i in range(3)]
            for kind, (seed, slowdown, cpu) in kinds.items()}
