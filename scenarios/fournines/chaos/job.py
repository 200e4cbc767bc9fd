"""The job a chaos trial runs: the scenario on a local 3-member cluster with one worker each, as a
bounded job of EVENTS events (KAFKA_EVENTS fed through Kafka), plus what a checked run adds to a job (nexmark/fournines/README.md,
"A checked run"): `load.events`, `start_epoch_ns`, `record_results` and the trial's `chaos_point`.

Every trial's job is the same but for its fault and its t=0, so a difference between trials is the
fault's doing."""
import json

# Divides 1e9: every event is due a whole number of ns after t=0, so its dateTime is exactly the one
# `nexmark generate` gives it from the same t=0 (in ms) and rate.
CHAOS_RATE = 20_000
EVENTS = 6 * CHAOS_RATE  # 6 s of events: a fault at 1-4 s, and time to recover before the end
# Fed through Kafka, the job shares the 3 members' machine with a broker and a load generator from
# t=0 on: it spends its first seconds catching up, when a snapshot takes seconds, so a commit-kill at
# the 2nd-6th commit could find the job over. 4 s more of events leave it time to commit on schedule.
KAFKA_EVENTS = 10 * CHAOS_RATE
MEMBERS = 3  # the fewest where a majority lives on after one member is lost
SNAPSHOT_INTERVAL_MS = 200  # several commits before the earliest fault
DEADLINE = "60s"  # the job's duration: a bounded job that has not ended by then fails its run
# t=0 this far ahead of the trial's start, for three JVMs to start and form the cluster on a small
# machine; a t=0 they miss only makes the generators catch up (the events stay the same).
START_LEAD_MS = 10_000

# What chaos sets itself, as the overrides of ./fournines run would, so the scenario is resolved and
# checked as for any run; GUARANTEE is added per request.
FIXED_OVERRIDES = {"CLUSTER": str(MEMBERS), "THREADS": "1", "RATE": str(CHAOS_RATE), "WARMUP": "0s",
                   "DURATION": DEADLINE, "SNAPSHOT_INTERVAL_MS": str(SNAPSHOT_INTERVAL_MS), "MODE": "single",
                   "TARGET": "local"}


def start_epoch_ns(now_ns: int) -> int:
    """The generators' time origin: a whole millisecond (`nexmark generate --base-time` is in ms)."""
    return (now_ns // 1_000_000 + START_LEAD_MS) * 1_000_000


def trial_job(resolved: dict, faults: list[dict], chaos_point: dict | None, start_ns: int) -> dict:
    """The resolved scenario with the trial's faults (the runner's to fire) and the checked run's fields."""
    job = json.loads(json.dumps(resolved))
    job["load"]["events"] = KAFKA_EVENTS if job["load"]["source"] == "kafka" else EVENTS
    job["start_epoch_ns"] = start_ns
    job["record_results"] = True
    job["faults"] = faults
    if chaos_point is not None:
        job["chaos_point"] = chaos_point
    return job
