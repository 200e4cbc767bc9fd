"""./fournines simulate and ./fournines calibrate (scenarios/docs/simulate.md)."""
import sys
from pathlib import Path

import click

from fournines.cli.options import results_root_option
from fournines.results.outcome import EXIT_BAD_REQUEST
from fournines.spec.overrides import FIELDS, OverrideError, parse_overrides
from fournines.targets.prepare import RunRefused, resolve
from fournines.targets.sim import run as sim_run
from fournines.targets.sim.scope import unsimulated
from fournines.targets.sim.calibration import CalibrationError, read_calibration, write_calibration
from fournines.targets.sim.derive import derive_calibration
from fournines.targets.sim.machine_profiles import PROFILES
from fournines_analysis.errors import BadInput

SIM_OPTIONS = {"SEED": "the simulation's seed (default 1)",
               "CALIBRATION": "a calibration file (default: the stated defaults, written into the results folder)",
               "MACHINE": f"a machine profile: {', '.join(PROFILES)} (default calibration-host)"}

HELP = f"""Simulate SCENARIO (a name in scenarios/ or a .yaml path) on CLUSTER machines and write a results
folder and report like a real run's, marked simulated. EXECUTION=continuous, micro-batch or group
chooses the execution model (BATCH_MS, GROUP_SIZE as for `run`); the batched models also write batches.csv.

KEY=VALUE pairs override scenario fields as for `run` ({", ".join(FIELDS)}), and set the simulation:
{"; ".join(f"{k}: {v}" for k, v in SIM_OPTIONS.items())}.

Example: ./fournines simulate q5 CLUSTER=20 RATE=1000000 MACHINE=c5.4xlarge DURATION=20s
"""


@click.command(help=HELP, context_settings={"ignore_unknown_options": True})
@click.argument("scenario")
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@results_root_option("the run's results folder")
def simulate(scenario, assignments, results_root):
    options = {key: value for key, _, value in (a.partition("=") for a in assignments) if key in SIM_OPTIONS}
    try:
        resolved = resolve(scenario, parse_overrides([a for a in assignments if a.partition("=")[0] not in SIM_OPTIONS]))
        problems = unsimulated(resolved)
        if problems:
            raise RunRefused("\n".join(f"{scenario}: {p}" for p in problems))
        seed = _seed(options.get("SEED", "1"))
        profile = _profile(options.get("MACHINE", "calibration-host"))
        calibration = Path(options["CALIBRATION"]) if "CALIBRATION" in options else None
        if calibration:
            read_calibration(calibration)
    except (OverrideError, RunRefused, CalibrationError) as e:
        click.echo(str(e), err=True)
        raise SystemExit(EXIT_BAD_REQUEST)
    raise SystemExit(sim_run.run(resolved, calibration, profile, seed, sys.argv, results_root))


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RunRefused(f"SEED={text}: must be an integer") from None


def _profile(name: str):
    if name not in PROFILES:
        raise RunRefused(f"MACHINE={name}: not a machine profile; known: {', '.join(PROFILES)}")
    return PROFILES[name]


@click.command(help="Derive a calibration file from real results folders: CPU per event from their CPU and "
                    "throughput series, GC pauses from their GC logs, stalls from their windows' latencies, the cost "
                    "per (key, slide) from runs at two "
                    "key counts, the scheduler's costs from micro-batch runs' batches.csv; every other parameter "
                    "keeps its stated default. "
                    "Example: ./fournines calibrate FROM=results/a,results/b --out calibration.yaml")
@click.argument("assignments", nargs=-1, required=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=Path("calibration.yaml"),
              show_default=True, help="The calibration file to write.")
def calibrate(assignments, out):
    given = dict(a.partition("=")[::2] for a in assignments)
    if set(given) != {"FROM"} or not given["FROM"]:
        click.echo(f"calibrate takes FROM=<results folder>[,<folder>...] only; got {' '.join(assignments)}", err=True)
        raise SystemExit(EXIT_BAD_REQUEST)
    try:
        parameters = derive_calibration([Path(f) for f in given["FROM"].split(",")])
    except BadInput as e:
        click.echo(str(e), err=True)
        raise SystemExit(EXIT_BAD_REQUEST)
    write_calibration(out, parameters)
    click.echo(f"wrote {out}", err=True)
