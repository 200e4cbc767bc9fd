"""What a run needs to be trusted or reproduced that the runner can see for itself: the commit,
whether the tree had uncommitted changes, the host, its CPU model and cores."""
import os
import socket
import subprocess
from pathlib import Path

from fournines import REPO_ROOT


def host_context(repo: Path = REPO_ROOT) -> dict:
    context = {"host": socket.gethostname(), "cores": os.cpu_count(), "kernel": os.uname().release}
    model = _cpu_model()
    if model:
        context["cpu_model"] = model
    sha = _git(repo, "rev-parse", "HEAD")
    if sha:
        context["git_sha"] = sha
        # A sha alone would claim a commit that did not run if the tree had local changes.
        context["git_dirty"] = bool(_git(repo, "status", "--porcelain", "--untracked-files=no"))
    return context


def _cpu_model() -> str | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name":
                return value.strip()
    except OSError:
        pass
    return None


def _git(repo: Path, *args) -> str | None:
    """git's output, or None outside a git checkout (e.g. an unpacked source archive)."""
    try:
        result = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return result.stdout.strip()
