"""./fournines run: prepare the scenario (targets/prepare.py), then play it on its target, or under
each value of a listed setting in turn (compare/variants.py).

Exit codes: 0 the run completed (and its report was written); 1 the run failed (the member crashed,
hung, broke the contract, or no report could be written); 2 the request was refused before anything
started (bad scenario, bad override, not supported yet, build failure); 128+N stopped by signal N.
"""

import click

from fournines.cli.options import results_root_option
from fournines.compare import variants
from fournines.results.outcome import EXIT_BAD_REQUEST
from fournines.spec.overrides import FIELDS, OverrideError, parse_overrides
from fournines.targets.aws import target as aws_target
from fournines.targets.hosts import target as hosts_target
from fournines.targets.local import run as local
from fournines.targets.prepare import RunRefused, prepare


HELP = f"""Play SCENARIO (a name in scenarios/ or a .yaml path) and write its results folder and report.

KEY=VALUE pairs override scenario fields; the keys are the Make variables of `make bench-<scenario>`:
{", ".join(f"{key} ({path})" for key, path in FIELDS.items())}. PROFILE=1 records a JFR profile.

ENGINE=fournines,jet,flink runs the scenario on each engine in turn and compares them (ratios against
the first); EXECUTION=continuous,micro-batch,group does the same with each execution model.

Example: ./fournines run q5 RATE=200000 DURATION=20s
"""


@click.command(help=HELP, context_settings={"ignore_unknown_options": True})
@click.argument("scenario")
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@click.option("--check", is_flag=True, help="Validate the scenario and build the member, then stop.")
@results_root_option("the run's results folder")
def run(scenario, assignments, check, results_root):
    try:
        key, values, overrides = variants.split_variants(parse_overrides(assignments))
        if values:
            prepared = variants.prepare_all(scenario, key, values, overrides)
        else:
            resolved, jar = prepare(scenario, overrides)
    except (OverrideError, RunRefused) as e:
        click.echo(str(e), err=True)
        raise SystemExit(EXIT_BAD_REQUEST)
    if values:
        if check:
            click.echo(f"{scenario}: valid and runnable with {key}={', '.join(values)}", err=True)
            return
        raise SystemExit(variants.run_all(prepared, key, overrides.profile, results_root))
    if check:
        click.echo(f"{scenario}: valid and runnable; member jar {jar}", err=True)
        return
    if resolved["target"] in ("aws", "hosts"):
        remote = aws_target if resolved["target"] == "aws" else hosts_target
        raise SystemExit(remote.run(resolved, jar, overrides.profile, results_root))
    raise SystemExit(local.run(resolved, local.member_launcher(jar, resolved), overrides.profile, results_root))
