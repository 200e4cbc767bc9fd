"""TARGET=hosts: the AWS target's path (targets/remote, infra/ansible over SSH) on emulated hosts on
this machine, so the multi-host path is proven offline.

Order: the checks (root, iproute2, openssh-server, installed if missing), runs abandoned by a killed
runner swept; then the hosts' network (network.py: a namespace per member and one for the
controller, on a bridge in its own namespace, 198.18.0.0/24), an SSH server in each (ssh_servers.py),
the Ansible inventory (each host its own fournines_home and system-path root under the run's state
folder, the process manager instead of systemd, nothing applied to this machine), then the very run
TARGET=aws makes (remote/run.py), with every SSH and Ansible command run in the controller's
namespace. Whatever happens (an error, Ctrl-C, a crash of the runner's code), the namespaces, their
processes, the keys and the hosts' folders are removed on the way out.
"""
import json
import secrets
import shutil
import signal
import sys
import tempfile
from pathlib import Path, PurePosixPath

import yaml

from fournines.results.folder import new_results_folder
from fournines.results.outcome import EXIT_BAD_REQUEST, EXIT_FAILED
from fournines.targets.hosts.network import CONTROLLER, EmulatedNetwork, NetworkError, require_root, sweep_abandoned
from fournines.targets.hosts.ssh_servers import SshKeys, ensure_openssh, start_ssh_servers
from fournines.targets.remote.commands import Ports
from fournines.targets.remote.run import Cluster, run_on
from fournines_analysis.errors import write_text

PORTS = Ports(member=5701, management=5801)
PYTHON = "/usr/bin/python3"  # what Ansible runs its modules with on the hosts: this machine's


class HostsRefused(Exception):
    """The run cannot start on emulated hosts; nothing was made."""


def check(scenario: dict) -> None:
    try:
        require_root()
        ensure_openssh()
    except NetworkError as e:
        raise HostsRefused(str(e)) from None


def run(scenario: dict, jar: Path, profile: bool, results_root: Path) -> int:
    """Plays a prepared scenario on emulated hosts; returns the runner's exit code (cli/run.py lists them)."""
    try:
        check(scenario)
    except HostsRefused as e:
        print(str(e), file=sys.stderr)
        return EXIT_BAD_REQUEST
    for swept in sweep_abandoned():
        print(f"hosts: removed the emulated hosts of run {swept}, whose runner had died", file=sys.stderr)
    run_dir = new_results_folder(scenario["name"], results_root)
    print(f"results: {run_dir}", file=sys.stderr)
    write_text(run_dir / "scenario.json", json.dumps(scenario, indent=2) + "\n")
    run_id = secrets.token_hex(4)
    state = Path(tempfile.mkdtemp(prefix=f"fournines-hosts-{run_id}-"))
    members = [f"member-{i + 1}" for i in range(scenario["cluster"]["members"])]
    net = EmulatedNetwork(run_id, members)
    previous = signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM, like Ctrl-C, still tears the hosts down
    try:
        print(f"hosts: {len(members)} emulated hosts ({', '.join(members)}) in network namespaces {net.namespace('*')}",
              file=sys.stderr)
        net.create()
        keys = start_ssh_servers(net, state / "ssh")
        inventory_path, inventory = write_inventory(net, keys, state)
        cluster = Cluster(inventory_path, inventory, Cluster.members_of(inventory, lambda host: PurePosixPath(host["fournines_home"])),
                          PORTS, secrets.token_hex(32), state, sudo=[], reach=lambda argv: net.run_in(CONTROLLER, argv),
                          members_per_machine=len(members))
        return run_on(cluster, scenario, jar, profile, run_dir)
    except NetworkError as e:
        print(f"hosts: {e}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:  # while the hosts were being made
        print("hosts: interrupted before the run started", file=sys.stderr)
        return 130
    finally:
        net.teardown()
        shutil.rmtree(state, ignore_errors=True)
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def write_inventory(net: EmulatedNetwork, keys: SshKeys, state: Path) -> tuple[Path, dict]:
    """The inventory TARGET=aws writes from Terraform's outputs, for the emulated hosts: root over SSH
    with the run's key, and per host a home and a root for system paths of its own under `state`.
    Its path and its `all`."""
    def host(name: str, index: int) -> dict:
        folder = state / "hosts" / name
        # Per host: a host's own variables take precedence over infra/ansible/group_vars/all.yml, the inventory's `all` do not.
        return {"ansible_host": net.addresses[name], "private_ip": net.addresses[name], "host_index": index,
                "instance_type": "emulated", "fournines_home": str(folder / "home"), "fournines_fs_root": str(folder / "root"),
                "fournines_service_manager": "process", "fournines_apply_system": False, "fournines_user": "root"}
    inventory = {"all": {
        "vars": {"ansible_user": "root", "ansible_ssh_private_key_file": str(keys.client),
                 "ansible_ssh_common_args": f"-o StrictHostKeyChecking=yes -o UserKnownHostsFile={keys.known_hosts}",
                 "ansible_python_interpreter": PYTHON, "member_port": PORTS.member, "member_management_port": PORTS.management},
        "children": {"members": {"hosts": {name: host(name, i + 1) for i, name in enumerate(net.hosts)}},
                     "brokers": {"hosts": {}}, "loadgens": {"hosts": {}}},
    }}
    path = state / "inventory.yml"
    path.write_text(yaml.safe_dump(inventory, sort_keys=False), encoding="utf-8")
    return path, inventory["all"]
