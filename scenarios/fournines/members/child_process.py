"""A child process tree that cannot outlive the runner.

The child starts in its own session, so it and everything it spawns share one process group that can
be signalled as a whole, and a Ctrl-C in the terminal reaches only the runner, which then stops the
child in order (SIGTERM, so the JVM can close its logs; SIGKILL after a grace period). Leaving the
`with` block always kills whatever is left of the group and reaps the child, also when the runner
fails with an exception. If the runner itself is killed with SIGKILL, the kernel sends the child
SIGTERM (PR_SET_PDEATHSIG). Only a grandchild that starts its own session escapes all of this.

Output arrives line by line on a queue, read by one thread per stream, so the runner can wait for
output, the child's exit and signals in one loop. A child that takes commands (`takes_input`) reads
them on its stdin, one a line (`send`); any other child's stdin is empty.
"""
import ctypes
import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass

_PR_SET_PDEATHSIG = 1
# Looked up here, not in the forked child: between fork and exec only the forking thread exists, and
# a lock held by another thread (dlopen's, say) would never be released.
_prctl = ctypes.CDLL(None, use_errno=True).prctl


@dataclass(frozen=True)
class Line:
    stream: str  # "stdout" or "stderr"
    text: str | None  # None: the stream reached its end


def die_with_parent():
    """Runs in the child between fork and exec: ask the kernel for SIGTERM when the runner dies."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def kill_group(leader: int, sig: int) -> None:
    """`sig` to the process group `leader` started; nothing if the whole group is gone already. The
    group outlives its leader while any member lives, so this also reaches grandchildren after the
    leader has exited."""
    try:
        os.killpg(leader, sig)
    except ProcessLookupError:
        pass


class ChildProcess:
    def __init__(self, command: list[str], cwd=None, env=None, takes_input: bool = False):
        self.command = command
        self._cwd, self._env, self._takes_input = cwd, env, takes_input
        self.lines: queue.Queue[Line] = queue.Queue()
        self._open_streams = 0
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> "ChildProcess":
        self.process = subprocess.Popen(
            self.command, cwd=self._cwd, env=self._env, stdin=subprocess.PIPE if self._takes_input else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", bufsize=1,
            start_new_session=True, preexec_fn=die_with_parent)
        for name, stream in (("stdout", self.process.stdout), ("stderr", self.process.stderr)):
            self._open_streams += 1
            threading.Thread(target=self._pump, args=(name, stream), daemon=True, name=f"child-{name}").start()
        return self

    def __exit__(self, *exc):
        self.kill_group(signal.SIGKILL)
        self.process.wait()

    @property
    def pid(self) -> int:
        return self.process.pid

    def send(self, line: str) -> None:
        """One command line to a child that takes input; nothing if it is gone (its exit tells why)."""
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass

    def exit_code(self) -> int | None:
        return self.process.poll()

    def next_line(self, timeout: float) -> Line | None:
        """The next line of output, or None if none came within `timeout` seconds."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line.text is None:
            self._open_streams -= 1
        return line

    @property
    def output_ended(self) -> bool:
        return self._open_streams == 0

    def stop(self, grace_s: float, hurry=lambda: False) -> None:
        """SIGTERM to the whole group; SIGKILL after `grace_s`, or as soon as `hurry()` says so."""
        self.kill_group(signal.SIGTERM)
        deadline = time.monotonic() + grace_s
        while self.process.poll() is None and time.monotonic() < deadline and not hurry():
            time.sleep(0.05)
        self.kill_group(signal.SIGKILL)
        self.process.wait()

    def kill_group(self, sig: int) -> None:
        kill_group(self.process.pid, sig)

    def _pump(self, name, stream):
        for text in stream:
            self.lines.put(Line(name, text.rstrip("\n")))
        # Closed here, by the only reader: closing from another thread would wait on the reader's lock.
        stream.close()
        self.lines.put(Line(name, None))
