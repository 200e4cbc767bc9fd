"""The member's command line: the JVM flags the runner adds to the scenario's, and the member's
arguments (scenarios/README.md, "The member contract").

The member runs with the results folder as its working directory, so the GC log and the JFR
recording are named relative to it: a results path with ':' or ',' in it would otherwise break
-Xlog's and JFR's option syntax.
"""
from pathlib import Path

from fournines.spec.scenario import GC_FLAGS

GC_LOG_FLAG = "-Xlog:gc*:file=gc.log:time,uptime,level,tags"
PROFILE_FILE = "profile.jfr"
JFR_FLAG = f"-XX:StartFlightRecording=filename={PROFILE_FILE},settings=profile,dumponexit=true"


def jvm_flags(scenario: dict, profile: bool) -> list[str]:
    cluster = scenario["cluster"]
    return [*cluster["jvm_opts"], GC_FLAGS[cluster["gc"]], GC_LOG_FLAG, *([JFR_FLAG] if profile else [])]


def member_command(jar: Path, flags: list[str], run_dir: Path) -> list[str]:
    run_dir = run_dir.resolve()
    return ["java", *flags, "-jar", str(jar.resolve()), "run",
            "--scenario", str(run_dir / "scenario.json"), "--out", str(run_dir)]
