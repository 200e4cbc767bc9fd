"""How a run ended, as run.json records it, and the runner's exit codes (cli/run.py lists them)."""
from dataclasses import dataclass

EXIT_FAILED = 1
EXIT_BAD_REQUEST = 2


@dataclass(frozen=True)
class Outcome:
    status: str  # "completed", "failed" or "interrupted"
    cause: str | None
    exit_code: int  # the runner's exit code for this outcome
    faults_injected: list[dict] | None = None  # when the scenario has faults: those fired (targets/local/faults.py)


class Stopped(Exception):
    """A signal stopped one run of a series (a chaos trial, a search's trial): the series ends with its exit code (128 + N)."""

    def __init__(self, exit_code: int):
        super().__init__(f"stopped (exit {exit_code})")
        self.exit_code = exit_code
