"""An SSH server in each emulated host's namespace (Debian's openssh-server), so Ansible and the runner
reach the emulated hosts exactly as they reach EC2 hosts: a host key and a client key made for the
run, a known_hosts file naming each host's address, root login by that key only.

openssh-server is installed with apt-get if missing; its package scripts are kept from starting a
server in the root namespace (policy-rc.d), which nothing here ever does.
"""
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from fournines.targets.hosts.network import CONTROLLER, EmulatedNetwork, NetworkError

SSHD = Path("/usr/sbin/sshd")
POLICY = Path("/usr/sbin/policy-rc.d")
READY_S = 30.0


def ensure_openssh() -> None:
    if SSHD.exists() and shutil.which("ssh") and shutil.which("ssh-keygen"):
        return
    print("TARGET=hosts: installing Debian's openssh-server and openssh-client (apt-get) ...", file=sys.stderr)
    made_policy = not POLICY.exists()
    if made_policy:
        POLICY.write_text("#!/bin/sh\n# fournines: no service starts during this install\nexit 101\n", encoding="utf-8")
        POLICY.chmod(0o755)
    try:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in (["apt-get", "update", "-q"],
                        ["apt-get", "install", "-y", "-q", "--no-install-recommends", "openssh-server", "openssh-client"]):
            if subprocess.run(command, env=env).returncode != 0:
                raise NetworkError(f"{' '.join(command)} failed; TARGET=hosts needs openssh-server "
                                   "(apt-get install openssh-server)")
    finally:
        if made_policy:
            POLICY.unlink()


@dataclass(frozen=True)
class SshKeys:
    client: Path  # the private key Ansible and the runner use
    known_hosts: Path


def start_ssh_servers(net: EmulatedNetwork, state: Path) -> SshKeys:
    """One sshd per host, in its namespace, listening on its address only; returns once each answers."""
    state.mkdir(mode=0o700, parents=True, exist_ok=True)
    client, host_key = state / "id_ed25519", state / "host_ed25519"
    for key in (client, host_key):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "fournines-hosts", "-f", str(key)], check=True)
    (state / "authorized_keys").write_text(client.with_suffix(".pub").read_text(encoding="utf-8"), encoding="utf-8")
    public = host_key.with_suffix(".pub").read_text(encoding="utf-8").split()
    known_hosts = state / "known_hosts"
    known_hosts.write_text("".join(f"{net.addresses[h]} {public[0]} {public[1]}\n" for h in net.hosts), encoding="utf-8")
    Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation directory
    for host in net.hosts:
        config = state / f"sshd-{host}.conf"
        config.write_text("\n".join([
            f"ListenAddress {net.addresses[host]}", "Port 22", f"HostKey {host_key}", f"PidFile {state / f'sshd-{host}.pid'}",
            f"AuthorizedKeysFile {state / 'authorized_keys'}", "PermitRootLogin prohibit-password", "AllowUsers root",
            "PasswordAuthentication no", "KbdInteractiveAuthentication no", "UsePAM no", "StrictModes no",
            "PrintMotd no", "Subsystem sftp internal-sftp", ""]), encoding="utf-8")
        started = subprocess.run(net.run_in(host, [str(SSHD), "-f", str(config), "-E", str(state / f"sshd-{host}.log")]),
                                 capture_output=True, text=True)
        if started.returncode != 0:
            raise NetworkError(f"sshd in {host}'s namespace did not start: {started.stderr.strip()}")
    keys = SshKeys(client, known_hosts)
    for host in net.hosts:
        _await_ssh(net, keys, host)
    return keys


def ssh_options(keys: SshKeys) -> list[str]:
    return ["-i", str(keys.client), "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
            "-o", f"UserKnownHostsFile={keys.known_hosts}"]


def _await_ssh(net: EmulatedNetwork, keys: SshKeys, host: str) -> None:
    deadline = time.monotonic() + READY_S
    while True:
        probe = subprocess.run(net.run_in(CONTROLLER, ["ssh", *ssh_options(keys), "-o", "ConnectTimeout=2",
                                                      f"root@{net.addresses[host]}", "true"]),
                               capture_output=True, text=True)
        if probe.returncode == 0:
            return
        if time.monotonic() > deadline:
            raise NetworkError(f"{host} ({net.addresses[host]}) did not answer SSH within {READY_S:g} s: {probe.stderr.strip()}")
        time.sleep(0.2)
