"""Which faults this build can inject (faults.py): on a local cluster's member processes, other than
member 1, whose management API and progress the runner follows to see the job through."""


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
    return [f"not supported yet by this build: field faults[{i}].target={fault['target']} (the runner follows "
            "the job through member-1's API and progress; supported: member-2 … "
            f"member-{members})" for i, fault in enumerate(faults) if fault["target"] == "member-1"]
