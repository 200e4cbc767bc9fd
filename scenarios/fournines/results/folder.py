"""results/<UTC time>-<scenario>/: named so that a plain sort is a sort by time; inside, a folder per
member of a local cluster (member-<i>/) and the active-active result consumer's (consumer/)."""
from datetime import datetime, timezone
from pathlib import Path

from fournines import REPO_ROOT

RESULTS_ROOT = REPO_ROOT / "results"


def folder_name(scenario_name: str, started: datetime) -> str:
    return f"{started.astimezone(timezone.utc):%Y%m%dT%H%M%SZ}-{scenario_name}"


def new_results_folder(scenario_name: str, root: Path = RESULTS_ROOT, now: datetime | None = None) -> Path:
    """Creates and returns a new, empty folder; a second run in the same second gets a -2 suffix."""
    base = folder_name(scenario_name, now or datetime.now(timezone.utc))
    root.mkdir(parents=True, exist_ok=True)
    for n in range(1, 1000):
        path = root / (base if n == 1 else f"{base}-{n}")
        try:
            path.mkdir()
            return path
        except FileExistsError:
            continue
    raise RuntimeError(f"{root}: 999 results folders named {base}*; clean up")


def member_dir(run_dir: Path, index: int) -> Path:
    """Member i's folder; members are numbered from 1 in results, as faults name them (member-N)."""
    return run_dir / f"member-{index + 1}"


def consumer_dir(run_dir: Path) -> Path:
    return run_dir / "consumer"
