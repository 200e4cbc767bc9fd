"""TARGET=hosts: the AWS target's path (targets/remote, infra/ansible over SSH) on emulated hosts on
this machine, so the multi-host path is proven offline.

Order: the checks (root, iproute2, openssh-server, installed if missing), runs abandoned by a killed
runner swept; then the hosts' network (network.py: a namespace per member and one for the
controller, on a bridge in its own namespace, 198.18.0.0/24), an SSH server in each (ssh_servers.py),
the Ansible inventory (each host its own fournines_home and system-path root under the run's state
folder, the process manager instead of systemd, nothing applied to this machine), then the very run
TARGET=aws makes (remote/run.py), with every SSH and Ansible command run in the controller's
namespace; a partition fault blackholes the routes between a member and the others inside their
namespaces. Whatever happens (an error, Ctrl-C, a crash of the runner's code), the namespaces, their
processes, the keys and the hosts' folders are removed on the way out.
"""
import functools
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
from fournines.targets.local.faults import FaultError
from fournines.targets.remote.commands import Ports
from fournines.targets.remote.active_active import check_consumer_host
from fournines.targets.remote.cluster import Cluster, ExtraHosts, ExtraHostsRefused, host_counts
from fournines.targets.remote.kafka import check_kafka_hosts, new_kafka_cluster_id
from fournines.targets.remote.run import run_on
from fournines_analysis.errors import write_text

STATE_PREFIX = "fournines-hosts-"  # a run's folder in the temporary directory: its SSH keys and inventory, named with its run id
PORTS = Ports(member=5701, management=5801)
PYTHON = "/usr/bin/python3"  # what Ansible runs its modules with on the hosts: this machine's
# A broker shares this machine with every other host: a small heap (the kafka role's is an i3.2xlarge's).
BROKER_JVM_FLAGS = ["-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20", "-Djava.awt.headless=true"]


class HostsRefused(Exception):
    """The run cannot start on emulated hosts; nothing was made."""


def check(scenario: dict) -> ExtraHosts:
    """The hosts besides the members (brokers, load generators), once everything is checked."""
    try:
        hosts = host_counts(scenario["load"]["source"] == "kafka", consumer=scenario["mode"] == "active-active")
        check_kafka_hosts(scenario, hosts)
        check_consumer_host(scenario, hosts)
        require_root()
        ensure_openssh()
    except (NetworkError, ExtraHostsRefused) as e:
        raise HostsRefused(str(e)) from None
    return hosts


def run(scenario: dict, jar: Path, profile: bool, results_root: Path) -> int:
    """Plays a prepared scenario on emulated hosts; returns the runner's exit code (cli/run.py lists them)."""
    try:
        kafka = check(scenario)
    except HostsRefused as e:
        print(str(e), file=sys.stderr)
        return EXIT_BAD_REQUEST
    for swept in sweep_abandoned():
        for state in Path(tempfile.gettempdir()).glob(f"{STATE_PREFIX}{swept}-*"):
            shutil.rmtree(state, ignore_errors=True)  # its SSH keys and inventory
        print(f"hosts: removed the emulated hosts of run {swept}, whose runner had died", file=sys.stderr)
    run_dir = new_results_folder(scenario["name"], results_root)
    print(f"results: {run_dir}", file=sys.stderr)
    write_text(run_dir / "scenario.json", json.dumps(scenario, indent=2) + "\n")
    run_id = secrets.token_hex(4)
    state = Path(tempfile.mkdtemp(prefix=f"{STATE_PREFIX}{run_id}-"))
    groups = {"members": _named("member", scenario["cluster"]["members"]), "brokers": _named("broker", kafka.brokers),
              "loadgens": _named("loadgen", kafka.loadgens)}
    hosts = [name for names in groups.values() for name in names]
    net = EmulatedNetwork(run_id, hosts)
    previous = signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM, like Ctrl-C, still tears the hosts down
    try:
        print(f"hosts: {len(hosts)} emulated hosts ({', '.join(hosts)}) in network namespaces {net.namespace('*')}",
              file=sys.stderr)
        net.create()
        keys = start_ssh_servers(net, state / "ssh")
        inventory_path, inventory = write_inventory(net, groups, keys, state)
        cluster = Cluster(inventory_path, inventory, lambda host: PurePosixPath(host["fournines_home"]),
                          PORTS, secrets.token_hex(32), state, sudo=[], kafka_cluster_id=new_kafka_cluster_id(),
                          reach=lambda argv: net.run_in(CONTROLLER, argv), members_per_machine=len(groups["members"]),
                          partition=functools.partial(_partition, net))
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


def _partition(net: EmulatedNetwork, host: str, others: list[str], cut: bool) -> None:
    """A partition fault on the emulated network: routes blackholed inside the hosts' own namespaces."""
    try:
        net.partition(host, others, cut)
    except NetworkError as e:
        raise FaultError(f"{host}: {'cut' if cut else 'heal'}: {e}") from None


def _named(role: str, count: int) -> list[str]:
    return [f"{role}-{i + 1}" for i in range(count)]


def write_inventory(net: EmulatedNetwork, groups: dict[str, list[str]], keys: SshKeys, state: Path) -> tuple[Path, dict]:
    """The inventory TARGET=aws writes from Terraform's outputs, for the emulated hosts (`groups`: the
    host names of members, brokers and loadgens): root over SSH with the run's key, and per host a
    home and a root for system paths of its own under `state`; a broker's data there too, and a heap
    for a machine it shares. Its path and its `all`."""
    def host(name: str, index: int) -> dict:
        folder = state / "hosts" / name
        # Per host: a host's own variables take precedence over infra/ansible/group_vars/all.yml, the inventory's `all` do not.
        found = {"ansible_host": net.addresses[name], "private_ip": net.addresses[name], "host_index": index,
                 "instance_type": "emulated", "fournines_home": str(folder / "home"), "fournines_fs_root": str(folder / "root"),
                 "fournines_service_manager": "process", "fournines_apply_system": False, "fournines_user": "root"}
        if name in groups["brokers"]:
            found |= {"kafka_data_dir": str(folder / "kafka-data"), "kafka_jvm_flags": BROKER_JVM_FLAGS}
        return found
    inventory = {"all": {
        "vars": {"ansible_user": "root", "ansible_ssh_private_key_file": str(keys.client),
                 "ansible_ssh_common_args": f"-o StrictHostKeyChecking=yes -o UserKnownHostsFile={keys.known_hosts}",
                 "ansible_python_interpreter": PYTHON, "member_port": PORTS.member, "member_management_port": PORTS.management},
        "children": {group: {"hosts": {name: host(name, i + 1) for i, name in enumerate(names)}}
                     for group, names in groups.items()},
    }}
    path = state / "inventory.yml"
    path.write_text(yaml.safe_dump(inventory, sort_keys=False), encoding="utf-8")
    return path, inventory["all"]
