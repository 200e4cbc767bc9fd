"""The end of every run, local or remote: run.json and the report are written however the run ended,
so a failed run still leaves its evidence."""
import sys
from pathlib import Path

from fournines.members.jvm import PROFILE_FILE, java_binary
from fournines.members.profiler import Profiler, flame_graphs
from fournines.results.outcome import EXIT_FAILED, Outcome
from fournines.results.run_record import MemberReportError, assemble, read_member_report, sidecar_fields, write_run_json
from fournines_analysis.errors import BadInput, CannotWrite, write_text


def finish(run_dir: Path, scenario: dict, context: dict, flags: list[str], command: list[str],
           outcome: Outcome, profiler: Profiler | None = None) -> int:
    """Writes run.json and the report; returns the runner's exit code. `profiler`: what recorded the
    members' profile.jfr (PROFILE=1); its flame graphs are made before the report, which lists them."""
    status, failure, exit_code = outcome.status, outcome.cause, outcome.exit_code
    try:
        member = read_member_report(run_dir / "member.json")
    except MemberReportError as e:
        member = None
        if status == "completed":  # a crashed member is not expected to leave one
            status, failure, exit_code = "failed", str(e), EXIT_FAILED
    recordings = _recordings(run_dir) if profiler else []
    record = assemble(scenario, context, flags, command, status, failure, member,
                      recordings[0].relative_to(run_dir).as_posix() if recordings else None)
    if recordings:
        record["profiler"] = profiler.description
    record.update(sidecar_fields(run_dir))
    if outcome.faults_injected is not None:
        record["faults_injected"] = outcome.faults_injected
    try:
        write_run_json(run_dir, record)
        if recordings:
            _profile(run_dir, recordings, scenario, profiler)
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


def _recordings(run_dir: Path) -> list[Path]:
    """The members' profile.jfr: the lone member's in the folder, a cluster's in member-<i>/."""
    return [p for p in [run_dir / PROFILE_FILE, *sorted(run_dir.glob(f"member-*/{PROFILE_FILE}"))] if p.is_file()]


def _profile(run_dir: Path, recordings: list[Path], scenario: dict, profiler: Profiler) -> None:
    graphs = flame_graphs(recordings, java_binary(scenario), scenario["warmup_s"])
    listed = "".join(f"- `{g.relative_to(run_dir).as_posix()}`\n" for g in graphs) or "- none could be made (the runner said why)\n"
    first = recordings[0].relative_to(run_dir).as_posix()
    write_text(
        run_dir / "profile.md",
        f"# Profile\n\nRecorded by {profiler.description}. The recordings: "
        f"{', '.join(f'`{r.relative_to(run_dir).as_posix()}`' for r in recordings)}.\n\n"
        f"Flame graphs of CPU and allocation samples after the warm-up (open them in a browser):\n\n{listed}\n"
        f"- Overview: `jfr summary {first}`\n"
        f"- GC pauses: `jfr print --events jdk.GarbageCollection {first}` (JDK Flight Recorder only)\n",
    )
    print(f"profile: {profiler.description}; see {run_dir / 'profile.md'}", file=sys.stderr)
