"""A simulated run is a function of its seed: the same seed writes byte-identical latency logs, and
another seed (other GC pauses, other stalls) does not; Ctrl-C keeps what was recorded."""
import pytest

from fournines.targets.sim.simulation import simulate
from pausing import PAUSING, STALLING

START_EPOCH_S = 1767225600.0
SCENARIO = {"query": {"name": "q5", "window_ms": 1000, "slide_ms": 10}, "cluster": {"members": 3, "threads": 2},
            "load": {"rate": 200_000, "keys": 1000}, "warmup_s": 1, "duration_s": 4, "execution": "continuous"}


def hlogs(tmp_path, name, seed, costs):
    folder = tmp_path / name
    folder.mkdir()
    simulated = simulate(SCENARIO, costs, 2, seed)
    simulated.recorder.write(folder, START_EPOCH_S, simulated.end_s)
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.hlog"))}


@pytest.mark.parametrize("costs", [PAUSING, STALLING], ids=["gc-pauses", "stalls"])
def test_the_same_seed_writes_byte_identical_logs_and_another_seed_does_not(tmp_path, costs):
    first, again, other = hlogs(tmp_path, "a", 5, costs), hlogs(tmp_path, "b", 5, costs), hlogs(tmp_path, "c", 6, costs)
    assert set(first) == {"latency.hlog", "completion.hlog"}
    assert first == again
    assert first["latency.hlog"] != other["latency.hlog"]


def test_ctrl_c_ends_the_simulation_at_the_last_whole_second_with_what_it_recorded():
    def interrupt_after_two_seconds(t, recorder):
        if t >= 2:
            raise KeyboardInterrupt

    simulated = simulate(SCENARIO, PAUSING, 2, 5, each_second=interrupt_after_two_seconds)
    assert simulated.interrupted and simulated.end_s == 2
    assert [sample[0] for sample in simulated.recorder.samples] == [1.0, 2.0]
    assert max(simulated.recorder.intervals["latency"]) <= 2
