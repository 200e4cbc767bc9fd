"""A remote cluster whose hosts are up and whose inventory is written (TARGET=aws after terraform;
TARGET=hosts after building the emulated hosts), and the two ways the runner reaches it: an
infra/ansible playbook, or one command over SSH on one host.

Every command that reaches the hosts goes through `Cluster.reach` (nothing on AWS; on emulated
hosts, into the controller's network namespace: the root namespace has no route to them).
"""
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from fournines import REPO_ROOT
from fournines.targets.remote.commands import Ports, RemoteHost
from fournines_analysis.errors import write_text

ANSIBLE_DIR = REPO_ROOT / "infra" / "ansible"


class ExtraHostsRefused(Exception):
    """The brokers or load generator hosts asked for cannot carry the scenario; nothing was started."""


@dataclass(frozen=True)
class ExtraHosts:
    """The hosts a remote cluster has besides its members."""
    brokers: int
    loadgens: int  # the harness's own hosts: the load generators, and an active-active run's result consumer


def host_counts(kafka: bool, env=os.environ, consumer: bool = False) -> ExtraHosts:
    """BROKERS and LOADGENS from the environment; defaults: 3 brokers for a Kafka load, 1 load generator
    host for a Kafka load or a result consumer (active-active), else none."""
    return ExtraHosts(_count(env, "BROKERS", 3 if kafka else 0), _count(env, "LOADGENS", 1 if kafka or consumer else 0))


def _count(env, name: str, default: int) -> int:
    text = env.get(name)
    if text is None:
        return default
    if not re.fullmatch(r"\d{1,3}", text):
        raise ExtraHostsRefused(f"{name}={text}: must be a whole number of hosts")
    return int(text)


@dataclass(frozen=True)
class Cluster:
    inventory_path: Path
    inventory: dict  # its `all`, as read: where to reach each host and with which key
    home: Callable[[dict], PurePosixPath]  # a host's fournines_home, from its inventory variables
    ports: Ports
    secret: str  # the members' shared secret
    private: Path  # a folder of the runner's own (mode 0700): the variables file holds the secret
    sudo: list[str]  # what a remote command is prefixed with to run as root ([] when the SSH user is root)
    kafka_cluster_id: str = ""  # the brokers' KRaft cluster id (a Kafka load): 22 characters, one per set of brokers
    reach: Callable[[list[str]], list[str]] = lambda argv: argv
    members_per_machine: int = 1  # members sharing one machine's memory (emulated hosts)
    # partition(host, others, cut): the traffic between host and others cut (True) or let through again;
    # a FaultError if it cannot be. None: the runner does not own the hosts' network (AWS).
    partition: Callable[[str, list[str], bool], None] | None = None

    def hosts(self, group: str) -> list[RemoteHost]:
        """The inventory's `group` (members, brokers, loadgens) as hosts, in index order (member-1, ...)."""
        found = self.inventory["children"].get(group, {}).get("hosts") or {}
        return [RemoteHost(name, host["private_ip"], self.home(host)) for name, host in found.items()]

    @property
    def members(self) -> list[RemoteHost]:
        return self.hosts("members")

    def ssh(self, group: str, host: RemoteHost, remote: list[str], forward: str | None = None) -> list[str]:
        """ssh to a host of `group`, running `remote` there as root; `forward`: an -L forwarding."""
        inventory = self.inventory
        address = inventory["children"][group]["hosts"][host.name]["ansible_host"]
        options = inventory["vars"]["ansible_ssh_common_args"].split()
        forwarding = ["-o", "ExitOnForwardFailure=yes", "-o", "StreamLocalBindUnlink=yes", "-L", forward] if forward else []
        # ssh hands the remote command to the host's shell as one string: each argument quoted once.
        return self.reach(["ssh", "-i", inventory["vars"]["ansible_ssh_private_key_file"], "-o", "BatchMode=yes",
                           "-o", "ServerAliveInterval=10", *forwarding, *options,
                           f"{inventory['vars']['ansible_user']}@{address}", shlex.join([*self.sudo, *remote])])


def ansible_playbook() -> str:
    return str(Path(sys.executable).with_name("ansible-playbook"))


def playbook(cluster: Cluster, name: str, extra: dict, check: bool = True, limit: str | None = None) -> None:
    """infra/ansible/`name` on the cluster with the run's variables; `limit`: only these hosts (a group)."""
    variables = cluster.private / "run-vars.json"  # holds the secret: mode 0600
    variables.touch(mode=0o600)
    write_text(variables, json.dumps(extra))
    # SSH's shared connections in the run's own folder: two runs' hosts may have the same address
    # (emulated hosts always do), and one would talk to the other's hosts through ~/.ansible/cp.
    env = {**os.environ, "ANSIBLE_CONFIG": str(ANSIBLE_DIR / "ansible.cfg"),
           "ANSIBLE_SSH_CONTROL_PATH_DIR": str(cluster.private / "ssh-control")}
    subprocess.run(cluster.reach([ansible_playbook(), "-i", str(cluster.inventory_path), "-e", f"@{variables}",
                                  *(["--limit", limit] if limit else []), str(ANSIBLE_DIR / name)]),
                   cwd=ANSIBLE_DIR, env=env, check=check)
