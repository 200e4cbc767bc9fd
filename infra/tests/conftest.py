import sys
from pathlib import Path

# infra_paths.py sits beside the tests; pytest's rootdir-relative imports do not reach it otherwise.
sys.path.insert(0, str(Path(__file__).resolve().parent))
