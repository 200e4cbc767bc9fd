"""Offline checks of infra/ansible: ansible-lint (production profile), --syntax-check of every
playbook, and the roles run for real against localhost with every path under a temporary directory
and the root-only tasks (packages, services, sysctl, governor, disks) switched off; then what they
wrote is checked: the member's systemd unit must start exactly the command line the runner makes
(members/jvm.py, as for the local target); under the process manager, the services run for real,
and a remote run's faults reach them."""
import getpass
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path, PurePosixPath
from typing import NamedTuple

import pytest

from fournines.targets.aws.target import REMOTE_HOME
from fournines.targets.local.faults import FaultError
from fournines.targets.remote.cluster import Cluster
from fournines.targets.remote.commands import Ports, RemoteHost, member_commands
from fournines.targets.remote.faults import remote_members
from fournines.spec.scenario import load_scenario
from fournines.spec.overrides import parse_overrides
from ansible_play import RUN, local_inventory, play, sandboxed, unit_arguments, unit_value
from infra_paths import ANSIBLE_DIR, ansible_env, venv_tool

PLAYBOOKS = sorted(ANSIBLE_DIR.glob("*.yml"))

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


@pytest.mark.parametrize("arguments", [
    ["java", "-Xlog:gc*:file=gc.log:time,uptime,level,tags", "-jar", "/opt/fournines/lib/fournines-member.jar"],
    ["echo", 'a "quoted" word', "back\\slash", "100%", "$HOME", "${X}", "two words"],
])
def test_systemd_exec_round_trips(arguments):
    assert unit_arguments(systemd_exec(arguments)) == arguments


def test_systemd_exec_refuses_a_string():
    with pytest.raises(ValueError, match="expected a non-empty list"):
        systemd_exec("java -jar x.jar")


class Deployed(NamedTuple):
    root: Path  # the temporary root every path went under
    scenario: dict
    command: list[str]  # member-1's command line, as the runner makes it
    second_run: str  # the output of deploying the same run again


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """deploy.yml run for real on this machine into a temporary root, twice."""
    tmp_path = tmp_path_factory.mktemp("deploy")
    root = tmp_path / "root"
    scenario = load_scenario("q5", parse_overrides(["TARGET=aws"]))
    command = member_commands(scenario, False, [RemoteHost("member-1", "127.0.0.1", REMOTE_HOME)], RUN, Ports(5701, 5801))["member-1"]
    (tmp_path / "member.jar").write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip: the role copies, never runs it
    (tmp_path / "kafka-libs").mkdir()
    (tmp_path / "kafka-libs" / "kafka_2.13.jar").write_bytes(b"PK\x05\x06" + bytes(18))
    (tmp_path / "loadgen.jar").write_bytes(b"PK\x05\x06" + bytes(18))
    inventory = local_inventory(tmp_path, {"members": ["member-1"], "brokers": ["broker-1"], "loadgens": ["loadgen-1"]})
    variables = {
        **sandboxed(root), "fournines_user": getpass.getuser(), "fournines_run_name": RUN, "fournines_scenario": scenario,
        "member_jar": str(tmp_path / "member.jar"), "member_commands": {"member-1": command}, "member_cluster_secret": "s" * 64,
        "kafka_libs_dir": str(tmp_path / "kafka-libs"), "kafka_cluster_id": "MkU3OEVBNTcwNTJENDM2Qg",
        "loadgen_jar": str(tmp_path / "loadgen.jar"),
        "loadgen_commands": {"loadgen-1": ["java", "-jar", "/opt/fournines/lib/fournines-loadgen.jar"]},
    }
    play(tmp_path, "deploy.yml", inventory, variables)
    return Deployed(root, scenario, command, play(tmp_path, "deploy.yml", inventory, variables))


def test_deploying_again_changes_nothing(deployed):
    """Idempotent roles: a second deploy of the same run restarts nothing (Kafka's handler fires
    only on a change)."""
    recap = deployed.second_run.split("PLAY RECAP", 1)[1]
    assert re.findall(r"changed=(\d+)", recap) == ["0", "0", "0"], recap


def test_the_member_unit_starts_the_command_line_the_runner_made(deployed):
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


def test_the_service_control_is_executable_shell(deployed):
    script = deployed.root / "opt/fournines/bin/fournines-service"
    assert os.access(script, os.X_OK)
    subprocess.run(["bash", "-n", str(script)], check=True)
    assert "systemctl kill --kill-whom=all" in script.read_text()  # systemd, the default manager


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
    start = unit_arguments(unit_value(root / "etc/systemd/system/fournines-kafka.service", "ExecStart"))
    assert start[0] == "java" and "-Xmx6g" in start
    assert start[-4:] == ["-cp", f"{root}/opt/fournines/kafka/libs/*", "kafka.Kafka",
                          f"{root}/opt/fournines/kafka/config/server.properties"]


def test_collect_brings_every_host_into_a_folder_of_its_name(tmp_path):
    root, results = tmp_path / "root", tmp_path / "results"
    run_dir = root / "opt/fournines/runs" / RUN
    (run_dir / "nested").mkdir(parents=True)
    (run_dir / "latency.hlog").write_text("#[hlog]\n")
    (run_dir / "nested" / "gc.log").write_text("gc\n")
    inventory = local_inventory(tmp_path, {"members": ["member-1"], "loadgens": ["loadgen-1"]})
    play(tmp_path, "collect.yml", inventory, {**sandboxed(root), "fournines_run_name": RUN, "fournines_results": str(results)})
    for top in (results / "member-1", results / "loadgen-1"):
        assert (top / "latency.hlog").read_text() == "#[hlog]\n"
        assert (top / "nested" / "gc.log").read_text() == "gc\n"
    host = json.loads((results / "member-1" / "host.json").read_text())
    assert host["cores"] == os.cpu_count()
    assert host["instance_type"] == "c5.4xlarge"


class Managed(NamedTuple):
    tmp_path: Path
    inventory: Path
    variables: dict
    control: Path  # fournines-service


@pytest.fixture
def process_managed(tmp_path):
    """deploy.yml with the process manager (as on hosts without systemd) for a member whose command is
    a stand-in shell the test picks (member_commands), so start.yml, signals and follow run for real."""
    root = tmp_path / "root"
    (tmp_path / "member.jar").write_bytes(b"PK\x05\x06" + bytes(18))
    inventory = local_inventory(tmp_path, {"members": ["member-1"]})
    variables = {**sandboxed(root), "fournines_service_manager": "process", "fournines_user": getpass.getuser(),
                 "fournines_run_name": RUN, "fournines_scenario": {"name": "stand-in"},
                 "member_jar": str(tmp_path / "member.jar"), "member_cluster_secret": "s" * 64, "member_stop_timeout_s": 2}
    return Managed(tmp_path, inventory, variables, root / "opt/fournines/bin/fournines-service")


def deploy_and_start(managed: Managed, script: str) -> None:
    variables = {**managed.variables, "member_commands": {"member-1": ["bash", "-c", script]}}
    play(managed.tmp_path, "deploy.yml", managed.inventory, variables)
    play(managed.tmp_path, "start.yml", managed.inventory, variables)


def follow(managed: Managed) -> subprocess.CompletedProcess:
    return subprocess.run([str(managed.control), "member", "follow"], capture_output=True, text=True, timeout=60)


def test_the_process_manager_runs_the_command_in_the_run_directory_and_follow_ends_with_its_exit_code(process_managed):
    deploy_and_start(process_managed, "echo started in $PWD; sleep 1; echo done; exit 7")
    followed = follow(process_managed)
    run_dir = process_managed.tmp_path / "root/opt/fournines/runs" / RUN
    assert followed.stdout == f"started in {run_dir}\ndone\n", followed.stderr
    assert followed.returncode == 7


def test_a_signalled_service_is_followed_to_its_end_with_128_plus_the_signal(process_managed):
    deploy_and_start(process_managed, "echo up; exec sleep 60")
    control = str(process_managed.control)
    await_output(process_managed, "up\n")
    subprocess.run([control, "member", "signal", "STOP"], check=True)
    assert subprocess.run([control, "member", "status"], capture_output=True, text=True).stdout == "active\n"
    subprocess.run([control, "member", "signal", "KILL"], check=True)
    followed = follow(process_managed)
    assert (followed.stdout, followed.returncode) == ("up\n", 137)
    assert subprocess.run([control, "member", "status"], capture_output=True, text=True).returncode == 3


def test_stop_sends_sigterm_then_sigkill_after_the_grace_period(process_managed):
    deploy_and_start(process_managed, "trap 'echo terminating; exit 3' TERM; echo up; while true; do sleep 0.1; done")
    await_output(process_managed, "up\n")
    play(process_managed.tmp_path, "stop.yml", process_managed.inventory, process_managed.variables)
    followed = follow(process_managed)
    lines = followed.stdout.splitlines()  # bash may report the sleep SIGTERM ended, in between
    assert (lines[0], lines[-1], followed.returncode) == ("up", "terminating", 3)

    deploy_and_start(process_managed, "trap '' TERM; echo deaf; while true; do sleep 0.1; done")
    await_output(process_managed, "deaf\n")
    started = time.monotonic()
    subprocess.run([str(process_managed.control), "member", "stop"], check=True)
    assert 1.5 < time.monotonic() - started < 10  # member_stop_timeout_s: 2, then SIGKILL
    assert follow(process_managed).returncode == 137


def test_a_remote_runs_faults_reach_the_member_through_its_service(process_managed):
    """targets/remote/faults.py with SSH taken out (the remote command runs here): stop, continue, kill
    and start again reach the service's process group; a host that cannot take one fails the fault."""
    deploy_and_start(process_managed, "echo up; exec sleep 60")
    await_output(process_managed, "up\n")
    home = process_managed.tmp_path / "root/opt/fournines"
    inventory = {"vars": {"ansible_user": "root", "ansible_ssh_private_key_file": "/dev/null", "ansible_ssh_common_args": ""},
                 "children": {"members": {"hosts": {"member-1": {"ansible_host": "127.0.0.1", "private_ip": "127.0.0.1"}}}}}
    cluster = Cluster(process_managed.inventory, inventory, lambda _: PurePosixPath(home), Ports(5701, 5801), "s" * 64,
                      process_managed.tmp_path, sudo=[], reach=lambda argv: ["sh", "-c", argv[-1]])
    members = remote_members(cluster)
    group = int((home / "services/member/group").read_text())
    members.signal("member-1", signal.SIGSTOP)
    assert await_state(group, "T") == "T"
    members.signal("member-1", signal.SIGCONT)
    assert await_state(group, "S") == "S"
    members.signal("member-1", signal.SIGKILL)
    assert follow(process_managed).returncode == 137
    with pytest.raises(FaultError, match=r"member-1: `fournines-service member signal KILL` failed \(exit 1\)"):
        members.signal("member-1", signal.SIGKILL)  # nothing left to signal
    members.start("member-1")
    await_output(process_managed, "up\n")
    assert subprocess.run([str(process_managed.control), "member", "status"], capture_output=True, text=True).stdout == "active\n"
    assert members.partition is None  # a network the runner does not own: AWS


def await_state(pid: int, wanted: str) -> str:
    """The process's state letter once it is `wanted` (T stopped, S sleeping), or as it is after 5 s."""
    deadline = time.monotonic() + 5
    while True:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        if state == wanted or time.monotonic() > deadline:
            return state
        time.sleep(0.02)


def await_output(managed: Managed, text: str) -> None:
    out = managed.tmp_path / "root/opt/fournines/services/member/out"
    deadline = time.monotonic() + 30
    while not (out.exists() and out.read_text() == text):
        assert time.monotonic() < deadline, f"{out}: {out.read_text() if out.exists() else 'missing'!r}, waited for {text!r}"
        time.sleep(0.05)
