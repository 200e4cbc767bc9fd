"""Merging the members' files into the run's: a cluster's, and an active-active run's (one copy's
counts, the consumer's latency); a killed member's and a restarted one's count too."""
import json

from fournines.results.member_merge import CopyResult, lift_job_files, merge_active_active, merge_members


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


def test_the_events_made_add_up_and_the_latest_member_gives_the_lag(tmp_path):
    _member(tmp_path / "member-1", 100, 1000.0, "0.000,1.000,1.0,AAA\n", "1.0,10,10.0\n2.0,20,10.0\n")
    _member(tmp_path / "member-2", 50, 1000.0, "0.000,1.000,1.0,BBB\n", "1.0,10,10.0\n2.0,20,10.0\n")
    (tmp_path / "member-1" / "load.csv").write_text("time_s,generated,behind_ms\n1.0,10,0.5\n2.0,21,40.0\n")
    (tmp_path / "member-2" / "load.csv").write_text("time_s,generated,behind_ms\n1.0,12,3.0\n2.0,20,1.5\n")
    merge_members(tmp_path, [tmp_path / "member-1", tmp_path / "member-2"])
    assert (tmp_path / "load.csv").read_text().splitlines() == [
        "time_s,generated,behind_ms", "1.0,22,3.000", "2.0,41,40.000"]


def test_the_stolen_cpu_is_the_worst_members_not_a_sum(tmp_path):
    # Members on one host read the same /proc/stat: adding them up would count its steal twice.
    for name, rows in (("member-1", "1.0,0.00\n2.0,0.05\n"), ("member-2", "1.0,0.01\n2.0,0.03\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "host.csv").write_text("time_s,steal_seconds\n" + rows)
    merge_members(tmp_path, [tmp_path / "member-1", tmp_path / "member-2"])
    assert (tmp_path / "host.csv").read_text().splitlines() == ["time_s,steal_seconds", "1.0,0.010", "2.0,0.050"]


def test_the_latencies_written_add_up_per_log(tmp_path):
    for name, written in (("member-1", {"latency.hlog": 10, "completion.hlog": 4}), ("member-2", {"latency.hlog": 5})):
        (tmp_path / name).mkdir()
        (tmp_path / name / "member.json").write_text(json.dumps({"hlog_values_written": written}))
    merge_members(tmp_path, [tmp_path / "member-1", tmp_path / "member-2"])
    merged = json.loads((tmp_path / "member.json").read_text())
    assert merged["hlog_values_written"] == {"latency.hlog": 15, "completion.hlog": 4}


def test_aborted_snapshots_add_up_and_the_freshest_commit_speaks_for_the_cluster(tmp_path):
    for name, aborted, age in (("member-1", 2, 0.4), ("member-2", 0, 0.9)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "member.json").write_text(json.dumps({"snapshots_aborted": aborted, "snapshot_commit_age_s": age}))
    merge_members(tmp_path, [tmp_path / "member-1", tmp_path / "member-2"])
    merged = json.loads((tmp_path / "member.json").read_text())
    assert (merged["snapshots_aborted"], merged["snapshot_commit_age_s"]) == (2, 0.4)


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


def test_the_batches_of_each_execution_are_numbered_on_in_the_order_they_ran(tmp_path):
    header = "batch,stage,launched_us,started_us,done_us\n"
    for name, rows in (("member-1", "0,0,500,501,502\n1,0,600,601,602\n"),  # the first execution's scheduler, lost at 700
                       ("member-2", "0,0,900,901,902\n"),  # the restart's first member scheduled the next
                       ("member-3", "")):  # never scheduled: no file
        (tmp_path / name).mkdir()
        if rows:
            (tmp_path / name / "batches.csv").write_text(header + rows)
    merge_members(tmp_path, [tmp_path / "member-2", tmp_path / "member-1", tmp_path / "member-3"])
    assert (tmp_path / "batches.csv").read_text() == header + "0,0,500,501,502\n1,0,600,601,602\n2,0,900,901,902\n"


def test_an_active_active_run_takes_latency_from_the_consumer_and_counts_from_a_copy_that_ran_to_the_end(tmp_path):
    folders = [tmp_path / f"member-{i + 1}" for i in range(4)]
    for i, (folder, events) in enumerate(zip(folders, [10, 20, 30, 40])):
        folder.mkdir()
        (folder / "latency.hlog").write_text(f"member {i + 1}\n")
        if i != 0:  # member-1 was killed: no member.json
            (folder / "member.json").write_text(json.dumps({"events_generated": events, "query": "q5"}))
    (tmp_path / "consumer").mkdir()
    (tmp_path / "consumer" / "latency.hlog").write_text("consumer\n")
    (tmp_path / "consumer" / "consumer.json").write_text(json.dumps({"results_kept": 7}))
    merge_active_active(tmp_path, [CopyResult(1, folders[:2], 1, "member-1 was killed by SIGKILL"),
                                   CopyResult(2, folders[2:], 1, None)])
    assert (tmp_path / "latency.hlog").read_text() == "consumer\n"
    merged = json.loads((tmp_path / "member.json").read_text())
    assert merged["events_generated"] == 70 and merged["members"] == 2
    assert merged["active_active"]["counts_and_cpu_from_copy"] == 2
    assert [c["outcome"] for c in merged["active_active"]["copies"]] == ["lost", "ran to the end"]
    assert merged["active_active"]["copies"][0]["members"] == ["member-1", "member-2"]
    assert merged["active_active"]["consumer"] == {"results_kept": 7}


def test_a_jobs_files_are_lifted_into_the_members_folder(tmp_path):
    (tmp_path / "job-3").mkdir()
    (tmp_path / "job-3" / "member.json").write_text("{}")
    lift_job_files(tmp_path, 3)
    lift_job_files(tmp_path, 4)  # no such job: nothing to do
    assert (tmp_path / "member.json").read_text() == "{}" and not (tmp_path / "job-3").exists()
