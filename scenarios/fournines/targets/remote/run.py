"""One run on a remote cluster whose hosts are up and whose inventory is written (TARGET=aws after
terraform; TARGET=hosts after building the emulated hosts): the variables for infra/ansible (each
member's command line, the secret), deploy.yml, start.yml, the plan played (plan.py), stop.yml if
the run did not end by itself, collect.yml whatever happened, the members' files merged, then
run.json and the report, with member-1's host facts.

Every command that reaches the hosts goes through `Cluster.reach` (nothing on AWS; on emulated
hosts, into the controller's network namespace: the root namespace has no route to them).
"""
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from fournines import REPO_ROOT
from fournines.members.jvm import jvm_flags
from fournines.members.progress_display import ProgressDisplay
from fournines.results.finish import finish
from fournines.results.folder import member_dir
from fournines.results.host_context import host_context
from fournines.results.outcome import EXIT_FAILED, Outcome
from fournines.targets.local.plan import Plan
from fournines.targets.local.play import play
from fournines.targets.remote.commands import Ports, RemoteHost, member_commands
from fournines.targets.remote.plan import remote_cluster
from fournines_analysis.errors import write_text

ANSIBLE_DIR = REPO_ROOT / "infra" / "ansible"
_HOST_FIELDS = ("host", "cpu_model", "cores", "kernel", "instance_type")


@dataclass(frozen=True)
class Cluster:
    inventory_path: Path
    inventory: dict  # its `all`, as read: where to reach each member and with which key
    members: list[RemoteHost]  # in index order, named member-1, member-2, ...
    ports: Ports
    secret: str  # the members' shared secret
    private: Path  # a folder of the runner's own (mode 0700): the variables file holds the secret
    sudo: list[str]  # what a remote command is prefixed with to run as root ([] when the SSH user is root)
    reach: Callable[[list[str]], list[str]] = lambda argv: argv
    members_per_machine: int = 1  # members sharing one machine's memory (emulated hosts)

    @staticmethod
    def members_of(inventory: dict, home: Callable[[dict], PurePosixPath]) -> list[RemoteHost]:
        """The inventory's members group as hosts; `home(host_vars)`: its fournines_home."""
        return [RemoteHost(name, host["private_ip"], home(host)) for name, host in inventory["children"]["members"]["hosts"].items()]


def run_on(cluster: Cluster, scenario: dict, jar: Path, profile: bool, run_dir: Path) -> int:
    """Plays a prepared scenario on the cluster into `run_dir` (made, with scenario.json); the exit code."""
    commands = member_commands(scenario, profile, cluster.members, run_dir.name, cluster.ports, cluster.members_per_machine)
    extra = {"fournines_run_name": run_dir.name, "fournines_scenario": scenario, "fournines_results": str(run_dir),
             "member_jar": str(jar.resolve()), "member_commands": commands, "member_cluster_secret": cluster.secret}
    context = host_context()
    with tempfile.TemporaryDirectory(prefix="fournines-api-") as sockets:
        plan = remote_cluster(scenario, cluster.members, lambda host, socket, port: _ssh(cluster, host, socket, port),
                              cluster.ports, cluster.secret, run_dir, Path(sockets))
        outcome = _play_remotely(cluster, scenario, plan, extra)
    plan.gather_files()
    context.update(_remote_host(run_dir))
    return finish(run_dir, scenario, context, jvm_flags(scenario, profile), commands[cluster.members[0].name], outcome, profile)


def _play_remotely(cluster: Cluster, scenario: dict, plan: Plan, extra: dict) -> Outcome:
    """deploy.yml, start.yml, then every member followed like a local one; stop.yml if the run did
    not end by itself; collect.yml whatever happened."""
    total_s = scenario["warmup_s"] + scenario["duration_s"]
    try:
        playbook(cluster, "deploy.yml", extra)
        playbook(cluster, "start.yml", extra)
        outcome = play(plan, ProgressDisplay(scenario["name"], total_s), total_s)
    except subprocess.CalledProcessError as e:
        outcome = Outcome("failed", f"{Path(e.cmd[-1]).name} failed (exit {e.returncode}); see its output above",
                          EXIT_FAILED)
    except KeyboardInterrupt:  # during deploy.yml or start.yml: some members may be up
        outcome = Outcome("interrupted", "stopped by SIGINT before the run started", 130)
    if outcome.status != "completed":
        playbook(cluster, "stop.yml", extra, check=False)
    playbook(cluster, "collect.yml", extra, check=False)
    return outcome


def _remote_host(run_dir: Path) -> dict:
    """member-1's host facts (collect.yml writes host.json), replacing the operator's machine's."""
    try:
        facts = json.loads((member_dir(run_dir, 0) / "host.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        print(f"warning: no host facts from member-1 ({e}); run.json describes this machine", file=sys.stderr)
        return {}
    return {name: facts[name] for name in _HOST_FIELDS if name in facts}


def _ssh(cluster: Cluster, host: RemoteHost, socket: Path, port: int) -> list[str]:
    """ssh to a member host, as root, forwarding `socket` here to its 127.0.0.1:`port`."""
    inventory = cluster.inventory
    address = inventory["children"]["members"]["hosts"][host.name]["ansible_host"]
    options = inventory["vars"]["ansible_ssh_common_args"].split()
    return cluster.reach(["ssh", "-i", inventory["vars"]["ansible_ssh_private_key_file"], "-o", "BatchMode=yes",
                          "-o", "ServerAliveInterval=10", "-o", "ExitOnForwardFailure=yes",
                          "-o", "StreamLocalBindUnlink=yes", *options, "-L", f"{socket}:127.0.0.1:{port}",
                          f"{inventory['vars']['ansible_user']}@{address}", *cluster.sudo])


def ansible_playbook() -> str:
    return str(Path(sys.executable).with_name("ansible-playbook"))


def playbook(cluster: Cluster, name: str, extra: dict, check: bool = True) -> None:
    variables = cluster.private / "run-vars.json"  # holds the secret: mode 0600
    variables.touch(mode=0o600)
    write_text(variables, json.dumps(extra))
    env = {**os.environ, "ANSIBLE_CONFIG": str(ANSIBLE_DIR / "ansible.cfg")}
    subprocess.run(cluster.reach([ansible_playbook(), "-i", str(cluster.inventory_path), "-e", f"@{variables}",
                                  str(ANSIBLE_DIR / name)]), cwd=ANSIBLE_DIR, env=env, check=check)
