"""The report of a search or a sweep, in its folder: what was asked and found, the table and figure
of latency against load over every trial (analysis/rate_curve.py), and a record of the trials in
order, also as JSON (`trials.json`) for scripts."""
import json
from pathlib import Path

from fournines.search.trial import Trial
from fournines_analysis.document import Block, Heading, Paragraph, Table, write
from fournines_analysis.errors import write_text
from fournines_analysis.rate_curve import Point, curve_blocks
from fournines_analysis.slo import Bound


def write_report(folder: Path, title: str, findings: list[str], trials: list[tuple[str, Trial]],
                 slo: tuple[Bound, ...], summary: dict, x: str) -> tuple[Path, Path]:
    """`trials`: (curve, trial) in the order they ran; `summary`: the search's own fields for trials.json;
    `x`: the figure's x axis (rate_curve.AXES)."""
    points = [Point(t.run, curve, t.sustained, "sustained" if t.sustained else "not sustained") for curve, t in trials
              if t.run is not None]
    blocks: list[Block] = [Heading(title, 1), *(Paragraph(f) for f in findings)]
    if points:
        blocks += [Heading("Latency against load"), *curve_blocks(points, folder, slo, x)]
    blocks += [Heading("Trials, in the order they ran"),
               Table(["#", "run", "rate (events/s)", "verdict"],
                     [[str(i), t.run_dir.name, f"{t.rate:,}", t.verdict()] for i, (_, t) in enumerate(trials, 1)])]
    record = {**summary, "trials": [{"folder": t.run_dir.name, "curve": curve, "rate": t.rate,
                                     "sustained": t.sustained, "problems": list(t.problems),
                                     "slo": {c.bound.text: c.measured_us for c in t.checks},
                                     "source_made": t.source_made, "stolen_cpu": t.stolen_cpu} for curve, t in trials]}
    write_text(folder / "trials.json", json.dumps(record, indent=2) + "\n")
    return write(blocks, folder)
