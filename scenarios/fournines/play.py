"""Plays one run: starts the member, follows its progress, passes its output through (and into
member.log), and stops it on a signal, a crash, a broken contract or an overrun.

The member stops by itself after warm-up + duration; the runner allows STARTUP_AND_FLUSH_S more for
JVM start and for writing the logs before it calls the member hung.
"""
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from fournines.child_process import ChildProcess
from fournines.progress import Done, Progress, ProtocolError, parse_line
from fournines.progress_display import ProgressDisplay
from fournines.signals import SignalCatcher

STARTUP_AND_FLUSH_S = 60.0
STOP_GRACE_S = 10.0  # SIGTERM -> SIGKILL; the contract asks the member to exit within this
_TAIL_LINES = 20  # stderr lines kept to explain a crash


@dataclass(frozen=True)
class Outcome:
    status: str  # "completed", "failed" or "interrupted"
    cause: str | None
    exit_code: int  # the runner's exit code for this outcome
    last_progress: Progress | None


def play(command: list[str], cwd: Path, log_path: Path, display: ProgressDisplay, expected_s: float) -> Outcome:
    stderr_tail: list[str] = []
    last: Progress | None = None
    done = False
    with SignalCatcher() as signals, ChildProcess(command, cwd=cwd) as child, \
            open(log_path, "a", encoding="utf-8") as log, display:
        deadline = time.monotonic() + expected_s + STARTUP_AND_FLUSH_S

        def stop(status, cause, exit_code):
            child.stop(STOP_GRACE_S, hurry=signals.repeated)
            return Outcome(status, cause, exit_code, last)

        while not (child.output_ended and child.exit_code() is not None):
            if signals.first is not None:
                name = signal.Signals(signals.first).name
                return stop("interrupted", f"stopped by {name}", 128 + signals.first)
            if time.monotonic() > deadline:
                return stop("failed", f"the member did not stop by itself within {expected_s:g} s "
                                      f"(warm-up + duration) + {STARTUP_AND_FLUSH_S:g} s", 1)
            if child.exit_code() is not None and not child.output_ended:
                # The member is gone; anything left in its group holds the pipes open, so end it.
                child.kill_group(signal.SIGKILL)
            line = child.next_line(timeout=0.25)
            display.tick()
            if line is None or line.text is None:
                continue
            try:
                message = parse_line(line.text) if line.stream == "stdout" else None
            except ProtocolError as e:
                return stop("failed", f"the member broke the progress contract: {e}: {line.text}", 1)
            if isinstance(message, Progress):
                last = message
                display.update(message)
            elif isinstance(message, Done):
                done = True
            else:
                log.write(f"{line.text}\n")
                log.flush()
                display.output(line.text, line.stream)
                if line.stream == "stderr":
                    stderr_tail = (stderr_tail + [line.text])[-_TAIL_LINES:]
        return _judge_exit(child.exit_code(), done, stderr_tail, last)


def _judge_exit(code: int, done: bool, stderr_tail: list[str], last: Progress | None) -> Outcome:
    if code == 0 and done:
        return Outcome("completed", None, 0, last)
    if code == 0:
        cause = 'the member exited 0 without {"type":"done"}'
    elif code < 0:
        cause = f"the member was killed by {signal.Signals(-code).name}"
    else:
        cause = f"the member exited with code {code}"
    if stderr_tail:
        cause += "; its last words on stderr:\n  " + "\n  ".join(stderr_tail)
    return Outcome("failed", cause, 1, last)
