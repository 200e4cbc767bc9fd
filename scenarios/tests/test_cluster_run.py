"""The local cluster's pieces that need no JVM: heap sharing, the API token, merging member files.
The cluster itself (real member processes) is tested in engine/member's ClusterProcessesTest."""
import json

from fournines.cluster_play import _cluster_progress, api_token, member_commands, shared_heap_flags
from fournines.members.progress import Progress
from fournines.results.member_merge import merge_members


def test_each_member_gets_its_share_of_the_heap_but_not_less_than_the_floor():
    assert shared_heap_flags(["-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"], 4) == ["-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch"]
    assert shared_heap_flags(["-Xmx1g"], 10) == ["-Xmx256m"]
    assert shared_heap_flags(["-Xmx2g"], 1) == ["-Xmx2048m"]


def test_the_api_token_is_the_members_one():
    # ClusterSecretTest asserts the same value on the Java side.
    assert api_token("cluster-test-secret-0123456789") == "283ca2ed9fc1b7cf62d9ea251c374f96c41300e43b9f430c26806721e09da4f6"


def test_member_commands_serve_on_distinct_loopback_ports(tmp_path):
    def launcher(flags, run_dir):
        return ["java", *flags, "-jar", "m.jar", "run", "--scenario", "s.json", "--out", str(run_dir)]
    commands = member_commands(launcher, ["-Xmx3g"], tmp_path, 3)
    assert [c[:4] for c in commands] == [["java", "-Xmx1024m", "-jar", "m.jar"]] * 3
    assert [c[c.index("--index") + 1] for c in commands] == ["0", "1", "2"]
    assert len({c[c.index("--members") + 1] for c in commands}) == 1
    addresses = commands[0][commands[0].index("--members") + 1].split(",")
    assert len(set(addresses)) == 3 and all(a.startswith("127.0.0.1:") for a in addresses)
    # Each API binds a port of its own choosing (reported in the member's ready line): none sits free for another process.
    assert {c[c.index("--http") + 1] for c in commands} == {"127.0.0.1:0"}


def _member(folder, generated, hlog_base, hlog_lines, throughput_rows):
    folder.mkdir()
    (folder / "member.json").write_text(json.dumps({"events_generated": generated, "events_processed": generated,
                                                    "achieved_rate": generated / 2.0, "member": 0, "query": "q5"}))
    (folder / "latency.hlog").write_text(
        f"#[Histogram log format version 1.3]\n#[StartTime: {hlog_base} (seconds since epoch)]\n"
        f"#[BaseTime: {hlog_base} (seconds since epoch)]\n"
        '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n' + hlog_lines)
    (folder / "throughput.csv").write_text("time_s,events,events_per_s\n" + throughput_rows)


def test_members_merge_into_one_run(tmp_path):
    _member(tmp_path / "member-1", 100, 1000.0, "Tag=warmup,0.000,1.000,1.0,AAA\n1.000,1.000,2.0,BBB\n", "1.0,10,10.0\n2.0,30,20.0\n")
    _member(tmp_path / "member-2", 50, 1000.5, "0.000,1.000,3.0,CCC\n", "1.0,5,5.0\n2.0,9,4.0\n3.0,12,3.0\n")
    merge_members(tmp_path, [tmp_path / "member-1", tmp_path / "member-2"])
    merged = json.loads((tmp_path / "member.json").read_text())
    assert (merged["events_generated"], merged["achieved_rate"], merged["members"]) == (150, 75.0, 2)
    assert "member" not in merged
    lines = (tmp_path / "latency.hlog").read_text().splitlines()
    assert lines[-3:] == ["Tag=warmup,0.000,1.000,1.0,AAA", "0.500,1.000,3.0,CCC", "1.000,1.000,2.0,BBB"]
    assert lines[0] == "#[Histogram log format version 1.3]"
    # Member 1's samples end first (a fault may take any member down): member 2's last second still counts, with member 1's total.
    assert (tmp_path / "throughput.csv").read_text().splitlines() == ["time_s,events,events_per_s", "1.0,15,15.000", "2.0,39,24.000",
                                                                       "3.0,42,3.000"]


def test_kafka_counts_add_up_the_poll_mean_is_weighed_and_dead_letters_are_joined(tmp_path):
    for name, polls, mean, letters in (("member-1", 300, 10.0, '{"offset":7}\n'), ("member-2", 100, 50.0, '{"offset":9}\n')):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "member.json").write_text(json.dumps({"source": "kafka", "malformed_records": 1, "kafka_polls": polls,
                                                        "kafka_poll_mean_us": mean, "kafka_snapshot_partitions": 2}))
        (folder / "dead-letters.jsonl").write_text(letters)
    merge_members(tmp_path, [tmp_path / "member-1", tmp_path / "member-2"])
    merged = json.loads((tmp_path / "member.json").read_text())
    assert (merged["malformed_records"], merged["kafka_polls"], merged["kafka_snapshot_partitions"]) == (2, 400, 4)
    assert merged["kafka_poll_mean_us"] == 20.0
    assert (tmp_path / "dead-letters.jsonl").read_text() == '{"offset":7}\n{"offset":9}\n'


def test_the_progress_line_speaks_for_the_whole_cluster():
    first = Progress(5.0, "measure", 30_000, 10_000, 800, 900, 0.5)
    others = [Progress(5.0, "measure", 30_000, 9_000, None, None, 2.0), Progress(4.9, "measure", 30_000, 11_000, 1_200, 1_300, 0.1)]
    assert _cluster_progress(first, [first, *others]) == Progress(5.0, "measure", 30_000, 30_000, 1_200, 1_300, 2.0)


def test_a_killed_member_keeps_its_count_and_one_that_joined_again_adds_its_own(tmp_path):
    _member(tmp_path / "member-1", 100, 1000.0, "0.000,1.000,1.0,AAA\n", "1.0,10,10.0\n2.0,20,10.0\n3.0,30,10.0\n4.0,40,10.0\n")
    _member(tmp_path / "member-2", 50, 1000.0, "0.000,1.000,1.0,BBB\n", "1.0,10,10.0\n")  # killed after its first second
    _member(tmp_path / "member-2" / "joined-1", 30, 1002.5, "0.000,1.000,1.0,CCC\n", "3.0,7,7.0\n4.0,15,8.0\n")
    merge_members(tmp_path, [tmp_path / "member-1", tmp_path / "member-2"])
    assert (tmp_path / "throughput.csv").read_text().splitlines() == [
        "time_s,events,events_per_s", "1.0,20,20.000", "2.0,30,10.000", "3.0,47,17.000", "4.0,65,18.000"]
    merged = json.loads((tmp_path / "member.json").read_text())
    assert (merged["events_generated"], merged["members"]) == (180, 2)
    assert (tmp_path / "latency.hlog").read_text().splitlines()[-1] == "2.500,1.000,1.0,CCC"
