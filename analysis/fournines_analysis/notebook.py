"""Running analysis/notebooks/latency.ipynb headless for one results folder, with papermill, so the
executed notebook (code, tables, plots) is kept beside the run it describes."""
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "latency.ipynb"


def run_notebook(run_dir: Path | str) -> Path:
    """Executes the notebook with `results_dir` set to this folder; returns <run_dir>/latency.ipynb.
    The kernel starts in analysis/notebooks/, as under `jupyter lab`, which is how it finds the package."""
    import papermill  # imported here: it is slow to import and only this command needs it

    run_dir = Path(run_dir).resolve()
    out = run_dir / NOTEBOOK.name
    papermill.execute_notebook(str(NOTEBOOK), str(out), parameters={"results_dir": str(run_dir)},
                               cwd=str(NOTEBOOK.parent), progress_bar=False, log_output=False)
    return out
