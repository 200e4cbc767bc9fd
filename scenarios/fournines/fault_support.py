"""Which faults this build can inject (faults.py): on a local cluster's member processes. Member 1
can only be killed: it is the oldest member, so a member-1 that comes back (started again, or
continued after a stop the others took for a loss) would be the coordinator again without the job's
state; the coordinator role does not move back yet."""


def fault_problems(scenario: dict) -> list[str]:
    """One message per fault field this build cannot honour; empty if it can inject them all."""
    faults, members = scenario["faults"], scenario["cluster"]["members"]
    if not faults:
        return []
    if scenario["target"] != "local":
        return [f"not supported yet by this build: field faults with target={scenario['target']} "
                "(faults are injected into local member processes; supported: target=local)"]
    if members == 1:
        return ["not supported yet by this build: field faults with cluster.members=1 (a fault on the only "
                "member ends the run; supported: cluster.members > 1)"]
    return [f"not supported yet by this build: field faults[{i}].action={fault['action']} on target=member-1 (a "
            "member-1 that comes back would be the oldest member, so the coordinator, again, without the job's "
            f"state; supported: kill on member-1, any action on member-2 … member-{members})"
            for i, fault in enumerate(faults) if fault["target"] == "member-1" and fault["action"] != "kill"]
