"""run.json: the runner's record of a run (analysis/docs/results-folder.md lists the fields the analysis reads).

The runner owns the context it knows (scenario, timing, host, commit, outcome); the member reports
what only it knows in member.json (t=0, JDK, JVM flags as the JVM saw them, GC, counters) and that is
merged in. A runner-owned field in member.json is overruled, with a warning.
"""
import json
import sys
from pathlib import Path

from fournines_analysis.errors import write_text
from fournines_analysis.runinfo import FIELDS as ANALYSIS_FIELDS

FORMAT = 1
RUNNER_OWNED = ("format", "scenario", "status", "failure", "warmup_s", "duration_s", "target_rate",
                "git_sha", "git_dirty", "host", "cpu_model", "cores", "kernel", "command", "profile")
# The JVM's name for each scenario GC, used until the member reports its own.
GC_NAMES = {"g1": "G1", "zgc": "ZGC", "generational-zgc": "generational ZGC", "parallel": "Parallel", "serial": "Serial",
            "shenandoah": "Shenandoah"}


class MemberReportError(ValueError):
    pass


def read_member_report(path: Path) -> dict:
    """member.json, checked against the types analysis expects; MemberReportError names the field."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MemberReportError(f"{path}: missing; the member must write it before it exits") from None
    except (OSError, json.JSONDecodeError) as e:
        raise MemberReportError(f"{path}: unreadable: {e}") from None
    if not isinstance(report, dict):
        raise MemberReportError(f"{path}: must hold a JSON object")
    for name, value in report.items():
        kind = ANALYSIS_FIELDS.get(name, (object,))[0]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not object):
            raise MemberReportError(f"{path}: field {name} must be of type {kind.__name__}; is {json.dumps(value)}")
    return report


def assemble(scenario: dict, context: dict, flags: list[str], command: list[str], status: str,
             failure: str | None, member: dict | None, profile: str | None) -> dict:
    record = {
        "format": FORMAT,
        "scenario": scenario,
        "status": status,
        "warmup_s": scenario["warmup_s"],
        "duration_s": scenario["duration_s"],
        "target_rate": scenario["load"]["rate"],
        **context,
        "jvm_flags": flags,
        "gc": GC_NAMES[scenario["cluster"]["gc"]],
        "command": command,
    }
    if failure:
        record["failure"] = failure
    if profile:
        record["profile"] = profile
    for name, value in (member or {}).items():
        if name in RUNNER_OWNED:
            print(f"warning: member.json sets {name}, which the runner owns; keeping the runner's value",
                  file=sys.stderr)
        else:
            record[name] = value
    return record


def write_run_json(run_dir: Path, record: dict) -> Path:
    path = run_dir / "run.json"
    write_text(path, json.dumps(record, indent=2) + "\n")
    return path


def read_run_json(run_dir: Path) -> dict:
    """A finished run's run.json as the runner wrote it; empty if there is none or it cannot be read."""
    try:
        return json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def sidecar_fields(run_dir: Path) -> dict:
    """kafka.json and loadgen.json (a Kafka load's broker, topic and load generator), when the run had them."""
    fields = {}
    for name in ("kafka", "loadgen"):
        path = run_dir / f"{name}.json"
        if path.is_file():
            fields[name] = json.loads(path.read_text(encoding="utf-8"))
    return fields
