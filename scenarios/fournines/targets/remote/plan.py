"""A remote cluster's run as a plan for the one play loop (targets/local/play.py): each member host's
service (started by start.yml) followed over SSH with `fournines-service member follow`, which
streams the member's output from its start and ends with its exit code; the same SSH connection
forwards a Unix socket here to the member's management API on its host's loopback, where the runner
submits the job to member-1 and asks how it is doing. The members' files come back with collect.yml
into member-<i>/ (the inventory's host names), and are merged as a local cluster's are.

Active-active: the members are two clusters of cluster.members / 2 (copy 1: member-1 … member-k,
copy 2: the rest, as locally), each sent its copy of the job, and the result consumer's service on
its host (remote/active_active.py) is followed the same way; its `ready` line says where the copies
send their results, and its progress is the run's, as a local consumer's.
"""
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from fournines.members.management_api import UNIX
from fournines.members.secret import api_token
from fournines.results.folder import consumer_dir, member_dir
from fournines.results.member_merge import merge_members
from fournines.targets.local.plan import COPIES, START_LEAD_S, Job, Plan, Process, RemoteMembers, copy_job
from fournines.targets.remote.commands import Ports, RemoteHost

# ssh's command line to a host of an inventory group ("members", "loadgens") running `remote` (a list
# of arguments) there, with `forward` if given (an -L forwarding: LOCAL_SOCKET:127.0.0.1:PORT).
Ssh = Callable[[str, RemoteHost, list[str], str | None], list[str]]


def service_control(host: RemoteHost) -> str:
    """fournines-service on the host (fournines_bin_dir in infra/ansible/group_vars/all.yml)."""
    return str(host.home / PurePosixPath("bin/fournines-service"))


def remote_cluster(scenario: dict, members: list[RemoteHost], ssh: Ssh, ports: Ports, secret: str, run_dir: Path,
                   sockets: Path, job_fields: dict | None = None, remote: RemoteMembers | None = None) -> Plan:
    """`sockets`: a short local folder (a Unix socket's path is at most 107 bytes) for the API forwards;
    `job_fields`: added to the job (a Kafka load's endpoint); `remote`: how faults reach the members."""
    processes, folders = _followed_members(members, ssh, ports, run_dir, sockets)
    job = Job("the job", list(range(len(processes))), {**scenario, "faults": [], **(job_fields or {})})
    return Plan(processes, [job], token=api_token(secret), merge=lambda: merge_members(run_dir, folders), remote=remote)


def remote_active_active(scenario: dict, members: list[RemoteHost], consumer: RemoteHost, ssh: Ssh, ports: Ports,
                         secret: str, run_dir: Path, sockets: Path, merge: Callable[[list[Job], list[Path]], None],
                         remote: RemoteMembers | None = None) -> Plan:
    """Two copies on the members and the result consumer on `consumer`'s host; `merge(copies, folders)`
    brings the consumer's files next to the members' and merges them (active_active.py)."""
    processes, folders = _followed_members(members, ssh, ports, run_dir, sockets)
    k = len(members) // COPIES
    copies = [Job(f"copy {c + 1}", list(range(c * k, (c + 1) * k)), copy_job(scenario, k), copy=c + 1)
              for c in range(COPIES)]
    processes.append(Process("consumer", "the result consumer", ssh("loadgens", consumer, [service_control(consumer), "consumer", "follow"], None),
                             consumer_dir(run_dir), "consumer.log", serves=True))
    return Plan(processes, copies, consumer=len(members), token=api_token(secret), start_lead_s=START_LEAD_S,
                merge=lambda: merge(copies, folders), remote=remote)


def _followed_members(members: list[RemoteHost], ssh: Ssh, ports: Ports, run_dir: Path,
                      sockets: Path) -> tuple[list[Process], list[Path]]:
    folders = [member_dir(run_dir, i) for i in range(len(members))]
    processes = []
    for host, folder in zip(members, folders):
        if folder.name != host.name:
            raise ValueError(f"inventory: member {len(processes) + 1} is named {host.name}; expected {folder.name}")
        socket = sockets / f"{host.name}.sock"
        follow = ssh("members", host, [service_control(host), "member", "follow"], f"{socket}:127.0.0.1:{ports.management}")
        processes.append(Process(host.name, host.name, follow, folder, "member.log", serves=True, api=f"{UNIX}{socket}"))
    return processes, folders
