"""Several runs side by side: their distributions overlaid on one nines plot per latency series, and
tables with every run's numbers as a ratio of the first run's (the reference). Runs that did not
complete or miss part of their measurement (standing.py) are named at the top and marked in every
table."""
from collections.abc import Callable
from pathlib import Path

from fournines_analysis import formatting, plots
from fournines_analysis.document import Alert, Block, Heading, Image, Paragraph, Table, write
from fournines_analysis.report import file_safe
from fournines_analysis.results import Run, load_run
from fournines_analysis.standing import Standing, standing_of
from fournines_analysis.summary import measured_counts, summarize


def write_compare(run_dirs: list[Path | str], out: Path | str) -> tuple[Path, Path]:
    """Writes out/report.md, out/report.html and out/plots/; returns the two report paths."""
    runs = [load_run(d) for d in run_dirs]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    return write(compare_blocks(runs, out), out)


def compare_blocks(runs: list[Run], out: Path) -> list[Block]:
    """The comparison's content; its plots are saved into <out>/plots/ on the way."""
    summaries = [summarize(r) for r in runs]
    standings = [standing_of(r) for r in runs]
    labels = [f"{r.label} ({s.mark()})" if s.mark() else r.label for r, s in zip(runs, standings)]
    shared = [name for name in runs[0].latency if all(name in r.latency for r in runs)]
    unsound = [(r, s) for r, s in zip(runs, standings) if not s.sound]
    title = f"Comparison of {len(runs)} runs" + (f" — {len(unsound)} INCOMPLETE" if unsound else "")
    blocks: list[Block] = [Heading(title, 1)]
    if unsound:
        blocks.append(Alert("Not every run completed with its whole measurement; these figures include:",
                            [line for r, s in unsound for line in _shortfalls(r, s)]))
    blocks.append(Paragraph(f"Ratios are against the first run, {labels[0]}: above 1 is slower (or, for "
                            f"throughput, faster). Each run's own warm-up is left out. Latencies in microseconds."))
    partial = sorted({name for r in runs for name in r.latency} - set(shared))
    if partial:
        blocks.append(Paragraph(f"Not in every run, so not compared: {', '.join(partial)}."))
    for name in shared:
        per_run = [next(s for s in summary.latency if s.series == name).metrics() for summary in summaries]
        rows = _ratio_rows([(label, [m[i][1] for m in per_run], fmt) for i, (label, _, fmt) in enumerate(per_run[0])])
        curves = [(label, measured_counts(r.latency[name], r.warmup_s).sum(axis=0), r.latency[name].layout)
                  for label, r in zip(labels, runs)]
        figure = plots.nines_figure(curves, f"{name}: latency by percentile, after warm-up")
        blocks += [Heading(f"Latency: {name}"), Table(["metric", *labels], rows),
                   Image(plots.save(figure, out / "plots" / f"nines-{file_safe(name)}.png"),
                         f"{name} by percentile, all runs")]
    throughput = [("throughput", [s.throughput for s in summaries], formatting.rate),
                  ("cores busy", [s.cores for s in summaries], formatting.number),
                  ("events/s per core", [s.per_core for s in summaries], formatting.number0)]
    blocks += [Heading("Throughput after warm-up"), Table(["metric", *labels], _ratio_rows(throughput))]
    blocks += [Heading("Runs"), Table(["run", "status", "scenario", "git sha", "started (UTC)", "host", "JVM flags"], [
        [r.label, s.status_words(), r.info.scenario_name or formatting.MISSING,
         *(str(r.info.fields.get(f, formatting.MISSING)) for f in ("git_sha", "started_at", "host")),
         " ".join(r.info.fields.get("jvm_flags", [])) or formatting.MISSING] for r, s in zip(runs, standings)])]
    return blocks


def _shortfalls(run: Run, standing: Standing) -> list[str]:
    status = [] if standing.completed else [f"status: {standing.status_words()}"]
    return [f"{run.label}: {line}" for line in status + [gap.shown_from(run.path) for gap, _ in standing.shortfalls]]


def _ratio_rows(metrics: list[tuple[str, list, Callable]]) -> list[list[str]]:
    """One row per (label, value per run, formatter): the first run's value, then each other run's
    with its ratio to the first (— where the ratio is undefined)."""
    rows = []
    for label, (reference, *others), fmt in metrics:
        cells = [fmt(reference)]
        for value in others:
            ratio = value / reference if value is not None and reference else None
            cells.append(f"{fmt(value)} ({formatting.ratio(ratio)})")
        rows.append([label, *cells])
    return rows
