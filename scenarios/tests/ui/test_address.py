"""The dashboard listens on loopback only: any other address is refused before anything listens."""
import pytest
from click.testing import CliRunner

from fournines.cli import cli
from fournines.ui.address import AddressRefused, checked_host


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "127.0.0.2"])
def test_loopback_addresses_are_served(host):
    assert checked_host(host) == host


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10"])
def test_other_addresses_are_refused_saying_why(host):
    with pytest.raises(AddressRefused, match="loopback addresses only .* the CLI has no such token yet"):
        checked_host(host)


def test_the_cli_refuses_before_listening(tmp_path):
    result = CliRunner().invoke(cli, ["ui", "--host", "0.0.0.0", "--results", str(tmp_path)])
    assert result.exit_code == 2
    assert "refusing to listen on 0.0.0.0" in result.output
