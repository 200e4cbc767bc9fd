"""make gate without an engine: the base worktree's life cycle, the run order, and the whole gate with
stand-in sides (process_scaffolding/gate_side) and the real verdict."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fournines import REPO_ROOT
from fournines.compare.ab_gate import Side, gate_against, interleaved
from fournines.compare.base_worktree import RefError, base_worktree
from fournines.spec.scenario import SCENARIOS_DIR


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
    a, b = Side("baseline", tmp_path), Side("candidate", tmp_path)
    assert [s.name for s in interleaved([a, b], 3)] == ["baseline", "candidate"] * 3


@pytest.fixture
def gate_repo(tmp_path, monkeypatch):
    """A throw-away repository whose `python -m fournines` is the gate_side stand-in, and whose
    ./fournines launcher is the real CLI, so the verdict comes from the real gate."""
    real = REPO_ROOT
    repo = tmp_path / "repo"
    (repo / "scenarios" / "fournines").mkdir(parents=True)
    shutil.copy(real / "scenarios" / "tests" / "process_scaffolding" / "gate_side" / "__main__.py",
                repo / "scenarios" / "fournines" / "__main__.py")
    (repo / "scenarios" / "fournines" / "__init__.py").write_text("")
    shutil.copy(real / "requirements.txt", repo / "requirements.txt")
    launcher = repo / "fournines"
    launcher.write_text(f"#!/bin/sh\nPYTHONPATH={real / 'scenarios'}:{real / 'analysis'} "
                        f"exec {sys.executable} -m fournines \"$@\"\n")
    launcher.chmod(0o755)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    monkeypatch.setenv("GATE_TEST_LOG", str(tmp_path / "calls.jsonl"))
    monkeypatch.setenv("GATE_TEST_FIXTURE", str(real / "analysis" / "tests" / "fixtures" / "stall-run"))
    return repo


def test_gate_checks_both_sides_then_runs_them_interleaved_and_gates(gate_repo, tmp_path, capsys):
    scenario = str(SCENARIOS_DIR / "q0.yaml")
    code = gate_against("HEAD", scenario, 2, ["RATE=1000"], 0.05, repo=gate_repo)
    calls = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]
    sides = ["baseline" if call["cwd"] != str(gate_repo) else "candidate" for call in calls]
    assert sides == ["baseline", "candidate"] * 3
    assert [call["args"][-1] for call in calls[:2]] == ["--check"] * 2
    assert all(call["args"][:3] == ["run", scenario, "RATE=1000"] for call in calls)  # same scenario, same overrides
    (gate_dir,) = (gate_repo / "results").iterdir()
    assert gate_dir.name.endswith("-gate-q0")
    assert [len(list((gate_dir / side).iterdir())) for side in ("baseline", "candidate")] == [2, 2]
    assert code == 0  # identical runs on both sides
    assert "gate: passed" in (gate_dir / "gate.txt").read_text()
    assert not Path(calls[0]["cwd"]).exists()  # the base worktree is gone
    assert "gate: passed" in capsys.readouterr().out


def test_gate_refuses_runs_that_did_not_complete_and_keeps_the_reason(gate_repo, tmp_path, monkeypatch, capsys):
    interrupted = shutil.copytree(REPO_ROOT / "analysis" / "tests" / "fixtures" / "stall-run", tmp_path / "interrupted")
    record = json.loads((interrupted / "run.json").read_text())
    (interrupted / "run.json").write_text(json.dumps({**record, "status": "interrupted"}))
    monkeypatch.setenv("GATE_TEST_FIXTURE", str(interrupted))
    code = gate_against("HEAD", str(SCENARIOS_DIR / "q0.yaml"), 1, [], 0.05, repo=gate_repo)
    assert code == 2
    (gate_dir,) = (gate_repo / "results").iterdir()
    refusal = "run.json: status: interrupted; the gate judges completed runs only"
    assert refusal in (gate_dir / "gate.txt").read_text()
    assert refusal in capsys.readouterr().err
