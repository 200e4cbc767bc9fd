"""./fournines chaos: trials of a scenario's query under one random fault each, the output checked
against an independent computation (chaos/)."""

import click

from fournines.cli.options import results_root_option
from fournines.chaos.job import CHAOS_RATE, EVENTS, FIXED_OVERRIDES, KAFKA_EVENTS
from fournines.chaos.request import DEFAULT_TRIALS, GUARANTEES, parse_request, prepare_request
from fournines.chaos.trial_fault import KINDS
from fournines.chaos.trials import run_chaos
from fournines.results.outcome import EXIT_BAD_REQUEST
from fournines.spec.overrides import OverrideError
from fournines.targets.prepare import RunRefused

HELP = f"""Run SCENARIO's query as short bounded jobs ({EVENTS:,} events at {CHAOS_RATE:,}/s, {KAFKA_EVENTS:,}
fed through Kafka) on a local 3-member cluster, one random fault per trial, and check every result
the members recorded against an independent computation over the same events: lost, duplicated and
wrong results.

\b
Its own keys:
  TRIALS=N        trials (default {DEFAULT_TRIALS})
  SEED=S          the first trial's seed (default: random); trial n's is S+n-1, printed,
                  and SEED=<it> TRIALS=1 replays that trial's fault
  GUARANTEE=G     {" or ".join(GUARANTEES)} (default: the scenario's, else exactly-once)
  FAULTS=a,b,...  fault kinds to draw from (default all): {", ".join(KINDS)}

Other KEY=VALUE overrides as for ./fournines run, but chaos sets {", ".join(FIXED_OVERRIDES)} itself.

Exit codes: 0 every trial passed, 1 a violation or a run that did not complete, 2 a refused request,
128+N stopped by signal N.

Example: ./fournines chaos q5 TRIALS=20 FAULTS=kill,commit-kill
"""


@click.command(help=HELP, context_settings={"ignore_unknown_options": True})
@click.argument("scenario")
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@results_root_option("the chaos results folder")
def chaos(scenario, assignments, results_root):
    try:
        request = parse_request(scenario, assignments)
        prepared = prepare_request(request)
    except (OverrideError, RunRefused) as e:
        click.echo(str(e), err=True)
        raise SystemExit(EXIT_BAD_REQUEST)
    raise SystemExit(run_chaos(request, prepared, results_root))
