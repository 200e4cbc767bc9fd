"""A remote cluster's plan: one followed SSH process per member host, each forwarding a Unix socket
to its member's API, and the job for all of them submitted to member-1."""
from pathlib import Path, PurePosixPath

import pytest

from fournines.members.secret import api_token
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.remote.commands import Ports, RemoteHost
from fournines.targets.remote.plan import remote_cluster

HOME = PurePosixPath("/opt/fournines")


def ssh(host: RemoteHost, remote: list[str], forward: str) -> list[str]:
    return ["ssh", "-L", forward, host.private_ip, *remote]


def test_each_member_is_followed_over_ssh_and_reached_through_its_socket(tmp_path):
    scenario = load_scenario("q5", parse_overrides(["CLUSTER=3", "TARGET=aws"]))
    members = [RemoteHost(f"member-{i}", f"10.0.0.{i}", HOME) for i in (1, 2, 3)]
    plan = remote_cluster(scenario, members, ssh, Ports(5701, 5801), "s" * 64, tmp_path / "run", tmp_path / "sockets")
    assert [p.command for p in plan.processes] == [
        ["ssh", "-L", f"{tmp_path}/sockets/member-{i}.sock:127.0.0.1:5801", f"10.0.0.{i}",
         "/opt/fournines/bin/fournines-service", "member", "follow"] for i in (1, 2, 3)]
    assert [p.api for p in plan.processes] == [f"unix:{tmp_path}/sockets/member-{i}.sock" for i in (1, 2, 3)]
    assert [p.folder for p in plan.processes] == [tmp_path / "run" / f"member-{i}" for i in (1, 2, 3)]
    assert all(p.serves for p in plan.processes)
    [job] = plan.jobs
    assert job.members == [0, 1, 2] and job.spec["cluster"]["members"] == 3 and job.spec["faults"] == []
    assert plan.token == api_token("s" * 64)


def test_an_inventory_whose_members_are_not_numbered_in_order_is_refused(tmp_path):
    scenario = load_scenario("q5", parse_overrides(["CLUSTER=2"]))
    members = [RemoteHost("member-2", "10.0.0.2", HOME), RemoteHost("member-1", "10.0.0.1", HOME)]
    with pytest.raises(ValueError, match="member 1 is named member-2; expected member-1"):
        remote_cluster(scenario, members, ssh, Ports(5701, 5801), "s" * 64, tmp_path, tmp_path)
