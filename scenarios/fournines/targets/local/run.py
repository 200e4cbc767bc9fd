"""A prepared run on this machine (targets/prepare.py checked and built it): the results folder, the
Kafka load around the members when the scenario has one, the plan played (plan.py, play.py), the
members' files gathered, then run.json and the report, whatever happened (results/finish.py)."""
import functools
import json
import sys
from pathlib import Path

from fournines.members.jvm import Launcher, java_binary, jvm_flags, member_command
from fournines.members.profiler import local_profiler
from fournines.members.progress_display import ProgressDisplay
from fournines.results.finish import finish
from fournines.results.folder import RESULTS_ROOT, new_results_folder
from fournines.results.host_context import host_context
from fournines.results.live_log import LiveLog
from fournines.results.outcome import EXIT_FAILED, Outcome
from fournines.targets.local.kafka_load import KafkaLoadError, kafka_load
from fournines.targets.local.plan import Plan, plan_for
from fournines.targets.local.play import play
from fournines_analysis.errors import CannotWrite, write_text


def member_launcher(jar: Path, scenario: dict) -> Launcher:
    """The command that starts the member, on the scenario's JDK, for given JVM flags and results folder."""
    return functools.partial(member_command, jar, java_binary(scenario))


def run(scenario: dict, launcher: Launcher, profile: bool, results_root: Path = RESULTS_ROOT,
        run_dir: Path | None = None) -> int:
    """Plays a prepared scenario with the member `launcher` starts; returns the exit code. The
    results go to `run_dir` if given (an existing empty folder), else to a new folder in `results_root`."""
    run_dir = run_dir or new_results_folder(scenario["name"], results_root)
    print(f"results: {run_dir}", file=sys.stderr)
    try:
        write_text(run_dir / "scenario.json", json.dumps(scenario, indent=2) + "\n")
    except CannotWrite as e:
        print(f"run failed before it started: {e}", file=sys.stderr)
        return EXIT_FAILED
    profiler = local_profiler(java_binary(scenario)) if profile else None
    flags = jvm_flags(scenario, profile=False) + (profiler.flags if profiler else [])
    if profiler:
        print(f"profile: {profiler.description}", file=sys.stderr)
    context = host_context()
    plan = plan_for(scenario, launcher, flags, run_dir)
    try:
        outcome = _fed(scenario, run_dir, plan)
    finally:
        try:
            plan.gather_files()
        except CannotWrite as e:  # the merged files are the run's results: without them it failed
            outcome = Outcome("failed", str(e), EXIT_FAILED)
    # run.json records member-1's command as it ran
    return finish(run_dir, scenario, context, flags, plan.processes[0].command, outcome, profiler)


def _fed(scenario: dict, run_dir: Path, plan: Plan) -> Outcome:
    """Plays with the scenario's Kafka load around it (none unless load.source is kafka); a broker or
    load generator that failed fails the run, and so do results that could not be read back whole."""
    total_s = scenario["warmup_s"] + scenario["duration_s"]
    try:
        with kafka_load(scenario, run_dir) as kafka:
            plan.feed(kafka)
            outcome = play(plan, ProgressDisplay(scenario["name"], total_s), total_s, scenario["faults"],
                           start_load=kafka.start_load, live=LiveLog(run_dir, scenario))
            if outcome.status == "completed" and kafka.failure():
                outcome = Outcome("failed", kafka.failure(), EXIT_FAILED)
            unread = None if outcome.status == "interrupted" else kafka.read_results()
            if outcome.status == "completed" and unread:
                outcome = Outcome("failed", unread, EXIT_FAILED)
            return outcome
    except KafkaLoadError as e:
        return Outcome("failed", str(e), EXIT_FAILED)
