"""make gate's pieces that do not need an engine: the base worktree's life cycle and the run order."""
import subprocess

import pytest

from fournines.ab_gate import Side, interleaved
from fournines.base_worktree import RefError, base_worktree


@pytest.fixture
def repo(tmp_path):
    path = tmp_path / "repo"
    path.mkdir()
    git = ["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    (path / "f.txt").write_text("base\n")
    subprocess.run([*git, "add", "f.txt"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    subprocess.run([*git, "tag", "base"], check=True)
    (path / "f.txt").write_text("changed, not committed\n")
    return path


def worktrees(repo) -> list[str]:
    out = subprocess.run(["git", "-C", str(repo), "worktree", "list", "--porcelain"], capture_output=True,
                         text=True, check=True).stdout
    return [line for line in out.splitlines() if line.startswith("worktree ")]


def test_the_base_is_checked_out_then_removed(repo):
    with base_worktree(repo, "base") as base:
        assert (base / "f.txt").read_text() == "base\n"
        assert len(worktrees(repo)) == 2
    assert not base.exists() and not base.parent.exists()
    assert len(worktrees(repo)) == 1
    assert (repo / "f.txt").read_text() == "changed, not committed\n"  # the working tree is untouched


def test_the_base_worktree_is_removed_after_an_error(repo):
    with pytest.raises(KeyboardInterrupt):
        with base_worktree(repo, "base") as base:
            raise KeyboardInterrupt
    assert not base.exists() and len(worktrees(repo)) == 1


def test_a_bad_ref_is_named(repo):
    with pytest.raises(RefError, match="BASE=no-such-ref: not a commit"):
        with base_worktree(repo, "no-such-ref"):
            pass
    assert len(worktrees(repo)) == 1


def test_runs_alternate_baseline_first(tmp_path):
    a, b = Side("baseline", tmp_path, tmp_path), Side("candidate", tmp_path, tmp_path)
    assert [s.name for s in interleaved([a, b], 3)] == ["baseline", "candidate"] * 3
