"""The highest sustainable rate, as Theodolite finds capacity: bracket it by doubling up (or halving
down) from the start rate, bisect the bracket until its ends are within `precision` of each other,
then confirm the highest sustained rate with a longer run; if the confirmation fails, step down by
`precision` and confirm again (at most three times). A trial the load source could not feed caps the
search: the source's limit is reported as such, not as the engine's."""
from collections.abc import Callable
from dataclasses import dataclass, field

from fournines.search.trial import Trial

CONFIRMATIONS = 3
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
        t = measure(rate, False)
        outcome.trials.append(t)
        say(f"trial {len(outcome.trials)} at {rate:,} events/s: {t.verdict()}")
        return t.sustained

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
    for _ in range(CONFIRMATIONS):
        t = measure(best, True)
        outcome.confirmations.append(t)
        say(f"confirmation at {best:,} events/s: {t.verdict()}")
        if t.sustained:
            outcome.rate = best
            outcome.reason = outcome.reason or (f"sustained up to the upper bound, {high:,} events/s" if worst is None
                                                else f"sustained at {best:,}, not at {worst:,} events/s")
            return outcome
        worst, best = best, max(int(best * (1 - precision)), 1)
    outcome.reason = f"no rate confirmed in {CONFIRMATIONS} longer runs"
    return outcome


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
