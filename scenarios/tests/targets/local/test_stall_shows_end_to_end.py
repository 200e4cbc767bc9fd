"""A stall must show in the histogram: freeze the real member process for a second mid-run and
check that every event scheduled while it was frozen carries the wait in latency.hlog (the open-loop
generator stamps events with their scheduled time, so coordinated omission cannot hide it)."""
import json
import os
import signal
import subprocess
import time

from fournines.members.jvm import java_binary, jvm_flags, member_command
from fournines.spec.overrides import parse_overrides
from fournines.targets.prepare import prepare
from fournines_analysis.hlog import read_hlog

RATE = 20_000
STALL_S = 1.0


def test_a_one_second_freeze_delays_every_event_scheduled_during_it(tmp_path):
    overrides = parse_overrides([f"RATE={RATE}", "WARMUP=2s", "DURATION=6s", "GC=serial"])
    scenario, jar = prepare("q1", overrides)
    (tmp_path / "scenario.json").write_text(json.dumps(scenario))
    member = subprocess.Popen(member_command(jar, java_binary(scenario), jvm_flags(scenario, False), tmp_path), cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for line in member.stdout:  # the member's own clock: freeze it 3 s into its run, in the measurement
            if json.loads(line).get("elapsed_s", 0) >= 3:
                break
        os.kill(member.pid, signal.SIGSTOP)
        time.sleep(STALL_S)
        os.kill(member.pid, signal.SIGCONT)
        _, stderr = member.communicate(timeout=60)
    finally:
        if member.poll() is None:
            member.kill()
            member.wait()
    assert member.returncode == 0, stderr

    [log] = read_hlog(tmp_path / "latency.hlog")
    counts = log.counts.sum(axis=0)
    # Events scheduled in the first half of the freeze waited at least half of it: RATE * STALL_S / 2.
    waited_half = counts[log.layout.lowest >= STALL_S / 2 * 1_000_000].sum()
    assert waited_half >= 0.9 * RATE * STALL_S / 2
    assert log.layout.highest[counts > 0].max() >= 0.95 * STALL_S * 1_000_000
