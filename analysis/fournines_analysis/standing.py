"""A run's standing: how it ended (run.json's `status` and `failure`), whether its logs cover what
it measured (coverage.py) and whether its snapshots kept committing (snapshots.py). Every view opens
with it, so a failed, interrupted, incomplete or stalled run never reads as a good one: the title
carries a mark, the first line gives the status, warning blocks list the coverage gaps and the
stalls. The gate refuses a run that does not stand (gate.py).

A run.json without `status` (written before the runner recorded it, or by hand) is not taken for
completed: its status is "not recorded".
"""
from dataclasses import dataclass
from pathlib import Path

from fournines_analysis.coverage import Gap, coverage_gaps
from fournines_analysis.document import Alert, Block, Paragraph
from fournines_analysis.results import Run
from fournines_analysis.snapshots import snapshot_stalls

COMPLETED = "completed"
NOT_RECORDED = "not recorded"


@dataclass(frozen=True)
class Standing:
    run_json: Path
    status: str  # as run.json records it, or NOT_RECORDED
    failure: str | None  # the runner's cause, when it gave one
    gaps: list[Gap]
    stalls: list[Gap]  # snapshots that stopped committing
    simulated: bool = False  # run.json says `simulated`: the figures come from a model, not a measurement

    @property
    def completed(self) -> bool:
        return self.status == COMPLETED

    @property
    def sound(self) -> bool:
        """Completed, with logs that cover the whole measurement and snapshots that kept committing: fit to be judged."""
        return self.completed and not self.gaps and not self.stalls

    @property
    def shortfalls(self) -> list[tuple[Gap, str]]:
        """Each coverage gap and stall, with the rule it breaks."""
        return ([(gap, "runs whose logs cover the whole measurement only") for gap in self.gaps]
                + [(stall, "runs whose snapshots kept committing only") for stall in self.stalls])

    def mark(self) -> str:
        """The title's word for a run that is not sound ("INTERRUPTED", "STATUS NOT RECORDED",
        "INCOMPLETE" for gaps, "SNAPSHOTS STALLED" for stalls alone); empty for a sound run."""
        if self.status == NOT_RECORDED:
            return "STATUS NOT RECORDED"
        if self.sound:
            return ""
        if not self.completed:
            return self.status.upper()
        return "INCOMPLETE" if self.gaps else "SNAPSHOTS STALLED"

    def status_words(self) -> str:
        """"interrupted (stopped by SIGINT)": the status, with the cause when there is one."""
        return f"{self.status} ({self.failure})" if self.failure else self.status

    def status_line(self) -> str:
        if self.completed:
            return "Status: completed."
        if self.status == NOT_RECORDED:
            return ("Status: not recorded. run.json has no status field (a results folder from before the runner "
                    "recorded it, or one made by hand), so whether the run completed is unknown.")
        return (f"Status: {self.status_words()}. The run did not complete: the figures below cover only what it "
                f"recorded before it ended.")

    def status_gap(self) -> Gap | None:
        """run.json's status as a shortfall of the run, when it is not completed."""
        return None if self.completed else Gap(self.run_json, f"status: {self.status}")


def standing_of(run: Run) -> Standing:
    fields = run.info.fields
    return Standing(run.info.path, fields.get("status") or NOT_RECORDED, fields.get("failure"), coverage_gaps(run),
                    snapshot_stalls(run), fields.get("simulated") is True)


def titled(title: str, standing: Standing) -> str:
    """The title with the run's marks, if it has any: SIMULATED for a simulated run (DESIGN.md §4: marked
    everywhere), then the standing's own."""
    marks = [mark for mark in ("SIMULATED" if standing.simulated else "", standing.mark()) if mark]
    return f"{title} — {', '.join(marks)}" if marks else title


def opening_blocks(standing: Standing, folder: Path) -> list[Block]:
    """What a run's report says before any figure: the status line, then the coverage gaps and the
    snapshot stalls, if any."""
    blocks: list[Block] = [Paragraph(standing.status_line())]
    if standing.gaps:
        blocks.append(Alert("Coverage: the logs miss part of the measurement",
                            [gap.shown_from(folder) for gap in standing.gaps]))
    if standing.stalls:
        blocks.append(Alert("Snapshots stopped committing", [stall.shown_from(folder) for stall in standing.stalls]))
    return blocks
