"""./fournines sim-figures (targets/sim/paper_figures.py): the Drizzle and Jet papers' scale curves,
simulated, into `results/<UTC time>-sim-figures/` with the published values overlaid.

A command of its own rather than experiment files: these figures put the cluster size or a batch's
time on an axis, which the experiments' plots (latency against load, per run) do not draw, and their
points are simulations run in process, where an experiment's are results folders of real runs.

Exit codes: 0 written, 2 refused before anything started, 130 stopped by Ctrl-C (the folder keeps
what was written before).
"""
import signal
import sys
import time
from pathlib import Path

import click

from fournines.cli.options import results_root_option
from fournines.results.folder import new_results_folder
from fournines.results.outcome import EXIT_BAD_REQUEST
from fournines.spec.durations import parse_duration
from fournines.spec.overrides import OverrideError, split_settings
from fournines.targets.sim.calibration import DEFAULTS, CalibrationError, read_calibration
from fournines.targets.sim.paper_figures import Scale, all_figures
from fournines.targets.sim.paper_figures_report import ratio_rows, write_report

SETTINGS = ("MAX_MACHINES", "DURATION", "CALIBRATION", "SEED")


@click.command("sim-figures", context_settings={"ignore_unknown_options": True})
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@results_root_option("the figures' folder")
def sim_figures(assignments, results_root):
    """Simulate the papers' scale figures (Drizzle Fig. 4(a), 5(b), 6(a) and (b), 7, 10; Jet Fig. 10, 8)
    with the published values overlaid, and print the ratios the simulator issue asks for;
    scenarios/docs/simulate.md.

    MAX_MACHINES=N leaves out clusters larger than N, DURATION=10s sets every point's simulated seconds
    (both for a quick look), CALIBRATION=file.yaml (default: the stated defaults), SEED=1.
    """
    try:
        own, rest = split_settings(assignments, SETTINGS)
        if rest:
            raise OverrideError(f"sim-figures takes {', '.join(SETTINGS)} only; got {' '.join(rest)}")
        scale = Scale(_whole(own, "MAX_MACHINES") if "MAX_MACHINES" in own else None,
                      _duration(own["DURATION"]) if "DURATION" in own else None)
        seed = _whole(own, "SEED") if "SEED" in own else 1
        calibration = Path(own["CALIBRATION"]) if "CALIBRATION" in own else None
        costs = read_calibration(calibration) if calibration else DEFAULTS
    except (OverrideError, CalibrationError) as e:
        click.echo(str(e), err=True)
        raise SystemExit(EXIT_BAD_REQUEST)
    folder = new_results_folder("sim-figures", results_root)
    began = time.monotonic()

    def say(line: str) -> None:
        print(f"sim-figures: [{(time.monotonic() - began) / 60:.1f} min] {line}", file=sys.stderr, flush=True)
    say(f"folder {folder}")
    try:
        figures, ratios = all_figures(costs, scale, seed, say)
    except KeyboardInterrupt:
        click.echo(f"sim-figures: stopped; {folder} holds nothing yet", err=True)
        raise SystemExit(128 + signal.SIGINT)
    described = (f"{calibration}" if calibration else "the stated defaults (calibration.py)") + f", seed {seed}"
    limits = (f"clusters up to {scale.max_machines} machines" if scale.max_machines else "every cluster size") + (
        f", {scale.duration_s:g} simulated s a point" if scale.duration_s is not None else ", each figure's own lengths")
    for path in write_report(folder, figures, ratios, described, limits):
        say(f"wrote {path}")
    width = max(len(r[0]) for r in ratio_rows(ratios))
    for what, ours, published in ratio_rows(ratios):
        print(f"{what.ljust(width)}  ours {ours:>8}  published {published}")


def _whole(own: dict, key: str) -> int:
    text = own[key]
    if not text.isdigit() or int(text) < 1:
        raise OverrideError(f"{key}={text}: must be a whole number, at least 1")
    return int(text)


def _duration(text: str) -> float:
    try:
        seconds = parse_duration(text)
    except ValueError as e:
        raise OverrideError(f"DURATION={text}: {e}") from None
    if seconds < 1:
        raise OverrideError(f"DURATION={text}: must be at least 1s")
    return seconds
