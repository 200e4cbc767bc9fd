"""`make gate BASE=<ref>`: the base ref and the working tree benchmarked interleaved on this
machine (A B A B ...), then judged by `./fournines gate`.

Both sides run the working tree's scenario file with the same overrides, so only the code differs.
Each side is driven through its own `./fournines run`, so the base is measured with the harness and
engine it shipped with. Runs happen one at a time, each runner in its own session: Ctrl-C reaches
only this process, which passes it to the runner of the moment so it can stop its member in order.
A run that fails stops the gate; one that completed but whose logs miss part of its measurement is
refused by the gate itself (exit 2, its reason in gate.txt).
"""
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from fournines import REPO_ROOT
from fournines.compare.base_worktree import base_worktree, resolve_ref
from fournines.results.folder import new_results_folder
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario, scenario_path
from fournines.members.signals import SignalCatcher
from fournines.spec.support import unsupported
from fournines_analysis.errors import write_text


class GateStopped(Exception):
    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True)
class Side:
    name: str  # "baseline" or "candidate"
    root: Path  # the checkout it runs from

    def command(self, args: list[str], repo: Path) -> list[str]:
        # The same interpreter when the pinned dependencies agree (no second venv to install);
        # otherwise the side's own launcher, which makes its own venv.
        same_deps = (self.root / "requirements.txt").read_bytes() == (repo / "requirements.txt").read_bytes()
        python = [sys.executable, "-m", "fournines"] if same_deps else [str(self.root / "fournines")]
        return [*python, *args]

    def env(self) -> dict:
        return {**os.environ, "PYTHONPATH": f"{self.root / 'scenarios'}:{self.root / 'analysis'}"}


def interleaved(sides: list[Side], repeat: int) -> list[Side]:
    """A B A B ...: drift over time (heat, neighbours, caches) then hits both sides alike."""
    return [side for _ in range(repeat) for side in sides]


def gate_against(base_ref: str, scenario_ref: str, repeat: int, assignments: list[str], threshold: float,
                 allow_incomplete: bool = False, repo: Path = REPO_ROOT) -> int:
    resolve_ref(repo, base_ref)  # a bad ref is refused before anything is made
    scenario_file = scenario_path(scenario_ref).resolve()
    scenario = load_scenario(str(scenario_file), parse_overrides(assignments))
    refused = unsupported(scenario)
    if refused:
        raise GateStopped("\n".join(refused), 2)
    run_args = ["run", str(scenario_file), *assignments]
    with SignalCatcher() as signals, base_worktree(repo, base_ref) as base:
        sides = [Side("baseline", base), Side("candidate", repo)]
        for side in sides:  # validate and build both before measuring either
            run_side(side, [*run_args, "--check"], repo, signals, f"{side.name} ({side.root}): check and build")
        gate_dir = new_results_folder(f"gate-{scenario['name']}", repo / "results")
        print(f"gate: {gate_dir}", file=sys.stderr)
        folders = {side.name: [] for side in sides}
        for i, side in enumerate(interleaved(sides, repeat)):
            results = gate_dir / side.name
            before = set(results.glob("*"))
            run_side(side, [*run_args, "--results-root", str(results)], repo, signals,
                 f"run {i + 1}/{2 * repeat}: {side.name}")
            folders[side.name] += sorted(set(results.glob("*")) - before)
    verdict = subprocess.run([str(repo / "fournines"), "gate", "--threshold", str(threshold),
                              *(["--allow-incomplete"] if allow_incomplete else []),
                              "--baseline", *map(str, folders["baseline"]),
                              "--candidate", *map(str, folders["candidate"])],
                             capture_output=True, text=True)
    print(verdict.stdout, end="")
    print(verdict.stderr, end="", file=sys.stderr)  # a refusal: a run that did not complete or lost log seconds
    write_text(gate_dir / "gate.txt", verdict.stdout + verdict.stderr)
    return verdict.returncode


def run_side(side: Side, args: list[str], repo: Path, signals: SignalCatcher, title: str) -> None:
    print(f"== {title}", file=sys.stderr, flush=True)
    child = subprocess.Popen(side.command(args, repo), cwd=side.root, env=side.env(), start_new_session=True)
    forwarded = 0
    try:
        while child.poll() is None:
            if len(signals.received) > forwarded:  # each Ctrl-C once to the runner; a second one hurries it
                child.send_signal(signal.SIGINT)
                forwarded += 1
            time.sleep(0.1)
    finally:
        if child.poll() is None:  # only on an error in this loop; the runner then takes its member down
            child.send_signal(signal.SIGTERM)
            child.wait()
    if signals.received:
        raise GateStopped(f"gate stopped by {signal.Signals(signals.first).name} during {title}",
                          128 + signals.first)
    if child.returncode:
        raise GateStopped(f"gate stopped: {title} exited with code {child.returncode}", child.returncode)
