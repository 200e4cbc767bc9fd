"""A command refused before anything starts: exit 2, the message, and no folder made."""
from pathlib import Path

from click.testing import CliRunner

from fournines.cli import cli


def refused(results_root: Path, *args: str) -> str:
    """Runs `./fournines ARGS --results-root RESULTS_ROOT`; returns its output once it was refused."""
    result = CliRunner().invoke(cli, [*args, "--results-root", str(results_root)])
    assert result.exit_code == 2, result.output
    assert not any(results_root.iterdir())
    return result.output
