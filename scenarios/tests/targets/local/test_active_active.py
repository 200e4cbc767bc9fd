"""Active-active with real processes: the runner starts two 2-member clusters and the result consumer
(each a JVM), and the consumer writes every result it received and kept (FOURNINES_RECORD_RESULTS=1).

- Fault-free: exactly one copy of each (window, key) is kept, and for every window both copies
  completed, the kept results are each copy's results: the output equals a single cluster's.
- member-3 (copy 2) killed with SIGKILL mid-run: the run completes, copy 2 is reported lost, and the
  deduplicated output goes on: a window result for every slide from the kill to the end.
"""
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from fournines import REPO_ROOT

SLIDE_MS = 100
SCENARIO = """name: aa-test
query: {name: q5, window_ms: 1000, slide_ms: 100}
load: {rate: 5000, keys: 1000}
cluster: {members: 4, threads: 1, jvm_opts: [-Xms1g, -Xmx1g], gc: serial}
mode: active-active
warmup: 0s
duration: %s
"""


def _start_run(tmp_path: Path, duration: str) -> subprocess.Popen:
    scenario = tmp_path / "aa-test.yaml"
    scenario.write_text(SCENARIO % duration)
    env = {**os.environ, "FOURNINES_RECORD_RESULTS": "1",
           "PYTHONPATH": f"{REPO_ROOT / 'scenarios'}:{REPO_ROOT / 'analysis'}"}
    return subprocess.Popen([sys.executable, "-m", "fournines", "run", str(scenario), "--results-root", str(tmp_path / "results")],
                            cwd=REPO_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def _finish(run: subprocess.Popen) -> str:
    try:
        _, stderr = run.communicate(timeout=150)
    finally:
        if run.poll() is None:
            run.send_signal(signal.SIGINT)
            run.wait(30)
    return stderr


def _results(path: Path) -> list[tuple[int, int, str, str]]:
    rows = [line.split("\t") for line in path.read_text().splitlines()]
    return [(int(copy), int(window), key, value) for copy, window, key, value in rows]


def _run_dir(tmp_path: Path) -> Path:
    [run_dir] = (tmp_path / "results").iterdir()
    return run_dir


def test_the_consumer_keeps_exactly_one_copy_of_each_result_equal_to_each_clusters(tmp_path):
    run = _start_run(tmp_path, "5s")
    stderr = _finish(run)
    assert run.returncode == 0, stderr
    consumer = _run_dir(tmp_path) / "consumer"
    received, kept = _results(consumer / "results-received.tsv"), _results(consumer / "results-kept.tsv")
    assert kept and max(Counter((w, k) for _, w, k, _ in kept).values()) == 1
    counts = json.loads((consumer / "consumer.json").read_text())
    assert counts["mismatched_duplicates"] == 0 and counts["results_kept"] == len(kept)
    both_complete = min(c["complete_up_to"] for c in counts["by_copy"])
    by_copy = [{(w, k, v) for c, w, k, v in received if c == copy and w <= both_complete} for copy in (0, 1)]
    assert by_copy[0] and by_copy[0] == by_copy[1] == {(w, k, v) for _, w, k, v in kept if w <= both_complete}
    assert counts["duplicates_dropped"] >= len(by_copy[0])


def _pid_of(run_dir: Path, member: str) -> int | None:
    """The JVM serving `member` of this run, from /proc (the runner's children are not ours)."""
    wanted = str((run_dir / member).resolve()).encode()
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        if b"serve" in argv and wanted in argv:
            return int(proc.name)
    return None


def test_killing_a_member_of_one_copy_does_not_stop_the_output(tmp_path):
    run = _start_run(tmp_path, "12s")
    try:
        deadline = time.monotonic() + 90
        while not (tmp_path / "results").is_dir() or not any((tmp_path / "results").iterdir()):
            assert time.monotonic() < deadline and run.poll() is None
            time.sleep(0.2)
        run_dir = _run_dir(tmp_path)
        kept_file = run_dir / "consumer" / "results-kept.tsv"
        # 4 s of output first (the consumer's throughput.csv has a row a second from the shared start).
        while not ((run_dir / "consumer" / "throughput.csv").is_file()
                   and len((run_dir / "consumer" / "throughput.csv").read_text().splitlines()) > 4):
            assert time.monotonic() < deadline and run.poll() is None
            time.sleep(0.2)
        pid = _pid_of(run_dir, "member-3")
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        killed_ms = time.time() * 1000
    finally:
        stderr = _finish(run)
    assert run.returncode == 0, stderr
    summary = json.loads((run_dir / "active-active.json").read_text())
    assert [c["outcome"] for c in summary["copies"]] == ["ran to the end", "lost"]
    assert "member-3 was killed by SIGKILL" in summary["copies"][1]["cause"]
    assert summary["consumer"]["mismatched_duplicates"] == 0
    # After the kill, copy 1 alone delivers every window, one slide after another, to the end.
    after = sorted({w for _, w, _, _ in _results(kept_file) if w > killed_ms})
    end_ms = summary["consumer"]["started_at_micros"] / 1000 + 12_000
    assert after and after[-1] >= end_ms - 1_000
    assert all(b - a == SLIDE_MS for a, b in zip(after, after[1:])), after

