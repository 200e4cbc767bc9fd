"""Latency against load over a set of runs of one scenario at different rates (a rate search's
trials, a sweep's points): a table of each run's rate, throughput per core, percentiles and verdict,
and a figure of p50, p99, p99.9 and p99.99 (a colour each) against the target rate (a search) or
the events/s per core measured (a sweep), a line style per curve (a sweep over key counts draws one
per count), runs that did not sustain their rate drawn hollow, the SLO's bounds dashed in black."""
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure

from fournines_analysis import formatting
from fournines_analysis.document import Block, Image, Table
from fournines_analysis.plots import save
from fournines_analysis.results import Run
from fournines_analysis.slo import Bound
from fournines_analysis.summary import summarize

DRAWN = (50.0, 99.0, 99.9, 99.99)
_MARKERS = {50.0: "o", 99.0: "s", 99.9: "^", 99.99: "D"}
_LINES = ("-", "--", ":", "-.")
# what the x axis shows: (label, the run's value)
AXES = {"rate": "target rate (events/s)", "per_core": "events/s per core"}


@dataclass(frozen=True)
class Point:
    run: Run
    curve: str  # the curve it belongs to ("" when there is one)
    sustained: bool
    verdict: str  # shown in the table: "sustained", or why not


def curve_blocks(points: list[Point], folder: Path, slo: tuple[Bound, ...] = (), x: str = "per_core") -> list[Block]:
    """`x`: a key of AXES."""
    rows, drawn = [], []
    for point in points:
        summary = summarize(point.run)
        latency = summary.latency[0].percentiles
        target = point.run.info.fields.get("target_rate")
        rows.append([*([point.curve] if any(p.curve for p in points) else []), point.run.path.name,
                     formatting.number0(target), formatting.number0(summary.throughput),
                     "–" if summary.cores is None else f"{summary.cores:.2f}",
                     formatting.number0(summary.per_core),
                     *(formatting.micros(latency[p]) for p in DRAWN), point.verdict])
        at = summary.per_core if x == "per_core" else target
        if at:
            drawn.append((point, at, latency))
    header = [*(["curve"] if any(p.curve for p in points) else []), "run", "target events/s", "events/s",
              "cores busy", "events/s per core", *(formatting.percentile_label(p) for p in DRAWN), "verdict"]
    blocks: list[Block] = [Table(header, rows)]
    if drawn:
        image = save(_figure(drawn, slo, AXES[x]), folder / "plots" / "latency-against-load.png")
        blocks.append(Image(image, f"latency percentiles against {AXES[x]}"))
    return blocks


def _figure(drawn: list[tuple[Point, float, dict]], slo: tuple[Bound, ...], x_label: str) -> Figure:
    fig = Figure(figsize=(9, 5.5), layout="constrained")
    ax = fig.add_subplot()
    curves = sorted({p.curve for p, _, _ in drawn}, key=lambda c: (len(c), c))
    for c_index, curve in enumerate(curves):
        on_curve = sorted((d for d in drawn if d[0].curve == curve), key=lambda d: d[1])
        for p_index, percentile in enumerate(DRAWN):
            colour = f"C{p_index}"
            ax.plot([at for _, at, _ in on_curve], [latency[percentile] for _, _, latency in on_curve],
                    color=colour, linestyle=_LINES[c_index % len(_LINES)],
                    label=f"{curve + ' ' if curve else ''}{formatting.percentile_label(percentile)}")
            for point, at, latency in on_curve:
                ax.plot(at, latency[percentile], _MARKERS[percentile], color=colour,
                        markerfacecolor=colour if point.sustained else "none")
    for bound in slo:
        ax.axhline(bound.limit_us, color="black", linestyle="--", linewidth=1)
        ax.annotate(f"SLO {bound.text}", (0.01, bound.limit_us), xycoords=("axes fraction", "data"),
                    va="bottom", fontsize=8)
    ax.set_yscale("log")
    ax.set_xlabel(f"{x_label} (filled: rate sustained; hollow: not)")
    ax.set_ylabel("latency (µs)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    return fig
