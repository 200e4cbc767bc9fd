"""Plays one run: starts the member, follows its progress, passes its output through (and into
member.log), and stops it on a signal, a crash, a broken contract or an overrun.

The member stops by itself after warm-up + duration; the runner allows STARTUP_AND_FLUSH_S more for
JVM start and for writing the logs before it calls the member hung.
"""
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from fournines.members.child_process import ChildProcess, Line
from fournines.members.progress import Done, Progress, ProtocolError, parse_line
from fournines.members.progress_display import ProgressDisplay
from fournines.members.signals import SignalCatcher

STARTUP_AND_FLUSH_S = 60.0
STOP_GRACE_S = 10.0  # SIGTERM -> SIGKILL; the contract asks the member to exit within this
DRAIN_S = 2.0  # after a stop, how long to collect the member's last output
EXIT_FAILED = 1
_TAIL_LINES = 20  # stderr lines kept to explain a crash


@dataclass(frozen=True)
class Outcome:
    status: str  # "completed", "failed" or "interrupted"
    cause: str | None
    exit_code: int  # the runner's exit code for this outcome
    faults_injected: list[dict] | None = None  # when the scenario has faults: those fired (faults.py)


class _Output:
    """Where the member's lines go: progress to the display, anything else through to the user and
    into member.log; the last stderr lines are kept to explain a crash."""

    def __init__(self, log, display: ProgressDisplay, on_running):
        self.log, self.display, self.on_running = log, display, on_running
        self.done = False
        self.stderr_tail: list[str] = []

    def take(self, line: Line) -> None:
        """Raises ProtocolError for a progress message that breaks the contract."""
        message = parse_line(line.text) if line.stream == "stdout" else None
        if isinstance(message, Progress):
            if self.on_running is not None:
                self.on_running, started = None, self.on_running
                started()
            self.display.update(message)
        elif isinstance(message, Done):
            self.done = True
        else:
            self.log.write(f"{line.text}\n")
            self.log.flush()
            self.display.output(line.text, line.stream)
            if line.stream == "stderr":
                self.stderr_tail = (self.stderr_tail + [line.text])[-_TAIL_LINES:]


def play(command: list[str], cwd: Path, log_path: Path, display: ProgressDisplay, expected_s: float,
         on_running=None) -> Outcome:
    """`on_running` is called once, at the member's first progress message: its job is running."""
    with SignalCatcher() as signals, ChildProcess(command, cwd=cwd) as child, \
            open(log_path, "a", encoding="utf-8") as log, display:
        output = _Output(log, display, on_running)
        deadline = time.monotonic() + expected_s + STARTUP_AND_FLUSH_S

        def stop(status, cause, exit_code):
            child.stop(STOP_GRACE_S, hurry=signals.repeated)
            _drain(child, output)
            return Outcome(status, cause, exit_code)

        while not (child.output_ended and child.exit_code() is not None):
            if signals.first is not None:
                return stop("interrupted", f"stopped by {signal.Signals(signals.first).name}", 128 + signals.first)
            if time.monotonic() > deadline:
                return stop("failed", f"the member did not stop by itself within {expected_s:g} s "
                                      f"(warm-up + duration) + {STARTUP_AND_FLUSH_S:g} s", EXIT_FAILED)
            if child.exit_code() is not None and not child.output_ended:
                # The member is gone; anything left in its group holds the pipes open, so end it.
                child.kill_group(signal.SIGKILL)
            line = child.next_line(timeout=0.25)
            display.tick()
            if line is not None and line.text is not None:
                try:
                    output.take(line)
                except ProtocolError as e:
                    return stop("failed", f"the member broke the progress contract: {e}: {line.text}", EXIT_FAILED)
        return _judge_exit(child.exit_code(), output)


def _drain(child: ChildProcess, output: _Output) -> None:
    """The member's last words after a stop (what it was doing, what it flushed) into member.log."""
    until = time.monotonic() + DRAIN_S
    while not child.output_ended and time.monotonic() < until:
        line = child.next_line(timeout=0.1)
        if line is not None and line.text is not None:
            try:
                output.take(line)
            except ProtocolError:
                pass  # the run is already ending for a reason of its own; that one is reported


def _judge_exit(code: int, output: _Output) -> Outcome:
    if code == 0 and output.done:
        return Outcome("completed", None, 0)
    if code == 0:
        cause = 'the member exited 0 without {"type":"done"}'
    elif code < 0:
        cause = f"the member was killed by {signal.Signals(-code).name}"
    else:
        cause = f"the member exited with code {code}"
    if output.stderr_tail:
        cause += "; its last words on stderr:\n  " + "\n  ".join(output.stderr_tail)
    return Outcome("failed", cause, EXIT_FAILED)
