"""TEST SCAFFOLDING: runs the real runner (fournines.targets.local.run.run) on scenario q0, shortened, with
stand_in_child.py in place of the member, so tests can signal a real runner process.

    drive_runner.py RESULTS_ROOT BEHAVIOUR
"""
import sys
from pathlib import Path

from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.local.run import run

STAND_IN = Path(__file__).with_name("stand_in_child.py")


def main():
    results_root, behaviour = Path(sys.argv[1]), sys.argv[2]
    scenario = load_scenario("q0", parse_overrides(["WARMUP=1s", "DURATION=2s", "RATE=1000"]))

    def launcher(flags, run_dir):
        return [sys.executable, str(STAND_IN), behaviour, "--scenario", str(run_dir / "scenario.json"),
                "--out", str(run_dir)]

    sys.exit(run(scenario, launcher, profile=False, results_root=results_root))


if __name__ == "__main__":
    main()
