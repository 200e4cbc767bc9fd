"""snapshots.csv (analysis/docs/results-folder.md): each committed snapshot's start, the instant every
processor had written its state (the reference engine writes a large window state after the
barrier went on, while windows go on; other states before it), its commit
and its size. A cluster's members commit the same snapshots: one of the cluster's spans from the
first member's start to the last one's save and commit, its size the members' sum."""
import csv
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from fournines_analysis import plots
from fournines_analysis.document import Block, Heading, Image, Paragraph, Table
from fournines_analysis.errors import BadInput, read_text
from fournines_analysis.vertices import processes

SNAPSHOTS_FILE = "snapshots.csv"
COLUMNS = ("id", "started_s", "saved_s", "committed_s", "bytes")


@dataclass(frozen=True)
class SnapshotTime:
    id: int
    started_s: float
    saved_s: float
    committed_s: float
    bytes: int

    @property
    def saving_s(self) -> float:
        return self.saved_s - self.started_s

    @property
    def duration_s(self) -> float:
        return self.committed_s - self.started_s


def read_snapshot_file(path: Path, whole_lines_only: bool = False) -> list[SnapshotTime]:
    """One member's snapshots.csv; with `whole_lines_only`, a last line still being written is left for later."""
    text = read_text(path)
    if whole_lines_only:
        text = text[:text.rfind("\n") + 1]
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise BadInput(path, f"missing column(s) {', '.join(missing)}; the header must name {', '.join(COLUMNS)}", 1)
    rows = []
    for row in reader:
        line = reader.line_num
        values = {c: _number(row[c], path, line, c, int if c in ("id", "bytes") else float) for c in COLUMNS}
        snapshot = SnapshotTime(**values)
        if not snapshot.started_s <= snapshot.saved_s <= snapshot.committed_s:
            raise BadInput(path, f"started_s ≤ saved_s ≤ committed_s must hold; are {snapshot.started_s}, "
                                 f"{snapshot.saved_s}, {snapshot.committed_s}", line)
        if rows and snapshot.id <= rows[-1].id:
            raise BadInput(path, f"must increase, goes from {rows[-1].id} to {snapshot.id}", line, "id")
        rows.append(snapshot)
    return rows


def cluster_snapshots(members: list[list[SnapshotTime]]) -> list[SnapshotTime]:
    """The snapshots as the cluster took them: per id, the members' earliest start, latest save and commit, summed size."""
    by_id: dict[int, list[SnapshotTime]] = {}
    for rows in members:
        for s in rows:
            by_id.setdefault(s.id, []).append(s)
    return [SnapshotTime(i, min(s.started_s for s in same), max(s.saved_s for s in same),
                         max(s.committed_s for s in same), sum(s.bytes for s in same))
            for i, same in sorted(by_id.items())]


def run_snapshots(run_dir: Path) -> list[SnapshotTime] | None:
    """None when no member wrote snapshots.csv (no snapshots, or an engine that does not say)."""
    files = [folder / SNAPSHOTS_FILE for folder in processes(run_dir) if (folder / SNAPSHOTS_FILE).is_file()]
    return cluster_snapshots([read_snapshot_file(f) for f in files]) if files else None


def snapshot_blocks(run_dir: Path, warmup_s: float, title: str, plots_dir: Path) -> list[Block]:
    snapshots = run_snapshots(run_dir)
    if snapshots is None:
        return []
    measured = [s for s in snapshots if s.started_s >= warmup_s]
    blocks: list[Block] = [Heading("Snapshots")]
    if not measured:
        return blocks + [Paragraph(f"{len(snapshots)} committed, none after the warm-up.")]
    saving = np.array([s.saving_s for s in measured]) * 1e3
    duration = np.array([s.duration_s for s in measured]) * 1e3
    size = np.array([s.bytes for s in measured])
    blocks += [
        Paragraph(f"{len(measured)} committed after the warm-up. Saving is from the snapshot's start until "
                  "every processor had written its state (a copy-on-write state is written while the stage "
                  "goes on; any other while it emits nothing); commit is when the store (on a cluster, every "
                  "member) had it."),
        Table(["", "median", "p90", "max"],
              [["start to saved (ms)", *(f"{np.percentile(saving, p):,.1f}" for p in (50, 90, 100))],
               ["start to commit (ms)", *(f"{np.percentile(duration, p):,.1f}" for p in (50, 90, 100))],
               ["size (bytes)", *(f"{np.percentile(size, p):,.0f}" for p in (50, 90, 100))]]),
        Image(plots.save(timeline_figure(snapshots, warmup_s, f"{title}: snapshots"), plots_dir / "snapshots.png"),
              "each snapshot from its start to its commit, its saving part darker"),
    ]
    return blocks


def timeline_figure(snapshots: list[SnapshotTime], warmup_s: float, title: str) -> Figure:
    fig = Figure(figsize=(9, 3.5), layout="constrained")
    ax = fig.subplots()
    starts = [s.started_s for s in snapshots]
    ax.bar(starts, [s.duration_s * 1e3 for s in snapshots], width=0.25, align="edge", color="tab:blue", alpha=0.45,
           label="start to commit")
    ax.bar(starts, [s.saving_s * 1e3 for s in snapshots], width=0.25, align="edge", color="tab:blue",
           label="start to saved (synchronous)")
    if warmup_s > 0:
        ax.axvspan(min(0.0, *starts), warmup_s, color="grey", alpha=0.2, label="warm-up (excluded)")
    ax.set_xlabel("snapshot start, time since start (s)")
    ax.set_ylabel("ms")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper right")
    return fig


def _number(text, path: Path, line: int, column: str, kind):
    try:
        value = kind(text)
    except (TypeError, ValueError):
        raise BadInput(path, f"not {'a whole number' if kind is int else 'a number'}: {text!r}", line, column) from None
    if kind is int and value < 0:
        raise BadInput(path, f"must not be negative: {text!r}", line, column)
    return value
