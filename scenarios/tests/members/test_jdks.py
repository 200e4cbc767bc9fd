"""The members' JDK (`cluster.jdk`, `JDK=`): found by folder or feature version, refused before
anything starts when absent or too old for the GC asked for, and the GC's flags fitted to it."""
import os

import pytest

from fournines.members import jdks
from fournines.members.jdks import JdkNotFound, find_jdk
from fournines.members.jvm import gc_flags, java_binary, jvm_flags
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import ScenarioError, load_scenario
from fournines.spec.support import unsupported
from fournines.targets.prepare import RunRefused, prepare


def fake_jdk(folder, version):
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / "java").write_text("#!/bin/sh\n")
    os.chmod(folder / "bin" / "java", 0o755)
    (folder / "release").write_text(f'IMPLEMENTOR="test"\nJAVA_VERSION="{version}"\n')
    return folder


@pytest.fixture
def installed(tmp_path, monkeypatch):
    root = tmp_path / "jvm"
    for name, version in (("jdk-17", "17.0.9"), ("jdk-21a", "21.0.1"), ("jdk-21b", "21.0.4"), ("jdk-8", "1.8.0_402")):
        fake_jdk(root / name, version)
    (root / "not-a-jdk").mkdir()
    monkeypatch.setattr(jdks, "SEARCHED", (str(root),))
    return root


def test_a_feature_version_finds_its_newest_build(installed):
    jdk = find_jdk("21")
    assert (jdk.home.name, jdk.version, jdk.feature) == ("jdk-21b", "21.0.4", 21)
    assert find_jdk("8").feature == 8


def test_a_folder_or_its_java_names_a_jdk(installed):
    assert find_jdk(str(installed / "jdk-17")).version == "17.0.9"
    assert find_jdk(str(installed / "jdk-17" / "bin" / "java")).version == "17.0.9"


def test_an_absent_jdk_is_refused_naming_what_is_installed(installed):
    with pytest.raises(JdkNotFound, match=r"cluster.jdk=25: no JDK 25 found .*installed: 17 \(.*jdk-17\), 21"):
        find_jdk("25")
    with pytest.raises(JdkNotFound, match="cluster.jdk=.*not-a-jdk: not a JDK"):
        find_jdk(str(installed / "not-a-jdk"))


def test_prepare_refuses_a_jdk_too_old_for_the_members_or_the_gc(installed):
    with pytest.raises(RunRefused, match="the members need JDK 17 or newer; the scenario's JDK is 1.8.0_402"):
        prepare("q1", parse_overrides(["JDK=8"]))
    with pytest.raises(RunRefused, match="generational-zgc needs JDK 21 or newer; the scenario's JDK is 17.0.9"):
        prepare("q1", parse_overrides(["JDK=17", "GC=generational-zgc"]))


def test_the_members_start_with_the_resolved_jdk_and_its_gc_flags():
    scenario = load_scenario("q1", parse_overrides(["GC=generational-zgc"]))
    scenario["cluster"]["java"] = {"home": "/jdks/21", "version": "21.0.4"}
    assert java_binary(scenario) == "/jdks/21/bin/java"
    assert gc_flags(scenario["cluster"]) == ["-XX:+UseZGC", "-XX:+ZGenerational"]
    scenario["cluster"]["java"] = {"home": "/jdks/25", "version": "25.0.3"}
    assert gc_flags(scenario["cluster"]) == ["-XX:+UseZGC"]  # generational is ZGC's only mode from JDK 24
    assert "-XX:+UseZGC" in jvm_flags(scenario, profile=False)
    assert java_binary(load_scenario("q1", parse_overrides([]))) == "java"


def test_a_jdk_on_aws_is_not_supported_yet():
    scenario = load_scenario("q5", parse_overrides(["TARGET=aws", "JDK=21"]))
    assert any("field cluster.jdk with target=aws" in p for p in unsupported(scenario))


@pytest.mark.parametrize("value", ["0", "''", "[17]"])
def test_a_jdk_field_must_name_something(value, tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("name: s\nquery: {name: q1}\nload: {rate: 1000}\ncluster: {jdk: " + value + "}\n")
    with pytest.raises(ScenarioError, match="cluster.jdk"):
        load_scenario(str(path), parse_overrides([]))
