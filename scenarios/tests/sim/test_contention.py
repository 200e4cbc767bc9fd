"""Core contention (host.py): work stretched by the host's recent busy share, the closed form the
calibration and the stall rate use (cluster.contended_cores), members sharing one host, and a
calibration that gives the contention back from runs simulated with it; on a local host, a GC
cycle's threads first take the vCPUs no worker runs on."""
from dataclasses import replace

import pytest
from click.testing import CliRunner

from fournines.cli import cli
from fournines.targets.sim.calibration import DEFAULTS, read_calibration, write_calibration
from fournines.targets.sim.cluster import contended_cores
from fournines.targets.sim.event_loop import HeapLoop
from fournines.targets.sim.host import Host
from fournines.targets.sim.machine_profiles import _beside_idle_vcpus
from fournines.targets.sim.pauses import Pauses
from fournines.targets.sim.station import Station


def busy_cores(loop: HeapLoop, stations: list[Station], share_of_a_core: float, seconds: float = 4.0) -> float:
    """Each station handed a piece of work per core every ms of `share_of_a_core` of it; the cores busy."""
    piece_s = share_of_a_core * 1e-3

    def tick(t: float):
        for s in stations:
            s.submit(piece_s, lambda: None, s.cores)
        if t + 1e-3 < seconds:
            loop.at(t + 1e-3, lambda: tick(t + 1e-3))
    loop.at(0.0, lambda: tick(0.0))
    loop.run(seconds + 1)
    return sum(s.busy_s for s in stations) / seconds


def test_a_busy_host_stretches_work_as_the_closed_form_says():
    loop = HeapLoop()
    busy = busy_cores(loop, [Station(loop, 2, Pauses.none(), host=Host(0.8))], 0.4)
    assert busy == pytest.approx(contended_cores(0.8, 0.0, 2, 0.8), rel=0.02)
    assert busy > 0.8 * 1.2  # not the work as it would take alone


def test_one_core_alone_is_not_stretched():
    loop = HeapLoop()
    assert busy_cores(loop, [Station(loop, 1, Pauses.none(), host=Host(0.8))], 0.5) == pytest.approx(0.5, rel=0.01)


def test_two_one_core_members_on_one_host_stretch_each_other_and_apart_they_do_not():
    shared, loop, apart_loop = Host(0.8), HeapLoop(), HeapLoop()
    together = [Station(loop, 1, Pauses.none(), host=shared) for _ in range(2)]
    apart = [Station(apart_loop, 1, Pauses.none(), host=Host(0.8)) for _ in range(2)]
    assert busy_cores(loop, together, 0.4) == pytest.approx(contended_cores(0.8, 0.0, 2, 0.8), rel=0.02)
    assert busy_cores(apart_loop, apart, 0.4) == pytest.approx(0.8, rel=0.01)


def test_past_the_hosts_cores_the_closed_form_says_every_core():
    assert contended_cores(1.5, 0.1, 2, 1.0) == pytest.approx(1.9)


def test_calibrate_gives_back_the_contention_runs_were_simulated_with(tmp_path):
    """Round trip: Q5 simulated on this host's profile with a known contention at a low and a high
    load on two workers and on one (whose core works alone), then calibrated."""
    given = tmp_path / "given.yaml"
    write_calibration(given, {**DEFAULTS, **{name: replace(DEFAULTS[name], value=value) for name, value in {
        "source_ns_per_event": 150.0, "key_slide_ns": 20.0, "background_cores": 0.05, "core_contention": 0.5,
        "gc_pauses_per_s": 0.0}.items()}})
    runner, folders = CliRunner(), []
    for name, settings in {"low": "RATE=1000000 KEYS=1000 THREADS=2", "mid": "RATE=2000000 KEYS=1000 THREADS=2",
                           "high": "RATE=5000000 KEYS=1000 THREADS=2", "keys": "RATE=1000000 KEYS=100000 THREADS=2",
                           "alone": "RATE=4000000 KEYS=1000 THREADS=1"}.items():
        root = tmp_path / name
        result = runner.invoke(cli, ["simulate", "q5", *settings.split(), "WARMUP=2s", "DURATION=4s",
                                     "MACHINE=local", f"CALIBRATION={given}", "--results-root", str(root)])
        assert result.exit_code == 0, result.output
        folders += list(root.iterdir())
    derived = tmp_path / "derived.yaml"
    result = runner.invoke(cli, ["calibrate", f"FROM={','.join(map(str, folders))}", "--out", str(derived)])
    assert result.exit_code == 0, result.output
    costs = read_calibration(derived)
    assert costs["core_contention"].value == pytest.approx(0.5, abs=0.1)
    assert costs["source_ns_per_event"].value == pytest.approx(150.0, rel=0.1)


@pytest.mark.parametrize("workers, vcpus, speed", [(1, 2, 1.0), (2, 2, 0.5), (4, 2, 0.75), (3, 8, 1.0), (8, 8, 0.5)])
def test_a_local_gc_cycle_takes_the_vcpus_no_worker_runs_on_first(workers, vcpus, speed):
    assert _beside_idle_vcpus(DEFAULTS["gc_cycle_speed"], workers, vcpus).value == pytest.approx(speed)
