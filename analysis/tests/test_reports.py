"""report.md/html and plots for one run, and the comparison of several."""
import shutil

from fournines_analysis.compare import write_compare
from fournines_analysis.nines import nines_label
from fournines_analysis.report import write_report

PNG = b"\x89PNG\r\n\x1a\n"


def test_report_writes_markdown_html_and_plots(stall_run):
    md, html = write_report(stall_run)
    assert (md, html) == (stall_run / "report.md", stall_run / "report.html")
    plots = sorted(p.name for p in (stall_run / "plots").iterdir())
    assert plots == ["nines.png", "over-time-completion.png", "over-time-latency.png", "throughput.png"]
    assert all((stall_run / "plots" / p).read_bytes().startswith(PNG) for p in plots)
    text = md.read_text()
    assert "| latency | 20,000 | 25,725 µs | 726 µs |" in text  # numbers checked in test_percentiles
    assert "999,423 µs" in text and "2,000 |" in text  # p99.99; events/s per core
    assert "![latency by percentile on a nines axis](plots/nines.png)" in text
    assert "| git sha | 0123456789abcdef0123456789abcdef01234567 |" in text
    page = html.read_text()
    assert page.count('src="data:image/png;base64,') == 4  # self-contained
    assert "<td>999,423 µs</td>" in page


def test_missing_context_is_shown_not_hidden(stall_run):
    (stall_run / "run.json").write_text('{"warmup_s": 5}')
    md, _ = write_report(stall_run)
    assert "| JDK | not recorded |" in md.read_text()


def test_nines_axis_labels():
    assert [nines_label(n) for n in range(6)] == ["0%", "90%", "99%", "99.9%", "99.99%", "99.999%"]


def test_compare_overlays_runs_and_gives_ratios(stall_run, tmp_path):
    second = shutil.copytree(stall_run, tmp_path / "second")
    (second / "cpu.csv").write_text("time_s,cpu_seconds\n5,0\n25,20\n")  # a whole core: per core halves
    md, html = write_compare([stall_run, second], tmp_path / "cmp")
    text = md.read_text()
    assert "| p99.99 | 999,423 µs | 999,423 µs (×1.000) |" in text
    assert "| events/s per core | 2,000 | 1,000 (×0.500) |" in text
    assert (tmp_path / "cmp/plots/nines-latency.png").read_bytes().startswith(PNG)
    assert (tmp_path / "cmp/plots/nines-completion.png").exists()
    assert html.read_text().count("data:image/png;base64,") == 2
