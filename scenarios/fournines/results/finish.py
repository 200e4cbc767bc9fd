"""The end of every run, local or remote: run.json and the report are written however the run ended,
so a failed run still leaves its evidence."""
import sys
from pathlib import Path

from fournines.members.jvm import PROFILE_FILE
from fournines.results.outcome import EXIT_FAILED, Outcome
from fournines.results.run_record import MemberReportError, assemble, read_member_report, sidecar_fields, write_run_json
from fournines_analysis.errors import BadInput, CannotWrite, write_text


def finish(run_dir: Path, scenario: dict, context: dict, flags: list[str], command: list[str],
           outcome: Outcome, profile: bool) -> int:
    """Writes run.json and the report; returns the runner's exit code."""
    status, failure, exit_code = outcome.status, outcome.cause, outcome.exit_code
    try:
        member = read_member_report(run_dir / "member.json")
    except MemberReportError as e:
        member = None
        if status == "completed":  # a crashed member is not expected to leave one
            status, failure, exit_code = "failed", str(e), EXIT_FAILED
    profile_file = PROFILE_FILE if profile and (run_dir / PROFILE_FILE).exists() else None
    record = assemble(scenario, context, flags, command, status, failure, member, profile_file)
    record.update(sidecar_fields(run_dir))
    if outcome.faults_injected is not None:
        record["faults_injected"] = outcome.faults_injected
    try:
        write_run_json(run_dir, record)
        if profile_file:
            _describe_profile(run_dir)
    except CannotWrite as e:
        print(f"run failed: {e}", file=sys.stderr)
        return EXIT_FAILED
    if failure:
        print(f"run {status}: {failure}", file=sys.stderr)
    exit_code = _report(run_dir, record, exit_code)
    print(f"results: {run_dir}", file=sys.stderr)
    return exit_code


def _report(run_dir: Path, record: dict, exit_code: int) -> int:
    """A report that cannot be written fails the run: run.json says so, if it still can be written."""
    from fournines_analysis.report import write_report  # matplotlib: loaded only when a report is due

    if exit_code and not any(run_dir.glob("*.hlog")):
        print("no report: the run recorded no latency", file=sys.stderr)
        return exit_code
    try:
        for path in write_report(run_dir):
            print(f"wrote {path}", file=sys.stderr)
    except BadInput as e:
        print(f"no report: {e}", file=sys.stderr)
        return exit_code or EXIT_FAILED
    except CannotWrite as e:
        print(f"run failed: {e}", file=sys.stderr)
        try:
            write_run_json(run_dir, {**record, "status": "failed", "failure": str(e)})
        except CannotWrite as again:
            print(f"run failed: {again}", file=sys.stderr)
        return EXIT_FAILED
    return exit_code


def _describe_profile(run_dir: Path) -> None:
    write_text(
        run_dir / "profile.md",
        f"# Profile\n\nThe member ran with Java Flight Recorder (settings=profile); the recording is "
        f"`{PROFILE_FILE}` in this folder.\n\n"
        f"- Overview: `jfr summary {PROFILE_FILE}`\n"
        f"- Hot methods: `jfr print --events jdk.ExecutionSample {PROFILE_FILE}`\n"
        f"- GC pauses: `jfr print --events jdk.GarbageCollection {PROFILE_FILE}`\n"
        f"- Interactive, with flame graphs: open it in JDK Mission Control (`jmc`).\n",
    )
    print(f"profile: {run_dir / PROFILE_FILE} (see profile.md)", file=sys.stderr)
