"""TEST SCAFFOLDING, not an engine: a member with a set capacity, for the rate search's tests. Up to
CAPACITY events/s every event takes about half a millisecond; above it the source falls behind by the
shortfall, (rate - CAPACITY) / rate seconds more each second, and latency from the scheduled time
grows with it. It computes nothing and does not wait: it writes the contract's files for the whole
run at once (analysis/tests/synthetic.py writes the .hlog), then says done.

    capacity_member.py CAPACITY --scenario DIR/scenario.json --out DIR
"""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "analysis" / "tests"))
from synthetic import hlog_text  # noqa: E402

SAMPLES_PER_SECOND = 2_000


def main():
    capacity, _, scenario_path, _, out = sys.argv[1:6]
    capacity, out = float(capacity), Path(out)
    scenario = json.loads(Path(scenario_path).read_text())
    rate, seconds = float(scenario["load"]["rate"]), int(scenario["warmup_s"] + scenario["duration_s"])
    made_per_s = min(rate, capacity)
    behind_ms = [max(0.0, (rate - capacity) / rate) * 1_000 * (t + 1) for t in range(seconds)]
    rng = np.random.default_rng(int(rate))
    (out / "latency.hlog").write_text(hlog_text([rng.lognormal(np.log(500), 0.3, SAMPLES_PER_SECOND) + lag * 1_000
                                                 for lag in behind_ms]))
    rows = range(1, seconds + 1)
    (out / "throughput.csv").write_text("time_s,events,events_per_s\n" + "".join(
        f"{t},{int(made_per_s * t)},{made_per_s}\n" for t in rows))
    (out / "load.csv").write_text("time_s,generated,behind_ms\n" + "".join(
        f"{t},{int(made_per_s * t)},{lag:.3f}\n" for t, lag in zip(rows, behind_ms)))
    (out / "cpu.csv").write_text("time_s,cpu_seconds\n" + "".join(f"{t},{t * made_per_s / capacity:.3f}\n" for t in rows))
    (out / "member.json").write_text(json.dumps({
        "started_at": "2026-01-01T00:00:00Z", "jdk": "stand-in", "gc": "none", "jvm_flags": [],
        "events_generated": int(made_per_s * seconds), "events_processed": int(made_per_s * seconds),
        "late_events": 0, "dropped_events": 0, "achieved_rate": made_per_s}))
    print('{"type":"done"}', flush=True)


if __name__ == "__main__":
    main()
