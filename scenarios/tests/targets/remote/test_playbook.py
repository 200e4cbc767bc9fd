"""How a playbook is run on a remote cluster: each run keeps SSH's shared connections to itself."""
import subprocess

from fournines.targets.remote import cluster as remote
from fournines.targets.remote.cluster import Cluster, Ports


def test_each_run_shares_ssh_connections_only_within_its_own_folder(tmp_path, monkeypatch):
    """Emulated hosts of two runs have the same addresses: through ~/.ansible/cp one run's playbook
    would reach the other's hosts (it did: a CI run hung on a playbook beside a test run)."""
    ran = []
    monkeypatch.setattr(subprocess, "run", lambda argv, **kw: ran.append(kw["env"]))
    for run in ("a", "b"):
        private = tmp_path / run
        private.mkdir()
        cluster = Cluster(tmp_path / "inventory.yml", {"vars": {}}, lambda host: None, Ports(5701, 8080), "secret", private, [])
        remote.playbook(cluster, "deploy.yml", {})
    dirs = [env["ANSIBLE_SSH_CONTROL_PATH_DIR"] for env in ran]
    assert dirs == [str(tmp_path / "a" / "ssh-control"), str(tmp_path / "b" / "ssh-control")]
