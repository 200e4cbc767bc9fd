"""A remote cluster's plan: one followed SSH process per member host, each forwarding a Unix socket
to its member's API, and the job for all of them submitted to member-1; active-active: two copies,
each a cluster of its own hosts, and the result consumer followed on its host."""
from pathlib import Path, PurePosixPath

import pytest

from fournines.members.secret import api_token
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.remote.commands import Ports, RemoteHost
from fournines.targets.remote.active_active import CONSUMER_PORT, consumer_command, copy_member_commands
from fournines.targets.remote.plan import remote_active_active, remote_cluster

HOME = PurePosixPath("/opt/fournines")


def ssh(group: str, host: RemoteHost, remote: list[str], forward: str | None) -> list[str]:
    return ["ssh", *(["-L", forward] if forward else []), host.private_ip, *remote]


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


def test_active_active_runs_two_clusters_of_hosts_and_follows_the_consumer_on_its_host(tmp_path):
    scenario = load_scenario("q5", parse_overrides(["CLUSTER=4", "MODE=active-active", "TARGET=aws"]))
    members = [RemoteHost(f"member-{i}", f"10.0.0.{i}", HOME) for i in (1, 2, 3, 4)]
    consumer = RemoteHost("loadgen-1", "10.0.3.1", HOME)
    merged = []
    plan = remote_active_active(scenario, members, consumer, ssh, Ports(5701, 5801), "s" * 64, tmp_path / "run",
                                tmp_path / "sockets", lambda copies, folders: merged.append((copies, folders)))
    assert [(job.name, job.members, job.copy, job.spec["cluster"]["members"]) for job in plan.jobs] == [
        ("copy 1", [0, 1], 1, 2), ("copy 2", [2, 3], 2, 2)]
    consumer_process = plan.processes[plan.consumer]
    assert consumer_process.command == ["ssh", "10.0.3.1", "/opt/fournines/bin/fournines-service", "consumer", "follow"]
    assert (consumer_process.folder, consumer_process.serves, plan.start_lead_s > 0) == (tmp_path / "run" / "consumer", True, True)
    plan.merge()
    assert merged == [(plan.jobs, [tmp_path / "run" / f"member-{i}" for i in (1, 2, 3, 4)])]

    commands = copy_member_commands(scenario, False, members, "run", Ports(5701, 5801))
    lists = {name: command[command.index("--members") + 1] for name, command in commands.items()}
    indexes = {name: command[command.index("--index") + 1] for name, command in commands.items()}
    assert lists == {"member-1": "10.0.0.1:5701,10.0.0.2:5701", "member-2": "10.0.0.1:5701,10.0.0.2:5701",
                     "member-3": "10.0.0.3:5701,10.0.0.4:5701", "member-4": "10.0.0.3:5701,10.0.0.4:5701"}
    assert indexes == {"member-1": "0", "member-2": "1", "member-3": "0", "member-4": "1"}
    consume = consumer_command(scenario, False, consumer, "run", 4)
    assert consume[consume.index("-jar") + 1:consume.index("-jar") + 3] == ["/opt/fournines/lib/fournines-member.jar", "consume"]
    assert (consume[consume.index("--listen") + 1], consume[consume.index("--members-per-copy") + 1]) == (f"10.0.3.1:{CONSUMER_PORT}", "2")
    assert consume[consume.index("--out") + 1] == "/opt/fournines/runs/run/consumer"
