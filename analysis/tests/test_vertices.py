"""graph.json and vertices.csv: a vertex's busy and backpressured share and input queue fill over an
interval from cumulative counters, members added up, the report's table, and bad files named."""
import json

import pytest

from fournines_analysis.dashboard.live_member_files import LiveMemberFiles
from fournines_analysis.errors import BadInput
from fournines_analysis.report import write_report
from fournines_analysis.vertices import latest_stats, read_graph, read_vertex_rows, run_vertex_rows, stats_between
from synthetic import write_run

HEADER = "time_s,vertex,items_in,items_out,sampled_us,busy_us,backpressured_us,queued_item_us,queue_room_us\n"
GRAPH = {"vertices": [{"name": "source", "parallelism": 2}, {"name": "window", "parallelism": 2}],
         "edges": [{"from": "source", "to": "window", "routing": "partitioned", "distributed": True}]}


def write_vertices(folder, rows, graph=GRAPH):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "graph.json").write_text(json.dumps(graph))
    (folder / "vertices.csv").write_text(HEADER + "".join(",".join(map(str, r)) + "\n" for r in rows))


def per_second(vertex, seconds, items_per_s, busy_per_s, backpressured_per_s=0, queued_per_s=0, room_per_s=0):
    """Cumulative rows: 50 samples a second, of which the given numbers."""
    return [(float(t), vertex, items_per_s * t, items_per_s * t, 50 * t, busy_per_s * t, backpressured_per_s * t,
             queued_per_s * t, room_per_s * t) for t in range(1, seconds + 1)]


def test_shares_and_rates_over_the_measurement_are_differences_of_the_counters(tmp_path):
    rows = per_second("window", 10, 1000, busy_per_s=40, backpressured_per_s=5, queued_per_s=512 * 50,
                      room_per_s=1024 * 50)
    # A busier warm-up, left out: the counters from the last sample at its end.
    rows = [(t, v, i, o, s, b if t > 3 else b + 10 * int(t), bp, q, r) for t, v, i, o, s, b, bp, q, r in rows]
    write_vertices(tmp_path, rows)
    [window] = stats_between(run_vertex_rows(tmp_path), 3.0)
    assert window.items_in_per_s == pytest.approx(1000)
    assert window.busy == pytest.approx((40 * 10 - (40 * 3 + 30)) / (50 * 7))  # the warm-up's extra at t=3 is in the base
    assert window.backpressured == pytest.approx(0.1)
    assert window.queue_fill == pytest.approx(0.5)


def test_members_add_up_and_a_vertex_never_sampled_has_no_share(tmp_path):
    write_vertices(tmp_path / "member-1", per_second("window", 5, 1000, busy_per_s=50))
    write_vertices(tmp_path / "member-2", per_second("window", 5, 3000, busy_per_s=0)
                   + [(float(t), "source", 10 * t, 10 * t, 0, 0, 0, 0, 0) for t in range(1, 6)])
    stats = {s.name: s for s in stats_between(run_vertex_rows(tmp_path), 1.0)}
    assert stats["window"].items_in_per_s == pytest.approx(4000)
    assert stats["window"].busy == pytest.approx(0.5)  # one member always busy, the other never
    assert stats["source"].busy is None and stats["source"].queue_fill is None
    assert read_graph(tmp_path).members == 2


def test_the_live_view_gets_each_member_s_latest_second_and_the_graph_once(tmp_path):
    write_vertices(tmp_path, per_second("window", 3, 1000, busy_per_s=25))
    with open(tmp_path / "vertices.csv", "a") as f:
        f.write("4.0,window,40")  # a row being written: left for the next read
    live = LiveMemberFiles(tmp_path)
    graph = live.new_graph()
    assert [v["name"] for v in graph["vertices"]] == ["source", "window"] and graph["edges"][0]["distributed"]
    assert live.new_graph() is None
    [window] = live.new_figures()
    assert window["busy"] == pytest.approx(0.5) and window["items_in_per_s"] == pytest.approx(1000)
    assert live.new_figures() is None  # nothing written since
    assert latest_stats([read_vertex_rows(tmp_path / "vertices.csv", whole_lines_only=True)])[0].name == "window"


def test_the_report_has_a_row_per_vertex_after_the_warm_up(tmp_path):
    folder = write_run(tmp_path / "run", seed=1, seconds=10, warmup_s=3)
    write_vertices(folder, per_second("source", 10, 2000, busy_per_s=10, backpressured_per_s=40)
                   + per_second("window", 10, 2000, busy_per_s=45, queued_per_s=900 * 50, room_per_s=1024 * 50))
    text = write_report(folder)[0].read_text()
    assert "## Where the time goes, per vertex" in text
    assert "| source | 2 | 2,000 | 2,000 | 20.0 % | 80.0 % | no input queues |" in text
    assert "| window | 2 | 2,000 | 2,000 | 90.0 % | 0.0 % | 87.9 % |" in text


def test_a_run_without_the_files_has_no_table(tmp_path):
    folder = write_run(tmp_path / "run", seed=1, seconds=10, warmup_s=3)
    assert "per vertex" not in write_report(folder)[0].read_text()


@pytest.mark.parametrize("rows, problem", [
    ([(1.0, "w", 1, 1, 50, 1, 0, 0, 0), (2.0, "w", 0, 1, 100, 1, 0, 0, 0)],
     "vertices.csv:3: field 'items_in': is cumulative and must not decrease for vertex 'w', goes from 1 to 0"),
    ([(1.0, "w", 1, 1, 50, 1, 0, 0, 0), (1.0, "w", 1, 1, 50, 1, 0, 0, 0)],
     "vertices.csv:3: field 'time_s': must increase for vertex 'w', goes from 1.0 to 1.0"),
    ([(1.0, "w", "many", 1, 50, 1, 0, 0, 0)], "vertices.csv:2: field 'items_in': not a whole number: 'many'"),
])
def test_a_broken_vertices_csv_is_named_with_line_and_field(tmp_path, rows, problem):
    write_vertices(tmp_path, rows)
    with pytest.raises(BadInput) as e:
        run_vertex_rows(tmp_path)
    assert str(e.value).endswith(problem)


def test_a_graph_whose_edge_names_an_unknown_vertex_is_refused(tmp_path):
    write_vertices(tmp_path, [], graph={**GRAPH, "edges": [{"from": "source", "to": "sink", "routing": "unicast",
                                                             "distributed": False}]})
    with pytest.raises(BadInput, match="an edge names vertex 'sink', which is not among the vertices"):
        read_graph(tmp_path)
