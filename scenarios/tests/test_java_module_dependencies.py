"""The Java modules depend one way (DESIGN.md §2): the engine on nothing of the benchmark, the
NEXMark core on no engine, the peer adapters and the load generator on no engine jar. Read from the
POMs, following our own modules' dependencies transitively."""
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from fournines import REPO_ROOT

_NS = {"m": "http://maven.apache.org/POM/4.0.0"}
_ENGINE = {"fournines-engine", "fournines-cluster", "fournines-engine-kafka", "fournines-member"}


def _modules() -> dict[str, tuple[str, list[tuple[str, str]]]]:
    """artifactId -> (folder, [(dependency artifactId, scope)]) for each of our modules."""
    modules = {}
    for pom in REPO_ROOT.rglob("pom.xml"):
        if any(part in ("target", ".venv", "node_modules") for part in pom.parts):
            continue
        root = ET.parse(pom).getroot()
        artifact = root.find("m:artifactId", _NS).text
        deps = [(d.find("m:artifactId", _NS).text, getattr(d.find("m:scope", _NS), "text", "compile"))
                for d in root.findall("m:dependencies/m:dependency", _NS)
                if d.find("m:groupId", _NS).text == "io.fournines"]
        modules[artifact] = (pom.parent.relative_to(REPO_ROOT).as_posix(), deps)
    return modules


MODULES = _modules()


def _closure(artifact: str, with_tests: bool) -> set[str]:
    """Our modules on `artifact`'s classpath: runtime, or also its tests'. Test scope is not transitive."""
    seen, todo = set(), [(artifact, True)]
    while todo:
        current, first = todo.pop()
        for dep, scope in MODULES[current][1]:
            if scope in ("compile", "runtime") or (with_tests and first and scope == "test"):
                if dep not in seen:
                    seen.add(dep)
                    todo.append((dep, False))
    return seen


def _in(folder: str) -> list[str]:
    return sorted(a for a, (path, _) in MODULES.items() if path == folder or path.startswith(folder + "/"))


def test_the_poms_were_found():
    assert {"fournines-engine", "fournines-nexmark", "fournines-jet", "fournines-flink", "fournines-loadgen"} <= MODULES.keys()


@pytest.mark.parametrize("artifact", _in("engine"))
def test_the_engine_depends_on_nothing_of_the_benchmark(artifact):
    benchmark = set(_in("nexmark")) | set(_in("loadgen"))
    assert not _closure(artifact, with_tests=True) & benchmark


def test_the_nexmark_core_has_no_engine():
    assert not _closure("fournines-nexmark", with_tests=True) & _ENGINE


@pytest.mark.parametrize("artifact", ["fournines-jet", "fournines-flink", "fournines-nexmark-driver", "fournines-loadgen"])
def test_the_peers_driver_and_load_generator_carry_no_engine_jar(artifact):
    assert not _closure(artifact, with_tests=True) & _ENGINE
