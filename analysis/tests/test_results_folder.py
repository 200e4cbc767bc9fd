"""run.json and the CSV time series: what is optional, and errors that point at the broken spot."""
import pytest

from fournines_analysis.errors import BadInput
from fournines_analysis.results import load_run
from fournines_analysis.summary import summarize
from synthetic import edit_run_json


def test_only_warmup_is_required(stall_run):
    (stall_run / "run.json").write_text('{"warmup_s": 5}')
    (stall_run / "throughput.csv").unlink()
    (stall_run / "cpu.csv").unlink()
    run = load_run(stall_run)
    assert run.info.scenario_name is None
    summary = summarize(run)
    assert summary.throughput is None and summary.cores is None and summary.per_core is None


def test_missing_warmup_names_the_field(stall_run):
    edit_run_json(stall_run, warmup_s=...)
    with pytest.raises(BadInput, match=r"run\.json: field 'warmup_s': missing"):
        load_run(stall_run)


def test_wrong_type_names_the_field(stall_run):
    edit_run_json(stall_run, cores="two")
    with pytest.raises(BadInput, match=r"field 'cores': must be an integer, is \"two\""):
        load_run(stall_run)


def test_invalid_json_names_the_line(stall_run):
    (stall_run / "run.json").write_text('{\n  "warmup_s": 5,\n  "cores": 2,,\n}')
    with pytest.raises(BadInput) as error:
        load_run(stall_run)
    assert error.value.line == 3


def test_a_folder_without_hlogs_is_an_error(stall_run):
    for hlog in stall_run.glob("*.hlog"):
        hlog.unlink()
    with pytest.raises(BadInput, match=r"no latency logs \(\*\.hlog\)"):
        load_run(stall_run)


def test_a_bad_csv_value_names_line_and_column(stall_run):
    path = stall_run / "cpu.csv"
    lines = path.read_text().splitlines()
    lines[4] = "4,two"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(BadInput) as error:
        load_run(stall_run)
    assert (error.value.path.name, error.value.line, error.value.field) == ("cpu.csv", 5, "cpu_seconds")


def test_a_missing_csv_column_is_named(stall_run):
    (stall_run / "throughput.csv").write_text("time_s,events_per_s\n1,1000\n")
    with pytest.raises(BadInput, match="missing column.s. events;"):
        load_run(stall_run)


def test_counters_must_not_go_backwards(stall_run):
    (stall_run / "throughput.csv").write_text("time_s,events,events_per_s\n1,1000,1000\n2,900,0\n")
    with pytest.raises(BadInput, match="must not decrease") as error:
        load_run(stall_run)
    assert (error.value.line, error.value.field) == (3, "events")


def test_warmup_longer_than_the_log_is_an_error(stall_run):
    edit_run_json(stall_run, warmup_s=30)
    with pytest.raises(BadInput, match=r"no interval ends after the warm-up \(30 s\)"):
        summarize(load_run(stall_run))
