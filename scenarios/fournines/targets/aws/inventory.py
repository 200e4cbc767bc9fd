"""The Ansible inventory of an EC2 cluster, made from `terraform output -json` (infra/terraform/aws/
outputs.tf): one group per role (members, brokers, loadgens), hosts named like their instances
(member-1, ...) in index order, each with its public address for SSH and its private one for the
cluster's own traffic; the cluster ports as variables the roles read.
"""
import json
from pathlib import Path

import yaml

# terraform output -> Ansible group
GROUPS = {"members": "members", "brokers": "brokers", "loadgens": "loadgens"}
# terraform's port name -> the role variable that holds it
PORT_VARIABLES = {"member": "member_port", "management": "member_management_port", "consumer": "consumer_port",
                  "kafka": "kafka_port", "controller": "kafka_controller_port"}
_HOST_FIELDS = ("name", "index", "type", "public_ip", "private_ip")


class InventoryError(ValueError):
    pass


def inventory(outputs: dict, ssh_key: Path, known_hosts: Path, source: str = "terraform output") -> dict:
    """`outputs` is the parsed `terraform output -json`; `source` names it in errors."""
    def value(name):
        try:
            return outputs[name]["value"]
        except (KeyError, TypeError):
            raise InventoryError(f"{source}: output {name!r} is missing; is infra/terraform/aws applied?") from None

    ports = value("ports")
    unknown = sorted(set(ports) - set(PORT_VARIABLES))
    if unknown:
        raise InventoryError(f"{source}: output ports has unknown names {unknown}; known: {sorted(PORT_VARIABLES)}")
    children = {group: {"hosts": _hosts(value(output), f"{source}: output {output}")}
                for output, group in GROUPS.items()}
    if not children["members"]["hosts"]:
        raise InventoryError(f"{source}: output members is empty; a cluster has at least one member")
    return {"all": {
        "vars": {
            "ansible_user": value("ssh_user"),
            "ansible_ssh_private_key_file": str(ssh_key),
            # New instances have new host keys: accept them once, into the cluster's own file, never
            # into the operator's ~/.ssh/known_hosts; a changed key afterwards is refused.
            "ansible_ssh_common_args": f"-o StrictHostKeyChecking=accept-new -o UserKnownHostsFile={known_hosts}",
            **{PORT_VARIABLES[name]: port for name, port in ports.items()},
        },
        "children": children,
    }}


def _hosts(entries, where: str) -> dict:
    if not isinstance(entries, list):
        raise InventoryError(f"{where}: must be a list of hosts; is {json.dumps(entries)}")
    hosts = {}
    for i, entry in enumerate(entries):
        missing = [f for f in _HOST_FIELDS if not isinstance(entry, dict) or entry.get(f) in (None, "")]
        if missing:
            raise InventoryError(f"{where}[{i}]: missing {', '.join(missing)}; is {json.dumps(entry)}")
        hosts[entry["name"]] = {"ansible_host": entry["public_ip"], "private_ip": entry["private_ip"],
                                "host_index": entry["index"], "instance_type": entry["type"]}
    indices = sorted(h["host_index"] for h in hosts.values())
    if indices != list(range(1, len(hosts) + 1)):
        raise InventoryError(f"{where}: host indices must be 1..{len(hosts)}; are {indices}")
    return dict(sorted(hosts.items(), key=lambda item: item[1]["host_index"]))


def write_inventory(outputs_json: str, path: Path, ssh_key: Path, known_hosts: Path, source: str) -> dict:
    try:
        outputs = json.loads(outputs_json)
    except json.JSONDecodeError as e:
        raise InventoryError(f"{source}: not JSON: {e}") from None
    result = inventory(outputs, ssh_key, known_hosts, source)
    path.write_text(yaml.safe_dump(result, sort_keys=False), encoding="utf-8")
    return result
