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
