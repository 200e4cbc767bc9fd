"""The report's Batches section: what each batch of a micro-batch or group run cost, from batches.csv
rows whose answer is known, and a clear error for a file that does not add up."""
import pytest

from fournines_analysis.batches import measured_batches, read_batches
from fournines_analysis.errors import BadInput
from fournines_analysis.report import write_report

HEADER = "batch,stage,launched_us,started_us,finished_us,done_us,group_size\n"
T0 = 1_795_000_000_000_000  # an epoch in µs


def rows(*batches, group_sizes=None, header=HEADER):
    """Each batch as its stages' (launched, started, finished, done) offsets in µs from T0 (without
    finished under the older header); groups of 1 unless given per batch."""
    sizes = group_sizes or [1] * len(batches)
    lines = [",".join(map(str, [n, s, *(T0 + t for t in times), sizes[n]]))
             for n, stages in enumerate(batches) for s, times in enumerate(stages)]
    return header + "\n".join(lines) + "\n"


def test_a_micro_batchs_stages_add_up_to_scheduling_compute_and_waiting(tmp_path):
    path = tmp_path / "batches.csv"
    # stage 0: launched 0, started 100, finished 5 000, heard 5 100; stage 1 launched 5 300 (300 waiting),
    # started 5 350, finished 7 300, heard 7 350 (50 more)
    path.write_text(rows([(0, 100, 5_000, 5_100), (5_300, 5_350, 7_300, 7_350)],
                         [(100_000, 100_020, 101_020, 101_020), (101_020, 101_030, 101_530, 101_530)]))
    first, second = read_batches(path)
    assert first.parts_us == (150, 6_850, 350)
    assert first.span_us == 7_350
    assert second.parts_us == (30, 1_500, 0)
    assert second.launched_us == T0 + 100_000


def test_a_groups_stages_run_at_once_so_its_batch_takes_less_than_its_parts(tmp_path):
    path = tmp_path / "batches.csv"
    # both stages launched at 0; stage 0 finished at 3 900, stage 1 (taking stage 0's output as it
    # comes) at 4 900, heard at 5 000: only the group's last stage waits for its report
    path.write_text(rows([(0, 0, 3_900, 4_000), (0, 100, 4_900, 5_000)], group_sizes=[10]))
    [batch] = read_batches(path)
    assert batch.parts_us == (100, 8_700, 100)
    assert batch.span_us == 5_000


def test_a_file_from_before_finish_times_takes_each_stages_done_as_its_finish(tmp_path):
    path = tmp_path / "batches.csv"
    path.write_text(rows([(0, 100, 5_100), (5_300, 5_350, 7_350)],
                         header="batch,stage,launched_us,started_us,done_us,group_size\n"))
    [batch] = read_batches(path)
    assert batch.parts_us == (150, 7_000, 200)


def test_the_warm_ups_batches_are_left_out(tmp_path):
    path = tmp_path / "batches.csv"
    path.write_text(rows(*[[(k * 100_000, k * 100_000 + 10, k * 100_000 + 20, k * 100_000 + 20)] for k in range(30)]))
    measured = measured_batches(read_batches(path), warmup_s=2.0)
    assert [b.batch for b in measured] == list(range(20, 30))


@pytest.mark.parametrize("text, where", [
    ("batch,stage,launched_us\n0,0,1\n", "batches.csv:1: the header must be"),
    (HEADER + "0,0,1,2,3,x,1\n", "batches.csv:2: field 'done_us': must be an integer; is 'x'"),
    (HEADER + "0,1,1,2,3,3,1\n", "batches.csv:2: field 'stage': must follow stage -1 of batch 0; is 1"),
    (HEADER + "0,0,5,4,6,6,1\n", "batches.csv:2: field 'started_us': is 4, before launched_us 5"),
    (HEADER + "0,0,1,2,5,4,1\n", "batches.csv:2: field 'done_us': is 4, before finished_us 5"),
    (HEADER + "0,0,1,2,3,3,0\n", "batches.csv:2: field 'group_size': must be at least 1; is 0"),
    (HEADER + "0,0,1,2\n", "batches.csv:2: must have 7 fields; has 4"),
])
def test_a_file_that_does_not_add_up_is_named_with_its_line_and_field(tmp_path, text, where):
    path = tmp_path / "batches.csv"
    path.write_text(text)
    with pytest.raises(BadInput, match=where.replace("(", r"\(")):
        read_batches(path)


def test_the_report_of_a_batched_run_has_its_batches_and_a_continuous_one_none(stall_run):
    report, _ = write_report(stall_run)
    assert "## Batches" not in report.read_text()
    (stall_run / "batches.csv").write_text(rows(*[[(k * 100_000, k * 100_000 + 50, k * 100_000 + 2_050, k * 100_000 + 2_050)] for k in range(200)]))
    report, _ = write_report(stall_run)
    text = report.read_text()
    assert "## Batches" in text
    assert "| compute | 2.00 | 2.00 | 2.00 |" in text
    assert "Groups of 1." in text
    assert (stall_run / "plots" / "batches.png").is_file()


def test_a_tuned_group_size_is_reported_with_its_range(stall_run):
    sizes = [2 if k % 2 else 4 for k in range(200)]  # after the 5 s warm-up, as many of each
    (stall_run / "batches.csv").write_text(rows(*[[(k * 100_000, k * 100_000 + 50, k * 100_000 + 2_050, k * 100_000 + 2_050)] for k in range(200)],
                                                group_sizes=sizes))
    report, _ = write_report(stall_run)
    assert "Group size tuned from 2 to 4 (median 3); the line is its trace." in report.read_text()
