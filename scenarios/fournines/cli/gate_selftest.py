"""./fournines gate-selftest: the command behind `make gate-selftest` (see compare/gate_selftest.py)."""
import click

from fournines.cli.gate_ref import exit_with
from fournines.compare.gate_selftest import selftest


@click.command("gate-selftest", context_settings={"ignore_unknown_options": True})
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@click.option("--scenario", default="q5-gate", show_default=True, help="Scenario name or .yaml path.")
@click.option("--trials", default=12, show_default=True, type=click.IntRange(1),
              help="Independent A/A and A/B comparisons.")
@click.option("--repeat", default=5, show_default=True, type=click.IntRange(1), help="Runs per side per comparison.")
@click.option("--slowdown", default=0.10, show_default=True, type=click.FloatRange(0, 1, min_open=True),
              help="CPU per event added to B, as a fraction of A's.")
@click.option("--threshold", default=0.05, show_default=True, type=click.FloatRange(0, 1, max_open=True),
              help="The gate's tolerated slow-down (see ./fournines gate).")
def gate_selftest(assignments, scenario, trials, repeat, slowdown, threshold):
    """Measure the gate's false-alarm rate (A/A) and detection rate (A/B, B slower) on this machine.

    KEY=VALUE overrides apply to every run, as in ./fournines run. Exit codes: 0 when the gate passed
    A/A at least 95% of the time and caught the slowdown at least 95% of the time, 1 when not, 2 for a
    refused request, or the exit code of the first run that failed. The cost is about
    (1 + 3 x TRIALS x REPEAT) runs of the scenario.
    """
    exit_with(lambda: selftest(scenario, trials, repeat, slowdown, threshold, list(assignments)))
