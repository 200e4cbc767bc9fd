"""./fournines search and ./fournines sweep (search/): a scenario at many rates on this machine.

Exit codes: search 0 a rate was confirmed, 1 none was; sweep 0 every point ran to the end, 1 one did
not; both 2 when the request was refused before anything started, 128+N stopped by signal N.
"""
import signal

import click

from fournines.cli.options import results_root_option
from fournines.results.outcome import EXIT_BAD_REQUEST, Stopped
from fournines.search.run_search import run_search
from fournines.search.run_sweep import run_sweep
from fournines.spec.overrides import OverrideError, parse_overrides, split_settings
from fournines.spec.scenario import ScenarioError
from fournines.targets.local import run as local
from fournines.targets.prepare import RunRefused, prepare, resolve
from fournines_analysis.slo import BadSlo, parse_slo

RESULTS = results_root_option("the folder of runs")


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("scenario")
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@RESULTS
def search(scenario, assignments, results_root):
    """The highest rate SCENARIO sustains under an SLO, e.g. ./fournines search q5 SLO='p99.99<=10ms'.

    SLO=p99.99<=10ms (required; several bounds joined by commas), LOW= and HIGH= (bounds on the rate,
    default 1000 and 100 000 000 events/s), PRECISION= (stop bisecting when the bracket is within
    this fraction, default 0.05). RATE= is where the search starts (default: the scenario's rate);
    the other KEY=VALUE overrides are those of ./fournines run and apply to every trial.
    """
    def act():
        own, rest = split_settings(assignments, ("SLO", "LOW", "HIGH", "PRECISION"))
        if "SLO" not in own:
            raise OverrideError("search needs SLO=..., e.g. SLO='p99.99<=10ms'")
        slo = parse_slo(own["SLO"])
        low, high = _rate(own, "LOW", 1_000), _rate(own, "HIGH", 100_000_000)
        if low >= high:
            raise OverrideError(f"LOW={low} must be below HIGH={high}")
        precision = _fraction(own, "PRECISION", 0.05)
        overrides = parse_overrides(rest)
        for rate in (low, high):  # the bounds must be rates the scenario accepts
            resolve(scenario, overrides.replacing({"RATE": str(rate)}))
        return lambda play: run_search(scenario, overrides, slo, own["SLO"], low, high, precision, play, results_root), overrides
    _play_checked(scenario, act)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("scenario")
@click.argument("assignments", nargs=-1, type=click.UNPROCESSED)
@RESULTS
def sweep(scenario, assignments, results_root):
    """SCENARIO at each rate of RATES=a,b,c (and each key count of KEYS=x,y: a curve per count), with
    a report of latency percentiles against events/s per core, e.g. ./fournines sweep q5
    RATES=250000,500000,1000000. SLO= marks the bounds on the plot and judges each point; the other
    KEY=VALUE overrides are those of ./fournines run.
    """
    def act():
        own, rest = split_settings(assignments, ("RATES", "KEYS", "SLO"))
        if "RATES" not in own:
            raise OverrideError("sweep needs RATES=a,b,..., e.g. RATES=250000,500000,1000000")
        rates = _list(own, "RATES")
        keys = _list(own, "KEYS") if "KEYS" in own else None
        slo = parse_slo(own["SLO"]) if "SLO" in own else ()
        overrides = parse_overrides(rest)
        for rate in rates:
            for key_count in keys or [None]:
                resolve(scenario, overrides.replacing({"RATE": str(rate)} | ({"KEYS": str(key_count)} if key_count else {})))
        return lambda play: run_sweep(scenario, overrides, rates, keys, slo, play, results_root), overrides
    _play_checked(scenario, act)


def _play_checked(scenario: str, act) -> None:
    """Checks the request (act returns the work and the overrides), builds the member, then plays."""
    try:
        work, overrides = act()
        resolved, jar = prepare(scenario, overrides)
        if resolved["target"] != "local" or resolved["mode"] != "single":
            raise RunRefused(f"{scenario}: search and sweep run single jobs on this machine for now "
                             f"(target local, mode single); this is target {resolved['target']}, mode {resolved['mode']}")
    except (OverrideError, ScenarioError, BadSlo, RunRefused) as e:
        click.echo(str(e), err=True)
        raise SystemExit(EXIT_BAD_REQUEST)
    launcher = local.member_launcher(jar, resolved)
    try:
        raise SystemExit(work(lambda s, run_dir: local.run(s, launcher, overrides.profile, run_dir=run_dir)))
    except Stopped as e:
        raise SystemExit(e.exit_code)
    except KeyboardInterrupt:  # between trials: no member is running
        raise SystemExit(128 + signal.SIGINT)


def _rate(own: dict, key: str, default: int) -> int:
    text = own.get(key, str(default))
    if not text.isdigit() or int(text) < 1:
        raise OverrideError(f"{key}={text}: must be a whole number of events/s, at least 1")
    return int(text)


def _list(own: dict, key: str) -> list[int]:
    values = [v.strip() for v in own[key].split(",")]
    if not values or any(not v.isdigit() or int(v) < 1 for v in values) or len(set(values)) != len(values):
        raise OverrideError(f"{key}={own[key]}: must be whole numbers ≥ 1, each once, separated by commas")
    return [int(v) for v in values]


def _fraction(own: dict, key: str, default: float) -> float:
    text = own.get(key, str(default))
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 0.5:
        raise OverrideError(f"{key}={text}: must be a fraction above 0 and at most 0.5, e.g. 0.05")
    return value
