"""`./fournines sim-validate` (scenarios/docs/simulate.md, "Validation"): the simulator checked
against the reference engine on this machine, in one folder, `results/<UTC time>-sim-validate/`:

1. the calibration runs (validation_plan.PLAN), real, into `measured/<name>/`; `./fournines
   calibrate`'s derivation over them writes `calibration.yaml`;
2. every configuration simulated with that file into `predicted/<name>/`, and the held-out ones run
   for real into `measured/<name>/`;
3. for the configurations searched, the highest sustainable rate, simulated and then real: the same
   rate search (search/run_search.py) with simulated trials, then with real ones starting from the
   simulated answer (the search's result does not depend on where it starts, only its length does),
   each into `search-<name>-predicted/` and `search-<name>-measured/`;
4. the comparison (comparison.py) printed and written (validation_report.py).

Every real run goes through the runner (targets/local), which stops its members on Ctrl-C; a stopped
run ends the validation with its exit code. A real run that did not complete ends it too: a
validation missing one of its runs is not one."""
import json
import sys
import time
from pathlib import Path

from fournines.results.folder import new_results_folder
from fournines.results.outcome import Stopped
from fournines.search.run_search import CONFIRM_FACTOR, run_search
from fournines.search.trial import Play
from fournines.spec.overrides import Overrides
from fournines.targets.prepare import resolve
from fournines.targets.sim import run as sim_run
from fournines.targets.sim.calibration import write_calibration
from fournines.targets.sim.comparison import Comparison, latency_comparisons, rate_comparison
from fournines.targets.sim.derive import derive_calibration
from fournines.targets.sim.machine_profiles import PROFILES
from fournines.targets.sim.validation_plan import (PLAN, SCENARIO, SEARCH_HIGH, SEARCH_LOW, SEARCH_PRECISION, SLO,
                                                   TOLERANCE, TRIAL_DURATION, TRIAL_WARMUP, Configuration, estimated_s)
from fournines.targets.sim.validation_report import printed, write_validation
from fournines_analysis.results import Run, load_run
from fournines_analysis.slo import parse_slo

SEED = 1
EXIT_OVER_TOLERANCE = 1


def fixed_overrides(c: Configuration, user: Overrides) -> Overrides:
    """A configuration's fixed run: the scenario's durations unless the user gave others."""
    return user.replacing(c.settings)


def trial_overrides(c: Configuration, user: Overrides) -> Overrides:
    """A search trial of the configuration: the plan's shorter durations unless the user gave others."""
    given = {o.key for o in user.fields}
    shorter = {k: v for k, v in (("WARMUP", TRIAL_WARMUP), ("DURATION", TRIAL_DURATION)) if k not in given}
    return user.replacing(shorter).replacing(c.settings)


def check(user: Overrides) -> float:
    """Resolves every run the validation will make (RunRefused naming the first that cannot run);
    returns the estimated wall time in seconds."""
    fixed = [resolve(SCENARIO, fixed_overrides(c, user)) for c in PLAN]
    trials = [resolve(SCENARIO, trial_overrides(c, user)) for c in PLAN if c.searched]
    length = (lambda s: s["warmup_s"] + s["duration_s"])
    return estimated_s(max(map(length, fixed)), max(map(length, trials), default=0))


def run_validation(user: Overrides, play: Play, results_root: Path) -> int:
    """Returns 0 when every held-out error is within the tolerance, 1 when one is not or a real run
    failed; Stopped on Ctrl-C."""
    folder = new_results_folder("sim-validate", results_root)
    began = time.monotonic()
    # every configuration run for real once and simulated once; every search simulated, then real
    steps = 2 * len(PLAN) + 2 * sum(1 for c in PLAN if c.searched)
    done = 0

    def say(line: str) -> None:
        print(f"sim-validate: {line}", file=sys.stderr, flush=True)

    def step(what: str) -> None:
        nonlocal done
        done += 1
        say(f"[{done}/{steps}, {(time.monotonic() - began) / 60:.1f} min] {what}")

    def fixed(c: Configuration) -> dict:
        return resolve(SCENARIO, fixed_overrides(c, user))

    say(f"about {check(user) / 60:.0f} min; folder {folder}")
    measured: dict[str, Run] = {}
    for c in (c for c in PLAN if c.calibrates):
        step(f"real run {c.name} (calibration): {_settings(c)}")
        measured[c.name] = _played(fixed(c), play, folder / "measured" / c.name)
    calibration = folder / "calibration.yaml"
    write_calibration(calibration, derive_calibration([measured[c.name].path for c in PLAN if c.calibrates]))
    say(f"wrote {calibration}")

    def simulated(scenario: dict, run_dir: Path) -> int:
        return sim_run.run(scenario, calibration, PROFILES["local"], SEED, sys.argv, run_dir.parent, run_dir)

    predicted: dict[str, Run] = {}
    for c in PLAN:
        step(f"simulated {c.name}: {_settings(c)}")
        predicted[c.name] = _played(fixed(c), simulated, folder / "predicted" / c.name)
    for c in (c for c in PLAN if not c.calibrates):
        step(f"real run {c.name} ({c.holds_out}): {_settings(c)}")
        measured[c.name] = _played(fixed(c), play, folder / "measured" / c.name)

    rows: list[Comparison] = [row for c in PLAN
                              for row in latency_comparisons(c.name, predicted[c.name], measured[c.name], TOLERANCE)]
    searches = {}
    for c in (c for c in PLAN if c.searched):
        step(f"simulated rate search {c.name}, {SLO}")
        ours, our_run = _search(trial_overrides(c, user), simulated, folder / f"search-{c.name}-predicted", None)
        step(f"real rate search {c.name}, {SLO}, from {ours or c.settings['RATE']} events/s")
        theirs, their_run = _search(trial_overrides(c, user), play, folder / f"search-{c.name}-measured", ours)
        rows.append(rate_comparison(c.name, ours, theirs, our_run, their_run, TOLERANCE))
        searches[c.name] = {"predicted": ours, "measured": theirs}

    held_out = [r for r in rows if _named(r.configuration).holds_out]
    over = [r for r in held_out if r.flagged]
    took = (time.monotonic() - began) / 60
    findings = _findings(folder, calibration, len(held_out), len(over), took)
    record = {"scenario": SCENARIO, "calibration": str(calibration), "tolerance": TOLERANCE, "slo": SLO,
              "search_precision": SEARCH_PRECISION, "seed": SEED, "took_min": round(took, 1),
              "configurations": [{"name": c.name, "settings": c.settings, "holds_out": c.holds_out,
                                  "searched": c.searched} for c in PLAN],
              "searches": searches}
    for path in write_validation(folder, rows, {c.name: c.holds_out for c in PLAN}, findings, record):
        say(f"wrote {path}")
    print(printed(rows))
    say(findings[-1])
    return EXIT_OVER_TOLERANCE if over else 0


def _named(name: str) -> Configuration:
    return next(c for c in PLAN if c.name == name)


def _settings(c: Configuration) -> str:
    return " ".join(f"{k}={v}" for k, v in c.settings.items())


def _played(scenario: dict, play: Play, run_dir: Path) -> Run:
    run_dir.mkdir(parents=True)
    code = play(scenario, run_dir)
    if code > 128:
        raise Stopped(code)
    run = load_run(run_dir)
    if run.info.fields.get("status") != "completed":
        raise RunIncomplete(f"{run_dir}: the run did not complete ({run.info.fields.get('status')}); "
                            "the validation needs every one of its runs")
    return run


class RunIncomplete(Exception):
    """A run of the validation failed: its folder keeps the evidence."""


def _search(overrides: Overrides, play: Play, root: Path, start: int | None) -> tuple[int | None, Run | None]:
    """The highest rate the configuration sustains under SLO, and the run that sustained it."""
    if start is not None:
        overrides = overrides.replacing({"RATE": str(start)})
    run_search(SCENARIO, overrides, parse_slo(SLO), SLO, SEARCH_LOW, SEARCH_HIGH, SEARCH_PRECISION, play, root)
    (search_folder,) = root.iterdir()
    record = json.loads((search_folder / "trials.json").read_text(encoding="utf-8"))
    rate = record["rate"]
    at_rate = [t["folder"] for t in record["trials"] if t["rate"] == rate and t["sustained"]]
    return rate, (load_run(search_folder / at_rate[-1]) if at_rate else None)


def _findings(folder: Path, calibration: Path, held_out: int, over: int, took_min: float) -> list[str]:
    calibrating = ", ".join(f"{c.name} ({_settings(c)})" for c in PLAN if c.calibrates)
    return [
        f"Calibrated on real runs of {SCENARIO} on this machine: {calibrating}; the file is {calibration.name} "
        f"(`./fournines calibrate`'s derivation over measured/). Every configuration was then simulated with it "
        f"(predicted/) and the held-out ones run for real (measured/). Latencies are the windows' (first result minus "
        f"the window's end) after the warm-up; an error is (predicted − measured) / measured, over "
        f"{TOLERANCE:.0%} flagged with what the runs show.",
        f"The highest sustainable rate is found by the rate search (search.md) under {SLO}, bisecting to within "
        f"{SEARCH_PRECISION:.0%} and confirming with a run {CONFIRM_FACTOR}× as long, once with simulated trials, then "
        f"with real ones starting from the simulated answer (folders search-<configuration>-*).",
        f"{held_out - over} of {held_out} held-out comparisons within {TOLERANCE:.0%}; the calibration runs' own rows "
        f"(in sample) are shown for reference and not counted. {took_min:.1f} min; folder {folder}.",
    ]
