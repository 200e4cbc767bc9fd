"""report.md, report.html and plots/*.png for one results folder: what was measured after the
warm-up, how it moved over time, and the context needed to trust or reproduce it."""
import json
import re
from pathlib import Path

from fournines_analysis import formatting, plots
from fournines_analysis.batches import batch_blocks
from fournines_analysis.document import Block, Heading, Image, Paragraph, Table, write
from fournines_analysis.faults import fault_blocks
from fournines_analysis.gc_log import gc_events
from fournines_analysis.jobs import job_blocks
from fournines_analysis.members import member_blocks
from fournines_analysis.results import Run, load_run
from fournines_analysis.snapshot_timeline import snapshot_blocks
from fournines_analysis.runinfo import FIELDS
from fournines_analysis.stalls import stall_blocks
from fournines_analysis.standing import Standing, opening_blocks, standing_of, titled
from fournines_analysis.steal import steal_after_warmup
from fournines_analysis.summary import RunSummary, measured_counts, summarize
from fournines_analysis.vertices import vertex_blocks


def write_report(run_dir: Path | str) -> tuple[Path, Path]:
    """Loads the folder, writes its plots and both reports into it; returns (report.md, report.html)."""
    run = load_run(run_dir)
    return write(report_blocks(run, summarize(run)), run.path)


def report_blocks(run: Run, summary: RunSummary, plots_dir: Path | None = None) -> list[Block]:
    """The report's content; its plots are saved into `plots_dir` (<run>/plots/ unless given: the
    dashboard keeps results folders untouched) on the way. It opens with the run's standing (status,
    coverage), and the plots carry its mark too, as they may be shown on their own."""
    plots_dir = plots_dir or run.path / "plots"
    standing = standing_of(run)
    title = titled(run.info.scenario_name or run.label, standing)
    blocks: list[Block] = [
        Heading(titled(f"{run.info.scenario_name or run.label}: {run.label}", standing), 1),
        *opening_blocks(standing, run.path),
        *simulated_blocks(run, standing),
        Paragraph(f"Latencies are in microseconds. The first {run.warmup_s:g} s are warm-up: left out of "
                  f"every number below, shaded in the plots over time."),
        Heading("Latency after warm-up"),
        latency_table(summary),
        *job_blocks(run.path, run.warmup_s),
        Heading("Throughput after warm-up"),
        Table(["throughput", "cores busy (cpu s / wall s)", "events/s per core"],
              [[formatting.rate(summary.throughput), formatting.number(summary.cores),
                formatting.number(summary.per_core, 0)]]),
        *host_blocks(run),
        Heading("Percentile distribution"),
        Image(plots.save(plots.nines_figure(
            [(name, measured_counts(log, run.warmup_s).sum(axis=0), log.layout) for name, log in run.latency.items()],
            f"{title}: latency by percentile, after warm-up"), plots_dir / "nines.png"),
            "latency by percentile on a nines axis"),
        Heading("Latency over time"),
    ]
    lead = next(iter(run.latency.values()))
    gc = gc_events(run.path, lead.start_time_s)
    for name, log in run.latency.items():
        figure = plots.latency_over_time_figure(log, run.warmup_s, f"{title}: {name} per interval", gc)
        blocks.append(Image(plots.save(figure, plots_dir / f"over-time-{file_safe(name)}.png"),
                            f"{name}: p99 and max per interval"))
    blocks += stall_blocks(lead, run.warmup_s, gc, run.host)
    blocks += fault_blocks(run.info.fields, lead, run.warmup_s, run.path, title, plots_dir)
    if run.throughput is not None:
        figure = plots.throughput_figure(run.throughput, run.cpu, run.warmup_s, f"{title}: throughput")
        blocks += [Heading("Throughput over time"),
                   Image(plots.save(figure, plots_dir / "throughput.png"), "throughput over time")]
    else:
        blocks += [Heading("Throughput over time"), Paragraph("No throughput.csv in this results folder.")]
    blocks += batch_blocks(run.path, run.warmup_s, title, plots_dir)
    blocks += snapshot_blocks(run.path, run.warmup_s, title, plots_dir)
    blocks += vertex_blocks(run.path, run.warmup_s)
    blocks += profile_blocks(run)
    blocks += member_blocks(run.path, run.warmup_s)
    blocks += [Heading("Run context"), context_table(run)]
    return blocks


def profile_blocks(run: Run) -> list[Block]:
    """The flame graphs a run with PROFILE=1 left (profile.md says how they were recorded)."""
    graphs = sorted(p.relative_to(run.path).as_posix() for where in ("", "member-*/") for p in run.path.glob(where + "flame-*.html"))
    if not graphs:
        return []
    return [Heading("Where the time goes: flame graphs"),
            Paragraph(f"CPU and allocation samples after the warm-up, by {run.info.fields.get('profiler', 'a profiler')}; "
                      f"open them in a browser: {', '.join(graphs)}.")]


def simulated_blocks(run: Run, standing: Standing) -> list[Block]:
    """A simulated run says what its numbers come from before any of them."""
    if not standing.simulated:
        return []
    fields = run.info.fields
    return [Paragraph(f"Simulated, not measured: the figures below come from the simulator's model "
                      f"(scenarios/docs/simulate.md), with calibration {fields.get('calibration', 'not recorded')} "
                      f"on machine profile {fields.get('machine_profile', 'not recorded')}.")]


def host_blocks(run: Run) -> list[Block]:
    """What the hypervisor took from the host over the measurement, where the host could say."""
    stolen = steal_after_warmup(run.host, run.warmup_s)
    if stolen is None:
        return []
    blame = " Stalls in those seconds may be the host's, not the engine's." if stolen.stolen_seconds else ""
    return [Paragraph(f"Host: {stolen}.{blame}")]


def latency_table(summary: RunSummary) -> Table:
    header = ["series"] + [label for label, _, _ in summary.latency[0].metrics()]
    return Table(header, [[s.series] + [fmt(v) for _, v, fmt in s.metrics()] for s in summary.latency])


def context_table(run: Run) -> Table:
    rows = []
    for field, (_, label) in FIELDS.items():
        value = run.info.fields.get(field)
        if value is None:
            text = "not recorded"
        elif isinstance(value, (dict, list)):
            text = " ".join(value) if field == "jvm_flags" else json.dumps(value, sort_keys=True)
        else:
            text = str(value)
        rows.append([label, text])
    return Table(["field", "value"], rows)


def file_safe(name: str) -> str:
    return re.sub(r"[^\w.-]", "_", name)
