"""The report of an experiment, in its folder: what figure it reproduces, how many runs were made and
skipped, the figure drawn like the original with the published values overlaid, our values beside
the published ones (fournines_analysis/figure.py), the runs skipped and why; also as JSON
(`figure.json`) for scripts."""
import json
from pathlib import Path

from fournines.figures.experiment import PERCENTILES, UNITS, Experiment, PlannedRun
from fournines.search.trial import Trial
from fournines_analysis.document import Block, Heading, Paragraph, Table, write
from fournines_analysis.errors import write_text
from fournines_analysis.figure import FigureRun, Published, figure_blocks


def write_report(folder: Path, experiment: Experiment, made: list[tuple[PlannedRun, Trial]],
                 skipped: list[tuple[PlannedRun, str]]) -> tuple[Path, Path]:
    runs = [FigureRun(p.name, p.label, p.curve, p.entry, t.run, t.sustained,
                      "sustained" if t.sustained else t.verdict()) for p, t in made]
    published = [Published(v["run"], v["metric"], v["value"] * (UNITS[v["unit"]] or 1), v["source"])
                 for v in experiment.published]
    sustained = sum(1 for _, t in made if t.sustained)
    blocks: list[Block] = [
        Heading(f"Figure: {experiment.name}", 1),
        Paragraph(f"Reproduces {experiment.figure}."),
        *([Paragraph(experiment.description)] if experiment.description else []),
        Paragraph(f"{len(made)} of {len(experiment.runs)} runs made, {sustained} of them sustained their rate; "
                  f"{len(skipped)} skipped (listed below)."
                  + ("" if experiment.published else " No published value is overlaid.")),
        *([Paragraph(f"Published values: {experiment.published_note}")] if experiment.published_note else []),
        *figure_blocks(experiment.plot, PERCENTILES[experiment.metric], runs, published, folder),
        Heading("Skipped"),
        Table(["run", "why"], [[p.name, reason] for p, reason in skipped]) if skipped
        else Paragraph("Nothing: every run of the experiment was made."),
    ]
    record = {"experiment": experiment.name, "figure": experiment.figure, "plot": experiment.plot,
              "metric": experiment.metric,
              "runs": [{"folder": p.name, "label": p.label, "curve": p.curve, "scenario": p.scenario,
                        "overrides": [str(o) for o in p.overrides.fields], "sustained": t.sustained,
                        "problems": list(t.problems)} for p, t in made],
              "skipped": [{"run": p.name, "why": reason} for p, reason in skipped],
              "published": experiment.published}
    write_text(folder / "figure.json", json.dumps(record, indent=2) + "\n")
    return write(blocks, folder)
