"""The dashboard listens on loopback freely and elsewhere only behind an access token: without one, any
other address is refused before anything listens; a token file others can read, or a short token, is
refused naming the file."""
import os

import pytest
from click.testing import CliRunner

from fournines.cli import cli
from fournines.ui.access_token import TokenRefused, read_token_file
from fournines.ui.address import AddressRefused, checked_host

TOKEN = "0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "localhost", "127.0.0.2"])
def test_loopback_addresses_are_served(host):
    assert checked_host(host, guarded=False) == host


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10"])
def test_other_addresses_are_refused_without_a_token_saying_why(host):
    with pytest.raises(AddressRefused, match="without an access token: .* needs --token-file FILE"):
        checked_host(host, guarded=False)


@pytest.mark.parametrize("host", ["0.0.0.0", "192.0.2.10"])
def test_other_addresses_are_served_behind_a_token(host):
    assert checked_host(host, guarded=True) == host


def test_the_cli_refuses_before_listening(tmp_path):
    result = CliRunner().invoke(cli, ["ui", "--host", "0.0.0.0", "--results", str(tmp_path)])
    assert result.exit_code == 2
    assert "refusing to listen on 0.0.0.0" in result.output


def token_file(tmp_path, text, mode=0o600):
    path = tmp_path / "token"
    path.write_text(text)
    os.chmod(path, mode)
    return path


def test_a_token_file_only_its_owner_reads_gives_its_token(tmp_path):
    assert read_token_file(token_file(tmp_path, TOKEN + "\n")) == TOKEN


@pytest.mark.parametrize("text, mode, problem", [
    (TOKEN, 0o644, "others may read it (mode -rw-r--r--): chmod 600"),
    ("short", 0o600, "at least 32 printable characters (e.g. openssl rand -hex 32); it has 5"),
    (TOKEN + " " + TOKEN, 0o600, "one word of at least 32"),
])
def test_a_token_file_that_would_not_guard_is_refused_naming_it(tmp_path, text, mode, problem):
    path = token_file(tmp_path, text, mode)
    with pytest.raises(TokenRefused) as e:
        read_token_file(path)
    assert str(e.value).startswith(f"{path}: ") and problem in str(e.value)


def test_the_cli_refuses_a_readable_token_file_before_listening(tmp_path):
    path = token_file(tmp_path, TOKEN, 0o644)
    result = CliRunner().invoke(cli, ["ui", "--host", "0.0.0.0", "--token-file", str(path), "--results", str(tmp_path)])
    assert result.exit_code == 2 and "others may read it" in result.output
