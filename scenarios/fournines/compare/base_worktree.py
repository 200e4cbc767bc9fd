"""A git ref checked out in a temporary worktree for as long as a `with` block needs it; removed
afterwards, also after an error or Ctrl-C, so gates leave no worktrees behind."""
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path


class RefError(ValueError):
    pass


def _git(repo: Path, *args) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


def resolve_ref(repo: Path, ref: str) -> str:
    """The commit sha `ref` names; RefError naming the ref if it names none."""
    try:
        return _git(repo, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except subprocess.CalledProcessError:
        raise RefError(f"BASE={ref}: not a commit in {repo} (try a branch, tag or sha; fetch it first in CI)") from None


@contextmanager
def base_worktree(repo: Path, ref: str):
    """Yields the path of a detached worktree of `ref`."""
    sha = resolve_ref(repo, ref)
    parent = Path(tempfile.mkdtemp(prefix="fournines-gate-"))
    path = parent / f"base-{sha[:12]}"
    _git(repo, "worktree", "add", "--detach", "--quiet", str(path), sha)
    try:
        yield path
    finally:
        subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(path)], capture_output=True)
        shutil.rmtree(parent, ignore_errors=True)
        subprocess.run(["git", "-C", str(repo), "worktree", "prune"], capture_output=True)
