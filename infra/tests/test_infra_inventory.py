"""The Ansible inventory made from a committed `terraform output -json` (fixtures/terraform-output.json),
checked here and read back by ansible-inventory itself."""
import json
import subprocess
from pathlib import Path

import pytest

from fournines.targets.aws.inventory import InventoryError, inventory, write_inventory
from infra_paths import FIXTURES, ansible_env, venv_tool

OUTPUTS = json.loads((FIXTURES / "terraform-output.json").read_text(encoding="utf-8"))
KEY, KNOWN = Path("/keys/id_ed25519"), Path("/state/known_hosts")


def test_groups_hosts_and_ports():
    result = inventory(OUTPUTS, KEY, KNOWN)["all"]
    children = result["children"]
    assert list(children["members"]["hosts"]) == [f"member-{i}" for i in range(1, 11)]  # index order, not key order
    assert list(children["brokers"]["hosts"]) == ["broker-1", "broker-2", "broker-3"]
    assert children["members"]["hosts"]["member-10"] == {
        "ansible_host": "198.51.100.20", "private_ip": "10.42.0.20", "host_index": 10, "instance_type": "c5.4xlarge"}
    assert result["vars"]["ansible_user"] == "ubuntu"
    assert result["vars"]["ansible_ssh_private_key_file"] == str(KEY)
    assert f"UserKnownHostsFile={KNOWN}" in result["vars"]["ansible_ssh_common_args"]
    assert {result["vars"][v] for v in ("member_port", "member_management_port", "kafka_port", "kafka_controller_port")} \
        == {5701, 5801, 9092, 9093}


def test_ansible_reads_it_back(tmp_path):
    path = tmp_path / "inventory.yml"
    write_inventory(json.dumps(OUTPUTS), path, KEY, KNOWN, "fixture")
    listed = json.loads(subprocess.run([venv_tool("ansible-inventory"), "-i", str(path), "--list"], check=True,
                                       capture_output=True, text=True, env=ansible_env(tmp_path)).stdout)
    assert sorted(listed["members"]["hosts"]) == sorted(f"member-{i}" for i in range(1, 11))
    assert listed["loadgens"]["hosts"] == ["loadgen-1"]
    broker = listed["_meta"]["hostvars"]["broker-2"]
    assert (broker["ansible_host"], broker["private_ip"], broker["host_index"], broker["kafka_port"]) == \
        ("198.51.100.22", "10.42.0.22", 2, 9092)


def _without(name):
    return {k: v for k, v in OUTPUTS.items() if k != name}


def _members(value):
    return {**OUTPUTS, "members": {"value": value}}


@pytest.mark.parametrize("outputs, message", [
    (_without("members"), "fixture: output 'members' is missing"),
    (_without("ssh_user"), "fixture: output 'ssh_user' is missing"),
    (_members([]), "output members is empty"),
    (_members({"member-1": {}}), "output members: must be a list of hosts"),
    (_members([{"name": "member-1", "index": 1, "type": "c5.4xlarge", "public_ip": None, "private_ip": "10.42.0.11"}]),
     "output members[0]: missing public_ip"),
    (_members([{"name": "member-2", "index": 2, "type": "c5.4xlarge", "public_ip": "198.51.100.12", "private_ip": "10.42.0.12"}]),
     "output members: host indices must be 1..1; are [2]"),
    ({**OUTPUTS, "ports": {"value": {"member": 5701, "gossip": 5702}}}, "output ports has unknown names ['gossip']"),
])
def test_bad_output_is_refused_by_name(outputs, message):
    with pytest.raises(InventoryError) as e:
        inventory(outputs, KEY, KNOWN, "fixture")
    assert message in str(e.value)


def test_output_that_is_not_json_is_refused(tmp_path):
    with pytest.raises(InventoryError, match="terraform output -json: not JSON"):
        write_inventory("Error: no state", tmp_path / "i.yml", KEY, KNOWN, "terraform output -json")
