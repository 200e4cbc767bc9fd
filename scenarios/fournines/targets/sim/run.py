"""`./fournines simulate`: a resolved scenario simulated into a results folder like a real run's.

The simulator plays the member's part: it writes the latency logs, the CSV series and member.json
(the counters, `simulated`, the calibration with its content hash, the machine profile), then the
runner's own end (results/finish.py) writes run.json and the report, exactly as after a real run.
The calibration used is kept in the folder as calibration.yaml (the stated defaults, when no file was given).
"""
import json
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from fournines.members.progress import Progress
from fournines.members.progress_display import ProgressDisplay
from fournines.results.finish import finish
from fournines.results.folder import new_results_folder
from fournines.results.host_context import host_context
from fournines.results.outcome import Outcome
from fournines.targets.sim.calibration import DEFAULTS, content_hash, read_calibration, write_calibration
from fournines.targets.sim.machine_profiles import MachineProfile
from fournines.targets.sim.recorder import Recorder
from fournines.targets.sim.simulation import Simulated, simulate
from fournines_analysis.errors import write_text

CALIBRATION_COPY = "calibration.yaml"
EXIT_SIGINT = 130


def run(scenario: dict, calibration: Path | None, profile: MachineProfile, seed: int, command: list[str],
        results_root: Path, run_dir: Path | None = None) -> int:
    """Simulates the scenario with the calibration file, or the stated defaults when None (a bad
    file fails before the folder is made); returns the runner's exit code. The results go to
    `run_dir` if given (an existing empty folder, as a search's trial gives), else to a new folder in
    `results_root`."""
    calibrated = read_calibration(calibration) if calibration else DEFAULTS
    cores = profile.cores or scenario["cluster"]["threads"]
    costs = profile.scaled(calibrated, workers=cores * scenario["cluster"]["members"])
    run_dir = run_dir or new_results_folder(f"{scenario['name']}-sim", results_root)
    print(f"results: {run_dir}", file=sys.stderr)
    write_text(run_dir / "scenario.json", json.dumps(scenario, indent=2) + "\n")
    write_calibration(run_dir / CALIBRATION_COPY, calibrated)
    calibration = calibration or run_dir / CALIBRATION_COPY
    started = time.time()
    horizon_s = scenario["warmup_s"] + scenario["duration_s"]
    with ProgressDisplay(f"{scenario['name']} (simulated)", horizon_s) as display:
        simulated = simulate(scenario, costs, cores, seed,
                             each_second=lambda t, recorder: display.update(_progress(t, recorder, scenario)),
                             one_host=profile.one_host)
    simulated.recorder.write(run_dir, started, simulated.end_s)
    member = _member_report(scenario, simulated, f"{calibration} ({content_hash(calibration)})", profile, cores,
                            seed, started)
    write_text(run_dir / "member.json", json.dumps(member, indent=2) + "\n")
    outcome = (Outcome("interrupted", "stopped by SIGINT", EXIT_SIGINT) if simulated.interrupted
               else Outcome("completed", None, 0))
    return finish(run_dir, scenario, host_context(), [], command, outcome)


def _progress(t: float, recorder: Recorder, scenario: dict) -> Progress:
    """The progress line a member would print for the simulated second just ended."""
    last = recorder.intervals["latency"].get(int(t) - 1)
    time_s, processed, _, _, behind_ms = recorder.samples[-1]
    before = recorder.samples[-2][1] if len(recorder.samples) > 1 else 0
    percentile = (lambda p: last.get_value_at_percentile(p)) if last else (lambda p: None)
    return Progress(t, "warmup" if t <= scenario["warmup_s"] else "measure", scenario["load"]["rate"],
                    processed - before, percentile(99), percentile(99.99), behind_ms)


def _member_report(scenario: dict, simulated: Simulated, calibration: str, profile: MachineProfile, cores: int,
                   seed: int, started: float) -> dict:
    """What a member reports in member.json (nexmark/driver's MemberJson), for the simulated run."""
    samples = simulated.recorder.samples
    end_s, processed, generated = (samples[-1][0], samples[-1][1], samples[-1][3]) if samples else (0.0, 0, 0)
    return {
        "started_at": datetime.fromtimestamp(started, timezone.utc).isoformat().replace("+00:00", "Z"),
        "simulated": True,
        "calibration": calibration,
        "machine_profile": profile.describe(),
        "seed": seed,
        "engine": f"simulator ({scenario['execution']} model)",
        "query": scenario["query"]["name"],
        "threads": cores,
        "events_generated": generated,
        "events_processed": processed,
        "achieved_rate": generated / end_s if end_s else 0.0,
        "late_events": 0,
        "dropped_events": 0,
        "throughput_counts": "events reaching the query's first stage",
        "hlog_values_written": simulated.recorder.values_written(),
        "gc_pauses_simulated": [gc for gc, _ in simulated.job.stops_drawn],
        "stalls_simulated": [stalls for _, stalls in simulated.job.stops_drawn],
        "guarantee": scenario["guarantee"],
    }
