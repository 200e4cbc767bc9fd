"""Offline checks of infra/terraform/aws: `terraform fmt`, and the HCL read with python-hcl2 for what
a security review would look for (no provider is reachable here, so `terraform validate` cannot run)."""
import re
import subprocess

import hcl2
import pytest

from fournines.targets.aws.cluster import OPERATOR_CIDR_MIN_PREFIX, Operator, Shape, terraform_variables
from fournines.targets.aws.inventory import GROUPS, PORT_VARIABLES
from infra_paths import INFRA, TERRAFORM_DIR, terraform

OPTIONS = hcl2.SerializationOptions(with_comments=False, explicit_blocks=False, strip_string_quotes=True)
OPERATOR_SSH = "${var.operator_cidr}"
OWN_GROUP = "${aws_security_group.bench.id}"


def load(text: str) -> dict:
    return hcl2.loads(text, serialization_options=OPTIONS)


@pytest.fixture(scope="module")
def hcl() -> dict:
    """Every block of every .tf file, merged by kind: {"variable": {name: body}, "resource": {type: {name: body}}, ...}."""
    merged: dict = {}
    for path in sorted(TERRAFORM_DIR.glob("*.tf")):
        for kind, blocks in load(path.read_text(encoding="utf-8")).items():
            for block in blocks:
                _merge(merged.setdefault(kind, {}), block)
    return merged


def _merge(into: dict, block: dict) -> None:
    for key, value in block.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def test_terraform_fmt():
    result = subprocess.run([terraform(), "fmt", "-check", "-recursive", "-diff", str(INFRA / "terraform")],
                            capture_output=True, text=True)
    assert result.returncode == 0, f"terraform fmt would change files (run `terraform fmt -recursive infra/terraform`):\n{result.stdout}{result.stderr}"


def test_every_variable_has_a_type_a_description_and_a_validation(hcl):
    problems = [f"variable {name}: no {part}" for name, body in hcl["variable"].items()
                for part in ("type", "description", "validation") if not body.get(part)]
    assert problems == []


def test_the_runner_sets_every_required_variable_and_only_declared_ones(hcl, tmp_path):
    (tmp_path / "id.pub").write_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTests tester\n")
    operator = Operator("us-east-1", "", "fournines-test", "tester", "203.0.113.7/32", tmp_path / "id")
    given = set(terraform_variables(Shape(10, 3, 1, "c5.4xlarge", "i3.2xlarge", "c5.4xlarge"), operator))
    declared = set(hcl["variable"])
    required = {name for name, body in hcl["variable"].items() if "default" not in body}
    assert given - declared == set(), "the runner sets variables Terraform does not declare"
    assert required - given == set(), "Terraform requires variables the runner does not set"


def test_outputs_are_what_the_inventory_reads(hcl):
    outputs = hcl["output"]
    assert set(GROUPS) | {"ssh_user", "ports"} <= set(outputs)
    assert all(body.get("description") for body in outputs.values())


def test_the_cluster_ports_are_the_ports_the_inventory_knows(hcl):
    ports = hcl["locals"]["cluster_ports"]
    assert set(ports) == set(PORT_VARIABLES)
    assert set(ports.values()) == {"${var.member_port}", "${var.management_port}", "${var.consumer_port}",
                                   "${var.kafka_port}", "${var.kafka_controller_port}"}


def ingress_problems(resources: dict) -> list[str]:
    """Anything that lets traffic in other than SSH from the operator's CIDR and the cluster's ports
    from the group itself."""
    problems = []
    for name, group in resources.get("aws_security_group", {}).items():
        if group.get("ingress"):
            problems.append(f"aws_security_group.{name}: inline ingress; use aws_vpc_security_group_ingress_rule")
    if resources.get("aws_security_group_rule"):
        problems.append("aws_security_group_rule: use aws_vpc_security_group_ingress_rule, one rule per resource")
    for name, rule in resources.get("aws_vpc_security_group_ingress_rule", {}).items():
        where = f"aws_vpc_security_group_ingress_rule.{name}"
        cidrs = [rule[k] for k in ("cidr_ipv4", "cidr_ipv6", "prefix_list_id") if k in rule]
        if cidrs:
            if cidrs != [OPERATOR_SSH] or (rule.get("from_port"), rule.get("to_port"), rule.get("ip_protocol")) != (22, 22, "tcp"):
                problems.append(f"{where}: from {cidrs}, ports {rule.get('from_port')}-{rule.get('to_port')} "
                                f"{rule.get('ip_protocol')}; only tcp 22 from var.operator_cidr may come from outside")
        elif rule.get("referenced_security_group_id") != OWN_GROUP:
            problems.append(f"{where}: from {rule.get('referenced_security_group_id')}; cluster ports only from the group itself")
        if rule.get("ip_protocol") == "-1":
            problems.append(f"{where}: all protocols; name the protocol and the port")
    return problems


def test_only_ssh_from_the_operator_and_cluster_ports_within_the_group(hcl):
    assert ingress_problems(hcl["resource"]) == []
    rules = hcl["resource"]["aws_vpc_security_group_ingress_rule"]
    assert rules["ssh_from_operator"]["cidr_ipv4"] == OPERATOR_SSH
    assert rules["cluster_port_within_group"]["for_each"] == "${local.cluster_ports}"


@pytest.mark.parametrize("rule, complaint", [
    ('cidr_ipv4 = "0.0.0.0/0"\n from_port = 5701\n to_port = 5701\n ip_protocol = "tcp"', "only tcp 22 from var.operator_cidr"),
    ('cidr_ipv4 = "0.0.0.0/0"\n from_port = 22\n to_port = 22\n ip_protocol = "tcp"', "only tcp 22 from var.operator_cidr"),
    ('cidr_ipv4 = var.operator_cidr\n from_port = 9092\n to_port = 9092\n ip_protocol = "tcp"', "only tcp 22 from var.operator_cidr"),
    ('referenced_security_group_id = aws_security_group.other.id\n from_port = 9092\n to_port = 9092\n ip_protocol = "tcp"',
     "cluster ports only from the group itself"),
    ('referenced_security_group_id = aws_security_group.bench.id\n ip_protocol = "-1"', "all protocols"),
])
def test_the_ingress_check_catches_an_open_door(rule, complaint):
    bad = load(f'resource "aws_vpc_security_group_ingress_rule" "bad" {{\n security_group_id = aws_security_group.bench.id\n {rule}\n}}\n')
    resources = {}
    for block in bad["resource"]:
        _merge(resources, block)
    problems = ingress_problems(resources)
    assert any(complaint in p for p in problems), problems


def test_the_operator_cidr_is_no_wider_than_the_runner_allows(hcl):
    assert hcl["variable"]["operator_cidr_min_prefix"]["default"] == OPERATOR_CIDR_MIN_PREFIX
    ssh = hcl["resource"]["aws_vpc_security_group_ingress_rule"]["ssh_from_operator"]
    condition = ssh["lifecycle"][0]["precondition"][0]["condition"]
    assert "var.operator_cidr" in condition and ">= var.operator_cidr_min_prefix" in condition


def test_hosts_share_the_placement_group_and_the_security_group_and_are_tagged(hcl):
    resources = hcl["resource"]
    assert resources["aws_placement_group"]["bench"]["strategy"] == "cluster"
    host = resources["aws_instance"]["host"]
    assert host["placement_group"] == "${aws_placement_group.bench.id}"
    assert host["vpc_security_group_ids"] == ["${aws_security_group.bench.id}"]
    assert {"Name", "Role"} <= set(host["tags"])
    assert host["metadata_options"][0]["http_tokens"] == "required"
    default_tags = hcl["provider"]["aws"]["default_tags"][0]["tags"]
    assert {"Project", "Stack", "Owner", "ManagedBy"} <= set(default_tags)


def test_members_default_to_the_papers_instance_type(hcl):
    assert hcl["variable"]["member_instance_type"]["default"] == "c5.4xlarge"
    assert hcl["variable"]["broker_instance_type"]["default"].startswith("i3.")


CREDENTIAL_PATTERNS = [re.compile(p) for p in (r"AKIA[0-9A-Z]{16}", r"(?i)aws_secret_access_key", r"(?i)secret_key\s*=",
                                                r"(?i)access_key\s*=", r"-----BEGIN [A-Z ]*PRIVATE KEY-----")]


def test_no_credentials_in_infra(hcl):
    assert not {"access_key", "secret_key", "token"} & set(hcl["provider"]["aws"])
    found = [f"{path.relative_to(INFRA)}: {pattern.pattern}"
             for path in INFRA.rglob("*") if path.is_file() and ".terraform" not in path.parts
             and path.suffix in (".tf", ".json", ".yml", ".yaml", ".j2", ".cfg", ".csv", ".md")
             for pattern in CREDENTIAL_PATTERNS if pattern.search(path.read_text(encoding="utf-8", errors="replace"))]
    assert found == []
