"""./fournines gate-ref: the command behind `make gate BASE=<ref>` (see compare/ab_gate.py)."""
import click

from fournines.compare.ab_gate import GateStopped, gate_against
from fournines.compare.base_worktree import RefError
from fournines.spec.overrides import OverrideError
from fournines.spec.scenario import ScenarioError


@click.command("gate-ref", context_settings={"ignore_unknown_options": True})
@click.argument("base")
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@click.option("--scenario", default="q5-gate", show_default=True, help="Scenario name or .yaml path.")
@click.option("--repeat", default=5, show_default=True, type=click.IntRange(1), help="Runs per side.")
@click.option("--threshold", default=0.05, show_default=True, type=click.FloatRange(0, 1, max_open=True),
              help="Relative slow-down tolerated (see ./fournines gate).")
@click.option("--allow-incomplete", is_flag=True, help="Passed to ./fournines gate.")
def gate_ref(base, assignments, scenario, repeat, threshold, allow_incomplete):
    """Benchmark git ref BASE and the working tree interleaved (A B A B ...), then gate.

    KEY=VALUE overrides apply to both sides, as in ./fournines run. Exit codes: those of
    ./fournines gate (0 pass, 1 regression, 2 unreadable results), 2 for a refused request, or the
    exit code of the first run that failed.
    """
    exit_with(lambda: gate_against(base, scenario, repeat, list(assignments), threshold, allow_incomplete), RefError)


def exit_with(action, *refusals: type[Exception]) -> None:
    """Exits with what `action` returns; a refused request (a bad scenario or override, or one of
    `refusals`) exits 2 saying why, and a stopped gate with its own code."""
    try:
        code = action()
    except (ScenarioError, OverrideError, *refusals) as e:
        click.echo(str(e), err=True)
        raise SystemExit(2)
    except GateStopped as e:
        click.echo(str(e), err=True)
        raise SystemExit(e.exit_code)
    raise SystemExit(code)
