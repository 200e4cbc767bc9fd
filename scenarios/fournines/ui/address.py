"""Where the dashboard may listen. Loopback only: the pages show every run's context and files, and
the CLI has no token to guard them with yet (a run's cluster secret lives in its own results folder
and lasts as long as the run), so any other address is refused rather than served unguarded."""
import ipaddress
import socket

LOOPBACK_NAMES = ("localhost",)


class AddressRefused(ValueError):
    pass


def checked_host(host: str) -> str:
    """`host` if every address it names is a loopback one; AddressRefused saying why otherwise."""
    if host in LOOPBACK_NAMES:
        return host
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except socket.gaierror as e:
        raise AddressRefused(f"cannot resolve {host!r}: {e.strerror}") from None
    outside = sorted(a for a in addresses if not ipaddress.ip_address(a.split("%")[0]).is_loopback)
    if outside:
        raise AddressRefused(
            f"refusing to listen on {host} ({', '.join(outside)}): the dashboard serves loopback addresses only "
            f"(127.0.0.1, ::1, localhost). Binding elsewhere will need an explicit flag and the cluster token, and "
            f"the CLI has no such token yet; reach it from another machine through an SSH tunnel "
            f"(ssh -L 8023:127.0.0.1:8023 <host>).")
    return host
