"""What every target does before it starts anything: everything that can be wrong with the request
(the file, the overrides, what this build and the engine support) is checked, then the jars the run
needs are built."""
import subprocess
from pathlib import Path

from fournines import REPO_ROOT
from fournines.members.java_build import JARS, ensure_jar
from fournines.members.jdks import JdkNotFound, find_jdk
from fournines.members.jvm import GENERATIONAL_ZGC_FROM, MIN_FEATURE
from fournines.spec.overrides import Overrides
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.spec.support import unsupported
from fournines.targets.local.kafka_load import build_jars as build_kafka_jars


class RunRefused(Exception):
    """The request cannot run; nothing was started. Carries the lines to show."""


def prepare(ref: str, overrides: Overrides) -> tuple[dict, Path]:
    """The scenario as it will run (resolve) and its engine's member jar, built if stale; RunRefused
    if it cannot run."""
    scenario = resolve(ref, overrides)
    return scenario, build(scenario)


def build(scenario: dict) -> Path:
    """The resolved scenario's member jar (and, fed from Kafka, the load generator's and the
    broker's), built if stale; RunRefused if it cannot be built."""
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
    return path


def resolve(ref: str, overrides: Overrides) -> dict:
    """The scenario as it will run: loaded, checked against what this build supports, with the JDK its
    members run on (`cluster.java`: home and version); RunRefused if it cannot run."""
    try:
        scenario = load_scenario(ref, overrides)
    except ScenarioError as e:
        raise RunRefused(str(e)) from None
    problems = unsupported(scenario)
    if problems:
        raise RunRefused("\n".join(f"{ref}: {p}" for p in problems))
    if scenario["target"] != "aws":  # EC2 hosts run the JDK infra/ansible installs
        _resolve_jdk(ref, scenario)
    return scenario


def _resolve_jdk(ref: str, scenario: dict) -> None:
    """Sets `cluster.java` to the JDK the scenario names (or the one on PATH), if it can run the members."""
    try:
        jdk = find_jdk(scenario["cluster"].get("jdk"))
    except JdkNotFound as e:
        raise RunRefused(f"{ref}: {e}") from None
    generational = scenario["cluster"]["gc"] == "generational-zgc"
    needed = GENERATIONAL_ZGC_FROM if generational else MIN_FEATURE
    if jdk.feature < needed:
        who = "field cluster.gc=generational-zgc needs" if generational else "the members need"
        raise RunRefused(f"{ref}: {who} JDK {needed} or newer; the scenario's JDK is {jdk.version} ({jdk.home})")
    scenario["cluster"]["java"] = {"home": str(jdk.home), "version": jdk.version}
