"""The micro-batch and group models against the shape of Drizzle's Fig. 4(a), predicted from the
model's own parameters: a micro-batch pays, per stage, the launch of every task on the serial
scheduler, a hop there and back and the scheduler's bookkeeping, so its time per batch grows with
machines; group scheduling pays the launches once a group. Also: the three models, drained, process
the same events and emit every window once; the same seed gives the same batches.csv."""
import numpy as np
import pytest

from fournines.targets.sim.batched_job import STAGES
from fournines.targets.sim.calibration import DEFAULTS
from fournines.targets.sim.group_tuning import next_group_size
from fournines.targets.sim.simulation import simulate
from fournines_analysis.batches import read_batches
from pausing import PAUSING

CORES = 4  # Drizzle's r3.xlarge
START_EPOCH_S = 1767225600.0


def scenario(members, execution, group_size=1, duration_s=10, rate=100_000):
    return {"query": {"name": "q5", "window_ms": 1000, "slide_ms": 100}, "cluster": {"members": members, "threads": CORES},
            "load": {"rate": rate, "keys": 1000}, "warmup_s": 0, "duration_s": duration_s, "execution": execution,
            "batch_ms": 100, "group_size": group_size}


def time_per_batch_s(members, execution, group_size=1):
    """Mean of each batch's first launch to its last stage's done, as the report computes it."""
    spans = {}
    for batch, _, launched, _, _, done, _ in simulate(scenario(members, execution, group_size), DEFAULTS, CORES,
                                                      seed=1).recorder.batch_stages:
        spans.setdefault(batch, [launched, done])[1] = done
    return float(np.mean([done - launched for launched, done in spans.values()]))


def micro_batch_overhead_s(members):
    """What the scheduler alone adds to a micro-batch, from the parameters: per stage, every task's
    launch, a hop out and back, and the bookkeeping."""
    task_s, hop_s = DEFAULTS["scheduler_task_us"].value * 1e-6, DEFAULTS["network_hop_us"].value * 1e-6
    return STAGES * (members * CORES * task_s + 2 * hop_s + DEFAULTS["batch_coordination_us"].value * 1e-6)


def test_micro_batch_time_grows_with_machines_as_its_scheduler_predicts():
    machines = [4, 16, 64, 128]
    times = [time_per_batch_s(n, "micro-batch") for n in machines]
    assert times == sorted(times)
    for n, t in zip(machines, times):
        # the overhead, plus compute (a few ms at this rate): never less, not much more
        assert micro_batch_overhead_s(n) <= t <= micro_batch_overhead_s(n) + 0.005


def test_group_scheduling_amortises_the_launches_at_128_machines():
    micro, group = time_per_batch_s(128, "micro-batch"), time_per_batch_s(128, "group", 100)
    assert micro >= 10 * group
    # a group pays one batch's launches for its 100 batches (10 s: 99 batches, one group)
    assert group <= micro_batch_overhead_s(128) / 99 + 0.005


def drained(execution, group_size=1):
    """A run of 3 s at 3 machines, then its loop run on until every batch and window is done."""
    simulated = simulate(scenario(3, execution, group_size, duration_s=3, rate=30_000), DEFAULTS, CORES, seed=2)
    simulated.job.loop.run(simulated.end_s + 30)
    windows = sum(h.get_total_count() for h in simulated.recorder.intervals["latency"].values())
    return simulated.job.processed_events, windows


def test_the_three_models_process_the_same_events_and_emit_every_window_once():
    continuous = drained("continuous")
    assert continuous == (pytest.approx(90_000), 30)
    assert drained("micro-batch") == continuous
    assert drained("group", 10) == continuous


@pytest.mark.parametrize("execution, group_size", [("micro-batch", 1), ("group", 5)])
def test_the_same_seed_writes_the_same_batches_csv_and_another_seed_does_not(tmp_path, execution, group_size):
    written = []
    for name, seed in (("a", 4), ("b", 4), ("c", 5)):
        folder = tmp_path / name
        folder.mkdir()
        simulated = simulate(scenario(8, execution, group_size, duration_s=3), PAUSING, CORES, seed=seed)
        simulated.recorder.write(folder, START_EPOCH_S, simulated.end_s)
        written.append((folder / "batches.csv").read_bytes())
    assert written[0] == written[1]
    assert written[0] != written[2]  # the seed draws the GC pauses, which show in the batches
    batches = read_batches(tmp_path / "a" / "batches.csv")  # the report's reader takes it as the engine's
    assert [b.batch for b in batches] == list(range(29)) and {b.group_size for b in batches} == {group_size}


@pytest.mark.parametrize("execution, group_size", [("micro-batch", 1), ("group", 10)])
def test_a_slide_longer_than_a_batch_fires_its_window_in_the_batch_its_end_falls_in(execution, group_size):
    """A 1 s tumbling window cut into 100 ms batches: window k ends with batch 10k + 9, so it is emitted
    after its end, once."""
    tumbling = {**scenario(3, execution, group_size, duration_s=3), "query": {"name": "q5", "window_ms": 1000,
                                                                               "slide_ms": 1000}}
    simulated = simulate(tumbling, DEFAULTS, CORES, seed=1)
    assert [list(simulated.job.frames_ending_in(b)) for b in (0, 8, 9, 10, 19)] == [[], [], [0], [], [1]]
    simulated.job.loop.run(simulated.end_s + 30)
    latencies = [h.get_min_value() for h in simulated.recorder.intervals["latency"].values()]
    assert sum(h.get_total_count() for h in simulated.recorder.intervals["latency"].values()) == 3
    assert min(latencies) > 1_000  # µs: a batch's launch and work after the window's end, never before it


def groups_of(recorded: list[tuple], target_s: float, batch_s: float) -> list[tuple[int, bool]]:
    """(size, late) of each group in order, from the batches' last stages: a group's batches are
    consecutive and each carries the group's size; late: one was done more than the target after its end."""
    last_stages = sorted(row for row in recorded if row[1] == STAGES - 1)
    groups, i = [], 0
    while i < len(last_stages):
        size = last_stages[i][6]
        members = last_stages[i:i + size]
        groups.append((size, any(done - (batch + 1) * batch_s > target_s for batch, *_, done, _ in members)))
        i += size
    return groups


@pytest.mark.parametrize("members, target_ms", [(16, 1), (16, 10_000), (128, 500)])
def test_an_auto_group_size_follows_the_engines_rule_from_group_to_group(members, target_ms):
    """From 1; one more after a group done in time, half (at least 1) after a late one, at most 100. At 128
    machines a group's launch alone takes ~390 ms, so with a 500 ms target the size falls back from 2."""
    tuned = {**scenario(members, "group", "auto", duration_s=20), "latency_target_ms": target_ms}
    simulated = simulate(tuned, DEFAULTS, CORES, seed=1)
    simulated.job.loop.run(simulated.end_s + 60)
    groups = groups_of(simulated.recorder.batch_stages, target_ms / 1e3, 0.1)
    assert sum(size for size, _ in groups) == 200 and groups[0][0] == 1
    for (size, late), (following, _) in zip(groups[:-2], groups[1:-1]):  # the last is cut short by the horizon
        assert following == (max(1, size // 2) if late else min(100, size + 1))
    sizes = [size for size, _ in groups[:-1]]
    if target_ms == 1:
        assert set(sizes) == {1}  # never in time: it stays at one batch a group
    if target_ms == 10_000:
        assert sizes == list(range(1, len(sizes) + 1))  # always in time: one more each group


@pytest.mark.parametrize("size, in_time, following", [(5, True, 6), (100, True, 100), (8, False, 4), (9, False, 4),
                                                      (1, False, 1)])
def test_the_group_size_rule_adds_one_halves_and_stays_within_1_and_100(size, in_time, following):
    assert next_group_size(size, in_time) == following
