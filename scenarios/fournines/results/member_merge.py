"""Merges the members' result files (member-<i>/) into the run's own, so run.json and the report see
the cluster as one: latency logs are the union of every member's intervals (each rebased onto the
first member's start time), throughput, CPU and events generated are summed per second (the
schedule lag and the host's stolen CPU are the worst member's), member.json sums the
counts, the Kafka records set aside go into one dead-letters.jsonl, and the batches of a
micro-batch or group run (batches.csv, written by whichever member scheduled an execution) are
numbered on across the executions a restart began. A member a fault restarted
and that joined the running job again wrote into member-<i>/joined-<n>/: those files count as well.
The member folders stay, for the report's per-member figures.

An active-active run merges one copy's members, and takes its latency from the result consumer.
"""
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from fournines.results.folder import consumer_dir
from fournines_analysis.batches import BATCHES_FILE
from fournines_analysis.errors import write_text
from fournines_analysis.steal import HOST_FILE
from fournines_analysis.timeseries import LOAD_FILE

# member.json fields that add up over members
SUMMED = ("events_generated", "events_processed", "late_events", "late_window_partials", "dropped_events",
          "achieved_rate", "latency_values_clamped", "window_results_after_completion", "network_bytes_sent",
          "network_items_sent", "network_credit_stalls", "malformed_records", "kafka_polls", "kafka_polls_over_1ms",
          "kafka_snapshot_partitions", "kafka_snapshot_offsets_total", "snapshots_aborted")
# member.json fields whose freshest member speaks for the cluster
LEAST = ("snapshot_commit_age_s",)
DEAD_LETTERS = "dead-letters.jsonl"
# CSV columns that count events: whole numbers
COUNTS = ("events", "generated")
_BASE_TIME = re.compile(r"#\[BaseTime: *([0-9.]+)")
_INTERVAL = re.compile(r"^(Tag=[^,]*,)?([0-9.]+)(,.*)$")


def lift_job_files(member: Path, job: int) -> None:
    """member-i/job-ID/* -> member-i/: one job per run, so the folder needs no job level."""
    job_dir = member / f"job-{job}"
    if job_dir.is_dir():
        for f in job_dir.iterdir():
            f.replace(member / f.name)
        job_dir.rmdir()


def merge_members(run_dir: Path, members: list[Path]) -> None:
    processes = [p for m in members for p in [m, *sorted(m.glob("joined-*"), key=lambda j: int(j.name.split("-")[1]))]]
    present = [p for p in processes if (p / "member.json").is_file()]
    if present:
        _merge_member_json(run_dir / "member.json", present, len(members))
    for name in ("latency.hlog", "completion.hlog"):
        logs = [p / name for p in processes if (p / name).is_file()]
        if logs:
            _merge_hlogs(run_dir / name, logs)
    _sum_csv(run_dir / "throughput.csv", [p / "throughput.csv" for p in processes], ("events",), ("events_per_s",))
    _sum_csv(run_dir / "cpu.csv", [p / "cpu.csv" for p in processes], ("cpu_seconds",), ())
    _sum_csv(run_dir / LOAD_FILE, [p / LOAD_FILE for p in processes], ("generated",), (), worst=("behind_ms",))
    _sum_csv(run_dir / HOST_FILE, [p / HOST_FILE for p in processes], (), (), worst=("steal_seconds",))
    _concat_batches(run_dir / BATCHES_FILE, [p / BATCHES_FILE for p in processes if (p / BATCHES_FILE).is_file()])
    letters = [p / DEAD_LETTERS for p in processes if (p / DEAD_LETTERS).is_file()]
    if letters:
        write_text(run_dir / DEAD_LETTERS, "".join(f.read_text(encoding="utf-8") for f in letters))


@dataclass(frozen=True)
class CopyResult:
    """How one copy of an active-active run ended."""
    number: int  # 1 or 2, as in reports
    members: list[Path]  # its members' folders
    job: int | None  # its job's id, once submitted
    lost: str | None  # why it stopped early; None if it ran to the end


def merge_active_active(run_dir: Path, copies: list[CopyResult]) -> None:
    """The run's files: latency from the consumer (the deduplicated output); events, throughput and
    CPU from one copy (the first that ran to the end), as the job's cost once; member.json says so
    and adds each copy's outcome and the consumer's counts."""
    whole = [c for c in copies if not c.lost and all((m / "member.json").is_file() for m in c.members)]
    merged = (whole or copies)[0]
    merge_members(run_dir, merged.members)
    for name in ("latency.hlog", "completion.hlog"):
        source = consumer_dir(run_dir) / name
        if source.is_file():
            shutil.copyfile(source, run_dir / name)
        else:
            (run_dir / name).unlink(missing_ok=True)  # a copy's own latency is not the output's
    summary = {"copies": [{"copy": c.number, "members": [m.name for m in c.members], "job": c.job,
                           "outcome": "lost" if c.lost else "ran to the end", "cause": c.lost} for c in copies],
               "counts_and_cpu_from_copy": merged.number}
    consumer_json = consumer_dir(run_dir) / "consumer.json"
    if consumer_json.is_file():
        summary["consumer"] = json.loads(consumer_json.read_text(encoding="utf-8"))
    write_text(run_dir / "active-active.json", json.dumps(summary, indent=2) + "\n")
    member_json = run_dir / "member.json"
    if member_json.is_file():
        report = json.loads(member_json.read_text(encoding="utf-8"))
        report["active_active"] = summary
        write_text(member_json, json.dumps(report, indent=2) + "\n")


def _merge_member_json(target: Path, processes: list[Path], members: int) -> None:
    reports = [json.loads((p / "member.json").read_text(encoding="utf-8")) for p in processes]
    merged = {k: v for k, v in reports[0].items() if k != "member"}
    for names, combine in ((SUMMED, sum), (LEAST, min)):
        for name in names:
            values = [r[name] for r in reports if isinstance(r.get(name), (int, float))]
            if values:
                merged[name] = combine(values)
    written = [r["hlog_values_written"] for r in reports if isinstance(r.get("hlog_values_written"), dict)]
    if written:  # per log file, like the merged logs themselves
        merged["hlog_values_written"] = {name: sum(w.get(name, 0) for w in written)
                                         for name in dict.fromkeys(n for w in written for n in w)}
    polls = [(r["kafka_polls"], r["kafka_poll_mean_us"]) for r in reports if "kafka_poll_mean_us" in r]
    if polls:
        total = sum(n for n, _ in polls)
        merged["kafka_poll_mean_us"] = sum(n * mean for n, mean in polls) / total if total else 0
    merged["members"] = members
    write_text(target, json.dumps(merged, indent=2) + "\n")


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
    write_text(target, "\n".join(header + [text for _, text in intervals]) + "\n")


def _concat_batches(target: Path, files: list[Path]) -> None:
    """Each execution numbers its batches from 0: in the order they ran (by the first launch), each
    file's numbers go on from the last file's highest."""
    tables = []
    for f in files:
        lines = f.read_text(encoding="utf-8").splitlines()
        rows = [row.split(",") for row in lines[1:] if row]
        if rows:
            tables.append((int(rows[0][2]), lines[0], rows))
    if not tables:
        return
    tables.sort(key=lambda t: t[0])
    out, offset = [tables[0][1]], 0
    for _, _, rows in tables:
        out += [",".join([str(int(r[0]) + offset), *r[1:]]) for r in rows]
        offset += max(int(r[0]) for r in rows) + 1
    write_text(target, "\n".join(out) + "\n")


def _sum_csv(target: Path, files: list[Path], cumulative: tuple[str, ...], rates: tuple[str, ...],
             worst: tuple[str, ...] = ()) -> None:
    """A row per second any member sampled (samples are once a second on the run's timeline; a
    fault may end any member's early), with every member's figures of that second added: a
    cumulative column takes the member's latest value at or before that second, so a member a fault
    killed keeps what it did and one that joined later adds from when it started; a rate column
    takes the member's sample of that second, or nothing. A `worst` column is the highest of the
    members' samples of that second (a lag: the cluster is as late as its latest member)."""
    tables = []
    for f in files:
        if f.is_file():
            lines = f.read_text(encoding="utf-8").splitlines()
            tables.append((lines[0].split(","), [row.split(",") for row in lines[1:] if row]))
    if not tables:
        return
    columns = tables[0][0]
    first_row_of = {}
    for _, rows in tables:
        for row in rows:
            first_row_of.setdefault(round(float(row[0])), row)
    out = [",".join(columns)]
    for second, row in sorted(first_row_of.items()):
        summed = list(row)
        for c, name in enumerate(columns):
            if name in cumulative or name in rates:
                total = sum(_value_at(rows, second, c, name in cumulative) for _, rows in tables)
                summed[c] = str(int(total)) if name in COUNTS else f"{total:.3f}"
            elif name in worst:
                summed[c] = f"{max(_value_at(rows, second, c, False) for _, rows in tables):.3f}"
        out.append(",".join(summed))
    write_text(target, "\n".join(out) + "\n")


def _value_at(rows: list[list[str]], second: int, column: int, cumulative: bool) -> float:
    """One member's figure for `second`: its latest value at or before it (cumulative), or its sample of it."""
    if cumulative:
        earlier = [float(r[column]) for r in rows if round(float(r[0])) <= second]
        return earlier[-1] if earlier else 0.0
    same = [float(r[column]) for r in rows if round(float(r[0])) == second]
    return same[0] if same else 0.0
