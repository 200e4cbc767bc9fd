"""./fournines report [--notebook] and compare, as a user runs them."""
import nbformat
from click.testing import CliRunner

from fournines.cli import cli


def test_report_command_writes_the_report(stall_run):
    result = CliRunner().invoke(cli, ["report", str(stall_run)])
    assert result.exit_code == 0, result.output
    assert f"wrote {stall_run / 'report.html'}" in result.output
    assert (stall_run / "plots" / "nines.png").exists()


def test_a_report_or_plot_that_cannot_be_written_exits_1_naming_it(stall_run):
    """A symlink to /dev/full fails its writes with ENOSPC, as a full disk would."""
    for name in ("report.html", "plots/nines.png"):
        target = stall_run / name
        target.parent.mkdir(exist_ok=True)
        target.unlink(missing_ok=True)
        target.symlink_to("/dev/full")
        result = CliRunner().invoke(cli, ["report", str(stall_run)])
        assert result.exit_code == 1, result.output
        assert f"{target}: cannot write: No space left on device" in result.output
        target.unlink()


def test_report_notebook_runs_headless_into_the_folder(stall_run):
    result = CliRunner().invoke(cli, ["report", str(stall_run), "--notebook"])
    assert result.exit_code == 0, result.output
    notebook = nbformat.read(stall_run / "latency.ipynb", as_version=4)
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert f"{stall_run.resolve()}: warm-up 5 s excluded" in "".join(o.get("text", "") for o in outputs)
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 3  # the nines plot and one over-time plot per series


def test_report_on_a_corrupt_log_exits_2_naming_file_line_and_field(stall_run):
    path = stall_run / "latency.hlog"
    lines = path.read_text().splitlines()
    lines[6] = lines[6].replace("HISTF", "HISTX")
    path.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["report", str(stall_run)])
    assert result.exit_code == 2
    assert f"{path}:7: field 'Interval_Compressed_Histogram': not an HdrHistogram" in result.output


def test_compare_needs_two_folders_and_writes_to_out(stall_run, tmp_path):
    assert CliRunner().invoke(cli, ["compare", str(stall_run), "--out", str(tmp_path / "c")]).exit_code == 2
    result = CliRunner().invoke(cli, ["compare", str(stall_run), str(stall_run), "--out", str(tmp_path / "c")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "c" / "report.md").exists() and (tmp_path / "c" / "report.html").exists()
