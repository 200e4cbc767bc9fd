"""What the simulator models so far, checked before anything starts: a scenario outside it is refused
with the fields it cannot honour, as `run` refuses what an engine cannot run."""

QUERIES = ("q5",)  # sliding-window aggregation with Q5's shape (windowed_job.py)


def unsimulated(scenario: dict) -> list[str]:
    rules = [("query.name", scenario["query"]["name"], QUERIES),
             ("execution", scenario["execution"], ("continuous", "micro-batch", "group")),
             ("mode", scenario["mode"], ("single",)),
             ("jobs", scenario["jobs"], (1,)),
             ("guarantee", scenario["guarantee"], ("none",))]
    problems = [f"the simulator models {path}={' or '.join(map(str, allowed))} only so far; field {path}={value}"
                for path, value, allowed in rules if value not in allowed]
    if scenario["faults"]:
        problems.append("the simulator does not model faults yet; field faults has "
                        f"{len(scenario['faults'])}")
    return problems
