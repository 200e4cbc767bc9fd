"""Where the dashboard may listen: on loopback addresses freely; anywhere else only with an access
token (access_token.py), as the pages show every run's context and files and start and stop runs."""
import ipaddress
import socket

LOOPBACK_NAMES = ("localhost",)


class AddressRefused(ValueError):
    pass


def checked_host(host: str, guarded: bool) -> str:
    """`host` if every address it names is a loopback one, or if the dashboard is `guarded` by a
    token; AddressRefused saying why otherwise."""
    if host in LOOPBACK_NAMES:
        return host
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(host, None)}
    except socket.gaierror as e:
        raise AddressRefused(f"cannot resolve {host!r}: {e.strerror}") from None
    outside = sorted(a for a in addresses if not ipaddress.ip_address(a.split("%")[0]).is_loopback)
    if outside and not guarded:
        raise AddressRefused(
            f"refusing to listen on {host} ({', '.join(outside)}) without an access token: beyond loopback "
            f"(127.0.0.1, ::1, localhost) the dashboard needs --token-file FILE, a file only you can read "
            f"holding a token of 32 characters or more (openssl rand -hex 32 > FILE; chmod 600 FILE); or "
            f"reach it through an SSH tunnel (ssh -L 8023:127.0.0.1:8023 <host>).")
    return host
