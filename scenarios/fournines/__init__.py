"""The fournines control plane: the CLI behind ./fournines, scenarios and the runner."""
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
