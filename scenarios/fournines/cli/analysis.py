"""./fournines report, compare, gate and trend: thin click wrappers over the analysis package.

Exit codes: 0 fine, 1 a regression (gate), a failed notebook or a file that could not be written, 2 bad input (a message naming the
file, line and field), a run the gate refuses (not completed, or logs that miss part of the
measurement), or bad usage.
"""
from pathlib import Path

import click

from fournines_analysis.errors import BadInput, CannotWrite


class BadInputError(click.ClickException):
    exit_code = 2


def _checked(action):
    """Runs `action`, turning bad input into exit code 2 with the reader's message, and a file it could
    not write into exit code 1 naming the file."""
    try:
        return action()
    except BadInput as e:
        raise BadInputError(str(e)) from e
    except CannotWrite as e:
        raise click.ClickException(str(e)) from e


@click.command()
@click.argument("results_dir", type=click.Path(path_type=Path))
@click.option("--notebook", is_flag=True, help="Also run analysis/notebooks/latency.ipynb headless into the folder.")
def report(results_dir, notebook):
    """Write report.md, report.html and plots/ into a results folder."""
    from fournines_analysis.report import write_report

    for path in _checked(lambda: write_report(results_dir)):
        click.echo(f"wrote {path}")
    if notebook:
        from papermill.exceptions import PapermillExecutionError

        from fournines_analysis.notebook import run_notebook
        try:
            click.echo(f"wrote {run_notebook(results_dir)}")
        except PapermillExecutionError as e:
            raise click.ClickException(f"the latency notebook failed on {results_dir}: {e.ename}: {e.evalue}") from e


@click.command()
@click.argument("results_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Folder for the comparison report.")
def compare(results_dirs, out):
    """Overlay several runs in one report; ratios are against the first."""
    from fournines_analysis.compare import write_compare

    if len(results_dirs) < 2:
        raise click.UsageError("compare needs at least two results folders")
    for path in _checked(lambda: write_compare(list(results_dirs), out)):
        click.echo(f"wrote {path}")


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("groups", nargs=-1, type=click.UNPROCESSED)
@click.option("--threshold", default=0.05, show_default=True, type=click.FloatRange(0, 1, max_open=True),
              help="Relative slow-down tolerated: 0.05 flags a metric only if it is >5% slower and surely slower.")
@click.option("--seed", default=1, show_default=True, help="Bootstrap seed: same inputs, same verdict.")
@click.option("--allow-incomplete", is_flag=True,
              help="Judge runs that did not complete or whose logs miss part of the measurement, instead of "
                   "refusing them (exit 2); the verdict names them.")
def gate(groups, threshold, seed, allow_incomplete):
    """Fail (exit 1) if the candidate runs are slower than the baseline runs beyond noise.

    Usage: gate --baseline DIR... --candidate DIR... [--threshold 0.05]

    Every latency series is judged on three metrics over the 1 s intervals after warm-up, and the work
    (from cpu.csv and throughput.csv) on CPU per event and events/s per core, each with a 99% bootstrap
    interval of candidate/baseline; a regression needs a ratio worse than 1 + threshold and the whole
    interval on the worse side of 1. Use five runs on each side, measured interleaved (A B A B ...):
    make gate-selftest measures the false alarms and detections of that on this machine. Every run
    must have completed, with logs covering its whole measurement, unless --allow-incomplete.
    """
    from fournines_analysis.gate import RunsRefused, gate as run_gate

    baselines, candidates = _split_groups(groups)
    try:
        result = _checked(lambda: run_gate(baselines, candidates, threshold=threshold, seed=seed,
                                           allow_incomplete=allow_incomplete))
    except RunsRefused as e:
        raise BadInputError(str(e)) from e
    click.echo(result.format())
    if result.regressed:
        raise SystemExit(1)


@click.command()
@click.argument("dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--plot", "plot_path", default="trend.png", show_default=True, type=click.Path(path_type=Path),
              help="Where to write the picture of the series with its change points.")
@click.option("--max-pvalue", default=0.001, show_default=True, type=click.FloatRange(0, 1, min_open=True),
              help="A change must be at least this significant (Otava's t-test).")
@click.option("--window", default=30, show_default=True, type=click.IntRange(3),
              help="Runs per window of Otava's first pass.")
@click.option("--min-magnitude", default=0.0, show_default=True, type=click.FloatRange(0),
              help="Ignore changes smaller than this fraction (0.05: 5%).")
def trend(dirs, plot_path, max_pvalue, window, min_magnitude):
    """Find where each metric changed over a series of runs, with Apache Otava.

    DIRS are results folders or folders of them (results/ is a history). Each run gives its p99 and
    p99.99 per latency series and its CPU per event; runs that did not complete are left out and
    listed. Prints every change point (run, mean before and after, p-value) and plots the series.
    """
    from fournines import REPO_ROOT
    from fournines_analysis.plots import save, trend_figure
    from fournines_analysis.trend import trend as find_trend

    try:
        found = _checked(lambda: find_trend(list(dirs), REPO_ROOT / ".venv-otava" / "bin" / "python", window,
                                            max_pvalue, min_magnitude))
    except (FileNotFoundError, RuntimeError) as e:
        raise click.ClickException(str(e)) from e
    click.echo(found.format())
    click.echo(f"wrote {save(trend_figure(found), plot_path)}")


def _split_groups(args) -> tuple[list[Path], list[Path]]:
    """`--baseline A B --candidate C D` (each flag may repeat) into the two lists of folders;
    click options take one value each, so these two are parsed here."""
    groups: dict[str, list[Path]] = {"--baseline": [], "--candidate": []}
    current = None
    for arg in args:
        if arg in groups:
            current = arg
        elif arg.startswith("-"):
            raise click.UsageError(f"unknown option {arg}; expected --baseline DIR... --candidate DIR...")
        elif current is None:
            raise click.UsageError(f"{arg}: say whether it is a --baseline or a --candidate folder")
        else:
            groups[current].append(Path(arg))
    for flag, dirs in groups.items():
        if not dirs:
            raise click.UsageError(f"{flag} needs at least one results folder")
    return groups["--baseline"], groups["--candidate"]


COMMANDS = (report, compare, gate, trend)
