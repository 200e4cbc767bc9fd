"""TARGET=aws: the same run as the local target, on an EC2 cluster.

What is shared with the local target: the resolved scenario (scenario.json), the member's JVM flags
and command line (members/jvm.py), the results folder's name and layout, following the member's
progress and judging its exit (targets/local/play.py), run.json and the report (results/finish.py).
What differs: the member runs as a systemd unit on member-1 (infra/ansible), the runner follows it
over SSH (fournines-follow), and collect.yml brings the files back before run.json is written.

Order: settings, cost and confirmation are checked before anything is created; then terraform apply
(a cluster already up is reused, resized if needed), inventory, deploy, start, follow, collect,
report. The cluster stays up for the next run; how to tear it down is printed every time.
"""
import json
import os
import subprocess
import sys
from pathlib import Path, PurePosixPath

import yaml

from fournines import REPO_ROOT
from fournines.members.jvm import jvm_flags, member_command
from fournines.members.progress_display import ProgressDisplay
from fournines.results.finish import finish
from fournines.results.folder import new_results_folder
from fournines.results.host_context import host_context
from fournines.results.outcome import EXIT_BAD_REQUEST, EXIT_FAILED, Outcome
from fournines.targets.aws import cluster as aws_cluster
from fournines.targets.aws.inventory import InventoryError, write_inventory
from fournines.targets.local.plan import lone
from fournines.targets.local.play import play
from fournines_analysis.errors import write_text

ANSIBLE_DIR = REPO_ROOT / "infra" / "ansible"
REMOTE_HOME = PurePosixPath("/opt/fournines")  # fournines_home in infra/ansible/group_vars/all.yml
REMOTE_JAR = REMOTE_HOME / "lib" / "fournines-member.jar"  # where infra/ansible's member role installs it
_HOST_FIELDS = ("host", "cpu_model", "cores", "kernel", "instance_type")


class AwsRefused(Exception):
    """The run cannot start on AWS; nothing was created."""


def check(scenario: dict) -> tuple[aws_cluster.Shape, aws_cluster.Operator]:
    """Everything that can be wrong before any cost is incurred, and the operator's confirmation."""
    if scenario["load"]["source"] != "in-process":
        raise AwsRefused("target=aws: load.source=kafka needs the Kafka module's broker jars and load generator "
                         "wired into infra/ansible (kafka_libs_dir, loadgen_jar); not yet")
    playbook = _ansible_playbook()
    if not Path(playbook).exists():
        raise AwsRefused(f"{playbook}: missing; run `make venv` (requirements.txt pins ansible-core)")
    try:
        op = aws_cluster.operator()
        cluster = aws_cluster.shape_of_scenario(scenario)
        estimate = aws_cluster.cost(cluster, op.region)
        print(aws_cluster.TEARDOWN, file=sys.stderr)
        aws_cluster.confirm(estimate)
    except aws_cluster.ClusterRefused as e:
        raise AwsRefused(str(e)) from None
    return cluster, op


def run(scenario: dict, jar: Path, profile: bool, results_root: Path) -> int:
    """Plays a prepared scenario on EC2; returns the runner's exit code (cli/run.py lists them)."""
    try:
        cluster, op = check(scenario)
    except AwsRefused as e:
        print(str(e), file=sys.stderr)
        return EXIT_BAD_REQUEST
    try:
        inventory_path = _provision(cluster, op)
        run_dir = new_results_folder(scenario["name"], results_root)
        print(f"results: {run_dir}", file=sys.stderr)
        write_text(run_dir / "scenario.json", json.dumps(scenario, indent=2) + "\n")
        flags = jvm_flags(scenario, profile)
        # member_command resolves its paths on this machine, where /opt/fournines does not exist, so
        # they stay as given: the paths on the hosts.
        command = member_command(Path(REMOTE_JAR), flags, Path(REMOTE_HOME / "runs" / run_dir.name))
        extra = {"fournines_run_name": run_dir.name, "fournines_scenario": scenario, "fournines_results": str(run_dir),
                 "member_jar": str(jar.resolve()), "member_command": command,
                 "member_cluster_secret": aws_cluster.member_secret()}
        context = host_context()
        outcome = _play_remotely(scenario, run_dir, inventory_path, extra)
        context.update(_remote_host(run_dir))
        return finish(run_dir, scenario, context, flags, command, outcome, profile)
    except (aws_cluster.ClusterFailed, InventoryError, subprocess.CalledProcessError) as e:
        print(f"aws: {e}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:  # during terraform, before any member started
        print("aws: interrupted before the run started", file=sys.stderr)
        return 130
    finally:
        print(aws_cluster.TEARDOWN, file=sys.stderr)


def _provision(cluster: aws_cluster.Shape, op: aws_cluster.Operator) -> Path:
    aws_cluster.apply(cluster, op)
    state = aws_cluster.state_dir()
    path = state / "inventory.yml"
    write_inventory(aws_cluster.outputs(), path, op.ssh_key, state / "known_hosts", "terraform output -json")
    return path


def _play_remotely(scenario: dict, run_dir: Path, inventory_path: Path, extra: dict) -> Outcome:
    """deploy.yml, start.yml, then member-1 followed like a local member; stop.yml if the run did
    not end by itself; collect.yml whatever happened."""
    total_s = scenario["warmup_s"] + scenario["duration_s"]
    try:
        _playbook("deploy.yml", inventory_path, extra)
        _playbook("start.yml", inventory_path, extra)
        display = ProgressDisplay(scenario["name"], total_s)
        outcome = play(lone(_ssh_to_member_1(inventory_path, "sudo", "fournines-follow"), run_dir), display, total_s)
    except subprocess.CalledProcessError as e:
        outcome = Outcome("failed", f"{Path(e.cmd[-1]).name} failed (exit {e.returncode}); see its output above",
                          EXIT_FAILED)
    except KeyboardInterrupt:  # during deploy.yml or start.yml: some members may be up
        outcome = Outcome("interrupted", "stopped by SIGINT before the run started", 130)
    if outcome.status != "completed":
        _playbook("stop.yml", inventory_path, extra, check=False)
    _playbook("collect.yml", inventory_path, extra, check=False)
    return outcome


def _remote_host(run_dir: Path) -> dict:
    """member-1's host facts (collect.yml writes host.json), replacing the operator's machine's."""
    try:
        facts = json.loads((run_dir / "host.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        print(f"warning: no host facts from member-1 ({e}); run.json describes this machine", file=sys.stderr)
        return {}
    return {name: facts[name] for name in _HOST_FIELDS if name in facts}


def _ssh_to_member_1(inventory_path: Path, *remote: str) -> list[str]:
    inventory = yaml.safe_load(inventory_path.read_text(encoding="utf-8"))["all"]
    host = inventory["children"]["members"]["hosts"]["member-1"]
    options = inventory["vars"]["ansible_ssh_common_args"].split()
    return ["ssh", "-i", inventory["vars"]["ansible_ssh_private_key_file"], "-o", "BatchMode=yes",
            "-o", "ServerAliveInterval=10", *options, f"{inventory['vars']['ansible_user']}@{host['ansible_host']}",
            *remote]


def _ansible_playbook() -> str:
    return str(Path(sys.executable).with_name("ansible-playbook"))


def _playbook(name: str, inventory_path: Path, extra: dict, check: bool = True) -> None:
    variables = aws_cluster.state_dir() / "run-vars.json"  # holds the secret: mode 0600
    variables.touch(mode=0o600)
    write_text(variables, json.dumps(extra))
    env = {**os.environ, "ANSIBLE_CONFIG": str(ANSIBLE_DIR / "ansible.cfg")}
    subprocess.run([_ansible_playbook(), "-i", str(inventory_path), "-e", f"@{variables}", str(ANSIBLE_DIR / name)],
                   cwd=ANSIBLE_DIR, env=env, check=check)
