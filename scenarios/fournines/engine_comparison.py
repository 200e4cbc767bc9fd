"""`ENGINE=fournines,jet,flink`: one scenario on several engines, one after the other on this machine,
into one folder `results/<UTC time>-<scenario>-<engines>/` with a results folder per engine
(`fournines/`, `jet/`, `flink/`) and a comparison report (`report.md`, `report.html`) whose ratios
are against the first engine named.

Everything is checked and every engine's member built before the first run starts, so a query one
engine cannot run is refused up front. A run that fails does not stop the others (its folder keeps
its evidence); an interrupted one (Ctrl-C) does.
"""
import sys
from pathlib import Path

from fournines import runner
from fournines.overrides import Override, Overrides
from fournines.results_folder import new_results_folder


def split_engines(overrides: Overrides) -> tuple[list[str], Overrides]:
    """The engines an `ENGINE=a,b,...` override names (empty for none or one engine), and the other overrides."""
    for override in overrides.fields:
        if override.key == "ENGINE" and "," in override.text:
            engines = [e.strip() for e in override.text.split(",")]
            if len(set(engines)) != len(engines) or "" in engines:
                raise runner.RunRefused(f"override {override}: name each engine once, separated by commas")
            rest = tuple(o for o in overrides.fields if o is not override)
            return engines, Overrides(rest, overrides.profile)
    return [], overrides


def prepare_all(ref: str, engines: list[str], overrides: Overrides) -> list[tuple[dict, Path]]:
    """Each engine's resolved scenario and built member; RunRefused with every engine's problems."""
    prepared, refusals = [], []
    for engine in engines:
        with_engine = Overrides((*overrides.fields, Override("ENGINE", engine)), overrides.profile)
        try:
            prepared.append(runner.prepare(ref, with_engine))
        except runner.RunRefused as e:
            refusals.append(f"[ENGINE={engine}] {e}")
    if refusals:
        raise runner.RunRefused("\n".join(refusals))
    return prepared


def run_all(prepared: list[tuple[dict, Path]], profile: bool, results_root: Path = runner.RESULTS_ROOT) -> int:
    """Plays the scenario on each engine in order, then writes the comparison; returns the exit code
    (the first failed run's, or 0)."""
    from fournines_analysis.compare import write_compare
    from fournines_analysis.errors import BadInput

    engines = [scenario["engine"] for scenario, _ in prepared]
    folder = new_results_folder(f"{prepared[0][0]['name']}-{'-'.join(engines)}", results_root)
    print(f"comparison of {', '.join(engines)}: {folder}", file=sys.stderr)
    exit_code, reported = 0, []
    for scenario, jar in prepared:
        run_dir = folder / scenario["engine"]
        run_dir.mkdir()
        print(f"--- {scenario['engine']} ---", file=sys.stderr)
        code = runner.run(scenario, runner.member_launcher(jar), profile, run_dir=run_dir)
        if (run_dir / "report.md").exists():
            reported.append(run_dir)
        exit_code = exit_code or code
        if code > 128:  # stopped by a signal: the user wants out
            return code
    if len(reported) < 2:
        print(f"no comparison: {len(reported)} of {len(engines)} runs left a report", file=sys.stderr)
        return exit_code or runner.EXIT_FAILED
    try:
        for path in write_compare(reported, folder):
            print(f"wrote {path}", file=sys.stderr)
    except BadInput as e:
        print(f"no comparison: {e}", file=sys.stderr)
        return exit_code or runner.EXIT_FAILED
    return exit_code
