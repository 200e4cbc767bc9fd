"""./fournines: one click group; each module here holds a family of its subcommands."""
import click

from fournines.cli.analysis import COMMANDS as ANALYSIS_COMMANDS
from fournines.cli.aws import COMMANDS as AWS_COMMANDS
from fournines.cli.chaos import chaos
from fournines.cli.figure import figure
from fournines.cli.gate_ref import gate_ref
from fournines.cli.gate_selftest import gate_selftest
from fournines.cli.java_programs import COMMANDS as JAVA_COMMANDS
from fournines.cli.run import run
from fournines.cli.search import search, sweep
from fournines.cli.sim_figures import sim_figures
from fournines.cli.sim_validate import sim_validate
from fournines.cli.simulate import calibrate, simulate
from fournines.cli.ui import ui


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli():
    """fournines: honest p99.99 for stream processors."""


for command in (run, simulate, calibrate, sim_validate, sim_figures, search, sweep, figure, chaos, gate_ref, gate_selftest, *ANALYSIS_COMMANDS, *AWS_COMMANDS, *JAVA_COMMANDS, ui):
    cli.add_command(command)
