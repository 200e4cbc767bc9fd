"""The emulated hosts' network, built for real (root only, else skipped with the reason): hosts reach
each other and the controller over the bridge, no namespace has a default route, the root namespace
gains no route or link, a partition cuts two hosts apart while the controller still reaches both,
and teardown leaves nothing; a run whose runner died is swept."""
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from fournines.targets.hosts import network
from fournines.targets.hosts.network import CONTROLLER, EmulatedNetwork

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="emulated hosts need root (network namespaces)")


# A TCP connection to a closed port: refused (a reset came back) if the host is reachable.
PROBE = """
import socket, sys
try:
    socket.create_connection((sys.argv[1], 9), timeout=1)
except ConnectionRefusedError:
    sys.exit(0)
except OSError:
    sys.exit(1)
"""


def reaches(net: EmulatedNetwork, source: str, target: str) -> bool:
    return subprocess.run(net.run_in(source, [sys.executable, "-c", PROBE, net.addresses[target]]),
                          capture_output=True).returncode == 0


def root_state() -> tuple[str, str]:
    return (subprocess.run(["ip", "-o", "link"], capture_output=True, text=True, check=True).stdout,
            subprocess.run(["ip", "route", "show", "table", "all"], capture_output=True, text=True, check=True).stdout)


@pytest.fixture
def net():
    before = root_state()
    emulated = EmulatedNetwork(uuid.uuid4().hex[:8], ["member-1", "member-2", "member-3"])
    emulated.create()
    yield emulated
    emulated.teardown()
    assert network.namespaces(f"{network.PREFIX}{emulated.run_id}-") == []
    assert root_state() == before, "the root namespace changed"


def test_hosts_reach_each_other_over_the_bridge_and_nothing_routes_anywhere_else(net):
    assert net.addresses == {CONTROLLER: "198.18.0.1", "member-1": "198.18.0.10", "member-2": "198.18.0.11",
                             "member-3": "198.18.0.12"}
    assert reaches(net, CONTROLLER, "member-3") and reaches(net, "member-1", "member-2")
    assert net.default_routes() == {}
    assert "198.18." not in root_state()[1]
    outside = subprocess.run(net.run_in("member-1", ["ip", "route", "get", "192.0.2.1"]), capture_output=True, text=True)
    assert outside.returncode != 0 and "unreachable" in outside.stderr


def test_a_partition_cuts_a_member_off_from_the_others_but_not_from_the_controller(net):
    net.partition("member-2", ["member-1", "member-3"], cut=True)
    assert not reaches(net, "member-1", "member-2") and not reaches(net, "member-2", "member-3")
    assert reaches(net, CONTROLLER, "member-2") and reaches(net, "member-1", "member-3")
    net.partition("member-2", ["member-1", "member-3"], cut=False)
    assert reaches(net, "member-1", "member-2") and reaches(net, "member-2", "member-3")


@pytest.mark.parametrize("reaped", [True, False], ids=["reaped", "a zombie its parent has not reaped"])
def test_a_run_whose_runner_died_is_swept_with_its_processes(reaped):
    emulated = EmulatedNetwork(uuid.uuid4().hex[:8], ["member-1"])
    emulated.create()
    sleeper = subprocess.Popen(emulated.run_in("member-1", ["sleep", "600"]))
    runner = subprocess.Popen(["true"])
    if reaped:
        runner.wait()
    else:
        while Path(f"/proc/{runner.pid}/stat").read_text().split(") ")[1][0] != "Z":
            time.sleep(0.01)
    (network.OWNERS / emulated.run_id).write_text(f"{runner.pid}\n")
    assert emulated.run_id in network.sweep_abandoned()
    assert sleeper.wait(10) == -9
    assert network.namespaces(f"{network.PREFIX}{emulated.run_id}-") == []
    runner.wait()
