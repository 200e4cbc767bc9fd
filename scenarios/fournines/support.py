"""What this build can run. The schema already accepts what later issues add (clusters, faults,
guarantees, active-active, Kafka, peer engines, AWS), so scenarios can be written for them now; until
the engine does it, running such a scenario stops before anything starts instead of quietly
measuring something else.
"""

# field path -> (what this build supports, why / what is missing)
SUPPORTED = {
    "engine": ({"fournines"}, "peer engines need their adapters"),
    "target": ({"local"}, "no EC2 provisioning yet"),
    "cluster.members": ({1}, "one member process until the distributed engine, issue 6"),
    "load.source": ({"in-process", "kafka"}, "no other sources"),
    "guarantee": ({"none"}, "snapshots come with issue 7"),
    "mode": ({"single"}, "active-active comes with issue 7"),
}


def unsupported(scenario: dict) -> list[str]:
    """One message per field this build cannot honour; empty if it can run the scenario."""
    messages = []
    for path, (values, why) in SUPPORTED.items():
        value = _get(scenario, path)
        if value not in values:
            allowed = ", ".join(sorted(map(str, values)))
            messages.append(f"not supported yet by this build: field {path}={value} ({why}; supported: {allowed})")
    if scenario["faults"]:
        messages.append(f"not supported yet by this build: field faults ({len(scenario['faults'])} given; "
                        "fault injection comes with issue 7; supported: none)")
    return messages


def _get(scenario: dict, path: str):
    node = scenario
    for part in path.split("."):
        node = node[part]
    return node
