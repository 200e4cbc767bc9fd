"""Emulated hosts on this machine: one network namespace per host and one for the controller (the
runner's SSH and Ansible), each with a veth link to a bridge that lives in a namespace of its own,
addressed in 198.18.0.0/24 (from 198.18.0.0/15, the range set aside for benchmark networks).

Safety, every time: the root namespace is never touched (every link is made inside the bridge's
namespace and its peer born in the host's); no namespace has a default route, only the bridge's
subnet; a partition blackholes routes inside the members' own namespaces. `teardown` kills every
process in the namespaces and deletes them; it is safe to call twice, and `sweep_abandoned` removes
what a runner killed with SIGKILL left behind (each run records its owner's pid in OWNERS).
"""
import ipaddress
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

NETWORK = ipaddress.IPv4Network("198.18.0.0/24")
MAX_HOSTS = NETWORK.num_addresses - 11  # .10 to .254
CONTROLLER = "ctl"
PREFIX = "fournines-"
OWNERS = Path("/run/fournines-hosts")
KILL_WAIT_S = 10.0  # for the killed processes to be gone: a process in uninterruptible sleep dies when it wakes


class NetworkError(Exception):
    """A namespace, link or address could not be made; the message names the command and its error."""


def _ip(*args: str) -> str:
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise NetworkError(f"ip {' '.join(args)}: {result.stderr.strip() or f'exit {result.returncode}'}")
    return result.stdout


class EmulatedNetwork:
    """The namespaces of one run, named fournines-<run id>-<host>."""

    def __init__(self, run_id: str, hosts: list[str]):
        if len(hosts) > MAX_HOSTS:
            raise NetworkError(f"{len(hosts)} hosts: at most {MAX_HOSTS} fit in {NETWORK}")
        self.run_id = run_id
        self.hosts = list(hosts)
        # .1 the controller, hosts from .10 in the order given
        self.addresses = {CONTROLLER: str(NETWORK[1]), **{h: str(NETWORK[10 + i]) for i, h in enumerate(self.hosts)}}
        self.bridge_namespace = f"{PREFIX}{run_id}-net"

    def namespace(self, host: str) -> str:
        return f"{PREFIX}{self.run_id}-{host}"

    def create(self) -> None:
        """Every namespace, link and address; on failure, what was made is torn down."""
        OWNERS.mkdir(mode=0o700, exist_ok=True)
        (OWNERS / self.run_id).write_text(f"{os.getpid()}\n", encoding="utf-8")
        try:
            _ip("netns", "add", self.bridge_namespace)
            _ip("-n", self.bridge_namespace, "link", "set", "lo", "up")
            _ip("-n", self.bridge_namespace, "link", "add", "br0", "type", "bridge")
            _ip("-n", self.bridge_namespace, "link", "set", "br0", "up")
            for host in [CONTROLLER, *self.hosts]:
                self._attach(host)
        except NetworkError:
            self.teardown()
            raise

    def _attach(self, host: str) -> None:
        namespace, port = self.namespace(host), f"v-{host}"[:15]
        _ip("netns", "add", namespace)
        _ip("-n", namespace, "link", "set", "lo", "up")
        # Made in the bridge's namespace, its peer born in the host's: nothing ever appears in the root namespace.
        _ip("-n", self.bridge_namespace, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", namespace)
        _ip("-n", self.bridge_namespace, "link", "set", port, "master", "br0", "up")
        _ip("-n", namespace, "addr", "add", f"{self.addresses[host]}/{NETWORK.prefixlen}", "dev", "eth0")
        _ip("-n", namespace, "link", "set", "eth0", "up")

    def run_in(self, host: str, argv: list[str]) -> list[str]:
        """`argv` as run inside the host's namespace (CONTROLLER for the runner's own SSH and Ansible)."""
        return ["ip", "netns", "exec", self.namespace(host), *argv]

    def partition(self, host: str, others: list[str], cut: bool) -> None:
        """Blackholes (or, `cut` False, lets through again) the traffic between `host` and each of
        `others`, in both directions, inside their namespaces; the controller still reaches it."""
        for a, b in [(host, o) for o in others] + [(o, host) for o in others]:
            _ip("-n", self.namespace(a), "route", "add" if cut else "del", "blackhole", f"{self.addresses[b]}/32")

    def default_routes(self) -> dict[str, str]:
        """Each namespace's default route, if it has one (it must not)."""
        found = {}
        for namespace in [self.bridge_namespace, *map(self.namespace, [CONTROLLER, *self.hosts])]:
            route = _ip("-n", namespace, "route", "show", "default").strip()
            if route:
                found[namespace] = route
        return found

    def teardown(self) -> None:
        remove_namespaces(f"{PREFIX}{self.run_id}-")
        (OWNERS / self.run_id).unlink(missing_ok=True)


def remove_namespaces(prefix: str) -> None:
    """Kills every process in each namespace whose name starts with `prefix`, waits until they are
    gone (SIGKILL takes effect when the process next runs: on a loaded machine, not at once), and
    deletes the namespace."""
    for namespace in namespaces(prefix):
        pids = subprocess.run(["ip", "netns", "pids", namespace], capture_output=True, text=True).stdout.split()
        for pid in pids:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except ProcessLookupError:
                pass
        until = time.monotonic() + KILL_WAIT_S
        while any(_lives(pid) for pid in pids) and time.monotonic() < until:
            time.sleep(0.01)
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def namespaces(prefix: str = PREFIX) -> list[str]:
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.splitlines()
    return [line.split()[0] for line in listed if line.startswith(prefix)]


def sweep_abandoned() -> list[str]:
    """Tears down the runs whose runner is gone (killed before it could); their run ids."""
    swept = []
    for record in sorted(OWNERS.glob("*")) if OWNERS.is_dir() else []:
        if _lives(record.read_text().strip()):
            continue
        remove_namespaces(f"{PREFIX}{record.name}-")
        record.unlink(missing_ok=True)
        swept.append(record.name)
    return swept


def _lives(pid: str) -> bool:
    """Whether the process `pid` runs: a zombie (killed, not yet reaped by its parent) does not."""
    try:
        stat = Path(f"/proc/{int(pid)}/stat").read_text()
    except (OSError, ValueError):
        return False
    return stat[stat.rindex(")") + 2] != "Z"  # the state follows the command name, which may hold spaces


def require_root() -> None:
    if os.geteuid() != 0:
        raise NetworkError("TARGET=hosts builds network namespaces and runs an SSH server in each: it needs root "
                           "(run it as root, e.g. sudo make bench-q5 TARGET=hosts ...)")
    if shutil.which("ip") is None:
        raise NetworkError("TARGET=hosts needs iproute2's `ip` (apt-get install iproute2)")
