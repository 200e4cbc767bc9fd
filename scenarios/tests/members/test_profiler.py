"""PROFILE=1 on this machine: async-profiler's agent from the jar the build copied, loaded into the real
JDK, the JDK's Flight Recorder where it cannot load (saying why), and a recording turned into CPU and
allocation flame graphs."""
import subprocess

import pytest

from fournines.members.jvm import JFR_FLAG
from fournines.members.profiler import AGENT_JAR, PROFILER_DIR, flame_graphs, local_profiler

needs_build = pytest.mark.skipif(not (PROFILER_DIR / AGENT_JAR).is_file(),
                                 reason=f"{PROFILER_DIR} is made by the Java build (make build), which has not run")


@needs_build
def test_the_agent_loads_into_this_jdk_and_records_cpu_and_allocations():
    profiler = local_profiler("java")
    [flag] = profiler.flags
    assert flag.startswith("-agentpath:") and flag.endswith("=start,event=cpu,alloc=512k,file=profile.jfr")
    assert profiler.description.startswith("async-profiler 4.2: CPU and allocation samples")


def test_without_the_build_s_jar_the_flight_recorder_records_saying_why(tmp_path):
    profiler = local_profiler("java", folder=tmp_path)
    assert profiler.flags == [JFR_FLAG]
    assert profiler.description == (f"JDK Flight Recorder (settings=profile): {tmp_path / AGENT_JAR} is missing "
                                    f"(make build copies it)")


@needs_build
def test_a_jvm_that_refuses_the_agent_gets_the_flight_recorder_saying_why(tmp_path):
    refusing = tmp_path / "java"
    refusing.write_text("#!/bin/sh\necho 'Could not find agent library' >&2\nexit 1\n")
    refusing.chmod(0o755)
    profiler = local_profiler(str(refusing))
    assert profiler.flags == [JFR_FLAG]
    assert profiler.description.endswith(f"async-profiler's agent does not load into {refusing} here: "
                                         f"Could not find agent library")


@needs_build
def test_a_recording_becomes_cpu_and_allocation_flame_graphs(tmp_path):
    member = tmp_path / "member-1"
    member.mkdir()
    [flag] = local_profiler("java").flags
    # A JVM that allocates for a moment, recorded as a member is (its working directory the results folder).
    busy = "var l=new java.util.ArrayList<int[]>();for(int i=0;i<2_000_000;i++){l.add(new int[8]);if(l.size()>1000)l.clear();}"
    (member / "Busy.java").write_text(f"class Busy {{ public static void main(String[] a) {{ {busy} }} }}")
    subprocess.run(["java", flag, "Busy.java"], cwd=member, check=True, capture_output=True, timeout=120)
    made = flame_graphs([member / "profile.jfr"], "java", warmup_s=0)
    assert [p.name for p in made] == ["flame-cpu.html", "flame-alloc.html"]
    assert "int[]" in (member / "flame-alloc.html").read_text()


@needs_build
def test_a_broken_recording_is_said_and_gives_no_flame_graph(tmp_path, capsys):
    (tmp_path / "profile.jfr").write_bytes(b"not a recording")
    assert flame_graphs([tmp_path / "profile.jfr"], "java", warmup_s=0) == []
    assert "profile: no flame-cpu.html from" in capsys.readouterr().err
