"""What this build can run. The schema already accepts what later issues add (clusters, faults,
guarantees, active-active, Kafka, AWS), so scenarios can be written for them now; until
the engine does it, running such a scenario stops before anything starts instead of quietly
measuring something else.
"""
from fournines.engines import engine_problems
from fournines.fault_support import fault_problems

# field path -> (what this build supports, why / what is missing)
SUPPORTED = {
    "load.source": ({"in-process", "kafka"}, "no other sources"),
    "mode": ({"single", "active-active"}, "no other modes"),
}


def unsupported(scenario: dict) -> list[str]:
    """One message per field this build cannot honour (or its engine cannot: engines.py); empty if it
    can run the scenario."""
    messages = []
    for path, (values, why) in SUPPORTED.items():
        value = _get(scenario, path)
        if value not in values:
            allowed = ", ".join(sorted(map(str, values)))
            messages.append(f"not supported yet by this build: field {path}={value} ({why}; supported: {allowed})")
    messages += engine_problems(scenario)
    if scenario["mode"] == "active-active" and (scenario["engine"], scenario["target"]) != ("fournines", "local"):
        messages.append(f"not supported yet by this build: field mode=active-active with engine={scenario['engine']} "
                        f"target={scenario['target']} (the two copies run as local reference-engine clusters; "
                        "supported: engine fournines, target local)")
    if scenario["mode"] == "active-active" and any(f["action"] == "restart" for f in scenario["faults"]):
        messages.append("not supported yet by this build: field faults with action=restart in mode=active-active "
                        "(a copy that lost a member stays lost; supported: kill, stop)")
    if scenario["mode"] == "active-active" and scenario["load"]["source"] == "kafka":
        messages.append("not supported yet by this build: field load.source=kafka in mode=active-active "
                        "(the copies run on the in-process generator; supported: load.source in-process)")
    messages += fault_problems(scenario)
    return messages


def _get(scenario: dict, path: str):
    node = scenario
    for part in path.split("."):
        node = node[part]
    return node
