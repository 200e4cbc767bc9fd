"""Options several commands share, declared once."""
from pathlib import Path

import click

from fournines.results.folder import RESULTS_ROOT


def results_root_option(what: str):
    """--results-root: where the command makes `what` (default results/)."""
    return click.option("--results-root", type=click.Path(file_okay=False, path_type=Path), default=RESULTS_ROOT,
                        show_default="results/", help=f"Where {what} is made.")
