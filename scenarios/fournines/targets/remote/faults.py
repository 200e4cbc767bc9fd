"""How a scenario's faults reach a remote cluster's members (targets/local/faults.py fires them, as
for a local cluster): kill, stop and restart through each member host's service manager
(`fournines-service member signal SIG` and `start`, over SSH: the signal reaches the member's whole
process group, as a local fault's does), and on emulated hosts a partition through their network
(`Cluster.partition`: routes blackholed inside the members' namespaces). A fault that does not reach
its host fails the run with the host's answer.
"""
import signal
import subprocess

from fournines.targets.local.faults import FaultError
from fournines.targets.local.plan import RemoteMembers
from fournines.targets.remote.cluster import Cluster
from fournines.targets.remote.plan import service_control

SERVICE_S = 30.0  # one `fournines-service` call over SSH; `start` first stops what is left (grace period 10 s)


def remote_members(cluster: Cluster) -> RemoteMembers:
    hosts = {host.name: host for host in cluster.members}

    def service(name: str, args: list[str]) -> None:
        host = hosts[name]
        what = f"{name}: `fournines-service member {' '.join(args)}`"
        try:
            done = subprocess.run(cluster.ssh("members", host, [service_control(host), "member", *args]),
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=SERVICE_S)
        except subprocess.TimeoutExpired:
            raise FaultError(f"{what} did not return within {SERVICE_S:g} s") from None
        if done.returncode:
            raise FaultError(f"{what} failed (exit {done.returncode}): {done.stderr.strip() or 'no output'}")

    def partition(name: str, cut: bool) -> None:
        cluster.partition(name, [other for other in hosts if other != name], cut)

    return RemoteMembers(signal=lambda name, sig: service(name, ["signal", signal.Signals(sig).name.removeprefix("SIG")]),
                         start=lambda name: service(name, ["start"]),
                         partition=partition if cluster.partition else None)
