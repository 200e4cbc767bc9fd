"""The AWS path's cluster, rendered offline for CLUSTER=10 with Kafka (the committed `terraform output`
fixture: 10 members, 3 brokers, 1 load generator): every member is started with `serve`, the full
member list of the hosts' private addresses and the secret file deploy.yml writes; deploy.yml run
for real on this machine, each host in a directory of its own, installs exactly those command lines
as the members' systemd units, and the load generator's unit sends its share of the load into the
run's topic on the three brokers (replicated three times)."""
import getpass
import json
import sys
from pathlib import Path, PurePosixPath

import pytest
import yaml

from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario
from fournines.targets.aws.inventory import inventory
from fournines.targets.remote.cluster import Cluster
from fournines.targets.remote.commands import Ports, RemoteHost, member_commands
from fournines.targets.remote.kafka import RemoteKafka
from ansible_play import RUN, play, sandboxed, unit_arguments, unit_value
from infra_paths import FIXTURES

HOME = PurePosixPath("/opt/fournines")
SECRET = "c" * 64


@pytest.fixture(scope="module")
def aws_cluster():
    outputs = json.loads((FIXTURES / "terraform-output.json").read_text(encoding="utf-8"))
    rendered = inventory(outputs, Path("/keys/id"), Path("/keys/known_hosts"))
    hosts = rendered["all"]["children"]
    scenario = load_scenario("q5", parse_overrides(["TARGET=aws", "CLUSTER=10", "SOURCE=kafka"]))
    members = [RemoteHost(name, host["private_ip"], HOME) for name, host in hosts["members"]["hosts"].items()]
    ports = Ports(rendered["all"]["vars"]["member_port"], rendered["all"]["vars"]["member_management_port"])
    return scenario, members, ports, hosts, member_commands(scenario, False, members, RUN, ports)


def option(command: list[str], name: str) -> str:
    assert command.count(name) == 1, f"{name} in {command}"
    return command[command.index(name) + 1]


def test_every_member_serves_with_the_full_member_list_and_the_secret_file(aws_cluster):
    scenario, members, ports, _, commands = aws_cluster
    assert scenario["cluster"]["members"] == len(members) == len(commands) == 10
    listed = ",".join(f"10.42.0.{11 + i}:5701" for i in range(10))  # the fixture's private addresses, in index order
    for index, host in enumerate(members):
        command = commands[host.name]
        assert command[command.index("-jar") + 1:][:2] == [str(HOME / "lib/fournines-member.jar"), "serve"]
        assert option(command, "--index") == str(index)
        assert option(command, "--members") == listed
        assert option(command, "--secret-file") == str(HOME / "cluster-secret")
        assert option(command, "--http") == f"127.0.0.1:{ports.management}"  # never on the network: SSH reaches it
        assert option(command, "--out") == str(HOME / "runs" / RUN)
        assert "-XX:+UseZGC" in command and "-Xmx2g" in command  # the scenario's own flags, a host's whole heap


def test_deploy_installs_each_members_and_the_load_generators_command_as_its_unit(aws_cluster, tmp_path):
    scenario, members, _, hosts, commands = aws_cluster
    roots = {}
    groups = {}
    for group, entries in hosts.items():
        groups[group] = {"hosts": {}}
        for name, host in entries["hosts"].items():
            roots[name] = tmp_path / name
            groups[group]["hosts"][name] = {**host, **sandboxed(roots[name]), "ansible_connection": "local",
                                            "ansible_python_interpreter": sys.executable}
    inventory_path = tmp_path / "inventory.yml"
    inventory_path.write_text(yaml.safe_dump({"all": {"vars": {"kafka_port": 9092, "kafka_controller_port": 9093},
                                                      "children": groups}}), encoding="utf-8")
    for jar in ("member.jar", "loadgen.jar", "kafka-libs/kafka_2.13.jar"):
        (tmp_path / jar).parent.mkdir(exist_ok=True)
        (tmp_path / jar).write_bytes(b"PK\x05\x06" + bytes(18))
    kafka = RemoteKafka(Cluster(inventory_path, {"vars": {"kafka_port": 9092}, "children": hosts}, lambda _: HOME,
                                Ports(5701, 5801), SECRET, tmp_path, sudo=[], kafka_cluster_id="MkU3OEVBNTcwNTJENDM2Qg"),
                        scenario, RUN)
    variables = kafka.ansible_vars()
    play(tmp_path, "deploy.yml", inventory_path, {
        "fournines_user": getpass.getuser(), "fournines_run_name": RUN, "fournines_scenario": scenario,
        "member_jar": str(tmp_path / "member.jar"), "member_commands": commands, "member_cluster_secret": SECRET,
        **variables, "kafka_libs_dir": str(tmp_path / "kafka-libs"), "loadgen_jar": str(tmp_path / "loadgen.jar")})
    for host in members:
        root = roots[host.name]
        unit = root / "etc/systemd/system/fournines-member.service"
        assert unit_arguments(unit_value(unit, "ExecStart")) == commands[host.name]
        assert (root / "opt/fournines/cluster-secret").read_text() == SECRET + "\n"
        assert json.loads((root / "opt/fournines/runs" / RUN / "scenario.json").read_text()) == scenario
    voters = [line for line in (roots["broker-1"] / "opt/fournines/kafka/config/server.properties").read_text().splitlines()
              if line.startswith("controller.quorum.voters=")]
    assert voters == ["controller.quorum.voters=1@10.42.0.21:9093,2@10.42.0.22:9093,3@10.42.0.23:9093"]
    loadgen = unit_arguments(unit_value(roots["loadgen-1"] / "etc/systemd/system/fournines-loadgen.service", "ExecStart"))
    assert loadgen == variables["loadgen_commands"]["loadgen-1"]
    assert option(loadgen, "--bootstrap") == "10.42.0.21:9092,10.42.0.22:9092,10.42.0.23:9092"
    assert option(loadgen, "--share") == "1/1" and loadgen[-1] == f"@{HOME}/runs/{RUN}/loadgen-start.args"
    assert option(variables["loadgen_topic_command"], "--replication-factor") == "3"
