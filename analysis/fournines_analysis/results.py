"""A results folder `results/<UTC time>-<scenario>/`, loaded: run.json, every *.hlog, and the
optional throughput.csv, cpu.csv, load.csv and host.csv (see analysis/docs/results-folder.md for the format)."""
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from fournines_analysis.errors import BadInput
from fournines_analysis.hlog import LatencyLog, read_hlog
from fournines_analysis.runinfo import RunInfo, read_run_info
from fournines_analysis.steal import HOST_COLUMNS, HOST_FILE
from fournines_analysis.timeseries import CPU_COLUMNS, LOAD_COLUMNS, LOAD_FILE, THROUGHPUT_COLUMNS, read_series


@dataclass(frozen=True, eq=False)
class Run:
    path: Path
    info: RunInfo
    latency: dict[str, LatencyLog]  # series name (file stem) -> its intervals
    throughput: pd.DataFrame | None
    cpu: pd.DataFrame | None
    load: pd.DataFrame | None  # the load source's events made and schedule lag; None in folders older than load.csv
    host: pd.DataFrame | None = None  # CPU stolen from the host (steal.py); None where the host could not say

    @property
    def label(self) -> str:
        """The folder name: it carries the UTC time and the scenario, so it tells runs apart."""
        return self.path.name

    @property
    def warmup_s(self) -> float:
        return self.info.warmup_s


def load_run(path: Path | str) -> Run:
    path = Path(path)
    if not path.is_dir():
        raise BadInput(path, "not a results folder (no such directory)")
    info = read_run_info(path / "run.json")
    # latency.hlog, the per-event (or first-result) latency, leads; other series follow by name.
    hlogs = sorted(path.glob("*.hlog"), key=lambda p: (p.stem != "latency", p.name))
    if not hlogs:
        raise BadInput(path, "no latency logs (*.hlog) in the results folder")
    latency = {log.name: log for hlog in hlogs for log in read_hlog(hlog)}
    throughput = _optional(path / "throughput.csv", THROUGHPUT_COLUMNS, "events")
    cpu = _optional(path / "cpu.csv", CPU_COLUMNS, "cpu_seconds")
    load = _optional(path / LOAD_FILE, LOAD_COLUMNS, "generated")
    host = _optional(path / HOST_FILE, HOST_COLUMNS, "steal_seconds")
    return Run(path, info, latency, throughput, cpu, load, host)


def _optional(path: Path, columns, cumulative) -> pd.DataFrame | None:
    return read_series(path, columns, cumulative) if path.exists() else None
