"""TARGET=aws refuses before anything is created when a setting is missing or the cost is not
confirmed; no results folder, no terraform."""
import os
from pathlib import Path

import pytest

from fournines.targets.aws import target as aws_target
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario


@pytest.fixture
def keys(tmp_path):
    (tmp_path / "id").write_text("private\n")
    (tmp_path / "id.pub").write_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTests tester\n")
    return tmp_path / "id"


def refused(monkeypatch, tmp_path, capsys, env: dict, overrides=("TARGET=aws",), terraform=True) -> str:
    for name in ("OPERATOR_CIDR", "OPERATOR_CIDR_WIDE", "SSH_KEY", "COST_OK", "BROKERS", "LOADGENS", "AWS_REGION"):
        monkeypatch.delenv(name, raising=False)
    # The checks look for terraform on PATH; these tests must pass where it is not installed, and never run it.
    tools = tmp_path / "tools"
    tools.mkdir()
    if terraform:
        (tools / "terraform").write_text("#!/bin/sh\necho 'the refusal tests must not run terraform' >&2\nexit 1\n")
        (tools / "terraform").chmod(0o755)
    monkeypatch.setenv("PATH", os.pathsep.join([str(tools), *(d for d in os.environ["PATH"].split(os.pathsep)
                                                             if not (Path(d) / "terraform").exists())]))
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


@pytest.mark.parametrize("cidr", ["0.0.0.0/1", "0.0.0.0/0", "10.0.0.0/15"])
def test_an_operator_range_wider_than_a_16_is_refused_by_name(monkeypatch, tmp_path, capsys, keys, cidr):
    err = refused(monkeypatch, tmp_path, capsys, {"OPERATOR_CIDR": cidr, "SSH_KEY": str(keys)})
    assert f"OPERATOR_CIDR={cidr}:" in err and "wider than a /16" in err and "OPERATOR_CIDR_WIDE=1" in err


def test_an_operator_range_that_is_no_address_is_refused_by_name(monkeypatch, tmp_path, capsys, keys):
    err = refused(monkeypatch, tmp_path, capsys, {"OPERATOR_CIDR": "2001:db8::/64", "SSH_KEY": str(keys)})
    assert "OPERATOR_CIDR=2001:db8::/64: not an IPv4 address range" in err


@pytest.mark.parametrize("cidr, wide", [("10.1.0.0/16", None), ("0.0.0.0/1", "1")])
def test_a_16_or_an_explicitly_allowed_wider_range_goes_on_to_the_cost(monkeypatch, tmp_path, capsys, keys, cidr, wide):
    err = refused(monkeypatch, tmp_path, capsys,
                  {"OPERATOR_CIDR": cidr, "SSH_KEY": str(keys), **({"OPERATOR_CIDR_WIDE": wide} if wide else {})})
    assert "OPERATOR_CIDR=" not in err and "confirm the estimate" in err


def test_no_terraform(monkeypatch, tmp_path, capsys, keys):
    err = refused(monkeypatch, tmp_path, capsys, {"OPERATOR_CIDR": "203.0.113.7/32", "SSH_KEY": str(keys)}, terraform=False)
    assert "terraform: not found on PATH" in err


def test_no_ssh_key(monkeypatch, tmp_path, capsys):
    err = refused(monkeypatch, tmp_path, capsys, {"OPERATOR_CIDR": "203.0.113.7/32", "SSH_KEY": str(tmp_path / "none")})
    assert f"SSH_KEY: {tmp_path / 'none'} does not exist" in err


def test_cost_not_confirmed(monkeypatch, tmp_path, capsys, keys):
    err = refused(monkeypatch, tmp_path, capsys, {"OPERATOR_CIDR": "203.0.113.7/32", "SSH_KEY": str(keys)})
    assert "confirm the estimate of 0.69 USD/h with COST_OK=0.69" in err
    assert "make aws-down" in err  # the way down is printed even when nothing started

