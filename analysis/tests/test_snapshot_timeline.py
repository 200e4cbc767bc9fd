"""snapshots.csv: a run's snapshot timeline, a cluster's members' rows of one snapshot as one, the
report's section, the live view's new snapshots, and a broken file named."""
import pytest

from fournines_analysis.dashboard.live_member_files import LiveMemberFiles
from fournines_analysis.errors import BadInput
from fournines_analysis.report import write_report
from fournines_analysis.snapshot_timeline import run_snapshots
from synthetic import write_run

HEADER = "id,started_s,saved_s,committed_s,bytes\n"


def write_snapshots(folder, rows):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "snapshots.csv").write_text(HEADER + "".join(",".join(map(str, r)) + "\n" for r in rows))


def test_a_cluster_s_snapshot_spans_its_members_first_start_to_last_commit(tmp_path):
    write_snapshots(tmp_path / "member-1", [(1, 1.0, 1.02, 1.05, 100), (2, 2.0, 2.01, 2.03, 120)])
    write_snapshots(tmp_path / "member-2", [(1, 1.001, 1.03, 1.06, 90)])  # snapshot 2 not written yet here
    one, two = run_snapshots(tmp_path)
    assert (one.id, one.started_s, one.saved_s, one.committed_s, one.bytes) == (1, 1.0, 1.03, 1.06, 190)
    assert two.bytes == 120 and two.duration_s == pytest.approx(0.03)


def test_the_report_gives_the_durations_after_the_warm_up_and_draws_the_timeline(tmp_path):
    folder = write_run(tmp_path / "run", seed=1, seconds=10, warmup_s=3)
    # one a second; the one in the warm-up slow, and left out
    write_snapshots(folder, [(1, 1.0, 1.5, 2.0, 1000)] + [(i, float(i), i + 0.010 * i, i + 0.020 * i, 1000 * i)
                                                          for i in range(3, 9)])
    text = write_report(folder)[0].read_text()
    assert "## Snapshots" in text and "6 committed after the warm-up." in text
    assert "| start to saved (ms) | 55.0 |" in text  # the median of 30, 40 … 80
    assert "| start to commit (ms) | 110.0 | 150.0 | 160.0 |" in text
    assert (folder / "plots" / "snapshots.png").is_file()


def test_a_run_without_snapshots_has_no_section(tmp_path):
    assert "## Snapshots" not in write_report(write_run(tmp_path / "run", seed=1, seconds=10, warmup_s=3))[0].read_text()


def test_the_live_view_gets_each_snapshot_once_as_it_is_committed(tmp_path):
    write_snapshots(tmp_path, [(1, 1.0, 1.01, 1.02, 10)])
    live = LiveMemberFiles(tmp_path)
    assert [s["id"] for s in live.new_snapshots()] == [1]
    assert live.new_snapshots() is None
    with open(tmp_path / "snapshots.csv", "a") as f:
        f.write("2,2.0,2.01,2.02,10\n3,3.0,3.0")  # the third still being written
    assert [s["id"] for s in live.new_snapshots()] == [2]


@pytest.mark.parametrize("rows, problem", [
    ([(1, 1.0, 0.9, 1.1, 5)], "snapshots.csv:2: started_s ≤ saved_s ≤ committed_s must hold; are 1.0, 0.9, 1.1"),
    ([(2, 1.0, 1.0, 1.1, 5), (2, 2.0, 2.0, 2.1, 5)], "snapshots.csv:3: field 'id': must increase, goes from 2 to 2"),
    ([(1, 1.0, 1.0, 1.1, -5)], "snapshots.csv:2: field 'bytes': must not be negative: '-5'"),
    ([(1, "soon", 1.0, 1.1, 5)], "snapshots.csv:2: field 'started_s': not a number: 'soon'"),
])
def test_a_broken_snapshots_csv_is_named_with_line_and_field(tmp_path, rows, problem):
    write_snapshots(tmp_path, rows)
    with pytest.raises(BadInput) as e:
        run_snapshots(tmp_path)
    assert str(e.value).endswith(problem)
