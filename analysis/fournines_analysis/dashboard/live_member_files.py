"""What the members of a run in progress write beside live.jsonl, for the live view: graph.json once a
member has written it, the vertices' figures over each member's latest second of vertices.csv
(analysis/vertices.py), and the snapshots committed since the last look (snapshot_timeline.py);
each file read again only when a member wrote more."""
import dataclasses
from pathlib import Path

from fournines_analysis.snapshot_timeline import SNAPSHOTS_FILE, cluster_snapshots, read_snapshot_file
from fournines_analysis.vertices import GRAPH_FILE, VERTICES_FILE, latest_stats, processes, read_graph, read_vertex_rows


class LiveMemberFiles:
    def __init__(self, folder: Path):
        self.folder = folder
        self._graph_sent = False
        self._sizes: dict[Path, int] = {}
        self._snapshot_sizes: dict[Path, int] = {}
        self._last_snapshot_sent = -1

    def new_graph(self) -> dict | None:
        """The graph the first time it can be read, then None."""
        if self._graph_sent or not any((p / GRAPH_FILE).is_file() for p in processes(self.folder)):
            return None
        graph = read_graph(self.folder)
        self._graph_sent = True
        return {"vertices": [dataclasses.asdict(v) for v in graph.vertices],
                "edges": [dataclasses.asdict(e) for e in graph.edges], "members": graph.members}

    def new_figures(self) -> list[dict] | None:
        """Each vertex over the members' latest second, when a member wrote a row since the last call; else None."""
        files, self._sizes, changed = _changed(self.folder, VERTICES_FILE, self._sizes)
        if not changed:
            return None
        figures = latest_stats([read_vertex_rows(f, whole_lines_only=True) for f in files])
        return [dataclasses.asdict(s) for s in figures] or None

    def new_snapshots(self) -> list[dict] | None:
        """The snapshots first committed since the last call, oldest first: each as the members that had
        written it then took it (the report, after the run, has every member's rows)."""
        files, self._snapshot_sizes, changed = _changed(self.folder, SNAPSHOTS_FILE, self._snapshot_sizes)
        if not changed:
            return None
        snapshots = [s for s in cluster_snapshots([read_snapshot_file(f, whole_lines_only=True) for f in files])
                     if s.id > self._last_snapshot_sent]
        if not snapshots:
            return None
        self._last_snapshot_sent = snapshots[-1].id
        return [dataclasses.asdict(s) for s in snapshots]


def _changed(folder: Path, name: str, sizes: dict[Path, int]) -> tuple[list[Path], dict[Path, int], bool]:
    """The members' files called `name`, their sizes now, and whether any grew (or appeared) since `sizes`."""
    files = [p / name for p in processes(folder) if (p / name).is_file()]
    now = {f: f.stat().st_size for f in files}
    return files, now, bool(files) and now != sizes
