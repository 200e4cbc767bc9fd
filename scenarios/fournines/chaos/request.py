"""What `./fournines chaos` is asked, all checked before anything is built or started: its own keys
(TRIALS, SEED, GUARANTEE, FAULTS), the scenario's overrides left to the user (those chaos sets itself
are refused unless they agree), and a scenario it can check: the reference engine, fed by its in-process
generator or through Kafka (SOURCE=kafka: the load generator makes the same events), running a query
with a reference computation. Then, like `./fournines run`, the jars."""
import secrets
import subprocess
from dataclasses import dataclass
from pathlib import Path

from fournines.chaos.checker import IDENTITY
from fournines.chaos.job import FIXED_OVERRIDES
from fournines.chaos.trial_fault import KINDS
from fournines.members.java_build import JARS, ensure_jar
from fournines.spec.overrides import FIELDS, Override, OverrideError, Overrides, parse_overrides, split_settings
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.targets.prepare import RunRefused, prepare

CHAOS_KEYS = ("TRIALS", "SEED", "GUARANTEE", "FAULTS")
GUARANTEES = ("exactly-once", "at-least-once")
DEFAULT_TRIALS = 10
MAX_TRIALS = 10_000
MAX_SEED = 10**18  # seeds of later trials count up from SEED


@dataclass(frozen=True)
class ChaosRequest:
    scenario: str  # as given: a name in scenarios/ or a path
    name: str  # the scenario's own name
    query: str
    trials: int
    seed: int  # the first trial's; trial n's is seed + n - 1
    guarantee: str
    kinds: tuple[str, ...]  # the fault kinds to draw from, in trial_fault.KINDS' order
    overrides: Overrides  # the user's and chaos's own, as prepare() takes them
    kept: tuple[str, ...]  # the command line's KEY=VALUE but TRIALS and SEED: what a replay repeats

    def replay(self, seed: int) -> str:
        return " ".join(["./fournines chaos", self.scenario, f"SEED={seed}", "TRIALS=1", *self.kept])


@dataclass(frozen=True)
class Prepared:
    scenario: dict  # resolved, as every trial's job starts from it
    member_jar: Path
    nexmark_jar: Path  # the expected results' generator and reference


def parse_request(scenario_ref: str, assignments, new_seed=lambda: secrets.randbelow(1_000_000)) -> ChaosRequest:
    """OverrideError for a bad key or value, RunRefused for a scenario chaos cannot check."""
    own, rest = split_settings(assignments, CHAOS_KEYS, FIXED_OVERRIDES)
    for arg in rest:
        key, eq, text = arg.partition("=")
        if key in FIXED_OVERRIDES and eq and text.replace("_", "") != FIXED_OVERRIDES[key]:
            raise OverrideError(f"override {arg}: chaos runs every trial with {FIELDS[key]} = "
                                f"{FIXED_OVERRIDES[key]}; leave {key} out")
    user = parse_overrides([a for a in rest if a.partition("=")[0] not in FIXED_OVERRIDES])
    trials = _integer(own, "TRIALS", 1, MAX_TRIALS, DEFAULT_TRIALS)
    seed = _integer(own, "SEED", 0, MAX_SEED, None)
    kinds = _kinds(own.get("FAULTS"))
    if own.get("GUARANTEE", GUARANTEES[0]) not in GUARANTEES:
        raise OverrideError(f"override GUARANTEE={own['GUARANTEE']}: chaos checks {' or '.join(GUARANTEES)} "
                            f"(without snapshots a lost member loses results by design)")
    scenario = _checkable(scenario_ref, user)
    guarantee = own.get("GUARANTEE", scenario["guarantee"] if scenario["guarantee"] in GUARANTEES else GUARANTEES[0])
    fixed = [Override(key, text) for key, text in {**FIXED_OVERRIDES, "GUARANTEE": guarantee}.items()]
    return ChaosRequest(scenario_ref, scenario["name"], scenario["query"]["name"], trials,
                        new_seed() if seed is None else seed, guarantee, kinds,
                        Overrides((*user.fields, *fixed), user.profile),
                        tuple(a for a in assignments if a.partition("=")[0] not in ("TRIALS", "SEED")))


def prepare_request(request: ChaosRequest) -> Prepared:
    """The resolved scenario and the jars, built if stale; RunRefused if it cannot run or a build failed."""
    resolved, member_jar = prepare(request.scenario, request.overrides)
    try:
        nexmark_jar = ensure_jar(JARS["nexmark"])
    except subprocess.CalledProcessError as e:
        raise RunRefused(f"building {JARS['nexmark'].module} failed (exit {e.returncode}); "
                         "see Maven's output above") from None
    return Prepared(resolved, member_jar, nexmark_jar)


def _integer(own: dict, key: str, low: int, high: int, default: int | None) -> int | None:
    if key not in own:
        return default
    try:
        value = int(own[key].replace("_", ""))
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise OverrideError(f"override {key}={own[key]}: must be an integer from {low} to {high:_}")
    return value


def _kinds(text: str | None) -> tuple[str, ...]:
    if text is None:
        return tuple(KINDS)
    given = [kind.strip() for kind in text.split(",")]
    for kind in given:
        if kind not in KINDS:
            raise OverrideError(f"override FAULTS={text}: unknown fault kind {kind!r}; kinds: {', '.join(KINDS)}")
        if given.count(kind) > 1:
            raise OverrideError(f"override FAULTS={text}: {kind} is given twice")
    return tuple(kind for kind in KINDS if kind in given)


def _checkable(scenario_ref: str, overrides: Overrides) -> dict:
    """The scenario as the user asked for it, if chaos can check it; RunRefused naming what it cannot."""
    try:
        scenario = load_scenario(scenario_ref, overrides)
    except ScenarioError as e:
        raise RunRefused(str(e)) from None
    problems = []
    if scenario["query"]["name"] not in IDENTITY:
        problems.append(f"query {scenario['query']['name']} has no reference computation to check its output "
                        f"against (chaos checks {', '.join(IDENTITY)})")
    if scenario["engine"] != "fournines":
        problems.append(f"engine {scenario['engine']}: chaos runs the reference engine's member, which records "
                        "its results and takes chaos points")
    if problems:
        raise RunRefused("\n".join(f"{scenario_ref}: {p}" for p in problems))
    return scenario
