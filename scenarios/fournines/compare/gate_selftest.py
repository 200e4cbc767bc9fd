"""`make gate-selftest`: how often the regression gate passes identical code (A/A) and how often it
catches a known slowdown (A/B), measured on this machine with the gate's own rule and defaults.

Every trial benchmarks three groups of REPEAT runs, interleaved in a rotating order so that drift
hits each group alike: A and A2 (this checkout, untouched) and B (this checkout made slower by
SLOWDOWN of CPU per event through the injector, `-Dfournines.gate.injectedNanosPerEvent`). The gate
judges A against A2 (failing is a false alarm) and A against B (failing is a detection). Trials share
no run, so each rate is k of n independent trials, given with its Wilson interval. The nanoseconds
to inject come from one calibration run of A before the trials; what B really cost is measured in
every trial and printed beside the rates.
"""
import json
import statistics
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from fournines import REPO_ROOT
from fournines.compare.ab_gate import GateStopped, Side, run_side
from fournines.members.signals import SignalCatcher
from fournines.results.folder import new_results_folder
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario, scenario_path
from fournines.spec.support import unsupported
from fournines_analysis.errors import write_text
from fournines_analysis.gate import CPU_PER_EVENT, gate
from fournines_analysis.proportion import Proportion
from fournines_analysis.results import load_run
from fournines_analysis.summary import summarize

INJECTOR = "-Dfournines.gate.injectedNanosPerEvent"
FALSE_ALARM_GOAL, DETECTION_GOAL = 0.05, 0.95
GROUPS = ("A", "A2", "B")


@dataclass(frozen=True)
class Trial:
    number: int
    aa_regressions: list[str]  # what failed the gate on identical code
    ab_regressions: list[str]
    slowdown: float  # B's CPU per event over A's, as measured in this trial


def selftest(scenario_ref: str, trials: int, repeat: int, slowdown: float, threshold: float,
             assignments: list[str], repo: Path = REPO_ROOT, results_root: Path | None = None) -> int:
    """0 when both goals are met, 1 when not; GateStopped for a refused request or a failed run."""
    scenario_file = scenario_path(scenario_ref).resolve()
    scenario = load_scenario(str(scenario_file), parse_overrides(assignments))
    refused = unsupported(scenario)
    if scenario["engine"] != "fournines":
        refused.append(f"{scenario_file}: engine {scenario['engine']!r}: the slowdown is injected into "
                       f"the fournines engine only")
    if refused:
        raise GateStopped("\n".join(refused), 2)
    if any(opt.startswith(INJECTOR) for opt in scenario["cluster"]["jvm_opts"]):
        raise GateStopped(f"{scenario_file}: cluster.jvm_opts already sets {INJECTOR}; the self-test sets it", 2)
    side = Side("this checkout", repo)
    run_args = ["run", str(scenario_file), *(a for a in assignments if not a.startswith("JVM_OPTS="))]
    opts = scenario["cluster"]["jvm_opts"]
    started = time.monotonic()
    with SignalCatcher() as signals:
        def run(jvm_opts: list[str], results: Path, title: str) -> Path:
            before = set(results.glob("*"))
            run_side(side, [*run_args, f"JVM_OPTS={' '.join(jvm_opts)}", "--results-root", str(results)],
                     repo, signals, title)
            (made,) = set(results.glob("*")) - before
            return made

        run_side(side, [*run_args, "--check"], repo, signals, "check and build")
        out = new_results_folder(f"gate-selftest-{scenario['name']}", results_root or repo / "results")
        print(f"gate self-test: {out}", file=sys.stderr)
        calibration = run(opts, out / "calibration", "calibration: CPU per event of A")
        cpu_per_event_ns = 1e9 / summarize(load_run(calibration)).per_core
        nanos = round(slowdown * cpu_per_event_ns)
        lines = [f"gate self-test of {scenario_file.name} {' '.join(assignments)}".rstrip(),
                 f"trials: {trials}, each with {repeat} run(s) of A, A2 (this checkout) and B (+{slowdown:.0%} "
                 f"CPU per event), interleaved; gate threshold {threshold:.0%}",
                 f"calibration: A costs {cpu_per_event_ns:,.0f} ns of CPU per event, so B spins "
                 f"{nanos} ns more per event ({INJECTOR}={nanos})", ""]
        print("\n".join(lines), file=sys.stderr)
        results = []
        for t in range(1, trials + 1):
            folders = {group: [] for group in GROUPS}
            for i in range(repeat):
                for group in GROUPS[i % 3:] + GROUPS[:i % 3]:  # rotating: no group always runs first
                    jvm_opts = [*opts, f"{INJECTOR}={nanos}"] if group == "B" else opts
                    folders[group].append(run(jvm_opts, out / f"trial-{t:02}" / group,
                                              f"trial {t}/{trials}, run {len(folders[group]) + 1}/{repeat} "
                                              f"of {group}"))
            aa = gate(folders["A"], folders["A2"], threshold=threshold)
            ab = gate(folders["A"], folders["B"], threshold=threshold)
            (cpu,) = (v for v in ab.verdicts if v.metric == CPU_PER_EVENT.name)
            results.append(Trial(t, aa.regressions, ab.regressions, cpu.ratio))
            print(_row(results[-1]), file=sys.stderr, flush=True)
    false_alarms = Proportion(sum(1 for r in results if r.aa_regressions), trials)
    detections = Proportion(sum(1 for r in results if r.ab_regressions), trials)
    met = false_alarms.rate <= FALSE_ALARM_GOAL and detections.rate >= DETECTION_GOAL
    slowdowns = [r.slowdown for r in results]
    minutes = (time.monotonic() - started) / 60
    lines += [_HEADER, *map(_row, results), "",
              *_failed_metrics("A/A", [r.aa_regressions for r in results]),
              *_failed_metrics("A/B", [r.ab_regressions for r in results]),
              f"false alarms (gate failed A/A): {false_alarms}",
              f"detections (gate failed A/B):   {detections}",
              f"slowdown B/A in CPU per event: median {statistics.median(slowdowns):.3f}, "
              f"range {min(slowdowns):.3f} to {max(slowdowns):.3f}",
              f"goals (false alarms <= {FALSE_ALARM_GOAL:.0%}, detections >= {DETECTION_GOAL:.0%}): "
              f"{'met' if met else 'NOT met'}",
              f"took {minutes:.1f} min for {1 + 3 * trials * repeat} runs"]
    report = "\n".join(lines) + "\n"
    print(report, end="")
    write_text(out / "selftest.txt", report)
    write_text(out / "selftest.json", json.dumps({
        "scenario": str(scenario_file), "overrides": assignments, "trials": trials, "repeat": repeat,
        "threshold": threshold, "slowdown_target": slowdown, "injected_nanos_per_event": nanos,
        "false_alarms": false_alarms.successes, "detections": detections.successes, "minutes": round(minutes, 1),
        "per_trial": [asdict(r) for r in results]}, indent=2) + "\n")
    return 0 if met else 1


_HEADER = "trial  A/A (identical code)       A/B (B slower)               B/A CPU per event"


def _row(trial: Trial) -> str:
    def verdict(regressions: list[str], failed: str, passed: str) -> str:
        return f"{failed} ({len(regressions)} metrics)" if regressions else passed
    return (f"{trial.number:5}  {verdict(trial.aa_regressions, 'FALSE ALARM', 'passed'):<27}  "
            f"{verdict(trial.ab_regressions, 'caught', 'MISSED'):<27}  {trial.slowdown:.3f}")


def _failed_metrics(comparison: str, per_trial: list[list[str]]) -> list[str]:
    """Which metrics failed the gate, in how many trials: what to look at when a rate misses its goal."""
    counts = Counter(metric for regressions in per_trial for metric in regressions)
    return [f"{comparison} failed on {metric}: {n} of {len(per_trial)} trials" for metric, n in counts.most_common()]
