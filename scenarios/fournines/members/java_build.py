"""The jars the runner starts, and building each on first use and again whenever its sources changed."""
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from fournines import REPO_ROOT

# Every module a jar can depend on: a change in any of them makes the jar stale.
_JAVA_TREES = ("pom.xml", "engine", "nexmark", "loadgen", "infra/kafka-local")


@dataclass(frozen=True)
class Jar:
    module: str  # the Maven module that builds it
    name: str  # its runnable jar, in <module>/target/

    @property
    def path(self) -> Path:
        return REPO_ROOT / self.module / "target" / self.name


# Where each Java program is built: written here and nowhere else. An engine's member is under the
# engine's name (the query registry's `engines`).
JARS = {
    "fournines": Jar("nexmark/fournines", "fournines-member.jar"),
    "jet": Jar("nexmark/jet", "fournines-jet.jar"),
    "flink": Jar("nexmark/flink", "fournines-flink.jar"),
    "nexmark": Jar("nexmark/queries", "fournines-nexmark.jar"),  # the nexmark CLI
    "benchmarks": Jar("engine/jmh", "engine-benchmarks.jar"),  # JMH, idle cost, transport benchmark
    "loadgen": Jar("loadgen", "fournines-loadgen.jar"),
    "kafka-local": Jar("infra/kafka-local", "fournines-kafka-local.jar"),  # the local broker's launcher
}


def _newest_source_mtime() -> float:
    newest = 0.0
    for tree in _JAVA_TREES:
        path = REPO_ROOT / tree
        if path.is_file():
            newest = max(newest, path.stat().st_mtime)
            continue
        for source in path.rglob("*"):
            if "target" in source.parts or not source.is_file():
                continue
            if source.suffix in (".java", ".xml", ".properties"):
                newest = max(newest, source.stat().st_mtime)
    return newest


def ensure_jar(jar: Jar) -> Path:
    """The jar's path, building its module (and what it needs) first if the jar is stale."""
    if jar.path.exists() and jar.path.stat().st_mtime >= _newest_source_mtime():
        return jar.path
    print(f"Building {jar.module} (mvn package) ...", file=sys.stderr, flush=True)
    subprocess.run(
        ["mvn", "-B", "-q", "--no-transfer-progress", "-DskipTests", "package", "-pl", jar.module, "-am"],
        cwd=REPO_ROOT,
        check=True,
    )
    if not jar.path.exists():
        raise SystemExit(f"build of {jar.module} finished but {jar.path} is missing")
    return jar.path
