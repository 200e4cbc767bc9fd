"""The live progress line while a run plays.

On a terminal it is one line redrawn in place (rich), with the member's own output printed above it.
In a log (CI, a pipe) a line redrawn with \\r would pile every update onto one physical line, so
there it prints a normal line every LOG_EVERY_S seconds and whenever the phase changes.
"""
import sys
import time

from rich.console import Console
from rich.live import Live
from rich.text import Text

from fournines.members.progress import Progress

LOG_EVERY_S = 10.0


def describe(progress: Progress | None, label: str, total_s: float, waited_s: float) -> str:
    """One line: where the run is and how it is doing. Numbers are the member's, except the wait."""
    if progress is None:
        return f"{label} starting the member ({waited_s:.0f} s)"

    def us(value):
        return "–" if value is None else f"{value:,.0f} µs"

    return (f"{label} {progress.elapsed_s:5.1f}/{total_s:g}s {progress.phase:<7} "
            f"{progress.achieved_rate:,.0f}/{progress.target_rate:,.0f} ev/s  "
            f"p99 {us(progress.p99_us)}  p99.99 {us(progress.p9999_us)}  behind {progress.behind_ms:,.1f} ms")


class ProgressDisplay:
    def __init__(self, label: str, total_s: float, interactive: bool | None = None):
        self.label, self.total_s = label, total_s
        self.interactive = sys.stderr.isatty() if interactive is None else interactive
        self._started = time.monotonic()
        self._progress: Progress | None = None
        self._logged_at = float("-inf")
        self._live: Live | None = None

    def __enter__(self):
        if self.interactive:
            self._live = Live(self._text(), console=Console(stderr=True), refresh_per_second=4,
                              redirect_stdout=False, redirect_stderr=False)
            self._live.start()
        return self

    def __exit__(self, *exc):
        if self._live:
            self._live.update(self._text())
            self._live.stop()
        elif self._progress is not None:
            self._log()

    def update(self, progress: Progress) -> None:
        phase_changed = self._progress is None or self._progress.phase != progress.phase
        self._progress = progress
        if self._live:
            self._live.update(self._text())
        elif phase_changed or time.monotonic() - self._logged_at >= LOG_EVERY_S:
            self._log()

    def tick(self) -> None:
        """Keeps the waiting time moving on a terminal before the first progress message."""
        if self._live and self._progress is None:
            self._live.update(self._text())

    def output(self, text: str, stream: str) -> None:
        """The member's own output, passed through above the progress line."""
        if self._live:
            self._live.console.print(Text(text), style="dim" if stream == "stderr" else None, soft_wrap=True)
        else:
            print(text, file=sys.stderr if stream == "stderr" else sys.stdout, flush=True)

    def _text(self) -> Text:
        # Cut, not wrapped, on a narrow terminal: a wrapped line would no longer redraw in place.
        return Text(self._line(), no_wrap=True, overflow="ellipsis")

    def _line(self) -> str:
        return describe(self._progress, self.label, self.total_s, time.monotonic() - self._started)

    def _log(self):
        self._logged_at = time.monotonic()
        print(self._line(), file=sys.stderr, flush=True)
