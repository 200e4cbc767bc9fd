"""TEST SCAFFOLDING, not an engine: a child process tree that follows the member's process contract
(arguments, progress lines, files, exit code) just enough to exercise the runner's process handling.
It computes nothing; its latency files are the analysis fixture's, copied.

    stand_in_child.py BEHAVIOUR --scenario DIR/scenario.json --out DIR

It always starts a grandchild (a sleeping Python process) and writes both pids to DIR/pids, so tests
can check that the whole tree is gone. BEHAVIOURS below.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[3] / "analysis" / "tests" / "fixtures" / "stall-run"


def progress(elapsed, phase, p99=850):
    print(json.dumps({"type": "progress", "elapsed_s": elapsed, "phase": phase, "target_rate": 1000,
                      "achieved_rate": 1000.0, "p99_us": p99, "p9999_us": 4100, "behind_ms": 0.3}), flush=True)


def complete(scenario, out):
    """Plays warm-up and measurement quickly, writes the contract's files, says done, exits 0."""
    print("stand-in: plain output line", flush=True)
    progress(0.5, "warmup", p99=None)
    progress(scenario["warmup_s"] + 0.5, "measure")
    for name in ("latency.hlog", "throughput.csv", "cpu.csv"):
        shutil.copy(FIXTURE / name, out / name)
    (out / "member.json").write_text(json.dumps({
        "started_at": "2026-01-01T00:00:00Z", "jdk": "stand-in", "gc": "G1", "jvm_flags": ["-Xmx1g"],
        "events_generated": 25000, "events_processed": 25000, "late_events": 0, "dropped_events": 0,
        "achieved_rate": 1000.0}))
    print('{"type":"done"}', flush=True)


def endless(scenario, out):
    """Reports progress until stopped; on SIGTERM says goodbye on stderr, as a member closing its logs would."""
    def goodbye(signum, frame):
        print("stand-in: closing logs after SIGTERM", file=sys.stderr, flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, goodbye)
    run_forever()


def run_forever():
    for i in range(10_000):
        progress(i * 0.1, "warmup")
        time.sleep(0.1)


def stubborn(scenario, out):
    """Ignores SIGTERM, so only SIGKILL stops it."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    run_forever()


def crash(scenario, out):
    print("stand-in: out of cheese", file=sys.stderr, flush=True)
    sys.exit(3)


def bad_progress(scenario, out):
    print(json.dumps({"type": "progress", "elapsed_s": 1.0, "phase": "warm", "target_rate": 1,
                      "achieved_rate": 1, "p99_us": 1, "p9999_us": 1, "behind_ms": 0}), flush=True)
    run_forever()


BEHAVIOURS = {f.__name__.replace("_", "-"): f for f in (complete, endless, stubborn, crash, bad_progress)}


def main():
    behaviour, _, scenario_path, _, out = sys.argv[1:6]
    out = Path(out)
    scenario = json.loads(Path(scenario_path).read_text())
    grandchild = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    (out / "pids.tmp").write_text(f"{grandchild.pid} {os.getpid()}")
    (out / "pids.tmp").rename(out / "pids")  # atomic: a reader never sees half a file
    BEHAVIOURS[behaviour](scenario, out)


if __name__ == "__main__":
    main()
