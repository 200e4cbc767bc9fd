"""Per-member figures of a cluster run: each member-<i>/ folder the runner leaves next to the merged
files holds that member's own member.json, latency logs, throughput and CPU. The report's main
figures are the merged ones; this table shows how the members shared the work."""
import json
from pathlib import Path

from fournines_analysis import formatting
from fournines_analysis.document import Block, Heading, Paragraph, Table
from fournines_analysis.errors import BadInput
from fournines_analysis.hlog import read_hlog
from fournines_analysis.summary import summarize_log
from fournines_analysis.timeseries import CPU_COLUMNS, THROUGHPUT_COLUMNS, rate_after, read_series


def member_folders(run_dir: Path) -> list[Path]:
    return sorted((p for p in Path(run_dir).glob("member-*") if p.is_dir()), key=lambda p: int(p.name.split("-")[1]))


def member_processes(run_dir: Path) -> list[tuple[str, Path]]:
    """Each member's folder, then the folders of the processes that joined again in its place after a
    restart fault (member-<i>/joined-<n>/), with the name the report gives them."""
    found = []
    for folder in member_folders(run_dir):
        found.append((folder.name, folder))
        for joined in sorted(folder.glob("joined-*"), key=lambda j: int(j.name.split("-")[1])):
            found.append((f"{folder.name} (joined {joined.name.split('-')[1]})", joined))
    return found


def member_blocks(run_dir: Path, warmup_s: float) -> list[Block]:
    """A heading and a table with a row per member; nothing for a single-member run."""
    processes = member_processes(run_dir)
    if not processes:
        return []
    rows = [_row(name, folder, warmup_s) for name, folder in processes]
    return [Heading("Per member"),
            Paragraph("Each member runs the whole DAG on its share of the load (a slice of the generator, or of the "
                      "Kafka topic's partitions); only partial aggregates (and other distributed edges) cross "
                      "members. Latency is recorded where a window's result is emitted, so members that own no "
                      "result keys record none."),
            Table(["member", "throughput", "cores busy", "latency p99", "latency p99.99", "network bytes sent",
                   "bytes/event", "credit stalls"], rows)]


def _row(name: str, folder: Path, warmup_s: float) -> list[str]:
    report = {}
    if (folder / "member.json").is_file():
        report = json.loads((folder / "member.json").read_text(encoding="utf-8"))
    throughput = _rate(folder / "throughput.csv", THROUGHPUT_COLUMNS, "events", warmup_s)
    cores = _rate(folder / "cpu.csv", CPU_COLUMNS, "cpu_seconds", warmup_s)
    p99 = p9999 = None
    if (folder / "latency.hlog").is_file():
        try:
            summary = summarize_log(read_hlog(folder / "latency.hlog")[0], warmup_s)
            if summary.count:
                p99, p9999 = summary.percentiles[99.0], summary.percentiles[99.99]
        except BadInput:
            pass  # no interval after the warm-up: the member recorded no latency to show
    sent, processed = report.get("network_bytes_sent"), report.get("events_processed")
    per_event = sent / processed if isinstance(sent, (int, float)) and processed else None
    return [name, formatting.rate(throughput), formatting.number(cores), formatting.micros(p99),
            formatting.micros(p9999), formatting.number0(sent), formatting.number(per_event),
            formatting.number0(report.get("network_credit_stalls"))]


def _rate(path: Path, columns, cumulative: str, warmup_s: float) -> float | None:
    return rate_after(read_series(path, columns, cumulative), cumulative, warmup_s) if path.is_file() else None
