"""TEST SCAFFOLDING: the dashboard as `./fournines ui --port 0` serves it, except that the runs it
starts play stand_in_child.py in place of the member (drive_runner.py), so a browser test can start,
watch and stop a run without building or running an engine.

    dashboard_with_stand_in.py RESULTS_ROOT BEHAVIOUR
"""
import asyncio
import sys
from pathlib import Path

from fournines.ui.server import serve

DRIVE_RUNNER = Path(__file__).with_name("drive_runner.py")


def main():
    results_root, behaviour = Path(sys.argv[1]).resolve(), sys.argv[2]

    def command(scenario, args, root):
        return [sys.executable, str(DRIVE_RUNNER), str(root), behaviour, scenario, *args]
    try:
        asyncio.run(serve(results_root, "127.0.0.1", 0,
                          lambda address: print(f"fournines dashboard: {address}", flush=True), command))
    except (KeyboardInterrupt, asyncio.CancelledError):
        pass


if __name__ == "__main__":
    main()
