"""Offline checks of infra/ansible: ansible-lint (production profile), --syntax-check of every
playbook, and the roles run for real against localhost with every path under a temporary directory
and the root-only tasks (packages, services, sysctl, governor, disks) switched off; then what they
wrote is checked: the member's systemd unit must start exactly the command line the local target uses."""
import getpass
import json
import os
import re
import shlex
import stat
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml

from fournines.targets.aws.target import REMOTE_HOME, REMOTE_JAR
from fournines.members.jvm import jvm_flags, member_command
from fournines.spec.scenario import load_scenario
from fournines.spec.overrides import parse_overrides
from infra_paths import ANSIBLE_DIR, ansible_env, venv_tool

PLAYBOOKS = sorted(ANSIBLE_DIR.glob("*.yml"))
RUN = "20261122T235900Z-q5"

sys.path.insert(0, str(ANSIBLE_DIR / "filter_plugins"))
from systemd_exec import systemd_exec  # noqa: E402  (the filter the unit templates use)


def test_ansible_lint(tmp_path):
    result = subprocess.run([venv_tool("ansible-lint"), "--nocolor"], cwd=ANSIBLE_DIR, capture_output=True, text=True,
                            env=ansible_env(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_syntax_of_every_playbook(tmp_path):
    assert {p.name for p in PLAYBOOKS} == {"deploy.yml", "start.yml", "stop.yml", "collect.yml"}
    result = subprocess.run([venv_tool("ansible-playbook"), "--syntax-check", "-i", "localhost,", *map(str, PLAYBOOKS)],
                            cwd=ANSIBLE_DIR, capture_output=True, text=True, env=ansible_env(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


def unit_arguments(exec_start: str) -> list[str]:
    """An ExecStart= value split the way systemd does for the quoting systemd_exec uses."""
    return [arg.replace("%%", "%").replace("$$", "$") for arg in shlex.split(exec_start)]


@pytest.mark.parametrize("arguments", [
    ["java", "-Xlog:gc*:file=gc.log:time,uptime,level,tags", "-jar", "/opt/fournines/lib/fournines-member.jar"],
    ["echo", 'a "quoted" word', "back\\slash", "100%", "$HOME", "${X}", "two words"],
])
def test_systemd_exec_round_trips(arguments):
    assert unit_arguments(systemd_exec(arguments)) == arguments


def test_systemd_exec_refuses_a_string():
    with pytest.raises(ValueError, match="expected a non-empty list"):
        systemd_exec("java -jar x.jar")


def local_inventory(tmp_path: Path, hosts: dict[str, list[str]]) -> Path:
    """groups -> host names, every host this machine over a local connection."""
    host_vars = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable,
                 "private_ip": "127.0.0.1", "host_index": 1, "instance_type": "c5.4xlarge"}
    inventory = {"all": {"children": {group: {"hosts": {name: host_vars for name in names}}
                                      for group, names in hosts.items()}}}
    path = tmp_path / "inventory.yml"
    path.write_text(yaml.safe_dump(inventory), encoding="utf-8")
    return path


def play(tmp_path: Path, playbook: str, inventory: Path, variables: dict) -> str:
    """Runs the playbook; returns its output."""
    extra = tmp_path / f"{playbook}.vars.json"
    extra.write_text(json.dumps(variables), encoding="utf-8")
    result = subprocess.run([venv_tool("ansible-playbook"), "-i", str(inventory), "-e", f"@{extra}", playbook],
                            cwd=ANSIBLE_DIR, capture_output=True, text=True, env=ansible_env(tmp_path))
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    return result.stdout


class Deployed(NamedTuple):
    root: Path  # the temporary root every path went under
    scenario: dict
    command: list[str]  # the member command line the runner made
    second_run: str  # the output of deploying the same run again


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """deploy.yml run for real on this machine into a temporary root, twice."""
    tmp_path = tmp_path_factory.mktemp("deploy")
    root = tmp_path / "root"
    scenario = load_scenario("q5", parse_overrides(["TARGET=aws"]))
    command = member_command(Path(REMOTE_JAR), jvm_flags(scenario, profile=False), Path(REMOTE_HOME / "runs" / RUN))
    (tmp_path / "member.jar").write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip: the role copies, never runs it
    (tmp_path / "kafka-libs").mkdir()
    (tmp_path / "kafka-libs" / "kafka_2.13.jar").write_bytes(b"PK\x05\x06" + bytes(18))
    (tmp_path / "loadgen.jar").write_bytes(b"PK\x05\x06" + bytes(18))
    inventory = local_inventory(tmp_path, {"members": ["member-1"], "brokers": ["broker-1"], "loadgens": ["loadgen-1"]})
    variables = {
        "fournines_fs_root": str(root), "fournines_apply_system": False, "fournines_user": getpass.getuser(),
        "fournines_run_name": RUN, "fournines_scenario": scenario,
        "member_jar": str(tmp_path / "member.jar"), "member_command": command, "member_cluster_secret": "s" * 64,
        "kafka_libs_dir": str(tmp_path / "kafka-libs"), "kafka_cluster_id": "MkU3OEVBNTcwNTJENDM2Qg",
        "loadgen_jar": str(tmp_path / "loadgen.jar"), "loadgen_command": ["java", "-jar", "/opt/fournines/lib/fournines-loadgen.jar"],
    }
    play(tmp_path, "deploy.yml", inventory, variables)
    return Deployed(root, scenario, command, play(tmp_path, "deploy.yml", inventory, variables))


def test_deploying_again_changes_nothing(deployed):
    """Idempotent roles: a second deploy of the same run restarts nothing (Kafka's handler fires
    only on a change)."""
    recap = deployed.second_run.split("PLAY RECAP", 1)[1]
    assert re.findall(r"changed=(\d+)", recap) == ["0", "0", "0"], recap


def unit_value(unit: Path, key: str) -> str:
    values = [line.split("=", 1)[1] for line in unit.read_text().splitlines() if line.startswith(f"{key}=")]
    assert len(values) == 1, f"{unit}: {key}= {len(values)} times"
    return values[0]


def test_the_member_unit_starts_the_local_targets_command_line(deployed):
    root, scenario, command = deployed.root, deployed.scenario, deployed.command
    unit = root / "etc/systemd/system/fournines-member.service"
    assert unit_arguments(unit_value(unit, "ExecStart")) == command
    assert "-XX:+UseZGC" in command and "-Xms2g" in command  # q5's GC and JVM flags, via members/jvm.py
    assert unit_value(unit, "WorkingDirectory") == f"{root}/opt/fournines/runs/{RUN}"
    assert unit_value(unit, "KillMode") == "control-group"
    assert unit_value(unit, "TimeoutStopSec") == "10"  # play.STOP_GRACE_S
    assert "Environment=" not in unit.read_text()  # everything the member needs is on its command line


def test_the_member_gets_its_scenario_and_secret(deployed):
    root, scenario = deployed.root, deployed.scenario
    run_dir = root / "opt/fournines/runs" / RUN
    assert json.loads((run_dir / "scenario.json").read_text()) == scenario
    assert sorted(p.name for p in run_dir.iterdir()) == ["scenario.json"]  # the member reads its command line, nothing else
    secret = root / "opt/fournines/cluster-secret"
    assert secret.read_text() == "s" * 64 + "\n"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert (root / "opt/fournines/lib/fournines-member.jar").read_bytes().startswith(b"PK")


def test_the_follow_script_is_executable_shell(deployed):
    root = deployed.root
    script = root / "usr/local/bin/fournines-follow"
    assert os.access(script, os.X_OK)
    subprocess.run(["bash", "-n", str(script)], check=True)


def test_host_tuning_files(deployed):
    root = deployed.root
    assert "server 169.254.169.123 prefer iburst" in (root / "etc/chrony/chrony.conf").read_text()
    limits = (root / "etc/security/limits.d/90-fournines.conf").read_text()
    assert f"{getpass.getuser()} hard nofile 1048576" in limits
    assert "net.core.somaxconn = 4096" in (root / "etc/sysctl.d/90-fournines.conf").read_text()


def test_kafka_broker_configuration(deployed):
    root = deployed.root
    properties = dict(line.split("=", 1) for line in (root / "opt/fournines/kafka/config/server.properties").read_text().splitlines()
                      if line and not line.startswith("#"))
    assert properties["process.roles"] == "broker,controller"
    assert properties["node.id"] == "1"
    assert properties["controller.quorum.voters"] == "1@127.0.0.1:9093"
    assert properties["listeners"] == "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093"
    assert properties["offsets.topic.replication.factor"] == "1"
    assert (root / "opt/fournines/kafka/libs/kafka_2.13.jar").exists()
    assert "kafka.Kafka" in unit_value(root / "etc/systemd/system/fournines-kafka.service", "ExecStart")


def test_collect_brings_member_1_to_the_top_and_other_hosts_into_their_folders(tmp_path):
    root, results = tmp_path / "root", tmp_path / "results"
    run_dir = root / "opt/fournines/runs" / RUN
    (run_dir / "nested").mkdir(parents=True)
    (run_dir / "latency.hlog").write_text("#[hlog]\n")
    (run_dir / "nested" / "gc.log").write_text("gc\n")
    inventory = local_inventory(tmp_path, {"members": ["member-1"], "loadgens": ["loadgen-1"]})
    play(tmp_path, "collect.yml", inventory, {"fournines_fs_root": str(root), "fournines_apply_system": False,
                                              "fournines_run_name": RUN, "fournines_results": str(results)})
    for top in (results, results / "loadgen-1"):
        assert (top / "latency.hlog").read_text() == "#[hlog]\n"
        assert (top / "nested" / "gc.log").read_text() == "gc\n"
    host = json.loads((results / "host.json").read_text())
    assert host["cores"] == os.cpu_count()
    assert host["instance_type"] == "c5.4xlarge"
