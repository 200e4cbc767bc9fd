"""The member jar's command lines: the JVM flags the runner adds to the scenario's, a lone member's
`run`, a local cluster's `serve`, the active-active result consumer's `consume` and the `proxy` a
partition fault needs between a local cluster's members (scenarios/docs/member-contract.md).

The member runs with the results folder as its working directory, so the GC log and the JFR
recording are named relative to it: a results path with ':' or ',' in it would otherwise break
-Xlog's and JFR's option syntax.
"""
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fournines.members.heap import shared_heap_flags
from fournines.members.jdks import Jdk
from fournines.members.secret import SECRET_FILE
from fournines.spec.scenario import GC_FLAGS

GC_LOG_FLAG = "-Xlog:gc*:file=gc.log:time,uptime,level,tags"
PROFILE_FILE = "profile.jfr"
JFR_FLAG = f"-XX:StartFlightRecording=filename={PROFILE_FILE},settings=profile,dumponexit=true"
CONSUMER_HEAP = ["-Xms512m", "-Xmx512m"]
MIN_FEATURE = 17  # the member jars' bytecode level
GENERATIONAL_ZGC_FROM = 21
PROXY_FLAGS = ["-Xms32m", "-Xmx128m", "-XX:+UseSerialGC"]  # it only copies bytes between sockets

# The command that starts a lone member for given JVM flags and results folder (member_command, or
# a test's stand-in); a cluster's commands are made from it.
Launcher = Callable[[list[str], Path], list[str]]


def jvm_flags(scenario: dict, profile: bool) -> list[str]:
    cluster = scenario["cluster"]
    return [*cluster["jvm_opts"], *gc_flags(cluster), GC_LOG_FLAG, *([JFR_FLAG] if profile else [])]


def gc_flags(cluster: dict) -> list[str]:
    """The GC's flags on the cluster's JDK: generational ZGC is a flag of its own on JDK 21 and 22, the
    default ZGC from 23 and the only one from 24 (where `zgc` is generational too)."""
    flags = [GC_FLAGS[cluster["gc"]]]
    if cluster["gc"] == "generational-zgc" and java_feature(cluster) < 23:
        flags.append("-XX:+ZGenerational")
    return flags


def java_feature(cluster: dict) -> int:
    """The feature version of the JDK prepare() resolved; MIN_FEATURE for a scenario it did not (tests)."""
    jdk = _resolved_jdk(cluster)
    return jdk.feature if jdk else MIN_FEATURE


def java_binary(scenario: dict) -> str:
    """The `java` the members start with: the resolved JDK's, or the one on PATH."""
    jdk = _resolved_jdk(scenario["cluster"])
    return str(jdk.java) if jdk else "java"


def _resolved_jdk(cluster: dict) -> Jdk | None:
    """The JDK prepare() recorded as `cluster.java`; None for a scenario it did not resolve."""
    java = cluster.get("java")
    return Jdk(Path(java["home"]), java["version"]) if java else None


def member_command(jar: Path, java: str, flags: list[str], run_dir: Path) -> list[str]:
    run_dir = run_dir.resolve()
    return [java, *flags, "-jar", str(jar.resolve()), "run",
            "--scenario", str(run_dir / "scenario.json"), "--out", str(run_dir)]


def command_prefix(launcher: Launcher, flags: list[str], run_dir: Path) -> list[str]:
    """The member jar's command line up to its subcommand: the lone member's command
    (`... run --scenario F --out D`) without `run` and what follows."""
    single = launcher(flags, run_dir)
    return single[:len(single) - 1 - single[::-1].index("run")]


@dataclass(frozen=True)
class MemberAddresses:
    """A local cluster's member ports: free loopback ports chosen here (every member needs the list)."""
    listed: list[str]  # the member list: where the others dial each member
    listen: list[str] | None = None  # where each member listens, when a proxy listens on its listed address

    @staticmethod
    def free(members: int, behind_proxy: bool) -> "MemberAddresses":
        ports = [f"127.0.0.1:{p}" for p in _free_loopback_ports(2 * members if behind_proxy else members)]
        return MemberAddresses(ports[:members], ports[members:] if behind_proxy else None)


def serve_commands(launcher: Launcher, flags: list[str], run_dir: Path, folders: list[Path],
                   machine_members: int, addresses: MemberAddresses) -> list[list[str]]:
    """One `serve` command per member of a cluster, each writing into its folder; the heap is shared
    by the `machine_members` members on this machine. Each management API binds a port of its member's
    choosing, reported in its `ready` line, so no port sits free for another process to take in between."""
    prefix = command_prefix(launcher, shared_heap_flags(flags, machine_members), run_dir)
    return [serve_command(prefix, i, addresses, run_dir.resolve() / SECRET_FILE, "127.0.0.1:0", folder.resolve())
            for i, folder in enumerate(folders)]


def serve_command(prefix: list[str], index: int, addresses: MemberAddresses, secret_file: Path, http: str,
                  folder: Path) -> list[str]:
    """Member `index` of the cluster `addresses` lists: `prefix` (command_prefix) and `serve`, its
    management API on `http`, writing into `folder`."""
    return [*prefix, "serve", "--index", str(index), "--members", ",".join(addresses.listed),
            *(["--listen", addresses.listen[index]] if addresses.listen else []),
            "--secret-file", str(secret_file), "--http", http, "--out", str(folder)]


def proxy_command(launcher: Launcher, run_dir: Path, addresses: MemberAddresses) -> list[str]:
    """The proxies in front of members that listen behind them: each member's listed address to the
    one it listens on. The runner partitions members by writing to its stdin (`isolate I`, `heal I`)."""
    routes = ",".join(f"{listed}={listen}" for listed, listen in zip(addresses.listed, addresses.listen))
    return [*command_prefix(launcher, PROXY_FLAGS, run_dir), "proxy", "--routes", routes]


def consume_command(launcher: Launcher, flags: list[str], run_dir: Path, folder: Path, copies: int,
                    members_per_copy: int, record_results: bool) -> list[str]:
    """The result consumer (nexmark/fournines ResultConsumer): the scenario's JVM flags but its own heap;
    it reads folder/scenario.json and writes there. `record_results`: every result too (tests)."""
    heapless = [f for f in flags if not f.startswith(("-Xms", "-Xmx"))]
    folder = folder.resolve()
    return [*command_prefix(launcher, CONSUMER_HEAP + heapless, run_dir), "consume",
            "--scenario", str(folder / "scenario.json"), "--out", str(folder),
            "--copies", str(copies), "--members-per-copy", str(members_per_copy),
            *(["--record-results"] if record_results else [])]


def _free_loopback_ports(n: int) -> list[int]:
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()
