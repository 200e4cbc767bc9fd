"""Stolen CPU: host.csv read into a summary of the measurement, and the latency intervals a stolen
second may have held up marked, so an SLO can be judged without them."""
import pytest

from fournines_analysis.report import write_report
from fournines_analysis.results import load_run
from fournines_analysis.slo import check_slo, parse_slo
from fournines_analysis.steal import STOLEN_MARK_S, intervals_after_stolen_seconds, steal_after_warmup
from synthetic import write_run


def host_csv(folder, stolen_per_second):
    total, rows = 0.0, []
    for second, stolen in enumerate(stolen_per_second, start=1):
        total += stolen
        rows.append(f"{second}.000,{total:.2f}\n")
    (folder / "host.csv").write_text("time_s,steal_seconds\n" + "".join(rows))


def test_the_measurement_s_stolen_cpu_is_summed_and_its_worst_second_found(tmp_path):
    folder = write_run(tmp_path / "run", seed=1, seconds=10, warmup_s=3)
    host_csv(folder, [0.5, 0, 0, 0.01, 0.07, 0, 0.03, 0, 0, 0])  # the first second is in the warm-up
    summary = steal_after_warmup(load_run(folder).host, 3)
    assert summary.total_s == pytest.approx(0.11) and summary.wall_s == 7
    assert (summary.worst_s, summary.worst_at_s, summary.stolen_seconds) == (0.07, 5, 2)
    assert str(summary) == "110 ms of CPU stolen by the hypervisor over 7 s (2 seconds with ≥ 20 ms; the worst 70 ms, at 5 s)"


def test_without_host_csv_there_is_nothing_to_say(tmp_path):
    run = load_run(write_run(tmp_path / "run", seed=1, seconds=10, warmup_s=3))
    assert run.host is None and steal_after_warmup(None, 3) is None
    assert not intervals_after_stolen_seconds(next(iter(run.latency.values())), None).any()


def test_a_stolen_second_marks_the_intervals_it_overlaps_and_the_one_after(tmp_path):
    folder = write_run(tmp_path / "run", seed=1, seconds=10, warmup_s=3)
    stolen = [0.0] * 10
    stolen[5] = STOLEN_MARK_S  # the sample ending at 6 s: (5, 6]
    stolen[8] = STOLEN_MARK_S / 2  # below the mark: not stolen
    host_csv(folder, stolen)
    run = load_run(folder)
    marked = intervals_after_stolen_seconds(run.latency["latency"], run.host)
    # Intervals start at 0..9 s and last 1 s: [5, 6) overlaps it, and [6, 7) is the second after.
    assert marked.nonzero()[0].tolist() == [5, 6]


def test_an_slo_can_be_checked_without_some_intervals(tmp_path):
    run = load_run(write_run(tmp_path / "run", seed=3))
    log = run.latency["latency"]
    tail = parse_slo("p99.99<=5ms")
    assert not check_slo(tail, run)[0].met
    paused = log.per_interval(100) > 5_000  # write_run's pauses, of up to 20 ms
    [without] = check_slo(tail, run, leave_out=paused)
    assert without.met


def test_the_report_says_what_the_host_lost(tmp_path):
    folder = write_run(tmp_path / "run", seed=1, seconds=10, warmup_s=3)
    host_csv(folder, [0, 0, 0, 0, 0.04, 0, 0, 0, 0, 0])
    report, _ = write_report(folder)
    assert "Host: 40 ms of CPU stolen by the hypervisor over 7 s (1 second with ≥ 20 ms" in report.read_text()
