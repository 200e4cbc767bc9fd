"""An EC2 cluster's life: its shape (how many hosts of which type), the operator's settings, the
cost confirmation, and terraform apply / output / destroy on infra/terraform/aws.

Settings come from the environment (make passes its command-line variables there):
  OPERATOR_CIDR  required: the only source allowed to SSH in, e.g. 203.0.113.7/32; at most a /16
  OPERATOR_CIDR_WIDE=1   allows an OPERATOR_CIDR wider than a /16 (the operator's explicit choice)
  SSH_KEY        private key whose .pub goes on the hosts (default ~/.ssh/id_ed25519)
  AWS_REGION     default us-east-1 (the price table's region)
  AWS_AZ         availability zone (default: the region's first)
  STACK          resource names and the Stack tag (default fournines-<user>)
  MEMBER_TYPE, BROKER_TYPE, LOADGEN_TYPE   instance types (c5.4xlarge, i3.2xlarge, c5.4xlarge)
  BROKERS, LOADGENS   host counts (default: 3 and 1 for a Kafka scenario, else 0)
  COST_OK        the hourly estimate, e.g. COST_OK=7.48: confirms it without a prompt
Per-cluster files the runner makes (a secret, the inventory, known hosts) stay in infra/.aws-cluster/,
which git ignores; Terraform's state stays in infra/terraform/aws/.
"""
import getpass
import ipaddress
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from fournines import REPO_ROOT
from fournines.targets.aws.cost import Estimate, HostGroup, PriceError, estimate
from fournines.targets.remote.active_active import check_consumer_host
from fournines.targets.remote.cluster import ExtraHosts, ExtraHostsRefused, host_counts
from fournines.targets.remote.kafka import check_kafka_hosts, new_kafka_cluster_id

TERRAFORM_DIR = REPO_ROOT / "infra" / "terraform" / "aws"
TFVARS = TERRAFORM_DIR / "fournines.auto.tfvars.json"  # auto-loaded, so a hand-run `terraform destroy` works too
STATE_DIR = REPO_ROOT / "infra" / ".aws-cluster"
ROOT_VOLUME_GB = 30
MAX_MEMBERS = 100  # variable "members" in infra/terraform/aws/variables.tf
# The widest SSH source allowed without OPERATOR_CIDR_WIDE=1 (variable "operator_cidr_min_prefix").
OPERATOR_CIDR_MIN_PREFIX = 16
TEARDOWN = (f"Tear the cluster down with: make aws-down   (or: terraform -chdir={TERRAFORM_DIR.relative_to(REPO_ROOT)} "
            "destroy). Every resource is tagged Project=fournines and Stack=<stack> for a manual clean-up.")


class ClusterRefused(Exception):
    """The cluster cannot be started as asked; nothing was created."""


class ClusterFailed(Exception):
    """Terraform failed part-way: some resources may exist (the message says how to remove them)."""


@dataclass(frozen=True)
class Shape:
    members: int
    brokers: int
    loadgens: int
    member_type: str
    broker_type: str
    loadgen_type: str

    def groups(self) -> list[HostGroup]:
        return [HostGroup("member", self.members, self.member_type),
                HostGroup("broker", self.brokers, self.broker_type),
                HostGroup("loadgen", self.loadgens, self.loadgen_type)]


def shape(members: int, kafka: bool, env=os.environ, consumer: bool = False) -> Shape:
    """`kafka`: brokers and a load generator by default; `consumer`: a load generator host for an
    active-active run's result consumer."""
    if not 1 <= members <= MAX_MEMBERS:
        raise ClusterRefused(f"cluster.members={members}: an EC2 cluster has 1 to {MAX_MEMBERS} members "
                             "(infra/terraform/aws/variables.tf, variable members)")
    try:
        hosts = host_counts(kafka, env, consumer)
    except ExtraHostsRefused as e:
        raise ClusterRefused(str(e)) from None
    return Shape(members=members, brokers=hosts.brokers, loadgens=hosts.loadgens,
                 member_type=env.get("MEMBER_TYPE", "c5.4xlarge"),
                 broker_type=env.get("BROKER_TYPE", "i3.2xlarge"),
                 loadgen_type=env.get("LOADGEN_TYPE", "c5.4xlarge"))


def shape_of_scenario(scenario: dict, env=os.environ) -> Shape:
    result = shape(scenario["cluster"]["members"], scenario["load"]["source"] == "kafka", env,
                   consumer=scenario["mode"] == "active-active")
    try:
        extra = ExtraHosts(result.brokers, result.loadgens)
        check_kafka_hosts(scenario, extra)
        check_consumer_host(scenario, extra)
    except ExtraHostsRefused as e:
        raise ClusterRefused(str(e)) from None
    return result


@dataclass(frozen=True)
class Operator:
    region: str
    availability_zone: str
    stack: str
    owner: str
    cidr: str
    ssh_key: Path
    wide_cidr_allowed: bool = False

    @property
    def ssh_public_key(self) -> Path:
        return self.ssh_key.with_name(self.ssh_key.name + ".pub")


def operator(env=os.environ) -> Operator:
    """The operator's settings, checked before anything starts; ClusterRefused names what is missing."""
    user = getpass.getuser()
    result = Operator(region=env.get("AWS_REGION", "us-east-1"), availability_zone=env.get("AWS_AZ", ""),
                      stack=env.get("STACK", f"fournines-{re.sub(r'[^a-z0-9-]', '', user.lower())}"[:31]),
                      owner=user, cidr=env.get("OPERATOR_CIDR", ""),
                      ssh_key=Path(env.get("SSH_KEY", "~/.ssh/id_ed25519")).expanduser(),
                      wide_cidr_allowed=env.get("OPERATOR_CIDR_WIDE") == "1")
    problems = []
    if not result.cidr:
        problems.append("OPERATOR_CIDR is not set: the address range allowed to SSH in, e.g. OPERATOR_CIDR=203.0.113.7/32 "
                        "(your address: curl https://checkip.amazonaws.com)")
    else:
        problems.extend(_cidr_problems(result.cidr, result.wide_cidr_allowed))
    for key in (result.ssh_key, result.ssh_public_key):
        if not key.is_file():
            problems.append(f"SSH_KEY: {key} does not exist (make one with ssh-keygen -t ed25519, or set SSH_KEY=<private key>)")
    for tool in ("terraform", "ssh"):
        if shutil.which(tool) is None:
            problems.append(f"{tool}: not found on PATH (README, 'Running on AWS', lists the prerequisites)")
    if problems:
        raise ClusterRefused("\n".join(problems))
    return result


def _cidr_problems(cidr: str, wide_allowed: bool) -> list[str]:
    try:
        network = ipaddress.IPv4Network(cidr, strict=False)
    except ValueError:
        return [f"OPERATOR_CIDR={cidr}: not an IPv4 address range such as 203.0.113.7/32 (the hosts' SSH rule is IPv4)"]
    if network.prefixlen < OPERATOR_CIDR_MIN_PREFIX and not wide_allowed:
        return [f"OPERATOR_CIDR={cidr}: {network.num_addresses:,} addresses would be allowed to try SSH, a range wider than "
                f"a /{OPERATOR_CIDR_MIN_PREFIX}; give your own address (/32) or your network's, or set OPERATOR_CIDR_WIDE=1 "
                "to allow it anyway"]
    return []


def cost(cluster: Shape, region: str) -> Estimate:
    try:
        return estimate(cluster.groups(), region, ROOT_VOLUME_GB)
    except PriceError as e:
        raise ClusterRefused(str(e)) from None


def confirm(estimate_: Estimate, env=os.environ, stdin=sys.stdin) -> None:
    """Returns if the operator confirmed the hourly estimate; ClusterRefused otherwise."""
    print(estimate_.table(), file=sys.stderr)
    amount = estimate_.confirmation()
    given = env.get("COST_OK")
    if given is not None:
        if given.strip().lstrip("$") != amount:
            raise ClusterRefused(f"COST_OK={given} does not match the estimate of {amount} USD/h; "
                                 f"nothing was started (confirm with COST_OK={amount})")
        return
    if not stdin.isatty():
        raise ClusterRefused(f"not started: confirm the estimate of {amount} USD/h with COST_OK={amount}")
    print(f"Type {amount} to start the cluster at about {amount} USD per hour: ", end="", file=sys.stderr, flush=True)
    if stdin.readline().strip().lstrip("$") != amount:
        raise ClusterRefused("not confirmed; nothing was started")


def terraform_variables(cluster: Shape, op: Operator) -> dict:
    return {"region": op.region, "availability_zone": op.availability_zone, "stack": op.stack, "owner": op.owner, "operator_cidr": op.cidr,
            "operator_cidr_min_prefix": 0 if op.wide_cidr_allowed else OPERATOR_CIDR_MIN_PREFIX,
            "ssh_public_key": op.ssh_public_key.read_text(encoding="utf-8").strip(),
            "members": cluster.members, "brokers": cluster.brokers, "loadgens": cluster.loadgens,
            "member_instance_type": cluster.member_type, "broker_instance_type": cluster.broker_type,
            "loadgen_instance_type": cluster.loadgen_type, "root_volume_gb": ROOT_VOLUME_GB}


def apply(cluster: Shape, op: Operator) -> None:
    """terraform init + apply; the cluster then matches `cluster` (hosts added or removed)."""
    TFVARS.write_text(json.dumps(terraform_variables(cluster, op), indent=2) + "\n", encoding="utf-8")
    _terraform("init", "-input=false")
    _terraform("apply", "-input=false", "-auto-approve")


def outputs() -> str:
    return subprocess.run(["terraform", f"-chdir={TERRAFORM_DIR}", "output", "-json"], check=True,
                          capture_output=True, text=True).stdout


def destroy() -> bool:
    """terraform destroy; False if there was no cluster state to destroy."""
    if not TFVARS.exists():
        return False
    _terraform("destroy", "-input=false", "-auto-approve")
    # The next cluster gets new hosts (new host keys) and a new secret.
    TFVARS.unlink()
    shutil.rmtree(STATE_DIR, ignore_errors=True)
    return True


def state_dir() -> Path:
    STATE_DIR.mkdir(mode=0o700, exist_ok=True)
    return STATE_DIR


def member_secret() -> str:
    """The members' shared secret, made once per cluster and kept in STATE_DIR (mode 0600)."""
    return _kept("cluster-secret", lambda: secrets.token_hex(32))


def kafka_cluster_id() -> str:
    """The brokers' KRaft cluster id, made once per cluster (their storage is formatted with it once)."""
    return _kept("kafka-cluster-id", new_kafka_cluster_id)


def _kept(name: str, make) -> str:
    path = state_dir() / name
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(make(), encoding="utf-8")
    return path.read_text(encoding="utf-8").strip()


def _terraform(*args: str) -> None:
    try:
        subprocess.run(["terraform", f"-chdir={TERRAFORM_DIR}", *args], check=True)
    except subprocess.CalledProcessError as e:
        raise ClusterFailed(f"terraform {args[0]} failed (exit {e.returncode}); see its output above. {TEARDOWN}") from None
