"""What `./fournines sim-validate` runs (scenarios/docs/simulate.md, "Validation"): Q5 on this
machine, calibrated at two key counts and three rates (the highest also on one worker), then
predicted and measured on three configurations the calibration did not see: another rate, another
key count, and more members.

The calibration runs at 1, 2 and 5 M events/s. CPU per event falls as the rate rises from 1 to 2 M
(an idle worker parks and wakes, and batches grow): the rates let the least squares split off what a
member spends whatever the rate (background_cores) from the cost per event. It rises again towards
5 M, as both cores get busy (core_contention, host.py); the same 5 M on one worker, whose core works
alone, tells that contention from the cost per event. The key counts are apart by 100× so the least
squares can split CPU into its per-event and per-(key, slide) parts. The members held out run one
worker each, both on this machine, simulated so (MACHINE=local: two one-core members on one host).
"""
from dataclasses import dataclass

from fournines.search.run_search import CONFIRM_FACTOR

SCENARIO = "q5"
# The settings each configuration gives; the user may not override them (they are what is varied).
VARIED = ("RATE", "KEYS", "CLUSTER", "THREADS")
# Trials of the rate searches: shorter than the fixed runs (a search makes several); a confirmation is
# twice as long (search/run_search.py). DURATION= and WARMUP= given by the user apply to every run.
TRIAL_WARMUP, TRIAL_DURATION = "10s", "20s"
# A rate is sustained when the search's trial judges it so (search.md) and the windows' p99 meets
# this bound: loose, so that what limits the rate is the backlog, which the model has, and not the
# tail of a short run, which it models only through GC pauses, stalls and queueing.
SLO = "p99<=50ms"
SEARCH_LOW, SEARCH_HIGH = 50_000, 20_000_000
SEARCH_PRECISION = 0.1  # half the 20 % the validation allows
TOLERANCE = 0.20  # a relative error above this is flagged


@dataclass(frozen=True)
class Configuration:
    name: str
    settings: dict[str, str]  # overrides of the scenario, as on the command line
    holds_out: str | None  # what the calibration did not see; None for a calibration run
    searched: bool  # its highest sustainable rate is searched, simulated and real

    @property
    def calibrates(self) -> bool:
        return self.holds_out is None


PLAN = (
    Configuration("keys-1000", {"KEYS": "1000", "RATE": "1000000"}, None, False),
    Configuration("keys-100000", {"KEYS": "100000", "RATE": "1000000"}, None, False),
    Configuration("rate-2000000", {"KEYS": "1000", "RATE": "2000000"}, None, False),
    Configuration("rate-5000000", {"KEYS": "1000", "RATE": "5000000"}, None, False),
    Configuration("one-worker", {"KEYS": "1000", "RATE": "5000000", "THREADS": "1"}, None, False),
    Configuration("rate-500000", {"KEYS": "1000", "RATE": "500000"},
                  "another rate: 500 000 events/s (calibrated at 1, 2 and 5 M)", False),
    # its highest sustainable rate is its own: another rate of a calibrated configuration shares one
    # with it, so only the two shapes the calibration never saw are searched
    Configuration("keys-10000", {"KEYS": "10000", "RATE": "1000000"},
                  "another key count: 10 000 (calibrated at 1 000 and 100 000)", True),
    Configuration("cluster-2", {"CLUSTER": "2", "THREADS": "1", "KEYS": "10000", "RATE": "500000"},
                  "more members: 2 members of 1 worker each (calibrated on 1 member of 2 workers or 1)", True),
)

# What a run costs beside its warm-up and duration (JVM start, the members forming, the report),
# and how many trials a search makes from a good start (a bracket, three or four bisections, one
# confirmation twice as long): only to say beforehand how long the whole takes.
RUN_OVERHEAD_S = 15
TRIALS_PER_SEARCH = 6


def estimated_s(run_s: float, trial_s: float) -> float:
    """The whole validation's wall time, given a fixed run's and a trial's warm-up + duration."""
    fixed = len(PLAN) * (run_s + RUN_OVERHEAD_S)
    per_search = TRIALS_PER_SEARCH * (trial_s + RUN_OVERHEAD_S) + CONFIRM_FACTOR * trial_s + RUN_OVERHEAD_S
    return fixed + sum(per_search for c in PLAN if c.searched)
