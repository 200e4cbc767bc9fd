"""The engines a scenario runs on (`engine:`), each a member process behind the same contract
(scenarios/README.md, "The member contract"): the reference engine's member and the peer-engine
adapters in nexmark/jet and nexmark/flink."""
from dataclasses import dataclass

# What the peer adapters run: the per-event and windowed queries of the paper's comparison. Q0 and Q13
# and the unbounded joins (Q3, Q4, Q6) are not written for them.
PEER_QUERIES = frozenset({"q1", "q2", "q5", "q7", "q8"})


@dataclass(frozen=True)
class Engine:
    name: str
    module: str  # the Maven module that builds the member
    jar: str  # its runnable jar, in <module>/target/
    queries: frozenset | None  # None: every query the member contract knows


ENGINES = {
    "fournines": Engine("fournines", "nexmark/fournines", "fournines-member.jar", None),
    "jet": Engine("jet", "nexmark/jet", "fournines-jet.jar", PEER_QUERIES),
    "flink": Engine("flink", "nexmark/flink", "fournines-flink.jar", PEER_QUERIES),
}


def engine_problems(scenario: dict) -> list[str]:
    """What the scenario's engine cannot run, one message each; empty if it can."""
    engine = ENGINES[scenario["engine"]]
    problems = []
    query = scenario["query"]["name"]
    if engine.queries is not None and query not in engine.queries:
        problems.append(f"engine {engine.name} cannot run query {query}: its adapter runs "
                        f"{', '.join(sorted(engine.queries, key=lambda q: int(q[1:])))}")
    if engine.name != "fournines":
        # The adapters run the engines as the paper's comparison does: in-process load, no snapshots,
        # on this machine.
        for path, value, allowed in (("load.source", scenario["load"]["source"], "in-process"),
                                     ("guarantee", scenario["guarantee"], "none"),
                                     ("target", scenario["target"], "local")):
            if value != allowed:
                problems.append(f"engine {engine.name} runs with {path}={allowed} only; field {path}={value}")
    return problems
