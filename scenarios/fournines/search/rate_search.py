"""The highest sustainable rate, as Theodolite finds capacity: bracket it by doubling up (or halving
down) from the start rate, bisect the bracket until its ends are within `precision` of each other,
then confirm the highest sustained rate with a longer run. A confirmation that fails means the
trials were too short to see what limits the rate (a tail percentile over a short run is nearly its
maximum, and a longer run meets rarer stalls): the search goes on with runs as long as the
confirmation, from the next lower rate a trial sustained (or half), bisecting between the highest
rate a long run sustained and the lowest it did not, until they are within `precision`; at most
MAX_CONFIRMATIONS long runs. A trial the load source could not feed caps the search: the source's
limit is reported as such, not as the engine's. A trial or confirmation that missed only its SLO,
and only in seconds the host lost CPU to other guests (trial.py), is run once more at the same rate
and length, and the repeat's verdict stands: both are kept and reported."""
from collections.abc import Callable
from dataclasses import dataclass, field

from fournines.search.trial import Trial

MAX_CONFIRMATIONS = 6
MAX_TRIALS = 40


@dataclass
class SearchOutcome:
    trials: list[Trial] = field(default_factory=list)
    confirmations: list[Trial] = field(default_factory=list)
    rate: int | None = None  # the highest confirmed sustainable rate
    reason: str = ""  # how the search ended, for the report

    @property
    def source_limit(self) -> float | None:
        """The least the load source made in a trial it could not feed; None if it always could."""
        made = [t.source_made for t in self.trials + self.confirmations if t.source_made is not None]
        return min(made) if made else None


def search(measure: Callable[[int, bool], Trial], start: int, low: int, high: int, precision: float,
           say: Callable[[str], None]) -> SearchOutcome:
    """`measure(rate, confirming)` runs one trial (a longer one when confirming)."""
    outcome = SearchOutcome()

    def trial(rate: int) -> bool:
        if len(outcome.trials) >= MAX_TRIALS:
            raise _GaveUp(f"{MAX_TRIALS} trials without converging")
        return _measure_again_if_stolen(measure, rate, False, outcome.trials, say).sustained

    try:
        best, worst = _bracket(trial, min(max(start, low), high), low, high)
    except _GaveUp as e:
        outcome.reason = str(e)
        return outcome
    if best is None:
        outcome.reason = f"not sustained even at the lower bound, {low:,} events/s"
        return outcome
    try:
        while worst is not None and worst > best * (1 + precision) and worst - best > 1:
            middle = (best + worst) // 2
            if trial(middle):
                best = middle
            else:
                worst = middle
            say(f"the rate lies in [{best:,}, {worst:,}) events/s")
    except _GaveUp as e:
        outcome.reason = str(e)
    passed, failed = _confirm(measure, best, [t.rate for t in outcome.trials if t.sustained], low, precision,
                              say, outcome)
    outcome.rate = passed
    if passed is None:
        outcome.reason = f"no rate confirmed in {len(outcome.confirmations)} longer runs, down to {failed:,} events/s"
    elif failed is not None:
        outcome.reason = f"confirmed at {passed:,}, not at {failed:,} events/s, in runs as long as a confirmation"
    else:
        outcome.reason = outcome.reason or (f"sustained up to the upper bound, {high:,} events/s" if worst is None
                                            else f"sustained at {best:,}, not at {worst:,} events/s")
    return outcome


def _confirm(measure, best: int, sustained_by_trials: list[int], low: int, precision: float, say,
             outcome: SearchOutcome) -> tuple[int | None, int | None]:
    """Long runs from `best` on: (the highest rate one sustained, the lowest one did not), either None."""
    passed = failed = None
    rate = best
    for _ in range(MAX_CONFIRMATIONS):
        t = _measure_again_if_stolen(measure, rate, True, outcome.confirmations, say)
        if t.sustained:
            passed = rate
        else:
            failed = rate
        if passed is not None and (failed is None or failed <= passed * (1 + precision) or failed - passed <= 1):
            break
        if passed is None:
            lower = [r for r in sustained_by_trials if r < failed]
            rate = max(lower) if lower else failed // 2
            if rate < low:
                break
        else:
            rate = (passed + failed) // 2
        say(f"long runs: the rate lies in [{passed or low:,}, {failed:,}) events/s")
    return passed, failed


def _measure_again_if_stolen(measure, rate: int, confirming: bool, kept: list[Trial], say) -> Trial:
    """One trial (or confirmation), once more if it missed only its SLO around stolen CPU; each is kept."""
    what = "confirmation" if confirming else "trial"
    for attempt in range(2):
        t = measure(rate, confirming)
        kept.append(t)
        say(f"{what}{'' if confirming else f' {len(kept)}'} at {rate:,} events/s: {t.verdict()}")
        if not t.stolen_cpu or attempt:
            break
        say(f"running the {what} at {rate:,} events/s once more: it missed its SLO only around stolen CPU")
    return t


class _GaveUp(Exception):
    pass


def _bracket(trial, rate: int, low: int, high: int) -> tuple[int | None, int | None]:
    """(highest rate sustained, lowest not) around `rate`, doubling up or halving down; best None if
    even `low` was not sustained, worst None if even `high` was."""
    if trial(rate):
        best = rate
        while best < high:
            rate = min(best * 2, high)
            if not trial(rate):
                return best, rate
            best = rate
        return best, None
    worst = rate
    while worst > low:
        rate = max(worst // 2, low)
        if trial(rate):
            return rate, worst
        worst = rate
    return None, worst
