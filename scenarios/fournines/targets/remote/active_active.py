"""Active-active on a remote target (TARGET=aws, TARGET=hosts), as locally (targets/local/plan.py):
two copies of the job on two clusters of cluster.members / 2 member hosts, each cluster with its own
member list of its hosts' private addresses, and the result consumer (the member jar's `consume`)
keeping the first copy of each result. The consumer runs as a service of its own on the first load
generator host, the harness's side of the cluster (infra/ansible roles/consumer), listening on that
host's private address; it writes into consumer/ of the run directory there, which collect.yml
brings back into loadgen-1/consumer/ and the merge moves to consumer/, where a local run has it.
"""
import functools
import shutil
from pathlib import Path

from fournines.members.jvm import consume_command, java_binary, jvm_flags, member_command
from fournines.results.folder import consumer_dir
from fournines.results.member_merge import CopyResult, merge_active_active
from fournines.targets.local.plan import COPIES, Job
from fournines.targets.remote.cluster import ExtraHosts, ExtraHostsRefused
from fournines.targets.remote.commands import MEMBER_JAR, Ports, RemoteHost, member_commands, run_dir as host_run_dir

CONSUMER_PORT = 5901  # consumer_port in infra/terraform/aws/variables.tf, the emulated hosts' too


def check_consumer_host(scenario: dict, hosts: ExtraHosts) -> None:
    """ExtraHostsRefused if an active-active run has no host for its result consumer."""
    if scenario["mode"] == "active-active" and hosts.loadgens < 1:
        raise ExtraHostsRefused("LOADGENS=0: an active-active run's result consumer runs on the first load generator host")


def copy_member_commands(scenario: dict, profile: bool, members: list[RemoteHost], run_name: str, ports: Ports,
                         members_per_machine: int = 1) -> dict[str, list[str]]:
    """Each member host's command line, by host name: each copy's members a cluster of their own."""
    k = len(members) // COPIES
    commands = {}
    for c in range(COPIES):
        commands |= member_commands(scenario, profile, members[c * k:(c + 1) * k], run_name, ports, members_per_machine)
    return commands


def consumer_command(scenario: dict, profile: bool, host: RemoteHost, run_name: str, members: int,
                     port: int = CONSUMER_PORT) -> list[str]:
    """The consumer host's command line: `consume` of the member jar on it, listening on its private
    address and `port` (consumer_port in the inventory), writing into consumer/ of the run."""
    folder = Path(host_run_dir(host, run_name) / "consumer")
    launcher = functools.partial(member_command, Path(host.home / MEMBER_JAR), java_binary(scenario))
    return [*consume_command(launcher, jvm_flags(scenario, profile), folder, folder, COPIES, members // COPIES,
                             record_results=False),
            "--listen", f"{host.private_ip}:{port}"]


def merge_copies(run_dir: Path, consumer: RemoteHost, copies: list[Job], folders: list[Path]) -> None:
    """The consumer's collected files moved to consumer/ (beside its followed output), then the run's
    files merged as a local active-active run's."""
    collected = run_dir / consumer.name / "consumer"
    if collected.is_dir():
        shutil.copytree(collected, consumer_dir(run_dir), dirs_exist_ok=True)
        shutil.rmtree(collected)
    merge_active_active(run_dir, [CopyResult(c.copy, [folders[i] for i in c.members], c.id, c.lost) for c in copies])
