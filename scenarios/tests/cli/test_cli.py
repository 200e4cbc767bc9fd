from click.testing import CliRunner

from fournines.cli import cli


def test_help_lists_the_subcommands():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert "jmh" in result.output
    assert "nexmark" in result.output


def test_unknown_subcommand_is_an_error_that_names_it():
    result = CliRunner().invoke(cli, ["no-such-command"])
    assert result.exit_code != 0
    assert "no-such-command" in result.output
