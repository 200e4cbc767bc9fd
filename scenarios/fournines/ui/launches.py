"""The runs the dashboard starts: `./fournines run ...` as a child process in a session of its own (so a
Ctrl-C at the dashboard's terminal does not reach it unasked), its output in a log beside the results
root, and stopped as Ctrl-C stops it: SIGINT to its process group (scenarios/docs/runs.md, "Stopping,
and no orphans"). When the dashboard exits, every run it started still playing is stopped that way and
waited for; one that outlasts STOP_WAIT_S gets SIGKILL."""
import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from fournines import REPO_ROOT

RESULTS_LINE = "results: "  # the runner's first line on stderr names the folder it made
FOLDER_WAIT_S = 600.0  # a first run may build the member jar before it makes its folder
STOP_WAIT_S = 60.0  # the runner's own grace period for its members, its drain and its report


class LaunchFailed(Exception):
    pass


def run_command(scenario: str, args: list[str], results_root: Path) -> list[str]:
    """`./fournines run` without its venv step: the dashboard already runs in the venv."""
    return [sys.executable, "-m", "fournines", "run", scenario, *args, "--results-root", str(results_root)]


class Launches:
    def __init__(self, results_root: Path, command=run_command):
        self.results_root, self.command = results_root, command
        self.logs = results_root / ".dashboard-launches"  # not a run: run_index skips hidden folders
        self.children: dict[int, subprocess.Popen] = {}  # by pid

    async def start(self, scenario: str, args: list[str]) -> str:
        """Starts the run; its run id once it has made its results folder, else LaunchFailed with its last words."""
        self.logs.mkdir(parents=True, exist_ok=True)
        log = self.logs / f"{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}-{os.getpid()}-{len(self.children)}.log"
        env = os.environ | {"PYTHONPATH": f"{REPO_ROOT / 'scenarios'}:{REPO_ROOT / 'analysis'}"}
        with open(log, "w") as out:
            child = subprocess.Popen(self.command(scenario, args, self.results_root), stdin=subprocess.DEVNULL,
                                     stdout=out, stderr=subprocess.STDOUT, cwd=REPO_ROOT, env=env,
                                     start_new_session=True)
        self.children[child.pid] = child
        deadline = time.monotonic() + FOLDER_WAIT_S
        while time.monotonic() < deadline:
            for line in log.read_text(errors="replace").splitlines():
                if line.startswith(RESULTS_LINE):
                    return Path(line[len(RESULTS_LINE):]).resolve().relative_to(self.results_root).as_posix()
            if child.poll() is not None:
                last = log.read_text(errors="replace").strip().splitlines()[-5:]
                raise LaunchFailed(f"the run exited with code {child.returncode} before it started: " + " / ".join(last))
            await asyncio.sleep(0.2)
        self.stop(child.pid)
        raise LaunchFailed(f"the run made no results folder within {FOLDER_WAIT_S:g} s; see {log}")

    def running(self, pid: int) -> bool:
        """Whether the runner `pid` (from live.jsonl) still runs; a child of ours is reaped, so not taken for alive."""
        if pid in self.children:
            return self.children[pid].poll() is None
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def stop(self, pid: int) -> None:
        """Ctrl-C: SIGINT to a run we started (its process group), or to the runner started from a terminal."""
        if pid in self.children:
            if self.children[pid].poll() is None:
                os.killpg(pid, signal.SIGINT)
        elif self.running(pid):
            os.kill(pid, signal.SIGINT)

    def stop_all(self, say=print) -> None:
        playing = [c for c in self.children.values() if c.poll() is None]
        for child in playing:
            say(f"stopping the run the dashboard started (pid {child.pid}) ...")
            os.killpg(child.pid, signal.SIGINT)
        for child in playing:
            try:
                child.wait(STOP_WAIT_S)
            except subprocess.TimeoutExpired:
                os.killpg(child.pid, signal.SIGKILL)
                child.wait()
