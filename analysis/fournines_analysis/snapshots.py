"""Whether a run's snapshots kept committing to its end.

A job with a guarantee whose snapshots stop committing still runs, and its latency can look fine,
but its transactional output is held back for a commit that never comes and its restore point grows
old: not a run to judge. The members write `snapshot_commit_age_s` (how long before they wrote
member.json the latest snapshot committed; since the job started if none did; over a cluster the
freshest member's) and `snapshots_aborted` (snapshots the coordinator gave up on; each restarted
the job). The engine gives a snapshot up after 10 snapshot intervals, at least 10 s (engine/docs/cluster.md,
"Nothing stalls silently"), and restarts the job; a commit older than that at the end means the
snapshots stalled and the restarts did not cure it.
"""
from numbers import Real

from fournines_analysis.coverage import Gap
from fournines_analysis.errors import BadInput
from fournines_analysis.results import Run

MIN_TIMEOUT_S = 10.0
TIMEOUT_INTERVALS = 10


def snapshot_stalls(run: Run) -> list[Gap]:
    fields = run.info.fields
    if fields.get("guarantee") in (None, "none") or "snapshot_commit_age_s" not in fields:
        return []
    age, interval_ms = fields["snapshot_commit_age_s"], fields.get("snapshot_interval_ms")
    for name, value in (("snapshot_commit_age_s", age), ("snapshot_interval_ms", interval_ms)):
        if not isinstance(value, Real) or isinstance(value, bool) or value < 0:
            raise BadInput(run.info.path, f"must be a number of {'seconds' if name.endswith('_s') else 'ms'} "
                                          f"(0 or more), is {value!r}", field=name)
    limit_s = max(MIN_TIMEOUT_S, TIMEOUT_INTERVALS * interval_ms / 1000)
    if age <= limit_s:
        return []
    return [Gap(run.info.path, f"snapshots stopped committing: the latest committed {age:.1f} s before the members "
                               f"ended (interval {interval_ms:g} ms; the engine gives a snapshot up after {limit_s:g} s), "
                               f"so output held for a commit and the restore point are that old")]
