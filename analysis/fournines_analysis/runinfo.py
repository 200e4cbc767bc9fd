"""run.json: the runner's record of a run's context and counters.

Only `warmup_s` is required (without it the warm-up cannot be trimmed honestly); every other field
is optional and shown as "not recorded" when missing. Fields not listed here are kept and ignored, so
the runner can add context without breaking older analysis. A listed field of the wrong type is an
error naming it. The same table documents the fields in analysis/docs/results-folder.md.
"""
import json
from dataclasses import dataclass
from numbers import Real
from pathlib import Path

from fournines_analysis.errors import BadInput, read_text

# field -> (accepted JSON type, label in reports)
FIELDS: dict[str, tuple[type, str]] = {
    "format": (int, "results format version"),
    "scenario": (dict, "scenario (resolved)"),
    "status": (str, "status"),
    "failure": (str, "failure"),
    "started_at": (str, "started (UTC)"),
    "warmup_s": (Real, "warm-up (s)"),
    "duration_s": (Real, "measured duration (s)"),
    "git_sha": (str, "git sha"),
    "host": (str, "host"),
    "cpu_model": (str, "CPU model"),
    "cores": (int, "cores (host)"),
    "jdk": (str, "JDK"),
    "jvm_flags": (list, "JVM flags"),
    "gc": (str, "GC"),
    "target_rate": (Real, "target rate (events/s)"),
    "achieved_rate": (Real, "achieved rate (events/s, runner)"),
    "events_generated": (int, "events generated"),
    "events_processed": (int, "events processed"),
    "late_events": (int, "late events"),
    "dropped_events": (int, "dropped events"),
    "guarantee": (str, "processing guarantee"),
    "snapshot_interval_ms": (int, "snapshot interval (ms)"),
    "snapshots_committed": (int, "snapshots committed"),
    "snapshots_aborted": (int, "snapshots given up on (each restarted the job)"),
    "snapshot_commit_age_s": (Real, "latest snapshot commit, before the end (s)"),
    "last_snapshot_ms": (Real, "last snapshot, start to commit (ms)"),
    "last_snapshot_bytes": (int, "last snapshot size (bytes)"),
    "faults_injected": (list, "faults injected (runner)"),
    "hlog_values_written": (dict, "latencies written, per log (member)"),
    "profiler": (str, "profiler (PROFILE=1)"),
    "calibration": (str, "calibration (simulated runs: file and content hash)"),
    "machine_profile": (str, "machine profile (simulated runs)"),
}
REQUIRED = ("warmup_s",)


@dataclass(frozen=True, eq=False)
class RunInfo:
    path: Path
    fields: dict

    @property
    def warmup_s(self) -> float:
        return float(self.fields["warmup_s"])

    @property
    def scenario_name(self) -> str | None:
        return (self.fields.get("scenario") or {}).get("name")


def read_run_info(path: Path) -> RunInfo:
    path = Path(path)
    if not path.exists():
        raise BadInput(path, "missing: every results folder needs a run.json")
    try:
        fields = json.loads(read_text(path))
    except json.JSONDecodeError as e:
        raise BadInput(path, f"not valid JSON: {e.msg} (column {e.colno})", e.lineno) from None
    if not isinstance(fields, dict):
        raise BadInput(path, "must hold a JSON object")
    for name in REQUIRED:
        if name not in fields:
            raise BadInput(path, "missing (required)", field=name)
    for name, (kind, _) in FIELDS.items():
        value = fields.get(name)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            raise BadInput(path, f"must be {_JSON_NAMES[kind]}, is {json.dumps(value)}", field=name)
    if fields["warmup_s"] < 0:
        raise BadInput(path, f"must not be negative, is {fields['warmup_s']}", field="warmup_s")
    if not isinstance((fields.get("scenario") or {}).get("name", ""), str):
        raise BadInput(path, "must be a string", field="scenario.name")
    return RunInfo(path, fields)


_JSON_NAMES = {int: "an integer", Real: "a number", str: "a string", list: "a list", dict: "an object"}
