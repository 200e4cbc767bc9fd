"""What every target does before it starts anything: everything that can be wrong with the request
(the file, the overrides, what this build and the engine support) is checked, then the jars the run
needs are built."""
import shutil
import subprocess
from pathlib import Path

from fournines import REPO_ROOT
from fournines.members.java_build import JARS, ensure_jar
from fournines.spec.overrides import Overrides
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.spec.support import unsupported
from fournines.targets.local.kafka_load import build_jars as build_kafka_jars


class RunRefused(Exception):
    """The request cannot run; nothing was started. Carries the lines to show."""


def prepare(ref: str, overrides: Overrides) -> tuple[dict, Path]:
    """The resolved scenario and its engine's member jar, built if stale; RunRefused if it cannot run."""
    try:
        scenario = load_scenario(ref, overrides)
    except ScenarioError as e:
        raise RunRefused(str(e)) from None
    problems = unsupported(scenario)
    if problems:
        raise RunRefused("\n".join(f"{ref}: {p}" for p in problems))
    if shutil.which("java") is None:
        raise RunRefused("java: not found on PATH; the member needs a JDK 17 or newer")
    jar = JARS[scenario["engine"]]
    if not (REPO_ROOT / jar.module / "pom.xml").is_file():
        raise RunRefused(f"{jar.module}: the member process is not in this checkout yet "
                         f"(the runner starts {jar.module}/target/{jar.name})")
    try:
        path = ensure_jar(jar)
        if scenario["load"]["source"] == "kafka":
            build_kafka_jars()
    except subprocess.CalledProcessError as e:
        raise RunRefused(f"building {jar.module} failed (exit {e.returncode}); see Maven's output above") from None
    return scenario, path
