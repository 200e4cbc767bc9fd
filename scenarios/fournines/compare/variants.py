"""`ENGINE=fournines,jet,flink` or `EXECUTION=continuous,micro-batch,group`: one scenario under each
value of one setting, one after the other on this machine, into one folder
`results/<UTC time>-<scenario>-<values>/` with a results folder per value (`fournines/`, `jet/`, ...
or `continuous/`, `micro-batch/`, ...) and a comparison report (`report.md`, `report.html`) whose
ratios are against the first value named.

Everything is checked and every member built before the first run starts, so a value the scenario
cannot run with is refused up front. A run that fails does not stop the others (its folder keeps its
evidence, and the comparison lists it under "Runs without a report"); an interrupted one (Ctrl-C) does.
"""
import sys
from pathlib import Path

from fournines.results.folder import RESULTS_ROOT, new_results_folder
from fournines.results.outcome import EXIT_FAILED
from fournines.results.run_record import read_run_json
from fournines.spec.overrides import FIELDS, Override, Overrides
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.spec.support import unsupported
from fournines.targets.local import run as local
from fournines.targets.prepare import RunRefused, prepare

# The overrides that may name several values, one run each.
COMPARABLE = ("ENGINE", "EXECUTION")


def split_variants(overrides: Overrides) -> tuple[str | None, list[str], Overrides]:
    """The key and values of the override naming several (`KEY=a,b,...`; none: None and []), and the other overrides."""
    lists = [o for o in overrides.fields if o.key in COMPARABLE and "," in o.text]
    if not lists:
        return None, [], overrides
    if len(lists) > 1:
        raise RunRefused(f"overrides {', '.join(map(str, lists))}: compare one setting at a time")
    (listed,) = lists
    values = [v.strip() for v in listed.text.split(",")]
    if len(set(values)) != len(values) or "" in values:
        raise RunRefused(f"override {listed}: name each value once, separated by commas")
    rest = tuple(o for o in overrides.fields if o is not listed)
    return listed.key, values, Overrides(rest, overrides.profile)


def prepare_all(ref: str, key: str, values: list[str], overrides: Overrides) -> list[tuple[dict, Path]]:
    """Each value's resolved scenario and built member; RunRefused with every value's problems,
    found before any member is built."""
    per_value = [Overrides((*overrides.fields, Override(key, v)), overrides.profile) for v in values]
    refusals = []
    for value, value_overrides in zip(values, per_value):
        try:
            problems = unsupported(load_scenario(ref, value_overrides))
        except ScenarioError as e:
            problems = [str(e)]
        refusals += [f"[{key}={value}] {ref}: {p}" for p in problems]
    if refusals:
        raise RunRefused("\n".join(refusals))
    return [prepare(ref, value_overrides) for value_overrides in per_value]


def run_all(prepared: list[tuple[dict, Path]], key: str, profile: bool, results_root: Path = RESULTS_ROOT) -> int:
    """Plays the scenario with each value in order, then writes the comparison; returns the exit code
    (the first failed run's, or 0)."""
    from fournines_analysis.errors import BadInput

    values = [_value(scenario, FIELDS[key]) for scenario, _ in prepared]
    folder = new_results_folder(f"{prepared[0][0]['name']}-{'-'.join(values)}", results_root)
    print(f"comparison of {', '.join(values)}: {folder}", file=sys.stderr)
    exit_code, reported, run_dirs = 0, [], []
    for (scenario, jar), value in zip(prepared, values):
        run_dir = folder / value
        run_dir.mkdir()
        run_dirs.append(run_dir)
        print(f"--- {value} ---", file=sys.stderr)
        code = local.run(scenario, local.member_launcher(jar, scenario), profile, run_dir=run_dir)
        if (run_dir / "report.md").exists():
            reported.append(run_dir)
        exit_code = exit_code or code
        if code > 128:  # stopped by a signal: the user wants out
            return code
    if not reported:
        print(f"no comparison: none of the {len(values)} runs left a report", file=sys.stderr)
        return exit_code or EXIT_FAILED
    try:
        for path in write_comparison(reported, [d for d in run_dirs if d not in reported], folder):
            print(f"wrote {path}", file=sys.stderr)
    except BadInput as e:
        print(f"no comparison: {e}", file=sys.stderr)
        return exit_code or EXIT_FAILED
    return exit_code


def _value(scenario: dict, path: str) -> str:
    for part in path.split("."):
        scenario = scenario[part]
    return str(scenario)


def write_comparison(reported: list[Path], left_out: list[Path], folder: Path) -> tuple[Path, Path]:
    """The analysis' comparison of the runs that have a report, then the runs that have none, with
    what their run.json says: a collapsed run (no window ever emitted) is a result too."""
    from fournines_analysis.compare import compare_blocks
    from fournines_analysis.document import Heading, Paragraph, Table, write
    from fournines_analysis.results import load_run

    blocks = compare_blocks([load_run(d) for d in reported], folder)
    if left_out:
        rows = []
        for run_dir in left_out:
            record = read_run_json(run_dir)
            rows.append([run_dir.name, str(record.get("status", "no run.json")),
                         f"{record['achieved_rate']:,.0f}" if isinstance(record.get("achieved_rate"), (int, float)) else "–",
                         f"{record['target_rate']:,}" if isinstance(record.get("target_rate"), int) else "–",
                         str(record.get("failure") or "no latency report (no result recorded, or logs unreadable)")])
        blocks += [Heading("Runs without a report"),
                   Paragraph("These runs ended but left nothing to compare (see each folder's member.log and run.json). "
                             "A run that emits no result at all has no latency to show: its figure is a collapse, not "
                             "a throughput."),
                   Table(["run", "status", "achieved events/s", "target events/s", "why"], rows)]
    return write(blocks, folder)


