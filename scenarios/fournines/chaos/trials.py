"""The trials of one `./fournines chaos`, one after another into one results folder
(results/<UTC time>-chaos-<scenario>/trial-NNN/), a line as each starts and ends, then the table, the
summary and chaos.json, also after a signal stopped them (with the trials done so far).

Exit codes (results/outcome.py): 0 every trial completed and passed its check, 1 a violation or a run
that did not complete, 128+N stopped by signal N. A signal during a trial's run reaches the run's own
loop, which stops its members in order; one during the expected results' computation stops the CLI."""
import sys
from pathlib import Path

from fournines.chaos.report import summary, table, write_chaos_json
from fournines.chaos.request import ChaosRequest, Prepared
from fournines.chaos.trial import Trial, run_trial
from fournines.results.outcome import Stopped
from fournines.chaos.trial_fault import draw
from fournines.members.signals import SignalCatcher
from fournines.results.folder import new_results_folder
from fournines.results.outcome import EXIT_FAILED


def run_chaos(request: ChaosRequest, prepared: Prepared, results_root: Path) -> int:
    folder = new_results_folder(f"chaos-{request.name}", results_root)
    _say(f"chaos: {folder}; {request.trials} trial(s) of {request.name} ({request.query}, {request.guarantee}), "
         f"seeds {request.seed} to {request.seed + request.trials - 1}")
    trials: list[Trial] = []
    stopped = None
    with SignalCatcher() as signals:
        for number in range(1, request.trials + 1):
            if signals.first is not None:
                stopped = 128 + signals.first
                break
            seed = request.seed + number - 1
            fault = draw(seed, request.kinds)
            name = f"trial {number}/{request.trials} (seed {seed})"
            _say(f"chaos: {name}: {fault.kind} {fault.target} at {fault.at}")
            try:
                trial = run_trial(number, seed, fault, request, prepared, folder, signals)
            except Stopped as e:
                stopped = e.exit_code
                break
            trials.append(trial)
            counts = (f"{trial.check.expected:,} expected, {_counts(trial.check)}" if trial.check else trial.check_error)
            topic = f"; results topic: {_counts(trial.kafka_check)}" if trial.kafka_check else ""
            _say(f"chaos: {name}: run {trial.status}; {counts}{topic}: {trial.verdict()}")
    print(table(trials))
    print(summary(request, trials))
    print(f"results: {write_chaos_json(folder, request, trials)}")
    if stopped is not None:
        _say(f"chaos: stopped by a signal after {len(trials)} trial(s)")
        return stopped
    return EXIT_FAILED if any(t.violations() for t in trials) else 0


def _counts(check) -> str:
    return f"{check.lost:,} lost, {check.duplicated:,} duplicated, {check.wrong:,} wrong"


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
