"""A published figure redrawn from our runs (scenarios/docs/figures.md): the figure drawn the way the
original is, the values the source states overlaid in black, a table of our values beside the
published ones, every run's measurements, and the runs that could not be made here with the reason.

The ways of drawing (`PLOTS`):
- latency-against-load: the chosen percentile against events/s per core, a curve per value of the
  swept key, runs that did not sustain their rate hollow (rate_curve.py); published values, which
  come without the load they were measured at, as dotted lines across;
- percentiles: the chosen percentile of each run as a bar (hatched when the run did not sustain its
  rate), a published value as a cross on its run's bar; below it the runs' latency distributions;
- distribution: the runs' latency distributions overlaid on a nines axis (plots.nines_figure), a
  published value as a cross at its percentile;
- cpu-against-rate: the CPU a run used (percent of one core) against its target rate, a curve per
  value of the swept key; published values as dotted lines across.
"""
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure

from fournines_analysis import formatting, plots
from fournines_analysis.document import Block, Heading, Image, Paragraph, Table
from fournines_analysis.errors import BadInput
from fournines_analysis.rate_curve import Point, curve_image, load_table
from fournines_analysis.results import Run
from fournines_analysis.summary import measured_counts, summarize

PLOTS = ("latency-against-load", "percentiles", "distribution", "cpu-against-rate")


@dataclass(frozen=True)
class FigureRun:
    name: str  # its folder
    label: str
    curve: str  # "" when the figure has one curve
    entry: str  # the experiment entry it belongs to, which published values name
    run: Run | None  # None when its results could not be read
    sustained: bool
    verdict: str


@dataclass(frozen=True)
class Published:
    entry: str  # the experiment entry it is compared with
    metric: str  # "p99.99", ... or "cpu"
    value: float  # µs for a percentile, percent of one core for cpu
    source: str

    @property
    def percentile(self) -> float | None:
        return None if self.metric == "cpu" else float(self.metric.removeprefix("p"))

    def shown(self) -> str:
        return f"{self.value:g} %" if self.metric == "cpu" else formatting.micros(self.value)


def figure_blocks(plot: str, percentile: float, runs: list[FigureRun], published: list[Published],
                  folder: Path) -> list[Block]:
    """The figure, the table beside the published values and the runs' table; plots go to folder/plots/."""
    measured = [r for r in runs if r.run is not None and _has_latency(r.run)]
    points = [Point(r.run, r.curve, r.sustained, r.verdict) for r in measured]
    label = formatting.percentile_label(percentile)
    blocks: list[Block] = [Heading("The figure")]
    if not measured:
        blocks.append(Paragraph("No run measured any latency, so there is nothing to draw."))
    elif plot == "latency-against-load":
        lines = tuple((f"{_entry_label(p.entry, runs)} {p.metric}", p.value) for p in published if p.percentile)
        image = curve_image(points, folder, x="per_core", drawn_percentiles=(percentile,), published=lines)
        blocks.append(image or Paragraph("No run has a throughput per core (cpu.csv), so there is nothing to draw."))
    elif plot == "percentiles":
        blocks.append(_image(_bars(measured, percentile, published), folder, "percentiles.png",
                             f"{label} of each run"))
        blocks.append(_image(_nines(measured, []), folder, "distribution.png", "latency distribution of each run"))
    elif plot == "distribution":
        blocks.append(_image(_nines(measured, published), folder, "distribution.png", "latency distributions overlaid"))
    elif plot == "cpu-against-rate":
        blocks.append(_image(_cpu(measured, published), folder, "cpu-against-rate.png", "CPU against the rate"))
    else:
        raise ValueError(f"plot {plot!r}: one of {', '.join(PLOTS)}")
    beside = _beside(runs, published, percentile)
    blocks += [Heading("Ours beside the published values"),
               beside if beside.rows else Paragraph("No run was made, so there is nothing to compare.")]
    if points:
        blocks += [Heading("Every run"), load_table(points)]
    unread = [r for r in runs if r not in measured]
    if unread:
        blocks += [Paragraph("Runs without latency to show: " + "; ".join(f"{r.name}: {r.verdict}" for r in unread))]
    return blocks


def _has_latency(run: Run) -> bool:
    try:
        return bool(run.latency) and measured_counts(next(iter(run.latency.values())), run.warmup_s).sum() > 0
    except BadInput:  # no interval after the warm-up: the verdict says why
        return False


def _entry_label(entry: str, runs: list[FigureRun]) -> str:
    return next((r.label for r in runs if r.entry == entry and r.name == entry), entry)


def _ours(run: FigureRun, metric: str) -> str:
    if run.run is None or not _has_latency(run.run):
        return formatting.MISSING
    summary = summarize(run.run)
    if metric == "cpu":
        return formatting.MISSING if summary.cores is None else f"{summary.cores * 100:.1f} %"
    return formatting.micros(summary.latency[0].percentiles[float(metric.removeprefix("p"))])


def _beside(runs: list[FigureRun], published: list[Published], percentile: float) -> Table:
    """A row per published value (against each run of its entry), and one per run no value is published for."""
    metric = formatting.percentile_label(percentile)
    rows = []
    for p in published:
        for run in (r for r in runs if r.entry == p.entry):
            rows.append([_row_label(run), p.metric, _ours(run, p.metric), p.shown(), p.source])
    compared = {p.entry for p in published}
    rows += [[_row_label(r), metric, _ours(r, metric), formatting.MISSING, "no value stated in text"]
             for r in runs if r.entry not in compared]
    return Table(["run", "metric", "ours", "published", "source"], rows)


def _row_label(run: FigureRun) -> str:
    """A run as a table names it: the legend's label, and its curve, which the legend gives apart."""
    return f"{run.label} ({run.curve})" if run.curve else run.label


def _image(figure: Figure, folder: Path, name: str, alt: str) -> Image:
    return Image(plots.save(figure, folder / "plots" / name), alt)


def _bars(runs: list[FigureRun], percentile: float, published: list[Published]) -> Figure:
    fig = Figure(figsize=(9, 5), layout="constrained")
    ax = fig.add_subplot()
    values = [summarize(r.run).latency[0].percentiles[percentile] for r in runs]
    bars = ax.bar(range(len(runs)), values, color="C0")
    for bar, run in zip(bars, runs):
        if not run.sustained:
            bar.set_hatch("//")
            bar.set_facecolor("none")
            bar.set_edgecolor("C0")
    for p in (p for p in published if p.percentile == percentile):
        for i, run in enumerate(runs):
            if run.entry == p.entry:
                ax.plot(i, p.value, "x", color="black", markersize=10)
    ax.set_xticks(range(len(runs)), [r.label for r in runs], rotation=30, ha="right")
    plots.log_scale_if_drawn(ax)
    ax.set_ylabel(f"{formatting.percentile_label(percentile)} latency (µs)")
    ax.set_title("solid: rate sustained; hatched: not; black ×: published")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    return fig


def _nines(runs: list[FigureRun], published: list[Published]) -> Figure:
    curves = []
    for r in runs:
        log = next(iter(r.run.latency.values()))
        curves.append((r.label + ("" if r.sustained else " (not sustained)"),
                       measured_counts(log, r.run.warmup_s).sum(axis=0), log.layout))
    marks = [(f"published: {_entry_label(p.entry, runs)}", p.percentile, p.value) for p in published if p.percentile]
    return plots.nines_figure(curves, "latency by percentile, after warm-up", marks)


def _cpu(runs: list[FigureRun], published: list[Published]) -> Figure:
    fig = Figure(figsize=(9, 5), layout="constrained")
    ax = fig.add_subplot()
    for curve in sorted({r.curve for r in runs}):
        on_curve = sorted(((r.run.info.fields.get("target_rate") or 0, summarize(r.run).cores, r)
                           for r in runs if r.curve == curve), key=lambda t: t[0])
        drawn = [(rate, cores * 100) for rate, cores, _ in on_curve if cores is not None]
        if drawn:
            ax.plot(*zip(*drawn), marker="o", label=curve or "CPU")
    for p in (p for p in published if p.metric == "cpu"):
        ax.axhline(p.value, color="black", linestyle=":", linewidth=1)
        ax.annotate(f"published: {_entry_label(p.entry, runs)}", (0.99, p.value),
                    xycoords=("axes fraction", "data"), ha="right", va="bottom", fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("target rate (events/s)")
    ax.set_ylabel("CPU (% of one core)")
    ax.grid(True, which="both", alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", fontsize=8)
    return fig
