"""The run's secret and the management API's token derived from it."""
import stat

from fournines.members.secret import api_token, write_secret


def test_the_api_token_is_the_members_one():
    # ClusterSecretTest asserts the same value on the Java side.
    assert api_token("cluster-test-secret-0123456789") == "283ca2ed9fc1b7cf62d9ea251c374f96c41300e43b9f430c26806721e09da4f6"


def test_the_secret_is_new_each_run_and_readable_by_its_owner_only(tmp_path):
    first = write_secret(tmp_path)
    assert (tmp_path / "cluster.secret").read_text() == first + "\n"
    assert stat.S_IMODE((tmp_path / "cluster.secret").stat().st_mode) == 0o600
    assert write_secret(tmp_path) != first and len(first) == 64
