"""One run of a scenario at one rate for a search or a sweep: a normal results folder, judged by the
latency SLO (when there is one), by the sustainability check (analysis/sustainability.py), and by
whether the load source itself could make the rate: a Kafka load generator that sent less than 98 %
of it limits the trial, and the search reports that limit as the source's, never as the engine's.
(The in-process generator runs on the engine's own threads: its cost is part of what is measured.)
A trial that failed only its SLO, and would have met it without the seconds in which the host lost
CPU to other guests (analysis/steal.py), says so: the search runs it once more."""
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fournines.results.outcome import Stopped
from fournines_analysis.errors import BadInput
from fournines_analysis.results import Run, load_run
from fournines_analysis.slo import Bound, Check, check_slo
from fournines_analysis.steal import intervals_after_stolen_seconds
from fournines_analysis.sustainability import judge

SOURCE_SHORTFALL = 0.98

# Plays a resolved scenario into an existing empty folder; returns the runner's exit code.
Play = Callable[[dict, Path], int]


@dataclass(frozen=True)
class Trial:
    rate: int
    run_dir: Path
    run: Run | None  # None when the results could not be read
    checks: tuple[Check, ...]
    problems: tuple[str, ...]  # why the rate was not sustained; empty when it was
    source_made: float | None  # events/s the load source made, when short of the rate
    # When the SLO alone failed, and only in seconds the host lost CPU to other guests: how it fared without them
    stolen_cpu: str | None = None

    @property
    def sustained(self) -> bool:
        return not self.problems

    def verdict(self) -> str:
        slo = "; ".join(map(str, self.checks))
        if self.sustained:
            return f"sustained{' (' + slo + ')' if slo else ''}"
        return "not sustained: " + "; ".join(self.problems) + (f" ({self.stolen_cpu})" if self.stolen_cpu else "")


def run_trial(scenario: dict, run_dir: Path, slo: tuple[Bound, ...], play: Play) -> Trial:
    run_dir.mkdir()
    code = play(scenario, run_dir)
    if code > 128:
        raise Stopped(code)
    rate = int(scenario["load"]["rate"])
    try:
        run = load_run(run_dir)
    except BadInput as e:
        return Trial(rate, run_dir, None, (), (f"its results cannot be read ({e})",), None)
    problems, checks = [], ()
    try:
        checks = tuple(check_slo(slo, run))
    except BadInput as e:  # no interval after the warm-up: nothing measured
        problems.append(str(e))
    missed = [f"SLO not met: {c}" for c in checks if not c.met]
    problems += missed
    problems += judge(run).problems
    made = _source_made(run, rate)
    if made is not None:
        problems.append(f"the load source made only {made:,.0f} events/s")
    stolen = _met_but_for_stolen_cpu(slo, run) if missed and problems == missed else None
    return Trial(rate, run_dir, run, checks, tuple(problems), made, stolen)


def _met_but_for_stolen_cpu(slo: tuple[Bound, ...], run: Run) -> str | None:
    """How the SLO fares without the intervals the host lost CPU around, when that meets it; else None."""
    log = next(iter(run.latency.values()))
    measured = log.measured(run.warmup_s)
    stolen = intervals_after_stolen_seconds(log, run.host) & measured
    if not stolen.any() or stolen[measured].all():
        return None
    without = check_slo(slo, run, leave_out=stolen)
    if not all(c.met for c in without):
        return None
    return (f"met without the {stolen.sum()} s around which the host lost CPU to other guests: "
            + "; ".join(map(str, without)))


def _source_made(run: Run, rate: int) -> float | None:
    loadgen = run.info.fields.get("loadgen")
    if not isinstance(loadgen, dict) or not isinstance(loadgen.get("achieved_rate"), (int, float)):
        return None
    made = float(loadgen["achieved_rate"])
    return made if made < SOURCE_SHORTFALL * rate else None
