"""Several jobs on one member (scenario field `jobs`): each job-<k>/ folder holds that job's own
latency logs, and the run's logs hold every job's values merged, so the report's main figures are
the merged ones; this line shows how far apart the jobs' tails were."""
from pathlib import Path

from fournines_analysis import formatting
from fournines_analysis.document import Block, Paragraph
from fournines_analysis.errors import BadInput
from fournines_analysis.hlog import read_hlog
from fournines_analysis.summary import summarize_log


def job_folders(run_dir: Path) -> list[Path]:
    return sorted((p for p in Path(run_dir).glob("job-*") if p.is_dir()), key=lambda p: int(p.name.split("-")[1]))


def job_blocks(run_dir: Path, warmup_s: float) -> list[Block]:
    """One paragraph: the number of jobs and the lowest and highest of their p99.99s; nothing for one job."""
    folders = job_folders(run_dir)
    if not folders:
        return []
    tails = {folder.name: _p9999(folder / "latency.hlog", warmup_s) for folder in folders}
    measured = {name: value for name, value in tails.items() if value is not None}
    text = (f"{len(folders)} jobs on one member, each at its share of the load; the figures above are their "
            f"latencies merged (each job's own: job-<k>/latency.hlog).")
    if measured:
        low, high = min(measured, key=measured.get), max(measured, key=measured.get)
        text += (f" Per-job p99.99: {formatting.micros(measured[low])} ({low}) … "
                 f"{formatting.micros(measured[high])} ({high}).")
    unmeasured = sorted(set(tails) - set(measured), key=lambda name: int(name.split("-")[1]))
    if unmeasured:
        text += f" No latency after the warm-up from {', '.join(unmeasured)}."
    return [Paragraph(text)]


def _p9999(hlog: Path, warmup_s: float) -> float | None:
    if not hlog.is_file():
        return None
    try:
        summary = summarize_log(read_hlog(hlog)[0], warmup_s)
    except BadInput:
        return None  # no interval after the warm-up
    return summary.percentiles[99.99] if summary.count else None
