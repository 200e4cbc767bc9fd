"""`./fournines run SCENARIO [KEY=VALUE ...]`: one benchmark run, from scenario file to report.

Order matters: everything that can be wrong with the request (the file, the overrides, what this
build supports) is checked before anything is built or started; then the member is built, the
results folder made, the member played; run.json and the report are written whatever happened, so a
failed run still leaves its evidence.
"""
import functools
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from fournines import REPO_ROOT
from fournines.active_active import run_active_active
from fournines.engines import ENGINES
from fournines.cluster_play import member_commands, member_dir, play_cluster
from fournines.results.member_merge import merge_members
from fournines.results.host_context import host_context
from fournines.members.java_build import ensure_jar
from fournines.members.jvm import PROFILE_FILE, jvm_flags, member_command
from fournines.targets.local.kafka_load import KafkaLoad, KafkaLoadError, build_jars as build_kafka_jars, kafka_load, run_record_fields
from fournines.spec.overrides import Overrides
from fournines.targets.local.play import EXIT_FAILED, Outcome, play
from fournines.members.progress_display import ProgressDisplay
from fournines.results.folder import RESULTS_ROOT, new_results_folder
from fournines.results.run_record import MemberReportError, assemble, read_member_report, write_run_json
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.spec.support import unsupported

EXIT_BAD_REQUEST = 2


class RunRefused(Exception):
    """The request cannot run; nothing was started. Carries the lines to show."""


def prepare(ref: str, overrides: Overrides) -> tuple[dict, Path]:
    """The resolved scenario and its engine's member jar, built if stale; RunRefused if it cannot run."""
    try:
        scenario = load_scenario(ref, overrides)
    except ScenarioError as e:
        raise RunRefused(str(e)) from None
    problems = unsupported(scenario)
    if problems:
        raise RunRefused("\n".join(f"{ref}: {p}" for p in problems))
    if shutil.which("java") is None:
        raise RunRefused("java: not found on PATH; the member needs a JDK 17 or newer")
    engine = ENGINES[scenario["engine"]]
    if not (REPO_ROOT / engine.module / "pom.xml").is_file():
        raise RunRefused(f"{engine.module}: the member process is not in this checkout yet "
                         f"(the runner starts {engine.module}/target/{engine.jar})")
    try:
        jar = ensure_jar(engine.module, engine.jar)
        if scenario["load"]["source"] == "kafka":
            build_kafka_jars()
    except subprocess.CalledProcessError as e:
        raise RunRefused(f"building {engine.module} failed (exit {e.returncode}); see Maven's output above") from None
    return scenario, jar


def member_launcher(jar: Path) -> Callable[[list[str], Path], list[str]]:
    """The command that starts the member for given JVM flags and results folder."""
    return functools.partial(member_command, jar)


def run(scenario: dict, launcher: Callable[[list[str], Path], list[str]], profile: bool,
        results_root: Path = RESULTS_ROOT, run_dir: Path | None = None) -> int:
    """Plays a prepared scenario with the member `launcher` starts; returns the exit code. The
    results go to `run_dir` if given (an existing empty folder), else to a new folder in `results_root`."""
    run_dir = run_dir or new_results_folder(scenario["name"], results_root)
    print(f"results: {run_dir}", file=sys.stderr)
    (run_dir / "scenario.json").write_text(json.dumps(scenario, indent=2) + "\n", encoding="utf-8")
    flags = jvm_flags(scenario, profile)
    context = host_context()
    total_s = scenario["warmup_s"] + scenario["duration_s"]
    display = ProgressDisplay(scenario["name"], total_s)
    members = scenario["cluster"]["members"]
    if scenario["mode"] == "active-active":
        command, outcome = run_active_active(scenario, launcher, flags, run_dir, display, total_s)
    elif members > 1:
        commands = member_commands(launcher, flags, run_dir, members)
        command = commands[0]
        outcome = _fed(scenario, run_dir, lambda kafka: play_cluster(commands, run_dir, display, total_s, job_fields=kafka.job_fields,
                                                                     on_running=kafka.start_load))
        merge_members(run_dir, [member_dir(run_dir, i) for i in range(members)])
    else:
        command = launcher(flags, run_dir)

        def play_alone(kafka: KafkaLoad) -> Outcome:
            command.extend(kafka.member_args)  # run.json records the command as the member ran
            return play(command, run_dir, run_dir / "member.log", display, total_s, on_running=kafka.start_load)
        outcome = _fed(scenario, run_dir, play_alone)
    return finish(run_dir, scenario, context, flags, command, outcome, profile)


def _fed(scenario: dict, run_dir: Path, play_with: Callable[[KafkaLoad], Outcome]) -> Outcome:
    """Plays with the scenario's Kafka load around it (none unless load.source is kafka); a broker or
    load generator that failed fails the run."""
    try:
        with kafka_load(scenario, run_dir) as kafka:
            outcome = play_with(kafka)
            if outcome.status == "completed" and kafka.failure():
                outcome = Outcome("failed", kafka.failure(), EXIT_FAILED)
            return outcome
    except KafkaLoadError as e:
        return Outcome("failed", str(e), EXIT_FAILED)


def finish(run_dir: Path, scenario: dict, context: dict, flags: list[str], command: list[str],
           outcome: Outcome, profile: bool) -> int:
    """Writes run.json and the report, however the run ended; returns the exit code."""
    status, failure, exit_code = outcome.status, outcome.cause, outcome.exit_code
    try:
        member = read_member_report(run_dir / "member.json")
    except MemberReportError as e:
        member = None
        if status == "completed":  # a crashed member is not expected to leave one
            status, failure, exit_code = "failed", str(e), EXIT_FAILED
    profile_file = PROFILE_FILE if profile and (run_dir / PROFILE_FILE).exists() else None
    record = assemble(scenario, context, flags, command, status, failure, member, profile_file)
    record.update(run_record_fields(run_dir))
    if outcome.faults_injected is not None:
        record["faults_injected"] = outcome.faults_injected
    write_run_json(run_dir, record)
    if profile_file:
        _describe_profile(run_dir)
    if failure:
        print(f"run {status}: {failure}", file=sys.stderr)
    exit_code = _report(run_dir, exit_code)
    print(f"results: {run_dir}", file=sys.stderr)
    return exit_code


def _report(run_dir: Path, exit_code: int) -> int:
    from fournines_analysis.errors import BadInput
    from fournines_analysis.report import write_report

    if exit_code and not any(run_dir.glob("*.hlog")):
        print("no report: the run recorded no latency", file=sys.stderr)
        return exit_code
    try:
        for path in write_report(run_dir):
            print(f"wrote {path}", file=sys.stderr)
    except BadInput as e:
        print(f"no report: {e}", file=sys.stderr)
        return exit_code or EXIT_FAILED
    return exit_code


def _describe_profile(run_dir: Path) -> None:
    (run_dir / "profile.md").write_text(
        f"# Profile\n\nThe member ran with Java Flight Recorder (settings=profile); the recording is "
        f"`{PROFILE_FILE}` in this folder.\n\n"
        f"- Overview: `jfr summary {PROFILE_FILE}`\n"
        f"- Hot methods: `jfr print --events jdk.ExecutionSample {PROFILE_FILE}`\n"
        f"- GC pauses: `jfr print --events jdk.GarbageCollection {PROFILE_FILE}`\n"
        f"- Interactive, with flame graphs: open it in JDK Mission Control (`jmc`).\n",
        encoding="utf-8")
    print(f"profile: {run_dir / PROFILE_FILE} (see profile.md)", file=sys.stderr)
