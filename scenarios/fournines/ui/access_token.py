"""The dashboard's access token, for listening beyond loopback: the pages show every run's context
and files and can start and stop runs, so off this machine every request must prove it knows the
token. The token is the user's, kept in a file only its owner can read (e.g.
`openssl rand -hex 32 > ~/.fournines-ui-token; chmod 600 ~/.fournines-ui-token`); a browser gives it
once on the login page and keeps it in an HttpOnly, same-site cookie, a script may send it as
`Authorization: Bearer <token>`."""
import hmac
import stat
from pathlib import Path

MIN_LENGTH = 32
COOKIE = "fournines_token"


class TokenRefused(ValueError):
    pass


def read_token_file(path: Path) -> str:
    """The token in `path`; TokenRefused naming the file and what is wrong with it."""
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise TokenRefused(f"{path}: cannot be read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise TokenRefused(f"{path}: not UTF-8 text") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise TokenRefused(f"{path}: others may read it (mode {stat.filemode(mode)}): chmod 600 {path}")
    token = text.strip()
    if len(token) < MIN_LENGTH or any(c.isspace() or not c.isprintable() for c in token):
        raise TokenRefused(f"{path}: the token must be one word of at least {MIN_LENGTH} printable characters "
                           f"(e.g. openssl rand -hex 32); it has {len(token)}")
    return token


def presented(token: str, authorization: str | None, cookie: str | None) -> bool:
    """Whether a request's bearer header or cookie holds `token` (compared in constant time)."""
    offered = authorization[len("Bearer "):] if authorization and authorization.startswith("Bearer ") else cookie
    return offered is not None and hmac.compare_digest(offered.encode(), token.encode())
