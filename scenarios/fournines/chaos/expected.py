"""The independent computation a trial is checked against: the trial's events made again by
`nexmark generate` (the generators' seed, the job's rate, keys, t=0 and event count: the in-process
generator and the load generator make the same events from them), then
the query's reference implementation over them (`nexmark query --reference`: plain loops, no engine),
into expected.jsonl in the trial's folder. The events file, as large as the run's input, is removed
afterwards; check.json keeps the command that makes it again.

The nexmark CLI runs as a member does (members/child_process.py): in its own process group, stopped
when a signal arrives and never outliving the runner; its output goes to expected.log."""
from pathlib import Path

from fournines.members.child_process import ChildProcess
from fournines.members.signals import SignalCatcher
from fournines.spec.registry import QUERIES

GENERATOR_SEED = 1  # the in-process generator's (nexmark/driver GeneratorSpec.SEED)
EVENTS_FILE, EXPECTED_FILE, LOG_FILE = "events.jsonl", "expected.jsonl", "expected.log"
STOP_GRACE_S = 5.0


class ExpectedFailed(Exception):
    """The nexmark CLI failed; the message says which command and where its output is."""


def generate_args(job: dict) -> list[str]:
    return ["generate", "--seed", str(GENERATOR_SEED), "--rate", str(job["load"]["rate"]),
            "--keys", str(job["load"]["keys"]), "--base-time", str(job["start_epoch_ns"] // 1_000_000),
            "--events", str(job["load"]["events"]), "--out", EVENTS_FILE]


def query_args(job: dict) -> list[str]:
    """The query with every parameter the scenario resolved (`window_ms` -> `--window-ms`)."""
    query = job["query"]
    parameters = [arg for name in QUERIES[query["name"]].parameters
                  for arg in (f"--{name.replace('_', '-')}", str(query[name]))]
    return ["query", query["name"], "--reference", *parameters, "--input", EVENTS_FILE, "--out", EXPECTED_FILE]


def expected_results(job: dict, folder: Path, jar: Path, signals: SignalCatcher) -> Path | None:
    """expected.jsonl in `folder`; None if a signal stopped the computation; ExpectedFailed if it failed."""
    with open(folder / LOG_FILE, "w", encoding="utf-8") as log:
        for args in (generate_args(job), query_args(job)):
            if not _nexmark(jar, args, folder, log, signals):
                return None
    (folder / EVENTS_FILE).unlink()
    return folder / EXPECTED_FILE


def _nexmark(jar: Path, args: list[str], folder: Path, log, signals: SignalCatcher) -> bool:
    """Runs the nexmark CLI to its end; False if a signal came first (the CLI is stopped then)."""
    with ChildProcess(["java", "-jar", str(jar), *args], cwd=folder) as child:
        while not (child.output_ended and child.exit_code() is not None):
            if signals.first is not None:
                child.stop(STOP_GRACE_S, hurry=signals.repeated)
                return False
            line = child.next_line(timeout=0.1)
            if line is not None and line.text is not None:
                log.write(line.text + "\n")
        code = child.exit_code()
    if code != 0:
        raise ExpectedFailed(f"nexmark {args[0]} exited with {code}; its output is in {folder / LOG_FILE}")
    return True
