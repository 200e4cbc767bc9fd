"""`./fournines figure NAME`: an experiment's runs, one after the other on this machine, into one
folder, `results/<UTC time>-figure-<name>/`, a results folder per run (named as in the experiment,
a sweep's as `<name>-keys-1000-rate-200000`), then the report (report.py). A run this machine or
build cannot make (the experiment says so, or the runner refuses its scenario: a JDK not installed,
a field not supported yet, a member that cannot be built) is skipped with the reason, and the rest run."""
import sys
from collections.abc import Callable
from pathlib import Path

from fournines.figures.experiment import Experiment, PlannedRun
from fournines.figures.report import write_report
from fournines.results.folder import new_results_folder
from fournines.search.trial import Play, Trial, run_trial
from fournines.targets.prepare import RunRefused, resolve


def run_figure(experiment: Experiment, play: Play, results_root: Path,
               build: Callable[[dict], object] = lambda scenario: None) -> int:
    """`build(scenario)` readies what a run needs (its member's jar), RunRefused if it cannot. Returns
    0 when every run made ran to the end, else 1 (the failed runs keep their folders); Stopped on Ctrl-C."""
    folder = new_results_folder(f"figure-{experiment.name}", results_root)
    say = _printer(experiment.name)
    total = len(experiment.runs)
    say(f"{experiment.figure}")
    say(f"{total} runs ({sum(1 for r in experiment.runs if r.skip)} skipped by the experiment) into {folder}")
    made: list[tuple[PlannedRun, Trial]] = []
    skipped: list[tuple[PlannedRun, str]] = []
    for index, planned in enumerate(experiment.runs, 1):
        step = f"[{index}/{total}] {planned.name}"
        reason = planned.skip
        if reason is None:
            try:
                scenario = resolve(planned.scenario, planned.overrides)
                build(scenario)
            except RunRefused as e:
                reason = f"refused here: {e}"
        if reason is not None:
            skipped.append((planned, reason))
            say(f"{step}: skipped: {reason}")
            continue
        say(f"{step}: {planned.scenario} {' '.join(map(str, planned.overrides.fields))}")
        trial = run_trial(scenario, folder / planned.name, (), play)
        made.append((planned, trial))
        say(f"{step}: {trial.verdict()}")
    for path in write_report(folder, experiment, made, skipped):
        say(f"wrote {path}")
    failed = [p.name for p, t in made if t.run is None or t.run.info.fields.get("status") != "completed"]
    if failed:
        say(f"{len(failed)} run{'s' if len(failed) != 1 else ''} did not end normally: {', '.join(failed)}")
    return 1 if failed else 0


def _printer(name: str):
    def say(line: str) -> None:
        print(f"figure {name}: {line}", file=sys.stderr, flush=True)
    return say
