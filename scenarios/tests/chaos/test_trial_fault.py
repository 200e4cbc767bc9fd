"""A trial's fault drawn from its seed (fournines/chaos/trial_fault.py): replayable, within its kind's
ranges, and turned into the runner's faults and the job's chaos point."""
import glob
from pathlib import Path

import pytest

from fournines.chaos.trial_fault import CHAOS_POINT_FILE, KINDS, draw
from fournines.spec.durations import parse_duration


def test_the_same_seed_draws_the_same_fault_however_the_kinds_are_listed():
    for seed in range(50):
        assert draw(seed, ("stop", "kill")) == draw(seed, ("kill", "stop")) == draw(seed, ("kill", "stop"))
    drawn = {(f.kind, f.target, f.at) for f in (draw(seed, tuple(KINDS)) for seed in range(200))}
    assert len(drawn) > 100  # and different seeds differ (the chaos points' K have few values: some repeat)


def test_every_kind_is_drawn_and_stays_in_its_ranges():
    drawn = [draw(seed, tuple(KINDS)) for seed in range(500)]
    assert {f.kind for f in drawn} == set(KINDS)
    for f in drawn:
        match f.kind:
            case "kill":
                assert f.target in ("member-2", "member-3") and 1 <= parse_duration(f.at) <= 4
            case "kill-coordinator":
                assert f.target == "member-1" and 1 <= parse_duration(f.at) <= 4
            case "stop" | "partition":
                assert 1 <= parse_duration(f.at) <= 3 and f.duration == "5s" and f.action == f.kind
            case "exception":
                assert f.chaos_point == {"member": f.member, "at": f.at, "then": "fail"}
                assert f.at.startswith("event:") and 7_000 <= int(f.at.split(":")[1]) <= 27_000 and f.action is None
            case "commit-kill":
                assert f.chaos_point == {"member": "coordinator", "at": f.at, "then": "freeze"}
                assert 2 <= int(f.at.split(":")[1]) <= 6 and f.target == "member-1"


@pytest.mark.parametrize("kind", KINDS)
def test_only_the_kinds_asked_for_are_drawn(kind):
    assert {draw(seed, (kind,)).kind for seed in range(20)} == {kind}


def test_the_runners_faults_a_timed_kill_a_stop_a_partition_and_a_kill_on_the_chaos_points_file(tmp_path):
    kill = next(f for f in (draw(s, ("kill",)) for s in range(10)) if f.target == "member-3")
    assert kill.faults(tmp_path) == [{"action": "kill", "target": "member-3", "at": kill.at}]
    stop = draw(1, ("stop",))
    assert stop.faults(tmp_path) == [{"action": "stop", "target": stop.target, "at": stop.at, "duration": "5s"}]
    partition = draw(1, ("partition",))
    assert partition.faults(tmp_path) == [{"action": "partition", "target": partition.target, "at": partition.at,
                                           "duration": "5s"}]
    assert draw(1, ("exception",)).faults(tmp_path) == []  # the member throws by itself
    folder = tmp_path / "chaos[1]" / "trial-001"  # glob characters in the folder are taken literally
    (fault,) = draw(1, ("commit-kill",)).faults(folder)
    assert fault.keys() == {"action", "target", "when_file"} and fault["target"] == "member-1"
    reached = folder / "member-1" / "job-1" / CHAOS_POINT_FILE
    reached.parent.mkdir(parents=True)
    reached.touch()
    (folder / "member-2").mkdir()
    (folder / "member-2" / CHAOS_POINT_FILE).touch()  # another member's does not count
    assert [Path(p) for p in glob.glob(fault["when_file"], recursive=True)] == [reached]
