"""Where a metric changed over a series of runs (a results history), found by Apache Otava's change-point
detection (E-divisive means with a t-test, Fleming et al. 2023) rather than a fixed threshold, and
plotted with the changes marked.

Each run gives one value per metric, read after its warm-up as the report reads it: p99 and p99.99
of every latency series all runs have, and CPU per event and events/s per core when every run has
cpu.csv and throughput.csv. Runs are ordered by run.json's started_at (by folder name if a run lacks
it, which sorts by time too). A run that does not stand (failed, interrupted, logs missing seconds)
is left out of the series and listed, so a broken run cannot pose as a change.
"""
import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from fournines_analysis import formatting
from fournines_analysis.errors import BadInput
from fournines_analysis.results import Run, load_run
from fournines_analysis.standing import standing_of
from fournines_analysis.summary import summarize

ANALYSIS_DIR = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Column:
    unit: str
    show: Callable[[float], str]
    higher_is_worse: bool = True


LATENCY = Column("µs", formatting.micros)
CPU_PER_EVENT = Column("ns", formatting.nanos)
EVENTS_PER_CORE = Column("events/s", formatting.number0, higher_is_worse=False)


@dataclass(frozen=True)
class Change:
    metric: str
    index: int  # of the first run after the change
    run: str
    before: float
    after: float
    pvalue: float
    higher_is_worse: bool

    @property
    def relative(self) -> float:
        return self.after / self.before - 1 if self.before else float("nan")

    @property
    def worse(self) -> bool:
        return (self.after > self.before) == self.higher_is_worse


@dataclass(frozen=True)
class Trend:
    table: pd.DataFrame  # a row per run (index: folder name), a column per metric
    columns: dict[str, Column]
    changes: list[Change]
    left_out: list[str]  # runs that do not stand, with the reason
    settings: str

    def format(self) -> str:
        runs = self.table.index
        lines = [f"trend over {len(runs)} runs, {runs[0]} … {runs[-1]}; {self.settings}",
                 *(f"  left out (does not stand): {line}" for line in self.left_out), "",
                 f"{'metric':<26}  {'changed at run':<40}  {'before':>12}  {'after':>12}  {'change':>14}  p-value"]
        for name, column in self.columns.items():
            found = [c for c in self.changes if c.metric == name]
            if not found:
                lines.append(f"{name:<26}  no change")
            for c in found:
                lines.append(f"{name:<26}  {f'{c.index + 1}: {c.run}':<40}  {column.show(c.before):>12}  "
                             f"{column.show(c.after):>12}  {f'{c.relative:+.1%} ' + ('worse' if c.worse else 'better'):>14}"
                             f"  {c.pvalue:.1e}")
        return "\n".join(lines)


def trend(dirs: list[Path | str], otava_python: Path, window: int = 30, max_pvalue: float = 0.001,
          min_magnitude: float = 0.0) -> Trend:
    table, columns, left_out = metric_series(dirs)
    request = {"series": {name: table[name].tolist() for name in columns}, "window_len": window,
               "max_pvalue": max_pvalue, "min_magnitude": min_magnitude}
    found = _otava(otava_python, request)
    changes = []
    for name, column in columns.items():
        # Means of the whole stretches either side, as the plot draws them (Otava's own are of its window).
        starts = [p["index"] for p in found[name]]
        bounds = [0, *starts, len(table)]
        values = table[name].to_numpy()
        for i, point in enumerate(found[name]):
            changes.append(Change(name, point["index"], table.index[point["index"]],
                                  values[bounds[i]:bounds[i + 1]].mean(), values[bounds[i + 1]:bounds[i + 2]].mean(),
                                  point["pvalue"], column.higher_is_worse))
    settings = (f"Apache Otava change points at p <= {max_pvalue:g}, window {window} runs"
                + (f", at least {min_magnitude:.0%} change" if min_magnitude else ""))
    return Trend(table, columns, changes, left_out, settings)


def metric_series(dirs: list[Path | str]) -> tuple[pd.DataFrame, dict[str, Column], list[str]]:
    """The runs that stand, in time order, a row each and a column per metric; the runs left out, with why."""
    runs, left_out = _standing_runs([Path(d) for d in dirs])
    if len(runs) < 3:
        raise BadInput(Path(dirs[0]), f"a trend needs at least 3 runs that stand, found {len(runs)}")
    table, columns = _metric_table(runs)
    return table, columns, left_out


def _standing_runs(dirs: list[Path]) -> tuple[list[Run], list[str]]:
    folders = []
    for d in dirs:
        if (d / "run.json").exists():
            folders.append(d)
        elif d.is_dir():
            inside = sorted(p for p in d.iterdir() if (p / "run.json").exists())
            if not inside:
                raise BadInput(d, "neither a results folder (no run.json) nor a folder of results folders")
            folders += inside
        else:
            raise BadInput(d, "no such directory")
    runs = [load_run(f) for f in folders]
    if all(r.info.fields.get("started_at") for r in runs):
        runs.sort(key=lambda r: r.info.fields["started_at"])
    else:
        runs.sort(key=lambda r: r.label)
    standing, left_out = [], []
    for run in runs:
        verdict = standing_of(run)
        reasons = [str(gap) for gap in [verdict.status_gap(), *(gap for gap, _ in verdict.shortfalls)] if gap]
        if reasons:
            left_out += reasons
        else:
            standing.append(run)
    return standing, left_out


def _metric_table(runs: list[Run]) -> tuple[pd.DataFrame, dict[str, Column]]:
    summaries = [summarize(r) for r in runs]
    series = [s.series for s in summaries[0].latency if all(s.series in r.latency for r in runs)]
    with_work = all(s.per_core for s in summaries)
    rows = []
    for summary in summaries:
        row = {}
        for latency in (s for s in summary.latency if s.series in series):
            for p in (99.0, 99.99):
                row[f"{latency.series} {formatting.percentile_label(p)}"] = latency.percentiles[p]
        if with_work:
            row["CPU per event"] = 1e9 / summary.per_core
            row["events/s per core"] = summary.per_core
        rows.append(row)
    columns = {name: {"CPU per event": CPU_PER_EVENT, "events/s per core": EVENTS_PER_CORE}.get(name, LATENCY)
               for name in rows[0]}
    return pd.DataFrame(rows, index=[r.label for r in runs]), columns


def _otava(python: Path, request: dict) -> dict:
    if not Path(python).exists():
        raise FileNotFoundError(f"{python}: Apache Otava's venv is missing; `make venv` makes it")
    done = subprocess.run([str(python), "-m", "fournines_analysis.changepoints"], input=json.dumps(request),
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ANALYSIS_DIR)})
    if done.returncode:
        raise RuntimeError(f"Apache Otava failed (exit {done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout)
