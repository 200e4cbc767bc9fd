"""An SSH server in each emulated host (root only, else skipped with the reason): the controller's
namespace reaches each host by its address with the run's key, each host is where it says it is,
and teardown stops the servers."""
import os
import subprocess
import uuid

import pytest

from fournines.targets.hosts.network import CONTROLLER, EmulatedNetwork
from fournines.targets.hosts.ssh_servers import ensure_openssh, ssh_options, start_ssh_servers

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="emulated hosts need root (network namespaces)")


def test_the_controller_reaches_each_host_over_ssh_and_teardown_stops_the_servers(tmp_path):
    ensure_openssh()
    net = EmulatedNetwork(uuid.uuid4().hex[:8], ["member-1", "broker-1"])
    net.create()
    try:
        keys = start_ssh_servers(net, tmp_path / "ssh")
        for host in net.hosts:
            answer = subprocess.run(net.run_in(CONTROLLER, ["ssh", *ssh_options(keys), f"root@{net.addresses[host]}",
                                                            "ip", "-4", "-o", "addr", "show", "dev", "eth0"]),
                                    capture_output=True, text=True, timeout=30)
            assert answer.returncode == 0, answer.stderr
            assert f"inet {net.addresses[host]}/24" in answer.stdout
        servers = [int((tmp_path / "ssh" / f"sshd-{h}.pid").read_text()) for h in net.hosts]
    finally:
        net.teardown()
    assert [pid for pid in servers if running(pid)] == []


def running(pid: int) -> bool:
    """Alive and not a zombie (a daemon's parent is init, which may reap it late)."""
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
