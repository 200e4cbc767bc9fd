"""Merges the members' result files (member-<i>/) into the run's own, so run.json and the report see
the cluster as one: latency logs are the union of every member's intervals (each rebased onto the
first member's start time), throughput and CPU are summed per sample, and member.json sums the
counts. The member folders stay, for the report's per-member figures.
"""
import json
import re
from pathlib import Path

# member.json fields that add up over members
SUMMED = ("events_generated", "events_processed", "late_events", "late_window_partials", "dropped_events",
          "achieved_rate", "latency_values_clamped", "window_results_after_completion", "network_bytes_sent",
          "network_items_sent", "network_credit_stalls")
_BASE_TIME = re.compile(r"#\[BaseTime: *([0-9.]+)")
_INTERVAL = re.compile(r"^(Tag=[^,]*,)?([0-9.]+)(,.*)$")


def merge_members(run_dir: Path, members: list[Path]) -> None:
    present = [m for m in members if (m / "member.json").is_file()]
    if present:
        _merge_member_json(run_dir / "member.json", present)
    for name in ("latency.hlog", "completion.hlog"):
        logs = [m / name for m in members if (m / name).is_file()]
        if logs:
            _merge_hlogs(run_dir / name, logs)
    _sum_csv(run_dir / "throughput.csv", [m / "throughput.csv" for m in members], ("events", "events_per_s"))
    _sum_csv(run_dir / "cpu.csv", [m / "cpu.csv" for m in members], ("cpu_seconds",))


def _merge_member_json(target: Path, members: list[Path]) -> None:
    reports = [json.loads((m / "member.json").read_text(encoding="utf-8")) for m in members]
    merged = {k: v for k, v in reports[0].items() if k != "member"}
    for name in SUMMED:
        values = [r[name] for r in reports if isinstance(r.get(name), (int, float))]
        if values:
            merged[name] = sum(values)
    merged["members"] = len(members)
    target.write_text(json.dumps(merged, indent=2) + "\n", encoding="utf-8")


def _merge_hlogs(target: Path, logs: list[Path]) -> None:
    header, intervals, base0 = [], [], None
    for log in logs:
        base = None
        for line in log.read_text(encoding="utf-8").splitlines():
            match = _BASE_TIME.match(line)
            if match:
                base = float(match.group(1))
            interval = _INTERVAL.match(line)
            if interval and not line.startswith("#"):
                offset = 0.0 if base0 is None or base is None else base - base0
                start = float(interval.group(2)) + offset
                intervals.append((start, f"{interval.group(1) or ''}{start:.3f}{interval.group(3)}"))
            elif log == logs[0]:
                header.append(line)
        if base0 is None:
            base0 = base
    intervals.sort(key=lambda i: i[0])
    target.write_text("\n".join(header + [text for _, text in intervals]) + "\n", encoding="utf-8")


def _sum_csv(target: Path, files: list[Path], summed: tuple[str, ...]) -> None:
    """Row k of the result: the first member's time, the sum of every member's row k (rows are the
    members' once-a-second samples, all on one schedule)."""
    tables = []
    for f in files:
        if f.is_file():
            lines = f.read_text(encoding="utf-8").splitlines()
            tables.append((lines[0].split(","), [row.split(",") for row in lines[1:] if row]))
    if not tables:
        return
    columns = tables[0][0]
    rows = min(len(t[1]) for t in tables)
    out = [",".join(columns)]
    for k in range(rows):
        row = list(tables[0][1][k])
        for c, name in enumerate(columns):
            if name in summed:
                total = sum(float(t[1][k][c]) for t in tables)
                row[c] = str(int(total)) if name == "events" else f"{total:.3f}"
        out.append(",".join(row))
    target.write_text("\n".join(out) + "\n", encoding="utf-8")
