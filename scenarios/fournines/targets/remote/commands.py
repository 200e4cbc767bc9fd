"""What each member host of a remote cluster (TARGET=aws, TARGET=hosts) runs, made by the same code
as the local target's commands (members/jvm.py): every member `serve`s, even a lone one, listed by
its host's private address, with the cluster secret that deploy.yml writes on its host, and its
management API on the host's loopback only (the runner reaches it through SSH). The paths are those
on the host, under its `fournines_home`.
"""
import functools
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from fournines.members.heap import shared_heap_flags
from fournines.members.jvm import MemberAddresses, command_prefix, java_binary, jvm_flags, member_command, serve_command

# Where infra/ansible puts them under fournines_home (group_vars/all.yml, roles/member).
MEMBER_JAR = PurePosixPath("lib/fournines-member.jar")
SECRET_FILE = PurePosixPath("cluster-secret")


@dataclass(frozen=True)
class RemoteHost:
    name: str  # as in the inventory: member-1, broker-2, ...
    private_ip: str  # where the cluster's other hosts reach it
    home: PurePosixPath  # fournines_home on it


@dataclass(frozen=True)
class Ports:
    member: int  # the members' own connections
    management: int  # each member's management API, on its host's loopback


def run_dir(host: RemoteHost, run_name: str) -> PurePosixPath:
    """The run's directory on the host (fournines_run_dir), where its member writes."""
    return host.home / "runs" / run_name


def member_commands(scenario: dict, profile: bool, members: list[RemoteHost], run_name: str, ports: Ports,
                    members_per_machine: int = 1) -> dict[str, list[str]]:
    """Each member host's command line, by host name (the member role's `member_commands`); the heap
    is shared by `members_per_machine` (emulated hosts share one machine)."""
    flags = jvm_flags(scenario, profile)
    if members_per_machine > 1:
        flags = shared_heap_flags(flags, members_per_machine)
    addresses = MemberAddresses([f"{host.private_ip}:{ports.member}" for host in members])
    commands = {}
    for index, host in enumerate(members):
        folder = Path(run_dir(host, run_name))
        # member_command resolves its paths on this machine; a host's absolute path that does not
        # exist here stays as given.
        prefix = command_prefix(functools.partial(member_command, Path(host.home / MEMBER_JAR), java_binary(scenario)), flags, folder)
        commands[host.name] = serve_command(prefix, index, addresses, Path(host.home / SECRET_FILE),
                                            f"127.0.0.1:{ports.management}", folder)
    return commands
