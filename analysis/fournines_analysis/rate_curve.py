"""Latency against load over a set of runs of one scenario at different rates (a rate search's
trials, a sweep's points): a table of each run's rate, throughput per core, percentiles and verdict,
the CPU the host lost to other guests, and a figure of p50, p99, p99.9 and p99.99 (a colour each) against the target rate (a search) or
the events/s per core measured (a sweep), a line style per curve (a sweep over key counts draws one
per count), runs that did not sustain their rate drawn hollow, the SLO's bounds dashed in black.
A figure of a paper (figure.py) draws the percentile it plots and the published values beside ours."""
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure

from fournines_analysis import formatting
from fournines_analysis.document import Block, Image, Table
from fournines_analysis.plots import save
from fournines_analysis.results import Run
from fournines_analysis.slo import Bound
from fournines_analysis.steal import steal_after_warmup
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
    """The table and the figure; `x`: a key of AXES."""
    image = curve_image(points, folder, slo, x)
    return [load_table(points), *([image] if image else [])]


def curve_image(points: list[Point], folder: Path, slo: tuple[Bound, ...] = (), x: str = "per_core",
                drawn_percentiles: tuple[float, ...] = DRAWN, published: tuple[tuple[str, float], ...] = ()) -> Image | None:
    """The figure, saved in folder/plots/; None when no run has a value on the x axis. `published`:
    (label, µs) values a source states without the load they were measured at, drawn across the
    figure as dotted lines."""
    drawn = []
    for point in points:
        summary = summarize(point.run)
        at = summary.per_core if x == "per_core" else point.run.info.fields.get("target_rate")
        if at:
            drawn.append((point, at, summary.latency[0].percentiles))
    if not drawn:
        return None
    figure = _figure(drawn, slo, AXES[x], drawn_percentiles, published)
    return Image(save(figure, folder / "plots" / "latency-against-load.png"), f"latency percentiles against {AXES[x]}")


def load_table(points: list[Point]) -> Table:
    """A row per run: its rate, throughput, cores, events/s per core, percentiles and verdict."""
    curves = any(p.curve for p in points)
    rows = []
    for point in points:
        summary = summarize(point.run)
        latency = summary.latency[0].percentiles
        rows.append([*([point.curve] if curves else []), point.run.path.name,
                     formatting.number0(point.run.info.fields.get("target_rate")), formatting.number0(summary.throughput),
                     "–" if summary.cores is None else f"{summary.cores:.2f}",
                     formatting.number0(summary.per_core),
                     *(formatting.micros(latency[p]) for p in DRAWN), _stolen_ms(point.run), point.verdict])
    header = [*(["curve"] if curves else []), "run", "target events/s", "events/s",
              "cores busy", "events/s per core", *(formatting.percentile_label(p) for p in DRAWN),
              "CPU stolen (ms)", "verdict"]
    return Table(header, rows)


def _stolen_ms(run: Run) -> str:
    stolen = steal_after_warmup(run.host, run.warmup_s)
    return "–" if stolen is None else f"{stolen.total_s * 1e3:,.0f}"


def _figure(drawn: list[tuple[Point, float, dict]], slo: tuple[Bound, ...], x_label: str,
            percentiles: tuple[float, ...], published: tuple[tuple[str, float], ...]) -> Figure:
    fig = Figure(figsize=(9, 5.5), layout="constrained")
    ax = fig.add_subplot()
    curves = sorted({p.curve for p, _, _ in drawn}, key=lambda c: (len(c), c))
    for c_index, curve in enumerate(curves):
        on_curve = sorted((d for d in drawn if d[0].curve == curve), key=lambda d: d[1])
        for percentile in percentiles:
            colour = f"C{DRAWN.index(percentile)}"
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
    for label, value_us in published:
        ax.axhline(value_us, color="black", linestyle=":", linewidth=1)
        ax.annotate(f"published: {label}", (0.99, value_us), xycoords=("axes fraction", "data"),
                    ha="right", va="bottom", fontsize=8)
    ax.set_yscale("log")
    ax.set_xlabel(f"{x_label} (filled: rate sustained; hollow: not)")
    ax.set_ylabel("latency (µs)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    return fig
