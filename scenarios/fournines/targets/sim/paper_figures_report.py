"""The report of `./fournines sim-figures`, in its folder: each figure drawn (plots/<name>.png) with the
published values overlaid in black (× a value, ▼ an upper bound), its points in a table beside the
published ones, and the ratios against the papers'; report.md, report.html and
figures.json (the same for scripts). Every title says SIMULATED, and the first paragraph names the
calibration, as every simulated run's report does."""
import json
from pathlib import Path

from matplotlib.figure import Figure as Drawing

from fournines.targets.sim.paper_figures import Figure, Ratio
from fournines_analysis import plots
from fournines_analysis.document import Block, Heading, Image, Paragraph, Table, write
from fournines_analysis.errors import write_text

MARKERS = {"=": "x", "<=": "v"}
MARKED_POINTS = 50  # a curve with more points (a trace over time) is drawn as a line alone


def drawn(figure: Figure) -> Drawing:
    fig = Drawing(figsize=(8, 5), layout="constrained")
    ax = fig.add_subplot()
    for label, points in figure.curves.items():
        dotted = label.startswith("linear")
        dense = len(points) > MARKED_POINTS
        ax.plot(*zip(*points), marker="" if dotted or dense else "o", linestyle=":" if dotted else "-", label=label)
    for p in figure.published:
        ax.plot(p.x, p.y, MARKERS[p.bound], color="black", markersize=10)
        ax.annotate(f"published: {p.label}", (p.x, p.y),
                    textcoords="offset points", xytext=(-6, 6), ha="right", fontsize=8)
    if figure.log_x:
        ax.set_xscale("log")
    if figure.log_y:
        ax.set_yscale("log")
    ax.set_xlabel(figure.x_label)
    ax.set_ylabel(figure.y_label)
    ax.set_title(f"{figure.title} (SIMULATED)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    if figure.curves:
        ax.legend(fontsize=8)
    return fig


def _ours_at(figure: Figure, curve: str, x: float) -> str:
    points = dict(figure.curves.get(curve, []))
    return f"{points[x]:,.4g}" if x in points else "— (not simulated at this x)"


def _blocks(figure: Figure, folder: Path) -> list[Block]:
    image = plots.save(drawn(figure), folder / "plots" / f"{figure.name}.png")
    xs = sorted({x for points in figure.curves.values() for x, _ in points})
    series = Table([figure.x_label, *figure.curves],
                   [[f"{x:g}", *(f"{dict(points)[x]:,.4g}" if x in dict(points) else "—"
                                 for points in figure.curves.values())] for x in xs])
    blocks: list[Block] = [Heading(f"{figure.title} — SIMULATED"), Image(image, figure.title), Paragraph(figure.note),
                           series]
    if figure.published:
        blocks.append(Table(["curve", figure.x_label, f"published {figure.y_label}", "ours", "source"],
                            [[p.curve, f"{p.x:g}", f"{'≤ ' if p.bound == '<=' else ''}{p.y:,.4g}",
                              _ours_at(figure, p.curve, p.x), p.source] for p in figure.published]))
    if figure.published_note or not figure.published:
        blocks.append(Paragraph(f"Published values: {figure.published_note or 'none overlaid'}"))
    return blocks


def ratio_rows(ratios: list[Ratio]) -> list[list[str]]:
    return [[r.what, "—" if r.ours is None else f"{r.ours:.2f}×", r.published] for r in ratios]


def write_report(folder: Path, figures: list[Figure], ratios: list[Ratio], calibration: str,
                 scale: str) -> tuple[Path, ...]:
    blocks: list[Block] = [
        Heading("The papers' figures — SIMULATED", 1),
        Paragraph(f"Every point is simulated (scenarios/docs/simulate.md), calibration {calibration}; {scale}. "
                  "Published values are overlaid only where the source states them in words (× a value, ▼ an upper "
                  "bound); the absolute differences come from the calibration machine's costs, not the papers' "
                  "clusters."),
        Heading("Ratios"),
        Table(["ratio", "ours", "published"], ratio_rows(ratios)),
    ]
    for figure in figures:
        blocks += _blocks(figure, folder)
    record = {"calibration": calibration, "scale": scale,
              "figures": [{"name": f.name, "title": f.title, "x": f.x_label, "y": f.y_label, "note": f.note,
                           "curves": {label: points for label, points in f.curves.items()},
                           "published": [vars(p) for p in f.published], "published_note": f.published_note}
                          for f in figures],
              "ratios": [vars(r) for r in ratios]}
    json_path = write_text(folder / "figures.json", json.dumps(record, indent=2) + "\n")
    return (*write(blocks, folder), json_path)
