"""`./fournines search`: a rate search (rate_search.py) played on this machine into one folder,
`results/<UTC time>-search-<scenario>/`, a results folder per trial (`01-200000/`, ...,
`confirm-1-350000/`), then the report (report.py)."""
import sys
import time
from pathlib import Path

from fournines.results.folder import new_results_folder
from fournines.search.rate_search import search
from fournines.search.report import write_report
from fournines.search.trial import Play, run_trial
from fournines.spec.overrides import Overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.prepare import resolve
from fournines_analysis.errors import BadInput
from fournines_analysis.slo import Bound
from fournines_analysis.stalls import slowest_against_chance
from fournines_analysis.steal import STOLEN_MARK_S
from fournines_analysis.summary import measured_counts

CONFIRM_FACTOR = 2  # a confirmation measures this many times as long as a trial


def run_search(ref: str, overrides: Overrides, slo: tuple[Bound, ...], slo_text: str, low: int, high: int,
               precision: float, play: Play, results_root: Path) -> int:
    """Returns 0 when a rate was confirmed, 1 when none was; Stopped on Ctrl-C."""
    start = load_scenario(ref, overrides)
    folder = new_results_folder(f"search-{start['name']}", results_root)
    say = _printer(start["name"])
    say(f"SLO {slo_text}; rates {low:,}..{high:,} events/s, from {start['load']['rate']:,}; "
        f"trials of {start['warmup']} + {start['duration']}; folder {folder}")
    longer = f"{start['duration_s'] * CONFIRM_FACTOR:g}s"
    ran: list = []
    began = time.monotonic()

    def measure(rate: int, confirming: bool):
        scenario = resolve(ref, overrides.replacing({"RATE": str(rate)} | ({"DURATION": longer} if confirming else {})))
        confirmations = sum(1 for c, _ in ran if c)
        name = f"confirm-{confirmations + 1}-{rate}" if confirming else f"{len(ran) - confirmations + 1:02d}-{rate}"
        trial = run_trial(scenario, folder / name, slo, play)
        ran.append((confirming, trial))
        return trial

    outcome = search(measure, int(start["load"]["rate"]), low, high, precision, say)
    took = time.monotonic() - began
    found = (f"**Highest sustainable rate: {outcome.rate:,} events/s** under {slo_text}" if outcome.rate is not None
             else f"**No sustainable rate found** under {slo_text}")
    findings = [f"{found} ({outcome.reason}); {len(outcome.trials)} trials and {len(outcome.confirmations)} "
                f"confirmation{'s' if len(outcome.confirmations) != 1 else ''} in {took / 60:.1f} min."]
    if outcome.source_limit is not None:
        findings.append(f"The load source could not make more than about {outcome.source_limit:,.0f} events/s: "
                        f"above that the search measured the source, not the engine.")
    thin = _thin_tail(slo, [t for _, t in ran])
    if thin:
        findings.append(thin)
    decided = _what_decided_the_misses([t for _, t in ran])
    if decided:
        findings.append(decided)
    findings.append(f"A rate is sustained when, after the warm-up, {slo_text} holds, the source's lag and the "
                    f"backlog do not grow (a least-squares trend over the run), no event was dropped or late, "
                    f"and every event made was processed; the search bisects until its bracket is within "
                    f"{precision:.0%}, then confirms with a run {CONFIRM_FACTOR}× as long.")
    summary = {"scenario": start["name"], "slo": slo_text, "low": low, "high": high, "precision": precision,
               "rate": outcome.rate, "reason": outcome.reason, "source_limit": outcome.source_limit, "took_s": round(took, 1)}
    for path in write_report(folder, f"Rate search: {start['name']}", findings, [("", t) for _, t in ran], slo, summary, "rate"):
        say(f"wrote {path}")
    say(findings[0].replace("**", ""))
    return 0 if outcome.rate is not None else 1


def _printer(name: str):
    def say(line: str) -> None:
        print(f"search {name}: {line}", file=sys.stderr, flush=True)
    return say


def _what_decided_the_misses(trials: list) -> str | None:
    """What coincided with the slowest interval of each run that missed its SLO and nothing else,
    against chance: a host or a JVM that stalls now and then makes a search's verdicts, and so its
    rate, vary."""
    seen = [slowest_against_chance(t.run) for t in trials
            if t.run is not None and t.problems and all(p.startswith("SLO not met") for p in t.problems)]
    seen = [s for s in seen if s is not None]
    if not seen:
        return None
    gc = sum(c.gc for c, _ in seen)
    stolen = sum(c.host_lost_cpu for c, _ in seen)
    neither = sum(not c.gc and not c.host_lost_cpu for c, _ in seen)
    chance = sum(share for _, share in seen) / len(seen)
    return (f"Of the {len(seen)} runs that missed only the SLO, the slowest interval fell in a GC cycle or a pause "
            f"of 1 ms or more in {gc} (by chance about {chance:.0%} of their intervals do) and in a second the host "
            f"lost at least {STOLEN_MARK_S * 1e3:g} ms of CPU in {stolen}; {neither} had neither. Each run's report "
            f"lists its slowest intervals and what coincided.")


def _thin_tail(slo: tuple[Bound, ...], trials: list) -> str | None:
    """A warning when a percentile of the SLO rests on too few values in some trial: with fewer than
    10 / (1 - p) of them it is nearly their maximum, which a longer run can only raise."""
    counts = []
    for t in trials:
        try:
            counts.append((t, int(measured_counts(next(iter(t.run.latency.values())), t.run.warmup_s).sum())))
        except (AttributeError, StopIteration, BadInput):  # no results, no log, nothing after the warm-up
            continue
    if not counts or not slo:
        return None
    bound = max(slo, key=lambda b: b.percentile)
    needed = round(10 / (1 - bound.percentile / 100))
    trial, fewest = min(counts, key=lambda c: c[1])
    if fewest >= needed:
        return None
    per_second = fewest / max(float(trial.run.info.fields.get("duration_s") or 1), 1)
    return (f"Caution: {bound.text.split('<=')[0]} rests on {fewest:,} values in trial {trial.run_dir.name}, "
            f"nearly their maximum; a stable one needs about {needed:,} values a trial "
            f"(DURATION={needed / per_second:.0f}s at {per_second:,.0f} values/s).")
