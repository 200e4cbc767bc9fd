"""Every results folder under a results root, each as one row of the runs page: its standing,
scenario, engine, start and key figures, or, for a folder that cannot be read, the reader's message
naming the file and field. A folder holds a run when it has run.json, or live.jsonl while it plays; a folder of runs (ENGINE=a,b
or EXECUTION=a,b: one sub-folder per variant) is looked into; any other folder is listed as broken."""
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from fournines_analysis.dashboard.live_records import is_live, start_record
from fournines_analysis.errors import BadInput
from fournines_analysis.results import load_run
from fournines_analysis.standing import standing_of
from fournines_analysis.summary import summarize

_NOT_RUNS = ("plots",)  # folders the runner writes beside runs; hidden ones (the dashboard's launch logs) neither


@dataclass(frozen=True)
class RunRow:
    run_id: str  # the folder relative to the root, with '/': the run's address in the dashboard
    status: str
    mark: str  # the standing's title mark ("INTERRUPTED", ...): empty for a sound run
    scenario: str | None
    engine: str | None
    started: str | None
    simulated: bool
    rate: float | None  # events/s after warm-up
    p99: float | None  # µs, first latency series
    p9999: float | None
    cores: float | None
    problem: str | None = None  # why the folder could not be read; the other fields are then empty

    @property
    def searchable(self) -> str:
        """What the page's filter matches against."""
        return " ".join(str(v) for v in (self.run_id, self.status, self.mark, self.scenario, self.engine,
                                         self.started, "simulated" if self.simulated else "") if v)


def run_folders(root: Path) -> list[Path]:
    """The folders under `root` that hold a run or should (broken ones included), newest first."""
    if not root.is_dir():
        return []
    found = []
    for folder in (p for p in root.iterdir() if p.is_dir() and p.name not in _NOT_RUNS and not p.name.startswith(".")):
        variants = [p for p in folder.iterdir() if p.is_dir() and ((p / "run.json").is_file() or is_live(p))]
        found += [folder] if (folder / "run.json").exists() or not variants else variants
    return sorted(found, key=lambda p: p.relative_to(root).as_posix(), reverse=True)


def run_row(root: Path, folder: Path) -> RunRow:
    """The folder's row, read again only when a file in it (or in its member folders) changed: reading
    every .hlog of a long history takes seconds, and the page is reloaded often."""
    return _row(root, folder, _signature(folder))


def _signature(folder: Path) -> tuple:
    return tuple(sorted((p.relative_to(folder).as_posix(), s.st_mtime_ns, s.st_size)
                        for p in (*folder.glob("*"), *folder.glob("*/*")) if p.is_file() and (s := p.stat())))


@lru_cache(maxsize=4096)
def _row(root: Path, folder: Path, signature: tuple) -> RunRow:
    run_id = folder.relative_to(root).as_posix()
    try:
        if is_live(folder):
            return _live_row(run_id, start_record(folder))
        run = load_run(folder)
        summary = summarize(run)
    except BadInput as e:
        return RunRow(run_id, "unreadable", "BROKEN", None, None, None, False, None, None, None, None, str(e))
    fields, standing = run.info.fields, standing_of(run)
    engine = (fields.get("scenario") or {}).get("engine")
    first = summary.latency[0]
    return RunRow(run_id, standing.status, standing.mark(), run.info.scenario_name,
                  ", ".join(engine) if isinstance(engine, list) else engine, fields.get("started_at"),
                  bool(fields.get("simulated")), summary.throughput, first.percentiles[99.0],
                  first.percentiles[99.99], summary.cores)


def _live_row(run_id: str, start: dict) -> RunRow:
    """A run without run.json yet: its figures come when it ends; the live view says whether it still plays."""
    return RunRow(run_id, "running", "", start.get("scenario"), None, None, False, None, None, None, None)


def run_rows(root: Path) -> list[RunRow]:
    return [run_row(root, folder) for folder in run_folders(root)]


class UnknownRun(LookupError):
    def __init__(self, run_id: str, root: Path):
        super().__init__(f"no run {run_id!r} under {root}: no such results folder")


def run_folder(root: Path, run_id: str) -> Path:
    """The folder of `run_id`, or UnknownRun: ids are only ever folders listed under the root, so a
    crafted one ('..', an absolute path) cannot reach other files."""
    for folder in run_folders(root):
        if folder.relative_to(root).as_posix() == run_id:
            return folder
    raise UnknownRun(run_id, root)
