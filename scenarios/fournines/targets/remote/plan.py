"""A remote cluster's run as a plan for the one play loop (targets/local/play.py): each member host's
service (started by start.yml) followed over SSH with `fournines-service member follow`, which
streams the member's output from its start and ends with its exit code; the same SSH connection
forwards a Unix socket here to the member's management API on its host's loopback, where the runner
submits the job to member-1 and asks how it is doing. The members' files come back with collect.yml
into member-<i>/ (the inventory's host names), and are merged as a local cluster's are.
"""
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from fournines.members.management_api import UNIX
from fournines.members.secret import api_token
from fournines.results.folder import member_dir
from fournines.results.member_merge import merge_members
from fournines.targets.local.plan import Job, Plan, Process
from fournines.targets.remote.commands import Ports, RemoteHost

# ssh's command line to a member host running `remote` (a list of arguments) there, with `forward`
# (an -L forwarding: LOCAL_SOCKET:127.0.0.1:PORT).
Ssh = Callable[[RemoteHost, list[str], str], list[str]]


def service_control(host: RemoteHost) -> str:
    """fournines-service on the host (fournines_bin_dir in infra/ansible/group_vars/all.yml)."""
    return str(host.home / PurePosixPath("bin/fournines-service"))


def remote_cluster(scenario: dict, members: list[RemoteHost], ssh: Ssh, ports: Ports, secret: str, run_dir: Path,
                   sockets: Path, job_fields: dict | None = None) -> Plan:
    """`sockets`: a short local folder (a Unix socket's path is at most 107 bytes) for the API forwards;
    `job_fields`: added to the job (a Kafka load's endpoint)."""
    folders = [member_dir(run_dir, i) for i in range(len(members))]
    processes = []
    for host, folder in zip(members, folders):
        if folder.name != host.name:
            raise ValueError(f"inventory: member {len(processes) + 1} is named {host.name}; expected {folder.name}")
        socket = sockets / f"{host.name}.sock"
        follow = ssh(host, [service_control(host), "member", "follow"], f"{socket}:127.0.0.1:{ports.management}")
        processes.append(Process(host.name, host.name, follow, folder, "member.log", serves=True, api=f"{UNIX}{socket}"))
    job = Job("the job", list(range(len(processes))), {**scenario, "faults": [], **(job_fields or {})})
    return Plan(processes, [job], token=api_token(secret), merge=lambda: merge_members(run_dir, folders))
