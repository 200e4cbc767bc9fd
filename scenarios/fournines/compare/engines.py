"""`ENGINE=fournines,jet,flink`: one scenario on several engines, one after the other on this machine,
into one folder `results/<UTC time>-<scenario>-<engines>/` with a results folder per engine
(`fournines/`, `jet/`, `flink/`) and a comparison report (`report.md`, `report.html`) whose ratios
are against the first engine named.

Everything is checked and every engine's member built before the first run starts, so a query one
engine cannot run is refused up front. A run that fails does not stop the others (its folder keeps
its evidence, and the comparison lists it under "Runs without a report"); an interrupted one
(Ctrl-C) does.
"""
import sys
from pathlib import Path

from fournines.results.folder import RESULTS_ROOT, new_results_folder
from fournines.results.outcome import EXIT_FAILED
from fournines.results.run_record import read_run_json
from fournines.spec.overrides import Override, Overrides
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.spec.support import unsupported
from fournines.targets.local import run as local
from fournines.targets.prepare import RunRefused, prepare


def split_engines(overrides: Overrides) -> tuple[list[str], Overrides]:
    """The engines an `ENGINE=a,b,...` override names (empty for none or one engine), and the other overrides."""
    for override in overrides.fields:
        if override.key == "ENGINE" and "," in override.text:
            engines = [e.strip() for e in override.text.split(",")]
            if len(set(engines)) != len(engines) or "" in engines:
                raise RunRefused(f"override {override}: name each engine once, separated by commas")
            rest = tuple(o for o in overrides.fields if o is not override)
            return engines, Overrides(rest, overrides.profile)
    return [], overrides


def prepare_all(ref: str, engines: list[str], overrides: Overrides) -> list[tuple[dict, Path]]:
    """Each engine's resolved scenario and built member; RunRefused with every engine's problems,
    found before any member is built."""
    per_engine = [Overrides((*overrides.fields, Override("ENGINE", e)), overrides.profile) for e in engines]
    refusals = []
    for engine, engine_overrides in zip(engines, per_engine):
        try:
            problems = unsupported(load_scenario(ref, engine_overrides))
        except ScenarioError as e:
            problems = [str(e)]
        refusals += [f"[ENGINE={engine}] {ref}: {p}" for p in problems]
    if refusals:
        raise RunRefused("\n".join(refusals))
    return [prepare(ref, engine_overrides) for engine_overrides in per_engine]


def run_all(prepared: list[tuple[dict, Path]], profile: bool, results_root: Path = RESULTS_ROOT) -> int:
    """Plays the scenario on each engine in order, then writes the comparison; returns the exit code
    (the first failed run's, or 0)."""
    from fournines_analysis.errors import BadInput

    engines = [scenario["engine"] for scenario, _ in prepared]
    folder = new_results_folder(f"{prepared[0][0]['name']}-{'-'.join(engines)}", results_root)
    print(f"comparison of {', '.join(engines)}: {folder}", file=sys.stderr)
    exit_code, reported, run_dirs = 0, [], []
    for scenario, jar in prepared:
        run_dir = folder / scenario["engine"]
        run_dir.mkdir()
        run_dirs.append(run_dir)
        print(f"--- {scenario['engine']} ---", file=sys.stderr)
        code = local.run(scenario, local.member_launcher(jar), profile, run_dir=run_dir)
        if (run_dir / "report.md").exists():
            reported.append(run_dir)
        exit_code = exit_code or code
        if code > 128:  # stopped by a signal: the user wants out
            return code
    if not reported:
        print(f"no comparison: none of the {len(engines)} runs left a report", file=sys.stderr)
        return exit_code or EXIT_FAILED
    try:
        for path in write_comparison(reported, [d for d in run_dirs if d not in reported], folder):
            print(f"wrote {path}", file=sys.stderr)
    except BadInput as e:
        print(f"no comparison: {e}", file=sys.stderr)
        return exit_code or EXIT_FAILED
    return exit_code


def write_comparison(reported: list[Path], left_out: list[Path], folder: Path) -> tuple[Path, Path]:
    """The analysis' comparison of the runs that have a report, then the runs that have none, with
    what their run.json says: a collapsed engine (no window ever emitted) is a result too."""
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
                   Paragraph("These engines ran but left nothing to compare (see each folder's member.log and run.json). "
                             "An engine that emits no result in the whole run has no latency to show: its figure is a "
                             "collapse, not a throughput."),
                   Table(["engine", "status", "achieved events/s", "target events/s", "why"], rows)]
    return write(blocks, folder)


