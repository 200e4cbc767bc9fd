"""TARGET=aws: the same run as the local target, on an EC2 cluster.

What is shared with the local target: the resolved scenario (scenario.json), the members' JVM flags
and command lines (members/jvm.py: every member `serve`s, as in a local cluster), the results
folder's name and layout (member-<i>/, merged), following the members' progress and judging their
exits and the job's state (targets/local/play.py), run.json and the report (results/finish.py).
What differs (targets/remote): each member runs as a systemd unit on its host (infra/ansible), listed
by the hosts' private addresses; the runner follows each over SSH, submits the job to member-1's API
through a Unix socket that SSH forwards to the host's loopback, and collect.yml brings every host's
files back before run.json is written.

Order: settings, cost and confirmation are checked before anything is created; then terraform apply
(a cluster already up is reused, resized if needed), inventory, deploy, start, follow, collect,
report. The cluster stays up for the next run; how to tear it down is printed every time.
"""
import json
import subprocess
import sys
from pathlib import Path, PurePosixPath

from fournines.results.folder import new_results_folder
from fournines.results.outcome import EXIT_BAD_REQUEST, EXIT_FAILED
from fournines.targets.aws import cluster as aws_cluster
from fournines.targets.aws.inventory import InventoryError, write_inventory
from fournines.targets.remote.commands import Ports
from fournines.targets.remote.cluster import Cluster, ansible_playbook
from fournines.targets.remote.run import run_on
from fournines_analysis.errors import write_text

REMOTE_HOME = PurePosixPath("/opt/fournines")  # fournines_home in infra/ansible/group_vars/all.yml


class AwsRefused(Exception):
    """The run cannot start on AWS; nothing was created."""


def check(scenario: dict) -> tuple[aws_cluster.Shape, aws_cluster.Operator]:
    """Everything that can be wrong before any cost is incurred, and the operator's confirmation."""
    if not Path(ansible_playbook()).exists():
        raise AwsRefused(f"{ansible_playbook()}: missing; run `make venv` (requirements.txt pins ansible-core)")
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
        inventory_path, inventory = _provision(cluster, op)
        run_dir = new_results_folder(scenario["name"], results_root)
        print(f"results: {run_dir}", file=sys.stderr)
        write_text(run_dir / "scenario.json", json.dumps(scenario, indent=2) + "\n")
        hosts = Cluster(inventory_path, inventory, lambda _: REMOTE_HOME,
                        Ports(inventory["vars"]["member_port"], inventory["vars"]["member_management_port"]),
                        aws_cluster.member_secret(), aws_cluster.state_dir(), sudo=["sudo", "-n"],
                        kafka_cluster_id=aws_cluster.kafka_cluster_id())
        return run_on(hosts, scenario, jar, profile, run_dir)
    except (aws_cluster.ClusterFailed, InventoryError, subprocess.CalledProcessError) as e:
        print(f"aws: {e}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:  # during terraform, before any member started
        print("aws: interrupted before the run started", file=sys.stderr)
        return 130
    finally:
        print(aws_cluster.TEARDOWN, file=sys.stderr)


def _provision(cluster: aws_cluster.Shape, op: aws_cluster.Operator) -> tuple[Path, dict]:
    """terraform apply, then the inventory: its path and its `all`."""
    aws_cluster.apply(cluster, op)
    state = aws_cluster.state_dir()
    path = state / "inventory.yml"
    written = write_inventory(aws_cluster.outputs(), path, op.ssh_key, state / "known_hosts", "terraform output -json")
    return path, written["all"]
