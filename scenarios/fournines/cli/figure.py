"""./fournines figure NAME (figures/): the runs of scenarios/experiments/NAME.yaml on this machine and
a report that draws them like the published figure; --list names every experiment and its figure.

Exit codes: 0 every run made ran to the end (runs skipped as impossible here do not count against
it; the report lists them), 1 one did not, 2 the request was refused before anything started,
128+N stopped by signal N.
"""
import signal

import click

from fournines.cli.options import results_root_option
from fournines.figures.experiment import ExperimentError, available, load_experiment
from fournines.figures.run_figure import run_figure
from fournines.members.java_build import JARS
from fournines.results.outcome import EXIT_BAD_REQUEST, Stopped
from fournines.spec.overrides import OverrideError, parse_overrides
from fournines.targets.local import run as local
from fournines.targets.prepare import build


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("name", required=False)
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@click.option("--list", "listing", is_flag=True, help="List the experiments and the figure each reproduces.")
@results_root_option("the folder of runs")
def figure(name, assignments, listing, results_root):
    """Reproduce a published figure, e.g. ./fournines figure jet-fig7 DURATION=20s WARMUP=10s.

    KEY=VALUE overrides are those of ./fournines run and apply to every run of the experiment, except
    one the experiment varies between its runs (that would erase a dimension of the figure).
    """
    if listing:
        for experiment in available():
            try:
                click.echo(f"{experiment:16} {load_experiment(experiment).figure}")
            except ExperimentError as e:
                click.echo(f"{experiment:16} (invalid: {e.lines[0]})")
        return
    if not name:
        click.echo(f"figure needs an experiment's name, one of: {', '.join(available())} (--list says more)", err=True)
        raise SystemExit(EXIT_BAD_REQUEST)
    try:
        overrides = parse_overrides(assignments)
        elsewhere = [o for o in overrides.fields if o.key == "TARGET" and o.text != "local"]
        if elsewhere:
            raise OverrideError(f"override {elsewhere[0]}: figures run on this machine for now (TARGET=local)")
        experiment = load_experiment(name, overrides)
    except (OverrideError, ExperimentError) as e:
        click.echo(str(e), err=True)
        raise SystemExit(EXIT_BAD_REQUEST)

    def play(scenario, run_dir):  # run_figure has built the scenario's jars (build) before it plays
        launcher = local.member_launcher(JARS[scenario["engine"]].path, scenario)
        return local.run(scenario, launcher, overrides.profile, run_dir=run_dir)
    try:
        raise SystemExit(run_figure(experiment, play, results_root, build))
    except Stopped as e:
        raise SystemExit(e.exit_code)
    except KeyboardInterrupt:  # between runs: no member is running
        raise SystemExit(128 + signal.SIGINT)
