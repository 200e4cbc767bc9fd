"""./fournines calibrate on synthetic results folders (two key counts, GC logs), whose CPU series were
made from known costs, and on a simulated micro-batch run made with known scheduler costs: it
recovers them, and says where each came from."""
import json
import math
from dataclasses import replace
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner

from fournines.cli import cli
from fournines.targets.sim.calibration import DEFAULTS, read_calibration, write_calibration
from fournines.targets.sim.recorder import Recorder
from fournines.targets.sim.cluster import key_slides_per_s
from fournines.targets.sim.derive import model_beside_cores
from fournines_analysis.results import load_run
from fournines_analysis.summary import summarize

START_EPOCH_S = 1767225600.0
RATE, WINDOW_S, SLIDE_S, WARMUP_S, SECONDS = 100_000, 10.0, 0.01, 2, 12
NS_PER_EVENT, NS_PER_KEY_SLIDE = 800.0, 250.0
THREADS = 2


def results_folder(path, keys, pauses_ms, windows_us=lambda second: [1000], rate=RATE, background_cores=0.0,
                   cycles_ms=()):
    """A run whose cores busy are what the costs above make of its rate and keys, with
    `background_cores` beside; `pauses_ms`: GC pauses, one a second from the warm-up's end;
    `cycles_ms`: concurrent GC cycles, one a second from the warm-up's end too, whose threads take
    1 − gc_cycle_speed of the cores while they run; `windows_us(second)`: the windows' latencies that second."""
    path.mkdir()
    cycle_cores = sum(cycles_ms) / 1e3 / (SECONDS - WARMUP_S) * (1 - DEFAULTS["gc_cycle_speed"].value) * THREADS
    cores = (rate * NS_PER_EVENT * 1e-9 + key_slides_per_s(keys, rate, WINDOW_S, SLIDE_S) * NS_PER_KEY_SLIDE * 1e-9
             + model_beside_cores(keys, rate, SLIDE_S, 1, THREADS) + background_cores + cycle_cores)
    recorder = Recorder(("latency",), WARMUP_S)
    for second in range(SECONDS):
        for micros in windows_us(second):
            recorder.latency("latency", second + 0.5, micros)
        recorder.sample(second + 1.0, rate * (second + 1), cores * (second + 1), rate * (second + 1), 0.0)
    recorder.write(path, START_EPOCH_S, SECONDS)

    def at(s):
        return f"[{datetime.fromtimestamp(START_EPOCH_S + s, timezone.utc):%Y-%m-%dT%H:%M:%S.%f}+0000][1.0s][info][gc]"
    pauses = [f"{at(WARMUP_S + i + 0.5)} GC({i}) Pause Young (Normal) (G1 Evacuation Pause) 50M->10M(2048M) {ms:.3f}ms\n"
              for i, ms in enumerate(pauses_ms)]
    cycles = [f"{at(WARMUP_S + i + 0.1)} GC({100 + i}) Garbage Collection (Allocation Rate)\n"
              f"{at(WARMUP_S + i + 0.1 + ms / 2e3)} GC({100 + i}) Concurrent Mark {ms / 2:.3f}ms\n"
              f"{at(WARMUP_S + i + 0.1 + ms / 1e3)} GC({100 + i}) Garbage Collection (Allocation Rate) 1880M(92%)->224M(11%)\n"
              for i, ms in enumerate(cycles_ms)]
    (path / "gc.log").write_text("".join(pauses + cycles))
    scenario = {"name": "q5", "query": {"name": "q5", "window_ms": WINDOW_S * 1e3, "slide_ms": SLIDE_S * 1e3},
                "load": {"rate": rate, "keys": keys}, "cluster": {"members": 1, "threads": THREADS}}
    (path / "run.json").write_text(json.dumps({"scenario": scenario, "status": "completed", "warmup_s": WARMUP_S,
                                               "duration_s": SECONDS - WARMUP_S}))
    return path


def given_calibration(tmp_path, values: dict[str, float]):
    """The stated defaults with `values` in place of theirs, as a file."""
    path = tmp_path / "given.yaml"
    write_calibration(path, {**DEFAULTS, **{name: replace(DEFAULTS[name], value=v) for name, v in values.items()}})
    return path


def calibrated(tmp_path, folders) -> dict:
    """./fournines calibrate FROM=<folders>, read back."""
    out = tmp_path / "derived.yaml"
    result = CliRunner().invoke(cli, ["calibrate", f"FROM={','.join(map(str, folders))}", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return read_calibration(out)


def test_calibrate_recovers_the_costs_the_runs_were_made_with(tmp_path):
    few = results_folder(tmp_path / "few-keys", 1_000, [1.0, 3.0])
    many = results_folder(tmp_path / "many-keys", 100_000, [2.0, 4.0, 6.0])
    calibration = calibrated(tmp_path, [few, many])
    assert calibration["source_ns_per_event"].value == pytest.approx(NS_PER_EVENT, rel=0.01)
    assert calibration["key_slide_ns"].value == pytest.approx(NS_PER_KEY_SLIDE, rel=0.01)
    assert calibration["gc_pauses_per_s"].value == pytest.approx(5 / (2 * (SECONDS - WARMUP_S)))
    assert calibration["gc_pause_mean_ms"].value == pytest.approx(16.0 / 5)
    assert str(few) in calibration["key_slide_ns"].source and str(many) in calibration["key_slide_ns"].source
    assert calibration["network_hop_us"].source.startswith("default: ")


def test_calibrate_splits_off_a_background_at_two_rates_and_derives_the_gc_cycles(tmp_path):
    """Runs at two rates and two key counts, with 0.15 cores spent whatever the rate and ZGC-like
    cycles (3 of 300-500 ms at the lower rate, 6 of 400 ms at twice it): the per-event cost is not
    inflated by the background, and the cycles' threads are not charged to events."""
    runs = [results_folder(tmp_path / "few-keys", 1_000, [], rate=RATE, background_cores=0.15, cycles_ms=[300, 400, 500]),
            results_folder(tmp_path / "many-keys", 100_000, [], rate=RATE, background_cores=0.15, cycles_ms=[400] * 3),
            results_folder(tmp_path / "twice-the-rate", 1_000, [], rate=2 * RATE, background_cores=0.15,
                           cycles_ms=[400] * 6)]
    calibration = calibrated(tmp_path, runs)
    assert calibration["source_ns_per_event"].value == pytest.approx(NS_PER_EVENT, rel=0.01)
    assert calibration["key_slide_ns"].value == pytest.approx(NS_PER_KEY_SLIDE, rel=0.01)
    assert calibration["background_cores"].value == pytest.approx(0.15, abs=0.002)
    assert calibration["gc_cycles_per_s"].value == pytest.approx(12 / (3 * (SECONDS - WARMUP_S)), rel=0.01)
    assert calibration["gc_cycle_mean_ms"].value == pytest.approx(400, rel=0.01)


def test_at_one_rate_there_is_no_background_to_split_off(tmp_path):
    calibration = calibrated(tmp_path, [results_folder(tmp_path / "few-keys", 1_000, []),
                                        results_folder(tmp_path / "many-keys", 100_000, [])])
    assert calibration["background_cores"] == DEFAULTS["background_cores"]
    assert calibration["gc_cycles_per_s"] == DEFAULTS["gc_cycles_per_s"]


def test_calibrate_refuses_a_folder_it_cannot_read(tmp_path):
    result = CliRunner().invoke(cli, ["calibrate", f"FROM={tmp_path / 'nothing'}"])
    assert result.exit_code == 2
    assert "not a results folder" in result.output


def test_calibrate_recovers_the_scheduler_costs_a_simulated_micro_batch_run_was_made_with(tmp_path):
    """Round trip through the results folder: a micro-batch run simulated with known scheduler costs
    (on a network of no delay, so a stage's last finish to its done is the bookkeeping alone), then calibrated."""
    given = given_calibration(tmp_path, {"scheduler_task_us": 200.0, "batch_coordination_us": 800.0,
                                         "network_hop_us": 0.0})
    runner = CliRunner()
    result = runner.invoke(cli, ["simulate", "q5", "EXECUTION=micro-batch", "BATCH_MS=100", "CLUSTER=3", "THREADS=2",
                                 "RATE=30000", "KEYS=1000", "WARMUP=1s", "DURATION=3s", f"CALIBRATION={given}",
                                 "--results-root", str(tmp_path / "results")])
    assert result.exit_code == 0, result.output
    (folder,) = (tmp_path / "results").iterdir()
    derived = calibrated(tmp_path, [folder])
    assert derived["scheduler_task_us"].value == pytest.approx(200.0, abs=1)
    assert derived["batch_coordination_us"].value == pytest.approx(800.0, abs=1)
    assert str(folder) in derived["scheduler_task_us"].source
    # its windows wait for their batch, up to 100 ms: spread by the scheduler, not stalls
    assert derived["stalls_per_busy_core_s"] == DEFAULTS["stalls_per_busy_core_s"]


def test_a_calibration_from_simulated_runs_gives_back_the_costs_they_were_simulated_with(tmp_path):
    """Round trip through results folders: Q5 simulated at two key counts with known CPU costs, then
    calibrated; what the model charges beside the two costs (partials, results) is not counted twice. The
    warm-up lets the window fill: the bids name 24 000 new auctions a second at this rate (auction_keys.py)."""
    given = given_calibration(tmp_path, {"source_ns_per_event": 700.0, "key_slide_ns": 120.0, "gc_pauses_per_s": 0.0})
    runner, folders = CliRunner(), []
    for keys in (1_000, 100_000):
        root = tmp_path / f"keys-{keys}"
        result = runner.invoke(cli, ["simulate", "q5", "THREADS=2", "RATE=400000", f"KEYS={keys}", "WARMUP=5s",
                                     "DURATION=6s", f"CALIBRATION={given}", "--results-root", str(root)])
        assert result.exit_code == 0, result.output
        folders += list(root.iterdir())
    derived = calibrated(tmp_path, folders)
    assert derived["source_ns_per_event"].value == pytest.approx(700.0, rel=0.02)
    assert derived["key_slide_ns"].value == pytest.approx(120.0, rel=0.05)


def test_calibrate_derives_the_stalls_from_the_windows_slower_than_the_median_by_more_than_a_batch(tmp_path):
    """Each second 98 windows at 400 µs and two past the 1 ms threshold (1 and 3 ms beyond it, 2 ms on
    average); in the seconds a 3 ms GC pause began in or before, two more at 50 ms, which the GC model
    accounts for: left out. Windows past 1.4 ms: 2 of every 100 in the 8 seconds kept."""
    def windows(second):
        return [400] * 98 + [2400, 4400] + ([50_000, 50_000] if second in (3, 4) else [])

    folder = results_folder(tmp_path / "stalling", 1_000, [0.5, 3.0], windows)
    calibration = calibrated(tmp_path, [folder])
    mean_s = 2.0015e-3  # the buckets' midpoints 2401 and 4402 µs, less 1400
    assert calibration["stall_mean_ms"].value == pytest.approx(mean_s * 1e3, abs=1e-3)
    busy_cores = summarize(load_run(folder)).cores  # one member: its machine's
    assert calibration["stalls_per_busy_core_s"].value == pytest.approx(
        16 / 800 / busy_cores * math.exp(1e-3 / mean_s) / mean_s, rel=1e-3)
    source = calibration["stalls_per_busy_core_s"].source
    assert str(folder) in source and "latency.hlog" in source and "cpu.csv" in source


def test_a_run_without_windows_past_the_threshold_keeps_the_default_of_no_stalls(tmp_path):
    calibration = calibrated(tmp_path, [results_folder(tmp_path / "steady", 1_000, [])])
    assert calibration["stalls_per_busy_core_s"] == DEFAULTS["stalls_per_busy_core_s"]
