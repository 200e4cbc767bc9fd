"""The member jar's command lines: JVM flags, a lone member's `run`, a cluster's `serve`, the consumer's `consume`."""
from pathlib import Path

from fournines.members.heap import shared_heap_flags
from fournines.members.jvm import MemberAddresses, consume_command, jvm_flags, member_command, proxy_command, serve_commands
from fournines.spec.overrides import parse_overrides
from fournines.spec.scenario import load_scenario


def test_flags_are_the_scenarios_then_gc_then_gc_log():
    scenario = load_scenario("q5", parse_overrides(["JVM_OPTS=-Xmx1g -Xms1g", "GC=zgc"]))
    assert jvm_flags(scenario, profile=False) == [
        "-Xmx1g", "-Xms1g", "-XX:+UseZGC", "-Xlog:gc*:file=gc.log:time,uptime,level,tags"]


def test_profile_adds_a_flight_recording():
    flags = jvm_flags(load_scenario("q5"), profile=True)
    assert flags[-1] == "-XX:StartFlightRecording=filename=profile.jfr,settings=profile,dumponexit=true"


def test_the_member_command(tmp_path):
    jar = tmp_path / "fournines-member.jar"
    assert member_command(jar, "/jdks/25/bin/java", ["-Xmx1g"], tmp_path / "run") == [
        "/jdks/25/bin/java", "-Xmx1g", "-jar", str(jar), "run", "--scenario", str(tmp_path / "run" / "scenario.json"),
        "--out", str(tmp_path / "run")]


def test_relative_paths_become_absolute_for_a_member_running_in_the_results_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    command = member_command(Path("member.jar"), "java", [], Path("results/x"))
    assert command[2] == str(tmp_path / "member.jar") and command[-1] == str(tmp_path / "results" / "x")


def test_each_member_gets_its_share_of_the_heap_but_not_less_than_the_floor():
    assert shared_heap_flags(["-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"], 4) == ["-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"]
    assert shared_heap_flags(["-Xmx1g"], 10) == ["-Xmx256m"]
    assert shared_heap_flags(["-Xmx2g"], 1) == ["-Xmx2048m"]


def launcher(flags, run_dir):
    return ["java", *flags, "-jar", "m.jar", "run", "--scenario", "s.json", "--out", str(run_dir)]


def test_members_serve_on_distinct_loopback_ports(tmp_path):
    folders = [tmp_path / f"member-{i}" for i in (1, 2, 3)]
    commands = serve_commands(launcher, ["-Xmx3g"], tmp_path, folders, 3, MemberAddresses.free(3, behind_proxy=False))
    assert "--listen" not in commands[0]
    assert [c[:4] for c in commands] == [["java", "-Xmx1024m", "-jar", "m.jar"]] * 3
    assert [c[c.index("--index") + 1] for c in commands] == ["0", "1", "2"]
    assert [c[c.index("--out") + 1] for c in commands] == [str(f) for f in folders]
    assert {c[c.index("--secret-file") + 1] for c in commands} == {str(tmp_path / "cluster.secret")}
    assert len({c[c.index("--members") + 1] for c in commands}) == 1
    addresses = commands[0][commands[0].index("--members") + 1].split(",")
    assert len(set(addresses)) == 3 and all(a.startswith("127.0.0.1:") for a in addresses)
    # Each API binds a port of its own choosing (reported in the member's ready line): none sits free for another process.
    assert {c[c.index("--http") + 1] for c in commands} == {"127.0.0.1:0"}


def test_members_behind_a_proxy_listen_where_it_forwards_what_is_dialed_to_their_listed_address(tmp_path):
    addresses = MemberAddresses.free(3, behind_proxy=True)
    assert len(set(addresses.listed + addresses.listen)) == 6
    commands = serve_commands(launcher, ["-Xmx3g"], tmp_path, [tmp_path / f"member-{i}" for i in (1, 2, 3)], 3, addresses)
    assert [c[c.index("--listen") + 1] for c in commands] == addresses.listen
    assert {c[c.index("--members") + 1] for c in commands} == {",".join(addresses.listed)}
    proxy = proxy_command(launcher, tmp_path, addresses)
    assert proxy[-3:-1] == ["proxy", "--routes"]
    assert proxy[-1].split(",") == [f"{a}={b}" for a, b in zip(addresses.listed, addresses.listen)]


def test_the_consumer_has_its_own_heap(tmp_path):
    command = consume_command(launcher, ["-Xmx4g", "-Xms4g", "-XX:+UseZGC"], tmp_path, tmp_path / "consumer", 2, 3, False)
    assert command == ["java", "-Xms512m", "-Xmx512m", "-XX:+UseZGC", "-jar", "m.jar", "consume",
                       "--scenario", str(tmp_path / "consumer" / "scenario.json"), "--out", str(tmp_path / "consumer"),
                       "--copies", "2", "--members-per-copy", "3"]
