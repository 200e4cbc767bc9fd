"""What the batches of a micro-batch or group run cost (batches.csv, written by the reference engine's
member; engine/docs/execution.md, "Execution models"), split as the Drizzle paper's Figure 4(b) splits it.

Each row is one stage of one batch, in epoch microseconds: the scheduler launched it, the first of
the stage's tasklets saw the launch (started), the last one finished it (finished, on its member's
clock), the scheduler heard that every member had (done); a batch launched ahead, in a group, counts
as launched and started at its end, when its items are all due, so its scheduling is the group's,
paid by its first batch. Per batch:
- scheduling: each stage's launch to its start, summed over the stages;
- compute: each stage's start to its finish, summed;
- waiting at barriers: each stage's finish to the next stage's launch (the last stage: to its done),
  summed: the reports' trip to the scheduler and its answer. Micro-batch waits so after every
  stage; group scheduling launches every stage at once, so only after the group's last stage;
and the batch's time, its first stage's launch to its last stage's done: the parts' sum in
micro-batch, less in group scheduling, whose stages run at once.
Batches launched in the warm-up (counted from the first batch's launch) are left out. Each row also
says the size of the group its batch was launched in: 1 in micro-batch, fixed or tuned in group
scheduling (`group_size: auto`), whose trace the figure draws.
"""
import csv
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from fournines_analysis import plots
from fournines_analysis.document import Block, Heading, Image, Paragraph, Table
from fournines_analysis.errors import BadInput, read_text

BATCHES_FILE = "batches.csv"
COLUMNS = ("batch", "stage", "launched_us", "started_us", "finished_us", "done_us", "group_size")
# Before finished_us was recorded: a stage's finish is taken as its done, and waiting at barriers as 0.
COLUMNS_WITHOUT_FINISH = tuple(c for c in COLUMNS if c != "finished_us")
PARTS = ("scheduling", "compute", "waiting at barriers")
_TIMES = ("launched_us", "started_us", "finished_us", "done_us")


@dataclass(frozen=True)
class BatchCosts:
    batch: int
    launched_us: int  # its first stage's launch
    parts_us: tuple[int, int, int]  # as PARTS
    group_size: int  # of the group it was launched in
    span_us: int  # its first stage's launch to its last stage's done


def read_batches(path: Path) -> list[BatchCosts]:
    """Every batch in the file, in order; a batch's stages must be 0, 1, ... with times that never go back."""
    reader = csv.reader(io.StringIO(read_text(path), newline=""))
    header = tuple(next(reader, None) or ())
    if header not in (COLUMNS, COLUMNS_WITHOUT_FINISH):
        raise BadInput(path, f"the header must be {','.join(COLUMNS)}; is {','.join(header)!r}", 1)
    stages: dict[int, list[tuple[int, int, int, int]]] = {}
    group_sizes: dict[int, int] = {}
    for line, row in enumerate(reader, start=2):
        if len(row) != len(header):
            raise BadInput(path, f"must have {len(header)} fields; has {len(row)}", line)
        values = dict(zip(header, (_integer(text, path, line, name) for text, name in zip(row, header))))
        batch, stage = values["batch"], values["stage"]
        if stage != len(stages.setdefault(batch, [])):
            raise BadInput(path, f"must follow stage {len(stages[batch]) - 1} of batch {batch}; is {stage}", line, "stage")
        times = (values["launched_us"], values["started_us"], values.get("finished_us", values["done_us"]),
                 values["done_us"])
        for earlier, later in ((0, 1), (1, 2), (2, 3)):
            if times[later] < times[earlier]:
                raise BadInput(path, f"is {times[later]}, before {_TIMES[earlier]} {times[earlier]}", line, _TIMES[later])
        if values["group_size"] < 1:
            raise BadInput(path, f"must be at least 1; is {values['group_size']}", line, "group_size")
        stages[batch].append(times)
        group_sizes.setdefault(batch, values["group_size"])
    return [_costs(batch, times, group_sizes[batch]) for batch, times in sorted(stages.items())]


def _costs(batch: int, stages: list[tuple[int, int, int, int]], group_size: int) -> BatchCosts:
    scheduling = sum(started - launched for launched, started, _, _ in stages)
    compute = sum(finished - started for _, started, finished, _ in stages)
    next_launches = [after[0] for after in stages[1:]] + [stages[-1][3]]
    waiting = sum(max(0, then - finished) for (_, _, finished, _), then in zip(stages, next_launches))
    return BatchCosts(batch, stages[0][0], (scheduling, compute, waiting), group_size, stages[-1][3] - stages[0][0])


def _integer(text: str, path: Path, line: int, field: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise BadInput(path, f"must be an integer; is {text!r}", line, field) from None


def measured_batches(batches: list[BatchCosts], warmup_s: float) -> list[BatchCosts]:
    if not batches:
        return []
    start = batches[0].launched_us + warmup_s * 1e6
    return [b for b in batches if b.launched_us >= start]


def batch_blocks(run_dir: Path, warmup_s: float, title: str, plots_dir: Path) -> list[Block]:
    """A table of each part's median, p99 and max per batch, and the parts of every batch over time
    (saved into `plots_dir`); nothing for a continuous run (no batches.csv)."""
    path = Path(run_dir) / BATCHES_FILE
    if not path.is_file():
        return []
    batches = measured_batches(read_batches(path), warmup_s)
    if not batches:
        return [Heading("Batches"), Paragraph(f"{BATCHES_FILE} holds no batch launched after the warm-up.")]
    parts = np.array([b.parts_us for b in batches], dtype=float) / 1000
    rows = [[name, *(f"{v:,.2f}" for v in np.percentile(column, [50, 99])), f"{column.max():,.2f}"]
            for name, column in zip((*PARTS, "batch, launch to done"), (*parts.T, np.array([b.span_us for b in batches]) / 1000))]
    figure = _parts_figure(batches, parts, f"{title}: what each batch cost")
    sizes = [b.group_size for b in batches]
    groups = (f"Groups of {sizes[0]}." if min(sizes) == max(sizes)
              else f"Group size tuned from {min(sizes)} to {max(sizes)} (median {np.median(sizes):g}); the line is its trace.")
    return [Heading("Batches"),
            Paragraph(f"{len(batches)} batches after the warm-up. Per batch, summed over its stages: scheduling (a "
                      "stage's launch to its start on the first task), compute (start to the last task's finish) and "
                      "waiting at barriers (a stage's finish to the next stage's launch, the last stage's to the "
                      f"scheduler hearing of it: the reports' trip), in ms. {groups}"),
            Table(["part", "p50 (ms)", "p99 (ms)", "max (ms)"], rows),
            Image(plots.save(figure, plots_dir / "batches.png"), "each batch's scheduling, compute and waiting")]


def _parts_figure(batches: list[BatchCosts], parts: np.ndarray, title: str) -> Figure:
    fig = Figure(figsize=(9, 4), layout="constrained")
    ax = fig.subplots()
    x = np.array([b.batch for b in batches])
    bottom = np.zeros(len(batches))
    for name, column in zip(PARTS, parts.T):
        ax.bar(x, column, bottom=bottom, label=name, width=1.0)
        bottom += column
    ax.set_xlabel("batch")
    ax.set_ylabel("ms")
    ax.set_title(title)
    ax.legend(loc="upper left")
    ax.grid(True, alpha=0.3)
    sizes = [b.group_size for b in batches]
    if min(sizes) != max(sizes):
        trace = ax.twinx()
        trace.step(x, sizes, where="mid", color="black", linewidth=1, label="group size")
        trace.set_ylabel("group size")
        trace.legend(loc="upper right")
    return fig
