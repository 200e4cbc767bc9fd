"""The dashboard's views without a browser: the runs index (good, broken, variant folders), a run's
page, a comparison with the gate's verdict, and the messages for bad input."""
import json
import shutil

import pytest

from fournines_analysis.dashboard.compare_page import compare_page
from fournines_analysis.dashboard.run_files import run_files, served_file
from fournines_analysis.dashboard.run_index import UnknownRun, run_folder, run_rows
from fournines_analysis.dashboard.run_page import run_page
from fournines_analysis.errors import BadInput
from synthetic import edit_run_json, write_run


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A results root: two good runs, a simulated one, a run with a broken run.json, a folder with
    nothing in it, and an ENGINE=a,b folder of two variants."""
    root = tmp_path_factory.mktemp("results")
    write_run(root / "20260101T000000Z-base", seed=1)
    write_run(root / "20260101T000100Z-slower", seed=2, slowdown=1.3)
    simulated = write_run(root / "20260101T000200Z-sim", seed=3)
    edit_run_json(simulated, simulated=True, calibration="calibration.json")
    broken = write_run(root / "20260101T000300Z-broken", seed=4)
    (broken / "run.json").write_text(json.dumps({"warmup_s": "five"}))
    (root / "20260101T000400Z-empty").mkdir()
    for engine in ("fournines", "jet"):
        write_run(root / "20260101T000500Z-q5-fournines-jet" / engine, seed=5)
        edit_run_json(root / "20260101T000500Z-q5-fournines-jet" / engine, scenario={"name": "q5", "engine": engine})
    (root / "20260101T000000Z-base" / "member.log").write_text("member started\n")
    return root


def test_every_folder_is_a_row_newest_first_variants_looked_into(results):
    rows = {row.run_id: row for row in run_rows(results)}
    assert list(rows) == ["20260101T000500Z-q5-fournines-jet/jet", "20260101T000500Z-q5-fournines-jet/fournines",
                          "20260101T000400Z-empty", "20260101T000300Z-broken", "20260101T000200Z-sim",
                          "20260101T000100Z-slower", "20260101T000000Z-base"]
    base = rows["20260101T000000Z-base"]
    assert (base.status, base.mark, base.scenario, base.simulated) == ("completed", "", "synthetic", False)
    assert base.rate == pytest.approx(1000) and base.p99 < base.p9999 and base.cores == pytest.approx(0.5, rel=0.2)
    assert rows["20260101T000500Z-q5-fournines-jet/jet"].engine == "jet"
    assert rows["20260101T000200Z-sim"].simulated


def test_a_broken_folder_is_a_row_naming_file_and_field(results):
    rows = {row.run_id: row for row in run_rows(results)}
    assert "run.json: field 'warmup_s': must be a number" in rows["20260101T000300Z-broken"].problem
    assert "20260101T000400Z-empty/run.json: missing" in rows["20260101T000400Z-empty"].problem


def test_unknown_and_crafted_run_ids_are_refused(results):
    assert run_folder(results, "20260101T000000Z-base") == results / "20260101T000000Z-base"
    for run_id in ("20991231T000000Z-none", "..", "../etc", str(results / "20260101T000000Z-base")):
        with pytest.raises(UnknownRun, match="no such results folder"):
            run_folder(results, run_id)


def test_a_run_page_has_the_report_the_plot_data_and_the_logs(results):
    folder = results / "20260101T000000Z-base"
    page = run_page(folder, folder.name)
    assert "<h2>Latency after warm-up</h2>" in page and "<h2>Run context</h2>" in page
    assert '"warmup_s": 5' in page and '"spectra"' in page
    assert 'href="/runs/20260101T000000Z-base/files/member.log"' in page
    assert not (folder / "plots").exists(), "the dashboard must not write into a results folder"


def test_a_run_page_marks_gc_cycles_pauses_and_faults_on_its_plots_over_time(tmp_path):
    from test_gc_log import G1
    folder = write_run(tmp_path / "20260101T000000Z-fault", seed=1)
    (folder / "gc.log").write_text(G1)
    edit_run_json(folder, faults_injected=[{"action": "kill", "target": "member-2", "at_s": 6.0,
                                            "since_load_start_s": 6.02}])
    page = run_page(folder, folder.name)
    data = json.loads(page.split('<script type="application/json" id="chart-data">')[1].split("</script>")[0])
    marks = data["over_time"]
    assert [round(p["ms"], 1) for p in marks["gc_pauses"]] == [15.5, 2.0, 1.5]  # each of 1 ms or more
    assert len(marks["gc_cycles"]) == 1 and marks["gc_cycles"][0]["end"] - marks["gc_cycles"][0]["start"] == pytest.approx(0.299)
    assert marks["faults"] == [{"t": 6.02, "label": "kill member-2"}]


def test_a_simulated_run_says_so(results):
    assert "<strong>SIMULATED</strong>: not measured from calibration calibration.json" in run_page(
        results / "20260101T000200Z-sim", "20260101T000200Z-sim")


def test_a_broken_run_page_is_bad_input_naming_the_field(results):
    with pytest.raises(BadInput, match="field 'warmup_s'"):
        run_page(results / "20260101T000300Z-broken", "20260101T000300Z-broken")


def test_only_listed_files_are_served(results, tmp_path):
    folder = results / "20260101T000000Z-base"
    assert run_files(folder) == {"logs": ["member.log"], "profiles": []}
    assert served_file(folder, "member.log") == folder / "member.log"
    assert served_file(folder, "run.json") is None and served_file(folder, "../x/member.log") is None


def test_a_comparison_has_the_gates_verdict_against_the_first(results):
    base, slower = results / "20260101T000000Z-base", results / "20260101T000100Z-slower"
    page = compare_page([(base.name, base), (slower.name, slower)])
    assert "<h3>20260101T000100Z-slower against 20260101T000000Z-base</h3>" in page
    assert "gate: FAILED, regression in" in page and '<tr class="regression">' in page


def test_a_comparison_with_a_run_the_gate_refuses_says_why(results, tmp_path):
    base = results / "20260101T000000Z-base"
    interrupted = shutil.copytree(results / "20260101T000100Z-slower", tmp_path / "interrupted")
    edit_run_json(interrupted, status="interrupted")
    page = compare_page([(base.name, base), ("interrupted", interrupted)])
    assert "The gate refuses to judge:" in page and "status: interrupted" in page


def test_a_folder_is_read_again_when_it_changes(tmp_path):
    folder = write_run(tmp_path / "20260101T000000Z-q5", seed=1)
    assert run_rows(tmp_path)[0].status == "completed"
    edit_run_json(folder, status="interrupted", padding="x" * 10)  # another size: the change shows even within one mtime tick
    assert run_rows(tmp_path)[0].status == "interrupted"
