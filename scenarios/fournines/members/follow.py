"""A process of a run as the runner follows it, line by line. Its `ready` line (where it serves), its
progress and done lines are the member contract's (scenarios/docs/member-contract.md); any
other line is its own output: written to its log, passed through to the user, and on stderr kept
among the run's last words, which explain a failure."""
import json
import signal

from fournines.members.child_process import ChildProcess, Line
from fournines.members.progress import Done, Progress, parse_line
from fournines.members.progress_display import ProgressDisplay

READY = '{"type":"ready"'


class LastWords:
    """The run's last lines on stderr, whoever said them."""

    def __init__(self, keep: int = 20):
        self.keep, self.lines = keep, []

    def add(self, line: str) -> None:
        self.lines = (self.lines + [line])[-self.keep:]

    def __str__(self) -> str:
        return "; last words on stderr:\n  " + "\n  ".join(self.lines) if self.lines else ""


class Followed:
    def __init__(self, title: str, child: ChildProcess, log, display: ProgressDisplay, prefix: str,
                 last_words: LastWords):
        """`title` names it in messages ("member-2", "the member"); `prefix` goes before its output
        lines when several processes share the terminal."""
        self.title, self.child, self.log, self.display, self.prefix = title, child, log, display, prefix
        self.last_words = last_words
        self.ready: dict | None = None  # its ready line: the address it serves on
        self.progress: Progress | None = None  # its latest
        self.done = False

    def take(self, line: Line) -> Progress | None:
        """The progress `line` reports, if it is a progress line; ProtocolError if it breaks the contract."""
        if line.stream == "stdout" and line.text.startswith(READY):
            self.ready = json.loads(line.text)
            return None
        message = parse_line(line.text) if line.stream == "stdout" else None
        if isinstance(message, Progress):
            self.progress = message
            return message
        if isinstance(message, Done):
            self.done = True
            return None
        self.log.write(f"{line.text}\n")
        self.log.flush()
        self.display.output(self.prefix + line.text, line.stream)
        if line.stream == "stderr":
            self.last_words.add(self.prefix + line.text)
        return None

    def exit_problem(self) -> str | None:
        """Why it ended, unless with 0 after its done line; None while it runs or its last lines (its
        done line, perhaps) are still to be read."""
        code = self.child.exit_code()
        if code is None or not self.child.output_ended or (code == 0 and self.done):
            return None
        if code == 0:
            return f'{self.title} exited 0 without {{"type":"done"}}'
        if code < 0:
            return f"{self.title} was killed by {signal.Signals(-code).name}"
        return f"{self.title} exited with code {code}"
