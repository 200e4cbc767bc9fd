import sys
from pathlib import Path

# The synthetic results folders are the analysis tests' (analysis/tests/synthetic.py).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis" / "tests"))
