"""TEST SCAFFOLDING: runs the real runner (fournines.targets.local.run.run) on scenario q0, shortened, with
stand_in_child.py in place of the member, so tests can signal a real runner process.

    drive_runner.py RESULTS_ROOT BEHAVIOUR [SCENARIO KEY=VALUE...]

SCENARIO and its overrides, when given, replace q0 shortened (the dashboard's tests start runs so).
"""
import sys
from pathlib import Path

from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.local.run import run

STAND_IN = Path(__file__).with_name("stand_in_child.py")


def main():
    results_root, behaviour, asked = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    name, overrides = (asked[0], asked[1:]) if asked else ("q0", ["WARMUP=1s", "DURATION=2s", "RATE=1000"])
    scenario = load_scenario(name, parse_overrides(overrides))

    def launcher(flags, run_dir):
        return [sys.executable, str(STAND_IN), behaviour, "--scenario", str(run_dir / "scenario.json"),
                "--out", str(run_dir)]

    sys.exit(run(scenario, launcher, profile=False, results_root=results_root))


if __name__ == "__main__":
    main()
