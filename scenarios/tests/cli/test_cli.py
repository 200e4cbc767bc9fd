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


def test_a_scenario_that_is_not_utf8_is_refused_with_exit_2(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_bytes(b"name: t\ndescription: caf\xe9\n")
    result = CliRunner().invoke(cli, ["run", str(path)])
    assert result.exit_code == 2, result.output
    assert f"{path}: not UTF-8 at byte 24" in result.output
