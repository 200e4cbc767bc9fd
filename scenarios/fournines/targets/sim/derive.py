"""`./fournines calibrate FROM=...`: the calibration derived from real results folders, through the
analysis' own readers, so a number here is the number the report shows:

- CPU: each run's cores busy (cpu.csv) over its throughput (throughput.csv) after the warm-up, less
  the GC cycles' threads (1 − gc_cycle_speed of the cores while a cycle runs), so that a run
  simulated with the calibration spends the CPU the real one did. The rest, per second, is the work
  (rate × source_ns_per_event + (key, slide) pairs per second × key_slide_ns, and what the model
  charges beside: every tasklet's partials of every frame at partial_ns_per_key and every machine's
  window result at result_ns, both at their stated defaults) stretched by the contention at the run's
  busy share of its cores (host.py), plus members × background_cores. Least squares over the runs
  gives key_slide_ns when they span two or more key counts, background_cores when they span two or
  more rates (otherwise that part is charged to events), and core_contention, the one whose fit
  leaves the least residual, when a run left over beside those unknowns and busy shares at least
  CONTENTION_SPREAD apart leave it determined;
- GC: the stop-the-world pauses in the runs' GC logs after the warm-up (gc_log.py): pauses per
  second per member and their mean length; the concurrent cycles begun after the warm-up: per
  second per member and their mean length;
- stalls: from continuous runs' window latencies (latency.hlog) after the warm-up, those slower than
  the median by more than one source batch, outside GC pauses and cycles (stall_estimate.py): their
  rate per busy core (a machine's cores busy from cpu.csv) and mean length;
- the scheduler: from micro-batch runs' batches.csv after the warm-up (the report's reader), as the
  model defines them (batched_job.py): a stage's launch to its first start is the first machine's
  tasks launched, so scheduler_task_us is that over the threads of a machine; a stage's last finish
  to its done is the report's trip and the bookkeeping, batch_coordination_us (on one host the trip
  is a loopback's). Medians over every batch, each per stage.

Every other parameter keeps its stated default (calibration.DEFAULTS).
"""
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fournines.targets.sim.calibration import DEFAULTS, Parameter
from fournines.targets.sim.cluster import key_slides_per_s, partials_and_results_ns_per_s
from fournines.targets.sim.gc_cycles import threads_cores
from fournines.targets.sim.stall_estimate import THRESHOLD_S, Exceedances, exceedances, stall_rate_and_mean
from fournines_analysis.batches import BATCHES_FILE, measured_batches, read_batches
from fournines_analysis.errors import BadInput
from fournines_analysis.gc_log import gc_events
from fournines_analysis.hlog import LatencyLog
from fournines_analysis.results import load_run
from fournines_analysis.summary import summarize


CONTENTION_STEP = 0.01
CONTENTIONS = list(np.arange(0, 3 + CONTENTION_STEP / 2, CONTENTION_STEP))  # the grid searched: up to 4× as long
CONTENTION_SPREAD = 0.2  # the busy shares the runs must span to tell the contention from the costs
# Stalls come from the runs whose cores are at most this busy, and whose windows each take an owner at
# most this share of the stall threshold to fire: a busier run's slow windows are also its own queueing,
# and a long firing's spread its own work (at 100 000 keys, ~650 "stalls" a busy core-second of 0.5 ms,
# against 32-45 of 1.4-2.1 ms at 1 000 keys whatever the rate: scenarios/MEASURED.md, 2026-11-29), both
# of which the model makes itself.
STALL_RUNS_BUSY_SHARE = 0.3
STALL_RUNS_FIRING_SHARE = 0.25


@dataclass(frozen=True)
class Measured:
    folder: Path
    rate: float  # events/s processed after the warm-up
    cores: float  # cores busy after the warm-up
    cycle_cores: float  # of them, the GC cycles' threads
    beside_cores: float  # the work the model charges to partials and window results, as it would take alone
    busy_share: float  # the share of the host's cores busy, as the model's contention sees it (0 on one core)
    key_slides_per_s: float  # (key, slide) pairs the owners touch per second
    owned_keys: float  # keys an owner tasklet touches when a window fires
    keys: int
    pauses: int  # stop-the-world pauses after the warm-up, all members
    pause_s: float  # their total length
    cycles: int  # concurrent GC cycles begun after the warm-up, all members
    cycle_s: float  # their total length
    member_seconds: float  # measured seconds × members
    members: int
    threads: int
    task_launch_us: list[float]  # micro-batch runs: per batch, a stage's launch to its start over a machine's threads
    stage_coordination_us: list[float]  # per batch, a stage's last finish to its done
    windows: Exceedances  # the windows past the stall threshold


def measured(folder: Path) -> Measured:
    run = load_run(folder)
    summary = summarize(run)
    if summary.throughput is None or not summary.cores:
        raise BadInput(folder, "needs throughput.csv and cpu.csv to derive CPU per event")
    scenario = run.info.fields.get("scenario") or {}
    try:
        keys, query, cluster = scenario["load"]["keys"], scenario["query"], scenario["cluster"]
        window_s, slide_s, members = query["window_ms"] / 1e3, query["slide_ms"] / 1e3, cluster["members"]
        threads = cluster["threads"]
    except (KeyError, TypeError):
        raise BadInput(folder / "run.json", "needs scenario.load.keys, scenario.query.window_ms and slide_ms "
                                            "and scenario.cluster.members and threads (a windowed query's run)") from None
    lead = next(iter(run.latency.values()))
    every_gc = gc_events(run.path, lead.start_time_s)
    pauses = [e for e in every_gc if e.pause and e.start_s >= run.warmup_s]
    cycles = [e for e in every_gc if not e.pause and e.start_s >= run.warmup_s]
    measured_s = float(run.info.fields.get("duration_s") or lead.length_s[lead.measured(run.warmup_s)].sum())
    launch, coordination = _scheduler_costs(folder, scenario, run.warmup_s)
    cycle_s = sum(e.length_s for e in cycles)
    cycle_cores = cycle_s / measured_s * threads_cores(DEFAULTS["gc_cycle_speed"].value, threads)
    # the runs this derives from ran on this machine: their members shared it (MACHINE=local, host.py)
    busy_share = (summary.cores - cycle_cores) / members / threads if members * threads > 1 else 0.0
    key_slides = key_slides_per_s(keys, summary.throughput, window_s, slide_s)
    return Measured(folder, summary.throughput, summary.cores, cycle_cores,
                    model_beside_cores(keys, summary.throughput, slide_s, members, threads), min(1.0, busy_share),
                    key_slides, key_slides * slide_s / members / threads, keys,
                    len(pauses), sum(e.length_s for e in pauses), len(cycles), cycle_s, measured_s * members, members, threads,
                    launch, coordination,
                    _windows_past_the_stall_threshold(lead, run.warmup_s, every_gc, scenario, summary.cores / members))


def _windows_past_the_stall_threshold(lead: LatencyLog, warmup_s: float, gc: list, scenario: dict,
                                      busy_cores: float) -> Exceedances:
    """Continuous runs only: a batched run's windows also wait for the scheduler, whose costs are not stalls.
    The seconds of GC pauses and cycles are left out: the model has both."""
    if scenario.get("execution", "continuous") != "continuous":
        return Exceedances(0.0, 0, 0.0)
    return exceedances(lead, warmup_s, gc, scenario["cluster"]["members"], busy_cores)


def model_beside_cores(keys: int, rate: float, slide_s: float, members: int, threads: int) -> float:
    """Cores the model spends beside source_ns_per_event and key_slide_ns at this rate (windowed_job.py,
    batched_job.py): the partials and the window results, at the stated defaults."""
    return partials_and_results_ns_per_s(keys, rate, slide_s, members, threads, DEFAULTS["partial_ns_per_key"].value,
                                         DEFAULTS["result_ns"].value) * 1e-9


def _scheduler_costs(folder: Path, scenario: dict, warmup_s: float) -> tuple[list[float], list[float]]:
    """Per measured batch of a micro-batch run: its scheduling per stage over a machine's threads, and
    its waiting per stage (the report's parts); nothing for another model or without batches.csv."""
    path = folder / BATCHES_FILE
    if scenario.get("execution") != "micro-batch" or not path.is_file():
        return [], []
    every = read_batches(path)
    stages = (len(path.read_text(encoding="utf-8").splitlines()) - 1) / len(every) if every else 1
    threads = scenario["cluster"]["threads"]
    batches = measured_batches(every, warmup_s)
    return ([b.parts_us[0] / stages / threads for b in batches], [b.parts_us[2] / stages for b in batches])


def derive_calibration(folders: list[Path]) -> dict[str, Parameter]:
    runs = [measured(f) for f in folders]
    names = ", ".join(str(r.folder) for r in runs)
    derived = dict(DEFAULTS)
    columns = ["per_event"]
    if len({r.keys for r in runs}) > 1:
        columns.append("key_slide")
    if len({round(r.rate, -3) for r in runs}) > 1:
        columns.append("background")
    shares = [r.busy_share for r in runs]
    contentions = CONTENTIONS if len(runs) > len(columns) and max(shares) - min(shares) >= CONTENTION_SPREAD else [0.0]
    given = {"per_event": [r.rate for r in runs], "key_slide": [r.key_slides_per_s for r in runs],
             "background": [r.members for r in runs]}
    alone = np.array([given[c] for c in columns], dtype=float).T  # each column as the work would take alone
    residual, contention, fitted = min((_cpu_fit(runs, columns, alone, c) for c in contentions), key=lambda fit: fit[0])
    over = (f"{names}: cpu.csv cores busy after the warm-up, less GC cycles' threads, against throughput.csv events/s, "
            f"(key, slide) pairs per second, partials and window results at their defaults, and members, stretched by "
            f"the contention at each run's busy share ({', '.join(f'{s:.2f}' for s in shares)}): least squares over key "
            f"counts {sorted({r.keys for r in runs})} and rates {sorted({round(r.rate) for r in runs})}")
    if "key_slide" in fitted:
        derived["key_slide_ns"] = _with(DEFAULTS["key_slide_ns"], fitted["key_slide"] * 1e9, over)
    if "background" in fitted:
        derived["background_cores"] = _with(DEFAULTS["background_cores"], fitted["background"], over)
    derived["source_ns_per_event"] = _with(DEFAULTS["source_ns_per_event"], fitted["per_event"] * 1e9, over)
    if len(contentions) > 1:
        derived["core_contention"] = _with(DEFAULTS["core_contention"], contention,
                                           f"{over}; the contention in steps of {CONTENTION_STEP:g} leaving the least "
                                           f"residual ({residual:.3g} cores)")
    pauses = sum(r.pauses for r in runs)
    if pauses:
        member_seconds = sum(r.member_seconds for r in runs)
        derived["gc_pauses_per_s"] = _with(DEFAULTS["gc_pauses_per_s"], pauses / member_seconds,
                                           f"{names}: gc.log pauses after the warm-up per member-second")
        derived["gc_pause_mean_ms"] = _with(DEFAULTS["gc_pause_mean_ms"], sum(r.pause_s for r in runs) / pauses * 1e3,
                                            f"{names}: gc.log mean pause length after the warm-up")
    cycles = sum(r.cycles for r in runs)
    if cycles:
        derived["gc_cycles_per_s"] = _with(DEFAULTS["gc_cycles_per_s"], cycles / sum(r.member_seconds for r in runs),
                                           f"{names}: gc.log concurrent cycles begun after the warm-up per member-second")
        derived["gc_cycle_mean_ms"] = _with(DEFAULTS["gc_cycle_mean_ms"], sum(r.cycle_s for r in runs) / cycles * 1e3,
                                            f"{names}: gc.log mean cycle length after the warm-up")
    firing_limit_s = STALL_RUNS_FIRING_SHARE * THRESHOLD_S
    calm = [r for r in runs if r.cores / r.members / r.threads <= STALL_RUNS_BUSY_SHARE
            and r.owned_keys * derived["key_slide_ns"].value * 1e-9 <= firing_limit_s]
    stalls = stall_rate_and_mean([r.windows for r in calm])
    if stalls is not None:
        per_s, mean_s = stalls
        threshold = f"{THRESHOLD_S * 1e3:g} ms"
        how = (f"{', '.join(str(r.folder) for r in calm)}: latency.hlog of the continuous runs at most "
               f"{STALL_RUNS_BUSY_SHARE:.0%} busy (cpu.csv) whose windows fire in at most {firing_limit_s * 1e6:g} µs "
               f"(key_slide_ns), after the warm-up, windows slower than the median by more than {threshold} outside "
               f"GC pauses")
        derived["stalls_per_busy_core_s"] = _with(DEFAULTS["stalls_per_busy_core_s"], per_s,
                                                  f"{how}: their share × e^({threshold} / mean) / mean, per machine "
                                                  "and per core busy (cpu.csv) (stall_estimate.py)")
        derived["stall_mean_ms"] = _with(DEFAULTS["stall_mean_ms"], mean_s * 1e3, f"{how}: their mean excess")
    launches = [us for r in runs for us in r.task_launch_us]
    if launches:
        batched = ", ".join(str(r.folder) for r in runs if r.task_launch_us)
        derived["scheduler_task_us"] = _with(DEFAULTS["scheduler_task_us"], np.median(launches),
                                             f"{batched}: batches.csv after the warm-up, median of a stage's launch to "
                                             "its first start over a machine's threads")
        derived["batch_coordination_us"] = _with(
            DEFAULTS["batch_coordination_us"], np.median([us for r in runs for us in r.stage_coordination_us]),
            f"{batched}: batches.csv after the warm-up, median of a stage's last finish to its done")
    return derived


def _cpu_fit(runs: list[Measured], columns: list[str], alone: np.ndarray,
             contention: float) -> tuple[float, float, dict[str, float]]:
    """(residual, contention, fitted value per column) of the CPU's least squares at this contention:
    every column but the background stretched by it."""
    stretch = np.array([1 + contention * r.busy_share for r in runs])
    matrix = alone * np.column_stack([np.ones(len(runs)) if c == "background" else stretch for c in columns])
    target = np.array([r.cores - r.cycle_cores for r in runs]) - np.array([r.beside_cores for r in runs]) * stretch
    solution = np.linalg.lstsq(matrix, target, rcond=None)[0]
    return float(np.linalg.norm(matrix @ solution - target)), contention, dict(zip(columns, solution))


def _with(default: Parameter, value: float, source: str) -> Parameter:
    if value < 0:  # two runs' noise can make a small difference negative: say so rather than simulate it
        raise BadInput(source.split(":")[0], f"derived a negative value ({value:.3g} {default.unit}) for "
                                             f"'{default.means}'; the runs disagree more than the model allows")
    return Parameter(round(float(value), 3), default.unit, default.means, source)
