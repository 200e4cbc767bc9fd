"""What this build can run. The schema accepts more than runs today, so scenarios can be written for
what comes later; running one stops before anything starts instead of quietly measuring something
else. What each engine's member runs is the query registry's word (registry.py); the rest is what
the targets and the fault injection do not do yet.
"""
from fournines.spec.registry import ENGINES

NOT_YET = "not supported yet by this build"


def unsupported(scenario: dict) -> list[str]:
    """One message per field this build or the scenario's engine cannot honour; empty if it can run it."""
    return [*_engine_problems(scenario), *_target_problems(scenario), *_fault_problems(scenario),
            *_execution_problems(scenario), *_jobs_problems(scenario)]


def _engine_problems(scenario: dict) -> list[str]:
    """What the scenario's engine cannot run, by its entry in the registry."""
    engine = ENGINES[scenario["engine"]]
    query = scenario["query"]["name"]
    problems = []
    if query not in engine.queries:
        problems.append(f"engine {engine.name} cannot run query {query}: its member runs {', '.join(engine.queries)}")
    rules = [("load.source", scenario["load"]["source"], engine.sources),
             ("guarantee", scenario["guarantee"], engine.guarantees),
             ("mode", scenario["mode"], engine.modes),
             ("execution", scenario["execution"], engine.executions)]
    if not engine.clusters:
        rules.append(("cluster.members", scenario["cluster"]["members"], (1,)))
    if not engine.several_jobs:
        rules.append(("jobs", scenario["jobs"], (1,)))
    for path, value, allowed in rules:
        if value not in allowed:
            problems.append(f"engine {engine.name} runs with {path}={' or '.join(map(str, allowed))} only; "
                            f"field {path}={value}")
    if scenario["idle"] not in engine.idle_strategies:
        # The field chooses the reference engine's worker idling; a peer's default stands for its own.
        problems.append(f"engine {engine.name} idles its own way, so it runs with idle={' or '.join(engine.idle_strategies)} "
                        f"(the default) only; field idle={scenario['idle']}")
    return problems


def _target_problems(scenario: dict) -> list[str]:
    engine, target, mode = scenario["engine"], scenario["target"], scenario["mode"]
    problems = []
    if target != "local" and engine != "fournines":
        # The peers are measured as the paper's comparison measures them: on this machine.
        problems.append(f"{NOT_YET}: field target={target} with engine={engine} (peer engines run on this "
                        "machine; supported: target local)")
    if target == "aws" and "jdk" in scenario["cluster"]:
        problems.append(f"{NOT_YET}: field cluster.jdk with target=aws (the EC2 hosts run the JDK infra/ansible "
                        "installs; supported: targets local and hosts)")
    if mode == "active-active":
        if scenario["load"]["source"] == "kafka":
            problems.append(f"{NOT_YET}: field load.source=kafka in mode=active-active (the copies run on the "
                            "in-process generator; supported: load.source in-process)")
        if any(f["action"] == "restart" for f in scenario["faults"]):
            problems.append(f"{NOT_YET}: field faults with action=restart in mode=active-active (a copy that "
                            "lost a member stays lost; supported: kill, stop)")
        if any(f["action"] == "partition" for f in scenario["faults"]):
            problems.append(f"{NOT_YET}: field faults with action=partition in mode=active-active (the proxy "
                            "stands between the members of one cluster; supported: kill, stop)")
    return problems


def _execution_problems(scenario: dict) -> list[str]:
    """Micro-batch and group execution run one copy of the job (on one member or a cluster, from the
    generator or Kafka)."""
    execution, mode = scenario["execution"], scenario["mode"]
    if execution == "continuous" or mode == "single":
        return []
    return [f"{NOT_YET}: field mode={mode} with execution={execution} (supported: mode=single: one copy)"]


def _jobs_problems(scenario: dict) -> list[str]:
    """Several jobs run on one member alone, each fed by its own in-process generator, without
    snapshots, continuously: each of the other settings would need per-job plumbing (a cluster's
    job control, a topic's partitions, the consumer, snapshot stores, the batch scheduler's file)."""
    jobs = scenario["jobs"]
    if jobs == 1:
        return []
    alone = [("cluster.members", scenario["cluster"]["members"], 1, "on one member"),
             ("target", scenario["target"], "local", "on this machine"),
             ("load.source", scenario["load"]["source"], "in-process", "on the in-process generator"),
             ("mode", scenario["mode"], "single", "as one copy"),
             ("guarantee", scenario["guarantee"], "none", "without snapshots"),
             ("execution", scenario["execution"], "continuous", "in continuous execution")]
    return [f"{NOT_YET}: field jobs={jobs} with {path}={value} (so far several jobs run {how}; "
            f"supported: {path}={supported})"
            for path, value, supported, how in alone if value != supported]


def _fault_problems(scenario: dict) -> list[str]:
    """Faults are injected into a cluster's member processes (targets/local/faults.py): local ones, or
    remote ones through their hosts' service manager (targets/remote/faults.py). A partition cuts
    links the runner owns: the local proxy's, or the emulated hosts' network."""
    if not scenario["faults"]:
        return []
    if scenario["target"] == "aws" and any(f["action"] == "partition" for f in scenario["faults"]):
        return [f"{NOT_YET}: field faults with action=partition and target=aws (the runner does not own the "
                "hosts' network; supported: target local or hosts)"]
    if scenario["cluster"]["members"] == 1:
        return [f"{NOT_YET}: field faults with cluster.members=1 (a fault on the only member ends the run; "
                "supported: cluster.members > 1)"]
    return []
