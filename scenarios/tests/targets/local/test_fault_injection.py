"""Fault injection (fournines/faults.py) on real processes: each target is a ChildProcess (its own
process group) running a shell that starts a sleeping grandchild, so the tests see that the whole
group is hit; the clock is a test's, so nothing waits for wall time but the processes themselves."""
import signal
import subprocess
import sys
import time
from contextlib import ExitStack

import pytest

from fournines.members.child_process import ChildProcess
from fournines.targets.local.faults import FaultSchedule, signal_group

TREE = ["sh", "-c", "sleep 60 & echo $!; wait"]  # prints the grandchild's pid


class Clock:
    def __init__(self):
        self.now = 1_000.0

    def __call__(self):
        return self.now


def state(pid: int) -> str | None:
    """The process's state letter (R, S, T for stopped, Z), or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return None


def wait_for(condition, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def grandchild(child: ChildProcess) -> int:
    return int(child.next_line(timeout=5).text)


@pytest.fixture
def stack():
    with ExitStack() as s:
        yield s


def test_kill_fires_at_its_time_and_kills_the_whole_group(stack):
    child = stack.enter_context(ChildProcess(TREE))
    sleeper = grandchild(child)
    clock, said = Clock(), []
    schedule = FaultSchedule([{"at": "2s", "action": "kill", "target": "member-2"}], {"member-2": child},
                             announce=said.append, clock=clock)
    schedule.poll()  # not started: nothing is due before the load's t=0 is known
    schedule.start(clock.now)
    clock.now += 1.999
    schedule.poll()
    assert child.exit_code() is None and not schedule.down("member-2")
    clock.now += 0.001
    schedule.poll()
    wait_for(lambda: child.exit_code() is not None and state(sleeper) in (None, "Z"))
    assert child.exit_code() == -signal.SIGKILL
    assert schedule.down("member-2") and schedule.hit("member-2")
    assert schedule.injected() == [{"action": "kill", "target": "member-2", "at_s": 2.0, "pid": child.pid,
                                    "injected_at_us": 1_002_000_000, "since_load_start_s": 2.0}]
    assert said == [f"fault: kill member-2 (pid {child.pid}, SIGKILL) at 2.000 s"]


def test_stop_stops_the_group_for_its_duration_then_continues_it(stack):
    child = stack.enter_context(ChildProcess(TREE))
    sleeper = grandchild(child)
    clock = Clock()
    schedule = FaultSchedule([{"at": "1s", "action": "stop", "target": "member-3", "duration": "500ms"}],
                             {"member-3": child}, clock=clock)
    schedule.start(clock.now - 1)
    schedule.poll()
    wait_for(lambda: state(child.pid) == "T" and state(sleeper) == "T")
    assert not schedule.down("member-3") and not schedule.hit("member-3")
    clock.now += 0.5
    schedule.poll()
    wait_for(lambda: state(child.pid) == "S" and state(sleeper) == "S")
    (record,) = schedule.injected()
    assert (record["duration_s"], record["resumed_at_us"] - record["injected_at_us"]) == (0.5, 500_000)


def test_release_continues_a_stopped_target_so_an_interrupted_run_can_end_it(stack):
    child = stack.enter_context(ChildProcess(TREE))
    schedule = FaultSchedule([{"at": "0s", "action": "stop", "target": "member-2", "duration": "1h"}],
                             {"member-2": child})
    schedule.start(time.time())
    schedule.poll()
    wait_for(lambda: state(child.pid) == "T")
    schedule.release()
    child.stop(grace_s=5)  # SIGTERM: acted on only by a running process
    assert child.exit_code() == -signal.SIGTERM


def test_restart_kills_then_starts_the_same_member_again_after_its_duration(stack):
    first = stack.enter_context(ChildProcess(TREE))
    targets, clock, said = {"member-2": first}, Clock(), []

    def start_again(name):
        return stack.enter_context(ChildProcess(TREE))

    schedule = FaultSchedule([{"at": "1s", "action": "restart", "target": "member-2", "duration": "2s"}], targets,
                             restart=start_again, announce=said.append, clock=clock)
    schedule.start(clock.now - 1)
    schedule.poll()
    wait_for(lambda: first.exit_code() is not None)
    assert targets["member-2"] is first and schedule.down("member-2")
    clock.now += 2
    schedule.poll()
    second = targets["member-2"]
    assert second is not first and second.exit_code() is None
    assert not schedule.down("member-2") and schedule.hit("member-2")
    (record,) = schedule.injected()
    assert (record["pid"], record["restarted_pid"]) == (first.pid, second.pid)
    assert record["restarted_at_us"] - record["injected_at_us"] == 2_000_000
    assert said[-1] == f"fault: member-2 started again (pid {second.pid}) after 2.000 s"


def test_partition_cuts_the_member_off_for_its_duration_and_signals_nothing(stack):
    child = stack.enter_context(ChildProcess(TREE))
    clock, said, cuts = Clock(), [], []
    schedule = FaultSchedule([{"at": "1s", "action": "partition", "target": "member-2", "duration": "3s"}],
                             {"member-2": child}, announce=said.append, clock=clock,
                             partition=lambda name, cut: cuts.append((name, cut)))
    schedule.start(clock.now - 1)
    schedule.poll()
    assert cuts == [("member-2", True)] and state(child.pid) not in ("T", "Z", None)  # no signal: it runs on
    assert not schedule.silenced("member-2") and not schedule.hit("member-2")
    clock.now += 2.999
    schedule.poll()
    assert cuts == [("member-2", True)]
    clock.now += 0.001
    schedule.poll()
    assert cuts == [("member-2", True), ("member-2", False)]
    (record,) = schedule.injected()
    assert record["healed_at_us"] - record["injected_at_us"] == 3_000_000
    assert said == [f"fault: partition member-2 (pid {child.pid}, cut off from the other members) at 1.000 s for 3 s",
                    "fault: member-2 joined to the other members again after 3.000 s"]


def test_a_partition_cut_late_still_lasts_its_whole_duration(stack):
    """The poll came 31 ms after `at` and cutting took 200 ms more (routes changed one host at a
    time): the heal counts from the moment the cut was whole, not from `at`."""
    child = stack.enter_context(ChildProcess(TREE))
    clock, cuts = Clock(), []

    def slow_cut(name, cut):
        cuts.append((name, cut))
        clock.now += 0.2

    schedule = FaultSchedule([{"at": "4s", "action": "partition", "target": "member-2", "duration": "5s"}],
                             {"member-2": child}, clock=clock, partition=slow_cut)
    schedule.start(clock.now - 4.031)
    schedule.poll()
    clock.now += 4.9
    schedule.poll()
    assert cuts == [("member-2", True)]
    clock.now += 0.1
    schedule.poll()
    (record,) = schedule.injected()
    assert record["healed_at_us"] - record["injected_at_us"] >= 5_000_000


def test_a_remote_target_is_signalled_through_send_and_recorded_without_a_pid():
    """A member on another host: its handle here is the SSH session that follows it, so no local
    signal may reach that; `send` carries each signal there (targets/remote/faults.py)."""
    clock, said, sent, started = Clock(), [], [], []
    follow = object()  # no pid: anything the schedule signalled locally would fail here
    faults = [{"at": "1s", "action": "stop", "target": "member-2", "duration": "1s"},
              {"at": "3s", "action": "restart", "target": "member-3", "duration": "2s"}]
    schedule = FaultSchedule(faults, {"member-2": follow, "member-3": follow}, restart=lambda name: started.append(name) or follow,
                             announce=said.append, clock=clock, send=lambda name, sig: sent.append((name, sig)))
    schedule.start(clock.now)
    for _ in range(5):
        clock.now += 1
        schedule.poll()
    assert sent == [("member-2", signal.SIGSTOP), ("member-2", signal.SIGCONT), ("member-3", signal.SIGKILL)]
    assert started == ["member-3"]
    assert [sorted(r) for r in schedule.injected()] == [
        ["action", "at_s", "duration_s", "injected_at_us", "resumed_at_us", "since_load_start_s", "target"],
        ["action", "at_s", "duration_s", "injected_at_us", "restarted_at_us", "since_load_start_s", "target"]]
    assert said == ["fault: stop member-2 (SIGSTOP) at 1.000 s for 1 s", "fault: member-2 continued (SIGCONT) after 1.000 s",
                    "fault: restart member-3 (SIGKILL) at 3.000 s, back after 2 s", "fault: member-3 started again after 2.000 s"]


def test_a_target_in_the_runners_own_group_is_hit_alone():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # the runner's group
    try:
        signal_group(child.pid, signal.SIGKILL)  # killpg here would kill this test too
        assert child.wait(timeout=5) == -signal.SIGKILL
    finally:
        child.kill()
        child.wait()


def test_unknown_targets_and_restarts_without_a_way_to_restart_are_refused():
    with pytest.raises(ValueError, match=r"faults\[0\].target: no such process 'member-4'; known: member-2"):
        FaultSchedule([{"at": "1s", "action": "kill", "target": "member-4"}], {"member-2": object()})
    with pytest.raises(ValueError, match=r"faults\[0\].action: partition, but this run has no proxy between its members"):
        FaultSchedule([{"at": "1s", "action": "partition", "target": "member-2", "duration": "1s"}], {"member-2": object()})
    with pytest.raises(ValueError, match=r"faults\[0\].action: restart, but this run cannot restart member-2"):
        FaultSchedule([{"at": "1s", "action": "restart", "target": "member-2", "duration": "0s"}],
                      {"member-2": object()})


def test_a_file_trigger_fires_when_its_file_appears_even_before_the_loads_t0_is_known(stack, tmp_path):
    child = stack.enter_context(ChildProcess(TREE))
    clock, said = Clock(), []
    pattern = str(tmp_path / "member-1" / "**" / "chaos-point-reached")
    schedule = FaultSchedule([{"when_file": pattern, "action": "kill", "target": "member-1"}], {"member-1": child},
                             announce=said.append, clock=clock)
    schedule.poll()
    assert child.exit_code() is None
    reached = tmp_path / "member-1" / "job-1" / "chaos-point-reached"  # any depth under member-1/
    reached.parent.mkdir(parents=True)
    reached.touch()
    schedule.poll()
    wait_for(lambda: child.exit_code() is not None)
    assert schedule.down("member-1")
    assert said == [f"fault: kill member-1 (pid {child.pid}, SIGKILL) before the load's t=0 was known, on {reached}"]
    (record,) = schedule.injected()
    assert (record["at_s"], record["when_file"], record["since_load_start_s"]) == (None, pattern, None)
    schedule.start(clock.now - 0.25)  # the first estimate of t=0 dates the fault
    assert schedule.injected()[0]["since_load_start_s"] == 0.25


def test_a_file_trigger_besides_at_waits_for_both_and_a_stop_lasts_from_its_firing(stack, tmp_path):
    child = stack.enter_context(ChildProcess(TREE))
    clock = Clock()
    flag = tmp_path / "go"
    schedule = FaultSchedule([{"at": "1s", "when_file": str(flag), "action": "stop", "target": "member-2",
                               "duration": "500ms"}], {"member-2": child}, clock=clock)
    schedule.start(clock.now)
    clock.now += 2
    schedule.poll()  # its time has come, its file has not
    assert not schedule.injected()
    flag.touch()
    schedule.poll()
    wait_for(lambda: state(child.pid) == "T")
    clock.now += 0.499
    schedule.poll()
    assert state(child.pid) == "T"
    clock.now += 0.001
    schedule.poll()
    wait_for(lambda: state(child.pid) == "S")
    (record,) = schedule.injected()
    assert (record["since_load_start_s"], record["resumed_at_us"] - record["injected_at_us"]) == (2.0, 500_000)


def test_a_fault_without_at_or_when_file_is_refused():
    with pytest.raises(ValueError, match=r"faults\[0\]: needs `at`, `when_file` or both"):
        FaultSchedule([{"action": "kill", "target": "member-2"}], {"member-2": object()})
