"""./fournines sim-validate (targets/sim/validate.py): the simulator calibrated on real runs of Q5
here, its predictions for configurations it did not see compared with real runs of them.

Exit codes: 0 every held-out error within the tolerance, 1 one is not (the table says which and why)
or a real run failed, 2 the request was refused before anything started, 128+N stopped by signal N.
"""
import signal

import click

from fournines.cli.options import results_root_option
from fournines.members.java_build import JARS
from fournines.results.outcome import EXIT_BAD_REQUEST, EXIT_FAILED, Stopped
from fournines.spec.overrides import OverrideError, parse_overrides
from fournines.targets.local import run as local
from fournines.targets.prepare import RunRefused, prepare
from fournines.targets.sim.validate import RunIncomplete, check, fixed_overrides, run_validation
from fournines.targets.sim.validation_plan import PLAN, SCENARIO, VARIED

STOPPED = "sim-validate: stopped; its folder keeps the runs made so far"


@click.command("sim-validate", context_settings={"ignore_unknown_options": True})
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@results_root_option("the validation's folder")
def sim_validate(assignments, results_root):
    """Calibrate the simulator on real Q5 runs here, predict configurations it did not see (another
    rate, another key count, two members), run those for real, and print predicted against measured
    (p50, p99, p99.99, highest sustainable rate) with the relative error; scenarios/docs/simulate.md.

    KEY=VALUE overrides are those of ./fournines run and apply to every run (DURATION=3s WARMUP=2s
    shortens it all), except RATE, KEYS, CLUSTER and THREADS, which the validation varies.
    """
    try:
        user = parse_overrides(assignments)
        varied = [o for o in user.fields if o.key in VARIED]
        if varied:
            raise OverrideError(f"override {varied[0]}: sim-validate sets {', '.join(VARIED)} itself for each "
                                "of its configurations")
        elsewhere = [o for o in user.fields if o.key in ("TARGET", "EXECUTION") and o.text not in ("local", "continuous")]
        if elsewhere:
            raise OverrideError(f"override {elsewhere[0]}: sim-validate runs the continuous model on this machine "
                                "(TARGET=local, EXECUTION=continuous)")
        check(user)
        prepare(SCENARIO, fixed_overrides(PLAN[0], user))  # builds the member's jar, once
    except (OverrideError, RunRefused) as e:
        click.echo(str(e), err=True)
        raise SystemExit(EXIT_BAD_REQUEST)

    def play(scenario, run_dir):
        return local.run(scenario, local.member_launcher(JARS[scenario["engine"]].path, scenario), user.profile,
                         run_dir=run_dir)
    try:
        raise SystemExit(run_validation(user, play, results_root))
    except RunIncomplete as e:
        click.echo(str(e), err=True)
        raise SystemExit(EXIT_FAILED)
    except Stopped as e:
        click.echo(STOPPED, err=True)
        raise SystemExit(e.exit_code)
    except KeyboardInterrupt:  # between runs: no member is running
        click.echo(STOPPED, err=True)
        raise SystemExit(128 + signal.SIGINT)
