"""TEST SCAFFOLDING: stands in for `python -m fournines` on one side of a gate test. It records how
it was called and, for a measuring run, makes a results folder from the analysis fixture's files.
Installed as scenarios/fournines/__main__.py of a throw-away git repository."""
import json
import os
import shutil
import sys
from pathlib import Path

args = sys.argv[1:]
with open(os.environ["GATE_TEST_LOG"], "a") as log:
    log.write(json.dumps({"cwd": os.getcwd(), "args": args}) + "\n")
if "--results-root" in args:
    root = Path(args[args.index("--results-root") + 1])
    root.mkdir(parents=True, exist_ok=True)
    run = root / f"run-{len(list(root.iterdir())) + 1}"
    shutil.copytree(os.environ["GATE_TEST_FIXTURE"], run)
