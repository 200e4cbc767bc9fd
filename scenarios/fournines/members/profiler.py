"""PROFILE=1: where the member's time and allocations go, as flame graphs in the results folder.

On this machine the member loads async-profiler as an agent (the native library in the jar Maven
copied next to the member jar, nexmark/fournines/target/profiler/), sampling CPU and allocations
into one recording, profile.jfr. Where the agent cannot load (another OS or CPU, a JVM that refuses
it, the build not made), or on remote hosts, the JDK's own Flight Recorder records instead, and the
run says why. Either recording becomes flame-cpu.html and flame-alloc.html after the run
(jfr-converter, from the same place), from the end of the warm-up on."""
import platform
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from fournines import REPO_ROOT
from fournines.members.jvm import JFR_FLAG, PROFILE_FILE

PROFILER_DIR = REPO_ROOT / "nexmark" / "fournines" / "target" / "profiler"
AGENT_JAR = "async-profiler.jar"
CONVERTER_JAR = "jfr-converter.jar"
# the folder of the native library in async-profiler's jar, by what platform.machine() says
LIBRARY_FOLDERS = {"x86_64": "linux-x64", "amd64": "linux-x64", "aarch64": "linux-arm64", "arm64": "linux-arm64"}
LIBRARY = "libasyncProfiler.so"
ALLOCATION_INTERVAL = "512k"  # a sample every 512 KB allocated: a few thousand a second at Q5's rate
FLAME_GRAPHS = {"cpu": "flame-cpu.html", "alloc": "flame-alloc.html"}
CHECK_TIMEOUT_S = 60


@dataclass(frozen=True)
class Profiler:
    flags: list[str]  # added to the member's JVM flags
    description: str  # run.json's `profiler`: which recorder, and why the fallback if it is one


def local_profiler(java: str, folder: Path = PROFILER_DIR) -> Profiler:
    """async-profiler if its agent loads into `java` here, else the JDK's Flight Recorder saying why."""
    library, problem = _agent_library(folder)
    if library is None:
        return _flight_recorder(problem)
    check = subprocess.run([java, f"-agentpath:{library}=version", "-version"], capture_output=True, text=True,
                           timeout=CHECK_TIMEOUT_S)
    if check.returncode != 0:
        last = (check.stderr.strip().splitlines() or ["no message"])[-1]
        return _flight_recorder(f"async-profiler's agent does not load into {java} here: {last}")
    version = check.stdout.strip() or check.stderr.strip().splitlines()[0]
    return Profiler([f"-agentpath:{library}=start,event=cpu,alloc={ALLOCATION_INTERVAL},file={PROFILE_FILE}"],
                    f"async-profiler {version}: CPU and allocation samples (every {ALLOCATION_INTERVAL}B)")


def remote_profiler() -> Profiler:
    return _flight_recorder("remote hosts record with the JDK's Flight Recorder")


def flame_graphs(recordings: list[Path], java: str, warmup_s: float, folder: Path = PROFILER_DIR) -> list[Path]:
    """Each recording's flame graphs, written beside it; a conversion that fails is said, not fatal."""
    converter = folder / CONVERTER_JAR
    made = []
    for recording in recordings:
        for kind, name in FLAME_GRAPHS.items():
            target = recording.parent / name
            # From the warm-up's end on the JVM's clock, which starts a little before the run's: a little early.
            done = subprocess.run([java, "-jar", str(converter), f"--{kind}", "--from", str(round(warmup_s * 1000)),
                                   "--title", f"{kind} after the warm-up: {recording.parent.name}", str(recording),
                                   str(target)], capture_output=True, text=True)
            if done.returncode == 0 and target.is_file():
                made.append(target)
            else:
                print(f"profile: no {name} from {recording}: {(done.stderr.strip() or 'no message').splitlines()[-1]}",
                      file=sys.stderr)
    return made


def _agent_library(folder: Path) -> tuple[Path | None, str]:
    """The agent's native library, unpacked from its jar once; or None and why not."""
    platform_folder = LIBRARY_FOLDERS.get(platform.machine().lower())
    if sys.platform != "linux" or platform_folder is None:
        return None, f"async-profiler's jar has no agent for {sys.platform} on {platform.machine()}"
    jar = folder / AGENT_JAR
    if not jar.is_file():
        return None, f"{jar} is missing (make build copies it)"
    library = folder / platform_folder / LIBRARY
    if not library.is_file():
        with zipfile.ZipFile(jar) as z:
            z.extract(f"{platform_folder}/{LIBRARY}", folder)
    return library, ""


def _flight_recorder(why: str) -> Profiler:
    return Profiler([JFR_FLAG], f"JDK Flight Recorder (settings=profile): {why}")
