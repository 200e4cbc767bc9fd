"""TARGET=aws refuses before anything is created when a setting is missing or the cost is not
confirmed; no results folder, no terraform."""
import pytest

from fournines.targets.aws import target as aws_target
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario


@pytest.fixture
def keys(tmp_path):
    (tmp_path / "id").write_text("private\n")
    (tmp_path / "id.pub").write_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTests tester\n")
    return tmp_path / "id"


def refused(monkeypatch, tmp_path, capsys, env: dict, overrides=("TARGET=aws",)) -> str:
    for name in ("OPERATOR_CIDR", "SSH_KEY", "COST_OK", "BROKERS", "LOADGENS", "AWS_REGION"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(aws_target.aws_cluster, "apply", lambda *a: pytest.fail("terraform apply was called"))
    scenario = load_scenario("q5", parse_overrides(list(overrides)))
    assert aws_target.run(scenario, tmp_path / "member.jar", False, tmp_path / "results") == 2
    assert not (tmp_path / "results").exists()
    return capsys.readouterr().err


def test_no_operator_cidr(monkeypatch, tmp_path, capsys, keys):
    err = refused(monkeypatch, tmp_path, capsys, {"SSH_KEY": str(keys)})
    assert "OPERATOR_CIDR is not set" in err


def test_no_ssh_key(monkeypatch, tmp_path, capsys):
    err = refused(monkeypatch, tmp_path, capsys, {"OPERATOR_CIDR": "203.0.113.7/32", "SSH_KEY": str(tmp_path / "none")})
    assert f"SSH_KEY: {tmp_path / 'none'} does not exist" in err


def test_cost_not_confirmed(monkeypatch, tmp_path, capsys, keys):
    err = refused(monkeypatch, tmp_path, capsys, {"OPERATOR_CIDR": "203.0.113.7/32", "SSH_KEY": str(keys)})
    assert "confirm the estimate of 0.69 USD/h with COST_OK=0.69" in err
    assert "make aws-down" in err  # the way down is printed even when nothing started


def test_kafka_load_is_not_wired_yet(monkeypatch, tmp_path, capsys, keys):
    err = refused(monkeypatch, tmp_path, capsys, {"OPERATOR_CIDR": "203.0.113.7/32", "SSH_KEY": str(keys)},
                  ("TARGET=aws", "SOURCE=kafka"))
    assert "load.source=kafka" in err
