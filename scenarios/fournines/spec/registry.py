"""The one registry of queries and of what each engine's member runs: queries.json, which the Java
scenario reader reads too. Query names, parameters, the sources each query reads and every engine's
queries, sources, guarantees, modes, execution models, clusters, several jobs and idle strategies are written there and nowhere else."""
import json
from dataclasses import dataclass

from fournines import REPO_ROOT
from fournines.spec.schema import Field, Integer

REGISTRY = REPO_ROOT / "nexmark/core/src/main/resources/io/fournines/nexmark/query/queries.json"


@dataclass(frozen=True)
class Query:
    name: str
    input: str  # the events it reads: "nexmark" (the NEXMark generator's), "trades" (the load generator's stock trades), "ysb" (YSB's ad events) or "numbers" (random numbers)
    parameters: dict[str, Field]  # the scenario fields `query.<parameter>`, with their range and default
    sources: tuple[str, ...]  # the `load.source` values that make its events


@dataclass(frozen=True)
class Engine:
    name: str
    queries: tuple[str, ...]
    sources: tuple[str, ...]
    guarantees: tuple[str, ...]
    modes: tuple[str, ...]
    executions: tuple[str, ...]  # the `execution` models its member runs
    clusters: bool  # whether its member runs as several processes (cluster.members > 1)
    several_jobs: bool  # whether one member runs several copies of the query (jobs > 1)
    idle_strategies: tuple[str, ...]  # the `idle` values its member honours; ("park-backoff",): it idles its own way


def _read() -> tuple[dict[str, Query], dict[str, Engine]]:
    registry = json.loads(REGISTRY.read_text(encoding="utf-8"))
    queries = {name: Query(name, q["input"],
                           {p: Field(Integer(r["min"], r["max"]), r["default"]) for p, r in q["parameters"].items()},
                           tuple(q["sources"]))
               for name, q in registry["queries"].items()}
    engines = {name: Engine(name, tuple(e["queries"]), tuple(e["sources"]), tuple(e["guarantees"]), tuple(e["modes"]),
                            tuple(e["executions"]), e["clusters"], e["several_jobs"], tuple(e["idle_strategies"]))
               for name, e in registry["engines"].items()}
    return queries, engines


QUERIES, ENGINES = _read()
