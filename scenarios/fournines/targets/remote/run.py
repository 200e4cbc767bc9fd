"""One run on a remote cluster (remote/cluster.py): the variables for infra/ansible (each member's
command line, the secret; with a Kafka load the brokers', the topic's and the load generators',
remote/kafka.py; active-active: each copy's members' and the result consumer's, remote/active_active.py),
deploy.yml, start.yml, the plan played (plan.py) with the scenario's faults (remote/faults.py), the
load generators stopped, stop.yml if the run did not end by itself, collect.yml whatever happened,
the members' files merged, then run.json and the report, with member-1's host facts.
"""
import functools
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from fournines.members.jvm import jvm_flags
from fournines.members.profiler import remote_profiler
from fournines.members.progress_display import ProgressDisplay
from fournines.results.finish import finish
from fournines.results.folder import member_dir
from fournines.results.host_context import host_context
from fournines.results.live_log import LiveLog
from fournines.results.outcome import EXIT_FAILED, Outcome
from fournines.targets.local.plan import Plan
from fournines.targets.local.play import play
from fournines.targets.remote.active_active import CONSUMER_PORT, consumer_command, copy_member_commands, merge_copies
from fournines.targets.remote.cluster import Cluster, playbook
from fournines.targets.remote.commands import member_commands
from fournines.targets.remote.faults import remote_members
from fournines.targets.remote.kafka import RemoteKafka, broker_libs
from fournines.targets.remote.plan import remote_active_active, remote_cluster

_HOST_FIELDS = ("host", "cpu_model", "cores", "kernel", "instance_type")


def run_on(cluster: Cluster, scenario: dict, jar: Path, profile: bool, run_dir: Path) -> int:
    """Plays a prepared scenario on the cluster into `run_dir` (made, with scenario.json); the exit code."""
    active_active = scenario["mode"] == "active-active"
    member_lines = copy_member_commands if active_active else member_commands
    commands = member_lines(scenario, profile, cluster.members, run_dir.name, cluster.ports, cluster.members_per_machine)
    extra = {"fournines_run_name": run_dir.name, "fournines_scenario": scenario, "fournines_results": str(run_dir),
             "member_jar": str(jar.resolve()), "member_commands": commands, "member_cluster_secret": cluster.secret}
    kafka = None
    if scenario["load"]["source"] == "kafka":
        kafka = RemoteKafka(cluster, scenario, run_dir.name)
        extra.update(kafka.ansible_vars(), kafka_libs_dir=str(broker_libs(cluster.private / "kafka-libs")))
    context = host_context()
    with tempfile.TemporaryDirectory(prefix="fournines-api-") as sockets:
        if active_active:
            consumer = cluster.hosts("loadgens")[0]
            port = cluster.inventory["vars"].get("consumer_port", CONSUMER_PORT)
            extra["consumer_commands"] = {consumer.name: consumer_command(scenario, profile, consumer, run_dir.name,
                                                                          len(cluster.members), port)}
            plan = remote_active_active(scenario, cluster.members, consumer, cluster.ssh, cluster.ports, cluster.secret,
                                        run_dir, Path(sockets), functools.partial(merge_copies, run_dir, consumer),
                                        remote_members(cluster))
        else:
            plan = remote_cluster(scenario, cluster.members, cluster.ssh, cluster.ports, cluster.secret, run_dir,
                                  Path(sockets), kafka.job_fields if kafka else None, remote_members(cluster))
        if kafka:
            plan.share_start_with_load()
        outcome = _play_remotely(cluster, scenario, plan, extra, kafka, run_dir)
    plan.gather_files()
    context.update(_remote_host(run_dir))
    return finish(run_dir, scenario, context, jvm_flags(scenario, profile), commands[cluster.members[0].name], outcome,
                  remote_profiler() if profile else None)


def _play_remotely(cluster: Cluster, scenario: dict, plan: Plan, extra: dict, kafka: RemoteKafka | None,
                   run_dir: Path) -> Outcome:
    """deploy.yml, start.yml, then every member followed like a local one (the load generators
    started when the job is submitted, with its start as their t0); the load generators stopped and their output fetched; stop.yml if the run
    did not end by itself; collect.yml whatever happened; a load that failed fails the run."""
    total_s = scenario["warmup_s"] + scenario["duration_s"]
    try:
        playbook(cluster, "deploy.yml", extra)
        playbook(cluster, "start.yml", extra)
        outcome = play(plan, ProgressDisplay(scenario["name"], total_s), total_s, scenario["faults"],
                       start_load=kafka.start_load if kafka else None, live=LiveLog(run_dir, scenario))
    except subprocess.CalledProcessError as e:
        outcome = Outcome("failed", f"{Path(e.cmd[-1]).name} failed (exit {e.returncode}); see its output above",
                          EXIT_FAILED)
    except KeyboardInterrupt:  # during deploy.yml or start.yml: some members may be up
        outcome = Outcome("interrupted", "stopped by SIGINT before the run started", 130)
    codes = {}
    if kafka:
        playbook(cluster, "stop.yml", extra, check=False, limit="loadgens")
        codes = kafka.fetch_logs(run_dir)
    if outcome.status != "completed":
        playbook(cluster, "stop.yml", extra, check=False)
    playbook(cluster, "collect.yml", extra, check=False)
    failure = kafka.summarize(run_dir, codes) if kafka else None
    if failure and outcome.status == "completed":
        return Outcome("failed", failure, EXIT_FAILED)
    return outcome


def _remote_host(run_dir: Path) -> dict:
    """member-1's host facts (collect.yml writes host.json), replacing the operator's machine's."""
    try:
        facts = json.loads((member_dir(run_dir, 0) / "host.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        print(f"warning: no host facts from member-1 ({e}); run.json describes this machine", file=sys.stderr)
        return {}
    return {name: facts[name] for name in _HOST_FIELDS if name in facts}
