"""`./fournines sweep`: the scenario at each of a list of rates (and, given several, each key count:
one curve per count), one after the other into one folder, `results/<UTC time>-sweep-<scenario>/`,
a results folder per point (`keys-10000-rate-200000/`, or `rate-200000/` with one key count), then
the report of latency against events/s per core (report.py)."""
import sys
from pathlib import Path

from fournines.results.folder import new_results_folder
from fournines.search.report import write_report
from fournines.search.trial import Play, run_trial
from fournines.spec.overrides import Overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.prepare import resolve
from fournines_analysis.slo import Bound


def run_sweep(ref: str, overrides: Overrides, rates: list[int], keys: list[int] | None, slo: tuple[Bound, ...],
              play: Play, results_root: Path) -> int:
    """Returns 0 when every point ran to the end, else 1 (the failed points keep their folders)."""
    name = load_scenario(ref, overrides)["name"]
    folder = new_results_folder(f"sweep-{name}", results_root)
    print(f"sweep {name}: {len(rates) * len(keys or [None])} runs into {folder}", file=sys.stderr, flush=True)
    done = []
    for key_count in keys or [None]:
        for rate in rates:
            values = {"RATE": str(rate)} | ({"KEYS": str(key_count)} if key_count is not None else {})
            point = f"keys-{key_count}-rate-{rate}" if key_count is not None else f"rate-{rate}"
            trial = run_trial(resolve(ref, overrides.replacing(values)), folder / point, slo, play)
            done.append((f"{key_count:,} keys" if key_count is not None else "", trial))
            print(f"sweep {name}: {point}: {trial.verdict()}", file=sys.stderr, flush=True)
    sustained = [t.rate for _, t in done if t.sustained]
    findings = [f"{len(done)} runs of {name}; {len(sustained)} sustained their rate"
                + (f" (up to {max(sustained):,} events/s)." if sustained else ".")]
    summary = {"scenario": name, "rates": rates, "keys": keys, "slo": ",".join(b.text for b in slo) or None}
    for path in write_report(folder, f"Sweep: {name}", findings, done, slo, summary, "per_core"):
        print(f"sweep {name}: wrote {path}", file=sys.stderr, flush=True)
    return 0 if all(t.run is not None and t.run.info.fields.get("status") == "completed" for _, t in done) else 1
