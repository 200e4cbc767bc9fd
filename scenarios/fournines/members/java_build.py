"""Builds a Java module's jar on first use, and again whenever its sources changed."""
import subprocess
import sys
from pathlib import Path

from fournines import REPO_ROOT

# Every module a jar can depend on: a change in any of them makes the jar stale.
_JAVA_TREES = ("pom.xml", "engine", "nexmark", "loadgen", "infra/kafka-local")


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


def ensure_jar(module: str, jar: str) -> Path:
    """Returns REPO_ROOT/module/target/jar, building `module` (and what it needs) if stale."""
    path = REPO_ROOT / module / "target" / jar
    if path.exists() and path.stat().st_mtime >= _newest_source_mtime():
        return path
    print(f"Building {module} (mvn package) ...", file=sys.stderr, flush=True)
    subprocess.run(
        ["mvn", "-B", "-q", "--no-transfer-progress", "-DskipTests", "package", "-pl", module, "-am"],
        cwd=REPO_ROOT,
        check=True,
    )
    if not path.exists():
        raise SystemExit(f"build of {module} finished but {path} is missing")
    return path
