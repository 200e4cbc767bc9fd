"""What `./fournines chaos` shows and keeps: a table with a row per trial, a summary (each violation
with the command that replays its trial, the trials whose fault never fired), and chaos.json in the
chaos results folder with the same rows."""
import json
from pathlib import Path

from fournines.chaos.request import ChaosRequest
from fournines.chaos.trial import Trial
from fournines_analysis.errors import write_text

HEADER = ["trial", "seed", "fault", "target", "at", "run", "expected", "lost", "duplicated", "wrong", "verdict"]
CHAOS_FILE = "chaos.json"


def table(trials: list[Trial]) -> str:
    rows = [HEADER, *map(_cells, trials)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEADER))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)


def summary(request: ChaosRequest, trials: list[Trial]) -> str:
    violating = [t for t in trials if t.violations()]
    lines = ["", f"{request.name} ({request.query}, {request.guarantee}): {len(trials)} of {request.trials} trials "
                 f"run, {len(trials) - len(violating)} passed, {len(violating)} with a violation"]
    for t in violating:
        lines += [f"trial {t.number} ({t.fault.kind} {t.fault.target} at {t.fault.at}): {'; '.join(t.violations())}",
                  f"  folder: {t.folder}", f"  replay: {request.replay(t.seed)}"]
    unfired = [str(t.number) for t in trials if not t.fired]
    if unfired:
        lines.append(f"fault not fired (the job ended first; those trials tested nothing): trial {', '.join(unfired)}")
    return "\n".join(lines)


def write_chaos_json(folder: Path, request: ChaosRequest, trials: list[Trial]) -> Path:
    return write_text(folder / CHAOS_FILE, json.dumps({
        "scenario": request.name, "query": request.query, "guarantee": request.guarantee, "seed": request.seed,
        "trials_asked": request.trials, "fault_kinds": list(request.kinds), "trials": [t.row() for t in trials]},
        indent=2) + "\n")


def _cells(trial: Trial) -> list[str]:
    """A Kafka-fed trial's counts add the results topic's to the recorded files' (its violations name which)."""
    checks = [c for c in (trial.check, trial.kafka_check) if c is not None]
    counts = (["-"] * 4 if trial.check is None else
              [f"{trial.check.expected:,}", *(f"{sum(getattr(c, name) for c in checks):,}" for name in ("lost", "duplicated", "wrong"))])
    return [str(trial.number), str(trial.seed), trial.fault.kind, trial.fault.target, trial.fault.at, trial.status,
            *counts, trial.verdict()]
