"""./fournines sim-figures on a tiny scale: every figure written with its plot and its published
values; the overlay drawn on the plot; the ratios computed from the curves drawn; a bad setting
refused before anything starts."""
import json

import pytest
from click.testing import CliRunner

from fournines.cli import cli
from fournines.targets.sim.paper_figures import Figure, Published
from fournines.targets.sim.paper_figures_report import drawn
from refusal import refused

FIGURES = ["drizzle-fig4a", "drizzle-fig5b", "drizzle-fig6", "drizzle-fig6b", "drizzle-fig7", "drizzle-fig10-group-size",
           "drizzle-fig10-latency", "jet-fig10-throughput", "jet-fig10-latency", "jet-fig8"]


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    root = tmp_path_factory.mktemp("figures")
    result = CliRunner().invoke(cli, ["sim-figures", "MAX_MACHINES=8", "DURATION=30s", "--results-root", str(root)])
    assert result.exit_code == 0, result.output
    (folder,) = root.iterdir()
    return folder, json.loads((folder / "figures.json").read_text()), result.output


def test_every_figure_is_drawn_with_its_points(written):
    folder, record, _ = written
    assert [f["name"] for f in record["figures"]] == FIGURES
    for figure in record["figures"]:
        assert (folder / "plots" / f"{figure['name']}.png").stat().st_size > 0
        assert figure["curves"] and all(figure["curves"].values()), figure["name"]
    fig4a = record["figures"][0]
    assert {label: [x for x, _ in points] for label, points in fig4a["curves"].items()} == {
        label: [4, 8] for label in ("Spark-like (micro-batch)", "group of 25", "group of 50", "group of 100")}
    report = (folder / "report.md").read_text()
    assert report.startswith("# The papers' figures — SIMULATED")


def test_the_published_values_are_those_stated_in_words_each_with_its_source(written):
    _, record, _ = written
    published = {f["name"]: [(p["curve"], p["x"], p["y"], p["bound"]) for p in f["published"]] for f in record["figures"]}
    assert published["drizzle-fig4a"] == [("Spark-like (micro-batch)", 128, 195, "="), ("group of 100", 128, 5, "<=")]
    assert published["drizzle-fig5b"] == []  # a ratio only in the text: nothing overlaid, and the report says so
    assert published["drizzle-fig6"] == [("group of 10", 350, 0.5, "=")]
    assert published["drizzle-fig6b"] == []  # the text we have states no value for it
    assert published["drizzle-fig7"] == published["drizzle-fig10-group-size"] == published["drizzle-fig10-latency"] == []
    assert published["jet-fig8"] == [("simulated", 20, 16, "<=")]
    assert all(p["source"] for f in record["figures"] for p in f["published"])
    for figure in record["figures"]:
        assert figure["published"] or "none overlaid" in figure["published_note"], figure["name"]


def test_the_aimd_trace_starts_at_one_batch_a_group_and_grows_while_every_batch_is_in_time(written):
    _, record, _ = written
    sizes = dict(record["figures"][FIGURES.index("drizzle-fig10-group-size")]["curves"])["target 1000 ms"]
    assert sizes[0][1] == 1 and max(size for _, size in sizes) > 1


def test_fig6b_batches_cost_throughput_under_the_tightest_target(written):
    """8 machines: every model reaches the same CPU-bound rate under a loose target. Under 250 ms a
    500 ms batch's compute must fit in the target, which continuous operators need not; the Spark-like
    model's launches and barriers leave its batches less of it than groups' pre-scheduled ones."""
    _, record, _ = written
    curves = {label: dict(points) for label, points in record["figures"][FIGURES.index("drizzle-fig6b")]["curves"].items()}
    assert set(curves) == {"continuous", "Spark-like (micro-batch)", "group of 10"}
    spark, group, continuous = curves["Spark-like (micro-batch)"], curves["group of 10"], curves["continuous"]
    assert spark[250] < group[250] < 0.6 * continuous[250]
    assert spark[2000] == pytest.approx(continuous[2000], rel=0.1)
    for rates in curves.values():  # a looser target never costs throughput
        assert [rates[t] for t in sorted(rates)] == sorted(rates.values())
    ratio = next(r for r in record["ratios"] if r["what"].startswith("highest throughput"))
    assert ratio["ours"] == pytest.approx(group[250] / spark[250])


def test_the_ratios_come_from_the_curves_drawn(written):
    _, record, output = written
    curves = {label: dict(points) for label, points in record["figures"][0]["curves"].items()}
    ratio = next(r for r in record["ratios"] if r["what"].endswith("(first stage) at 8 machines"))
    assert ratio["ours"] == pytest.approx(curves["Spark-like (micro-batch)"][8] / curves["group of 100"][8])
    assert ratio["ours"] > 1  # group scheduling amortises the launches
    assert "scale-out linearity" in output and "7–46×" in output
    recovery = next(r for r in record["ratios"] if r["what"].startswith("recovery time"))
    assert recovery["ours"] is not None and "~18 s" in recovery["published"]


def test_the_overlay_is_drawn_as_a_black_mark_at_the_published_point():
    figure = Figure("f", "title", "machines", "ms", True, True, "note", {"ours": [(4, 7.0), (128, 190.0)]},
                    [Published("ours", 128, 195, "=", "Spark", "a paper"),
                     Published("ours", 128, 5, "<=", "Drizzle", "a paper")])
    lines = drawn(figure).axes[0].get_lines()
    marks = {(line.get_marker(), tuple(line.get_xydata()[0])) for line in lines if line.get_color() == "black"}
    assert marks == {("x", (128.0, 195.0)), ("v", (128.0, 5.0))}


@pytest.mark.parametrize("request_, says", [
    (["RATE=5"], "sim-figures takes MAX_MACHINES, DURATION, CALIBRATION, SEED only"),
    (["MAX_MACHINES=0"], "MAX_MACHINES=0: must be a whole number, at least 1"),
    (["DURATION=fast"], "DURATION=fast: not a duration"),
    (["DURATION=500ms"], "must be at least 1s"),
    (["CALIBRATION=/no/such/file.yaml"], "unreadable"),
])
def test_a_bad_setting_is_refused_before_anything_starts(tmp_path, request_, says):
    assert says in refused(tmp_path, "sim-figures", *request_)
