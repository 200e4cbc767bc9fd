"""The table of `./fournines sim-validate`, three ways: printed at the end of the command, and in its
folder as validation.md (with validation.html) and validation.json, so it can be quoted and read by
scripts. A row per configuration and metric: predicted, measured, the relative error, a flag above
the tolerance and, for a flagged row, the reasons the runs give (comparison.py)."""
import json
from pathlib import Path

from fournines.targets.sim.comparison import RATE, Comparison
from fournines_analysis import formatting
from fournines_analysis.document import Block, Heading, Paragraph, Table, write
from fournines_analysis.errors import write_text

HEADER = ["configuration", "metric", "predicted", "measured", "error", ""]


def shown(row: Comparison, value: float | None) -> str:
    if value is None:
        return formatting.MISSING
    return formatting.rate(value) if row.metric == RATE else f"{value / 1e3:,.2f} ms"


def cells(row: Comparison) -> list[str]:
    error = formatting.MISSING if row.error is None else f"{row.error:+.1%}"
    return [row.configuration, row.metric, shown(row, row.predicted), shown(row, row.measured), error,
            "OVER" if row.flagged else "ok"]


def printed(rows: list[Comparison]) -> str:
    """The table as aligned text, each flagged row followed by its reasons."""
    table = [HEADER, *(cells(r) for r in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    lines = []
    for line, row in zip(table, [None, *rows]):
        lines.append("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip())
        lines += [f"    because {reason}" for reason in (row.reasons if row else ())]
    return "\n".join(lines)


def write_validation(folder: Path, rows: list[Comparison], held_out: dict[str, str | None], findings: list[str],
                     record: dict) -> tuple[Path, Path, Path]:
    """`held_out`: per configuration, what the calibration did not see (None: a calibration run);
    `findings`: paragraphs above the table; `record`: the command's own fields for validation.json."""
    def role(name: str) -> str:
        return held_out[name] or "calibration run (in sample)"
    blocks: list[Block] = [
        Heading("Simulator validation: predicted against measured", 1),
        *(Paragraph(f) for f in findings),
        Table(["configuration", "holds out", "metric", "predicted", "measured", "error", "over tolerance", "why"],
              [[r.configuration, role(r.configuration), *cells(r)[1:5], "yes" if r.flagged else "no",
                "; ".join(r.reasons)] for r in rows]),
    ]
    document = {**record, "rows": [{"configuration": r.configuration, "holds_out": held_out[r.configuration],
                                    "metric": r.metric, "unit": "events/s" if r.metric == RATE else "us",
                                    "predicted": r.predicted, "measured": r.measured, "error": r.error,
                                    "flagged": r.flagged, "reasons": list(r.reasons)} for r in rows]}
    json_path = write_text(folder / "validation.json", json.dumps(document, indent=2) + "\n")
    return (*write(blocks, folder, "validation"), json_path)
