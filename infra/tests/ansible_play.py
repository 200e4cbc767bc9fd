"""Running the playbooks for real on this machine, each host's paths in a directory of its own, and
reading back what they rendered: shared by the offline Ansible tests."""
import json
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

from infra_paths import ANSIBLE_DIR, ansible_env, venv_tool

RUN = "20261122T235900Z-q5"


def local_inventory(tmp_path: Path, hosts: dict[str, list[str]]) -> Path:
    """groups -> host names, every host this machine over a local connection."""
    host_vars = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable,
                 "private_ip": "127.0.0.1", "host_index": 1, "instance_type": "c5.4xlarge"}
    inventory = {"all": {"children": {group: {"hosts": {name: host_vars for name in names}}
                                      for group, names in hosts.items()}}}
    path = tmp_path / "inventory.yml"
    path.write_text(yaml.safe_dump(inventory), encoding="utf-8")
    return path


def sandboxed(root: Path) -> dict:
    """Every path the roles write under `root`, as on a host at /, and nothing that changes this machine."""
    return {"fournines_fs_root": str(root), "fournines_home": str(root / "opt/fournines"),
            "kafka_data_dir": str(root / "var/lib/fournines-kafka"), "fournines_apply_system": False}


def play(tmp_path: Path, playbook: str, inventory: Path, variables: dict) -> str:
    """Runs the playbook; returns its output."""
    extra = tmp_path / f"{playbook}.vars.json"
    extra.write_text(json.dumps(variables), encoding="utf-8")
    result = subprocess.run([venv_tool("ansible-playbook"), "-i", str(inventory), "-e", f"@{extra}", playbook],
                            cwd=ANSIBLE_DIR, capture_output=True, text=True, env=ansible_env(tmp_path))
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    return result.stdout


def unit_arguments(exec_start: str) -> list[str]:
    """An ExecStart= value split the way systemd does for the quoting systemd_exec uses."""
    return [arg.replace("%%", "%").replace("$$", "$") for arg in shlex.split(exec_start)]


def unit_value(unit: Path, key: str) -> str:
    values = [line.split("=", 1)[1] for line in unit.read_text().splitlines() if line.startswith(f"{key}=")]
    assert len(values) == 1, f"{unit}: {key}= {len(values)} times"
    return values[0]
