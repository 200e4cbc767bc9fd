"""Which faults this build can inject (faults.py): on a local cluster's member processes, any of them."""


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
    return []
