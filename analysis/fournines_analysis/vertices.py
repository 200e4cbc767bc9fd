"""The job's graph (graph.json) and where its time goes, per vertex (vertices.csv), as each member of
the run wrote them (analysis/docs/results-folder.md): items in and out, and the engine's samples of
its workers, each weighted by the microseconds it stands for, from which a vertex's busy share,
backpressured share and input queue fill over any interval are differences of cumulative counters. A cluster's members add up: their items, their
samples, their queues."""
import bisect
import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path

from fournines_analysis.document import Block, Heading, Paragraph, Table
from fournines_analysis.errors import BadInput, read_text
from fournines_analysis.members import member_processes

GRAPH_FILE = "graph.json"
VERTICES_FILE = "vertices.csv"
COUNTERS = ("items_in", "items_out", "sampled_us", "busy_us", "backpressured_us", "queued_item_us", "queue_room_us")


@dataclass(frozen=True)
class Vertex:
    name: str
    parallelism: int  # instances on one member


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    routing: str
    distributed: bool


@dataclass(frozen=True)
class Graph:
    vertices: list[Vertex]
    edges: list[Edge]
    members: int  # members that wrote it


@dataclass(frozen=True)
class VertexStats:
    """One vertex over an interval, summed over members; a share is None where nothing was sampled."""
    name: str
    items_in_per_s: float
    items_out_per_s: float
    busy: float | None
    backpressured: float | None
    queue_fill: float | None


# per vertex: (time_s, counters) rows of one member, in time order
Rows = dict[str, list[tuple[float, tuple[int, ...]]]]


def processes(run_dir: Path) -> list[Path]:
    """The folders a run's processes wrote into: each member's, or the run's own for one member."""
    found = [folder for _, folder in member_processes(Path(run_dir))]
    return found or [Path(run_dir)]


def read_graph(run_dir: Path) -> Graph | None:
    """The run's graph, from the first process that wrote one; None if none did (an engine that does not say)."""
    graphs = [folder / GRAPH_FILE for folder in processes(run_dir) if (folder / GRAPH_FILE).is_file()]
    if not graphs:
        return None
    return _parse_graph(graphs[0], len(graphs))


def read_vertex_rows(path: Path, whole_lines_only: bool = False) -> Rows:
    """A member's vertices.csv; with `whole_lines_only`, a last line still being written is left for later."""
    text = read_text(path)
    if whole_lines_only:
        text = text[:text.rfind("\n") + 1]
    reader = csv.DictReader(io.StringIO(text, newline=""))
    columns = ("time_s", "vertex", *COUNTERS)
    missing = [c for c in columns if c not in (reader.fieldnames or [])]
    if missing:
        raise BadInput(path, f"missing column(s) {', '.join(missing)}; the header must name {', '.join(columns)}", 1)
    rows: Rows = {}
    for row in reader:
        line = reader.line_num
        time_s = _number(row["time_s"], path, line, "time_s", float)
        counters = tuple(_number(row[c], path, line, c, int) for c in COUNTERS)
        series = rows.setdefault(row["vertex"], [])
        if series:
            last_time, last = series[-1]
            if time_s <= last_time:
                raise BadInput(path, f"must increase for vertex {row['vertex']!r}, goes from {last_time} to {time_s}",
                               line, "time_s")
            for name, before, now in zip(COUNTERS, last, counters):
                if now < before:
                    raise BadInput(path, f"is cumulative and must not decrease for vertex {row['vertex']!r}, "
                                         f"goes from {before} to {now}", line, name)
        series.append((time_s, counters))
    return rows


def run_vertex_rows(run_dir: Path) -> list[Rows]:
    return [read_vertex_rows(folder / VERTICES_FILE) for folder in processes(run_dir)
            if (folder / VERTICES_FILE).is_file()]


def stats_between(members: list[Rows], start_s: float, end_s: float | None = None) -> list[VertexStats]:
    """Each vertex from the last sample at or before `start_s` (the first, if none is) to the last at or
    before `end_s` (the last one, if None), each member's difference over its own span, added up."""
    names = list(dict.fromkeys(name for rows in members for name in rows))
    return [_stats(name, [rows[name] for rows in members if name in rows], start_s, end_s) for name in names]


def latest_stats(members: list[Rows]) -> list[VertexStats]:
    """Each vertex over each member's last sample: what the live view shows."""
    names = list(dict.fromkeys(name for rows in members for name in rows))
    latest = []
    for name in names:
        spans = [series for rows in members if len(series := rows.get(name, [])) >= 2]
        if spans:
            latest.append(_stats(name, spans, 0.0, None, last_only=True))
    return latest


def vertex_blocks(run_dir: Path, warmup_s: float) -> list[Block]:
    """The report's table of where the time went, per vertex, after the warm-up; nothing without vertices.csv."""
    graph = read_graph(run_dir)
    members = run_vertex_rows(run_dir)
    if graph is None or not members:
        return []
    stats = {s.name: s for s in stats_between(members, warmup_s)}
    rows = []
    for v in graph.vertices:
        s = stats.get(v.name)
        if s is not None:
            fill = "no input queues" if s.queue_fill is None and s.busy is not None else _percent(s.queue_fill)
            rows.append([v.name, str(v.parallelism * graph.members), f"{s.items_in_per_s:,.0f}", f"{s.items_out_per_s:,.0f}",
                         _percent(s.busy), _percent(s.backpressured), fill])
    return [Heading("Where the time goes, per vertex"),
            Paragraph("After the warm-up, summed over members. Busy: the share of the time, as the engine samples "
                      "its workers (about 50 times a second, at random intervals), in which an "
                      "instance's worker was in its call; backpressured: in which its output was refused by a full "
                      "queue; input queue fill: items waiting in its input queues over their capacity. A vertex run "
                      "on its own thread (not cooperative) is not sampled."),
            Table(["vertex", "instances", "items in/s", "items out/s", "busy", "backpressured", "input queue fill"], rows)]


def _stats(name: str, spans: list[list[tuple[float, tuple[int, ...]]]], start_s: float, end_s: float | None,
           last_only: bool = False) -> VertexStats:
    totals = [0] * len(COUNTERS)
    items_in_rate = items_out_rate = 0.0
    for series in spans:
        if last_only:
            (t0, first), (t1, last) = series[-2], series[-1]
        else:
            times = [t for t, _ in series]
            i0 = max(0, _last_at_or_before(times, start_s))
            i1 = len(series) - 1 if end_s is None else max(i0, _last_at_or_before(times, end_s))
            (t0, first), (t1, last) = series[i0], series[i1]
        delta = [b - a for a, b in zip(first, last)]
        totals = [t + d for t, d in zip(totals, delta)]
        if t1 > t0:
            items_in_rate += delta[0] / (t1 - t0)
            items_out_rate += delta[1] / (t1 - t0)
    _, _, samples, busy, backpressured, queued, room = totals
    return VertexStats(name, items_in_rate, items_out_rate, busy / samples if samples else None,
                       backpressured / samples if samples else None, queued / room if room else None)


def _last_at_or_before(times: list[float], t: float) -> int:
    return bisect.bisect_right(times, t + 1e-9) - 1


def _percent(share: float | None) -> str:
    return "not sampled" if share is None else f"{share * 100:.1f} %"


def _parse_graph(path: Path, members: int) -> Graph:
    try:
        doc = json.loads(read_text(path))
    except json.JSONDecodeError as e:
        raise BadInput(path, f"not JSON: {e.msg}", e.lineno) from None
    try:
        vertices = [Vertex(str(v["name"]), int(v["parallelism"])) for v in doc["vertices"]]
        edges = [Edge(str(e["from"]), str(e["to"]), str(e["routing"]), bool(e["distributed"])) for e in doc["edges"]]
    except (KeyError, TypeError, ValueError) as e:
        raise BadInput(path, f"not a job graph ({{\"vertices\": [{{name, parallelism}}], \"edges\": "
                             f"[{{from, to, routing, distributed}}]}}): {e!r}") from None
    names = {v.name for v in vertices}
    for e in edges:
        for end in (e.source, e.target):
            if end not in names:
                raise BadInput(path, f"an edge names vertex {end!r}, which is not among the vertices", field="edges")
    return Graph(vertices, edges, members)


def _number(text: str, path: Path, line: int, column: str, kind):
    try:
        return kind(text)
    except (TypeError, ValueError):
        raise BadInput(path, f"not {'a whole number' if kind is int else 'a number'}: {text!r}", line, column) from None
