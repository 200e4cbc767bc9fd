"""One chaos trial: the job with its fault played as a normal run into trial-NNN/ (targets/local/run.py:
members, faults, run.json and report as for any run), then its check: the expected results computed
again (expected.py) against what the members recorded (recorded.py, checker.py), written to
check.json. A Kafka-fed job also writes its results to a topic, read back as a reader downstream sees
it (targets/local/kafka_load.py): that output is checked too, on its own. A run that did not complete
is a violation, whatever its output."""
import json
import time
from dataclasses import dataclass
from pathlib import Path

from fournines.chaos.checker import Check, check
from fournines.chaos.expected import ExpectedFailed, expected_results, generate_args
from fournines.chaos.job import start_epoch_ns, trial_job
from fournines.chaos.recorded import recorded_files, recorded_lines
from fournines.chaos.request import ChaosRequest, Prepared
from fournines.chaos.trial_fault import CHAOS_POINT_FILE, TrialFault
from fournines.members.signals import SignalCatcher
from fournines.results.outcome import Stopped
from fournines.results.run_record import read_run_json
from fournines.targets.local import run as local
from fournines.targets.local.kafka_load import RESULTS_FILE as KAFKA_RESULTS_FILE
from fournines_analysis.errors import write_text

CHECK_FILE = "check.json"


@dataclass(frozen=True)
class Trial:
    number: int
    seed: int
    fault: TrialFault
    folder: Path
    status: str  # run.json's: completed, failed, interrupted
    failure: str | None  # run.json's cause, when it did not complete
    fired: bool  # the fault happened (a signal sent, or a chaos point reached): else the trial tested nothing
    check: Check | None  # None: the expected results could not be computed (check_error says why)
    check_error: str | None = None
    kafka_fed: bool = False  # the results went to a Kafka topic too, checked on their own
    kafka_check: Check | None = None  # None when not Kafka-fed, or the topic was not read (the run failed then)

    def violations(self) -> list[str]:
        found = [] if self.status == "completed" else [f"run {self.status}: {_first_line(self.failure)}"]
        if self.check is None:
            return [*found, f"not checked: {self.check_error}"]
        if self.kafka_fed and self.kafka_check is None:
            found.append("the results topic was not read back")
        return [*found, *self.check.violations(),
                *(f"results topic: {v}" for v in (self.kafka_check.violations() if self.kafka_check else []))]

    def verdict(self) -> str:
        if self.violations():
            return "violation"
        return "ok" if self.fired else "ok, fault not fired"

    def row(self) -> dict:
        """chaos.json's row: what the table shows, and the rest of the story."""
        counts = _counts(self.check)
        kafka = {"results_topic": _counts(self.kafka_check)} if self.kafka_fed else {}
        return {"trial": self.number, "seed": self.seed, "fault": self.fault.described(), "fired": self.fired,
                "status": self.status, "failure": self.failure, **counts, **kafka, "violations": self.violations(),
                "verdict": self.verdict(), "folder": self.folder.name}


def run_trial(number: int, seed: int, fault: TrialFault, request: ChaosRequest, prepared: Prepared,
              chaos_dir: Path, signals: SignalCatcher) -> Trial:
    """Stopped if a signal ended it (the run's own loop stops the members in order)."""
    folder = chaos_dir / f"trial-{number:03}"
    folder.mkdir()
    job = trial_job(prepared.scenario, fault.faults(folder), fault.chaos_point, start_epoch_ns(time.time_ns()))
    code = local.run(job, local.member_launcher(prepared.member_jar, job), request.overrides.profile, chaos_dir, folder)
    _stop_on_signal(code, signals)
    record = read_run_json(folder) or {"status": "failed", "failure": "the run left no readable run.json"}
    fired = bool(record.get("faults_injected")) or any(folder.rglob(CHAOS_POINT_FILE))
    status, failure = record["status"], record.get("failure")
    try:
        expected = expected_results(job, folder, prepared.nexmark_jar, signals)
    except ExpectedFailed as e:
        return Trial(number, seed, fault, folder, status, failure, fired, None, str(e))
    _stop_on_signal(0, signals)  # expected is None only when a signal stopped its computation
    files = recorded_files(folder, request.guarantee)
    expected_lines = expected.read_text(encoding="utf-8").splitlines()
    result = check(expected_lines, recorded_lines(files), request.query, request.guarantee)
    kafka_fed = job["load"]["source"] == "kafka"
    topic_file = folder / KAFKA_RESULTS_FILE
    kafka_result = (check(expected_lines, recorded_lines([topic_file]), request.query, request.guarantee)
                    if kafka_fed and topic_file.is_file() else None)
    kafka = {"results_topic": {**kafka_result.to_json(), "file": topic_file.name} if kafka_result else None} if kafka_fed else {}
    write_text(folder / CHECK_FILE, json.dumps({
        "trial": number, "seed": seed, "fault": fault.described(), "status": status, "query": request.query,
        **result.to_json(), "expected_file": expected.name,
        "recorded_files": [str(f.relative_to(folder)) for f in files], **kafka,
        "events_command": ["./fournines", "nexmark", *generate_args(job)]}, indent=2) + "\n")
    return Trial(number, seed, fault, folder, status, failure, fired, result, kafka_fed=kafka_fed, kafka_check=kafka_result)


def _stop_on_signal(exit_code: int, signals: SignalCatcher) -> None:
    """A run stopped by a signal says so by its exit code; one between the steps, by the catcher."""
    if exit_code >= 128:
        raise Stopped(exit_code)
    if signals.first is not None:
        raise Stopped(128 + signals.first)


def _counts(result: Check | None) -> dict:
    return {name: getattr(result, name) if result else None for name in ("expected", "recorded", "lost", "duplicated", "wrong")}


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0] if lines else "no cause recorded"
