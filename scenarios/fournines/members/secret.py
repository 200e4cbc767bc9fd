"""The secret a local run's members share (cluster.secret in the results folder, mode 0600), and the
management API's bearer token derived from it (the member's ClusterSecret)."""
import hashlib
import hmac
import os
import secrets
from pathlib import Path

SECRET_FILE = "cluster.secret"


def write_secret(run_dir: Path) -> str:
    """A new secret for the run's members, in run_dir/cluster.secret."""
    secret = secrets.token_hex(32)
    secret_file = run_dir / SECRET_FILE
    secret_file.write_text(secret + "\n", encoding="utf-8")
    os.chmod(secret_file, 0o600)
    return secret


def api_token(secret: str) -> str:
    """HMAC-SHA256 of a fixed label under the secret (the member's ClusterSecret.apiToken)."""
    return hmac.new(secret.encode(), b"fournines-management-api", hashlib.sha256).hexdigest()
