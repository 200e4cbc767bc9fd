"""Predicted against measured, for `./fournines sim-validate`: each metric's relative error
((predicted − measured) / measured), flagged above the tolerance, and for a flagged one the reasons
the two runs' own records give. A reason is evidence found in the runs (the real run did not sustain
its rate; its percentile rests on too few windows; it used other CPU than the model; its slowest
second fell in a GC pause; members on one host), never a guess: without any, the row says so.

Both sides are results folders read by the analysis' own readers (`summarize`), so the numbers are
those each run's report shows."""
from dataclasses import dataclass, replace

from fournines_analysis.results import Run
from fournines_analysis.stalls import slowest_against_chance
from fournines_analysis.summary import summarize
from fournines_analysis.sustainability import judge

PERCENTILES = {"p50": 50.0, "p99": 99.0, "p99.99": 99.99}
RATE = "highest sustainable rate"
NO_REASON = "no cause found in the runs' records"
CPU_NOISE = 0.1  # CPU per event within a tenth is the same cost: runs on this machine vary by about that
SPREAD_FACTOR = 1.5  # a real tail (percentile over p50) this much wider than the model's is one it lacks


@dataclass(frozen=True)
class Comparison:
    configuration: str
    metric: str  # a key of PERCENTILES, or RATE
    predicted: float | None  # µs for a percentile, events/s for the rate; None when there is none
    measured: float | None
    tolerance: float
    reasons: tuple[str, ...] = ()  # for a flagged row: what the runs show

    @property
    def error(self) -> float | None:
        """(predicted − measured) / measured; None when either is missing or nothing was measured."""
        if self.predicted is None or not self.measured:
            return None
        return (self.predicted - self.measured) / self.measured

    @property
    def flagged(self) -> bool:
        return self.error is None or abs(self.error) > self.tolerance


def latency_comparisons(configuration: str, predicted: Run, measured: Run, tolerance: float) -> list[Comparison]:
    """p50, p99 and p99.99 of each run's lead series (window latency) after the warm-up."""
    ours, theirs = summarize(predicted), summarize(measured)
    rows = []
    for metric, p in PERCENTILES.items():
        row = Comparison(configuration, metric, ours.latency[0].percentiles[p], theirs.latency[0].percentiles[p],
                         tolerance)
        rows.append(_explained(row, predicted, measured) if row.flagged else row)
    return rows


def rate_comparison(configuration: str, predicted_rate: int | None, measured_rate: int | None,
                    predicted: Run | None, measured: Run | None, tolerance: float) -> Comparison:
    """The two searches' highest sustainable rates; `predicted` and `measured` are the runs at those
    rates (or None), the evidence for a flagged row."""
    row = Comparison(configuration, RATE, predicted_rate, measured_rate, tolerance)
    if not row.flagged:
        return row
    if predicted_rate is None or measured_rate is None:
        side = "simulated" if predicted_rate is None else "real"
        return replace(row, reasons=(f"the {side} search confirmed no rate",))
    if predicted is None or measured is None:
        return replace(row, reasons=(NO_REASON,))
    return _explained(row, predicted, measured)


def _explained(row: Comparison, predicted: Run, measured: Run) -> Comparison:
    reasons = [*_not_sustained(measured), *_thin(row, measured), *_cpu(predicted, measured),
               *_spread(row, predicted, measured), *_stall(row, measured), *_one_host(measured)]
    return replace(row, reasons=tuple(reasons) or (NO_REASON,))


def _not_sustained(measured: Run) -> list[str]:
    problems = judge(measured).problems
    return [f"the real run did not sustain its rate ({'; '.join(problems)}): the model's queues then grow "
            "without the engine's backpressure"] if problems else []


def _thin(row: Comparison, measured: Run) -> list[str]:
    """A percentile of fewer than 10 / (1 − p) values is nearly their maximum: one stall decides it."""
    if row.metric not in PERCENTILES:
        return []
    p = PERCENTILES[row.metric]
    count = summarize(measured).latency[0].count
    needed = round(10 / (1 - p / 100))
    return [f"the real {row.metric} rests on {count:,} windows, nearly their maximum (a stable one needs about "
            f"{needed:,}): one stall of the run decides it"] if count < needed else []


def _cpu(predicted: Run, measured: Run) -> list[str]:
    """CPU per event differing: the calibration's costs do not hold at this configuration."""
    ours, theirs = summarize(predicted), summarize(measured)
    if not ours.throughput or not theirs.throughput or not ours.cores or not theirs.cores:
        return []
    model_ns, real_ns = ours.cores / ours.throughput * 1e9, theirs.cores / theirs.throughput * 1e9
    if abs(model_ns - real_ns) <= CPU_NOISE * real_ns:
        return []
    return [f"the real run spent {real_ns:,.0f} ns of CPU per event ({theirs.cores:.2f} cores busy), the model "
            f"{model_ns:,.0f} ns ({ours.cores:.2f}): the calibrated costs do not hold here (CPU per event "
            "changes with the rate and the key count more than the model's costs per event, per key and per second allow)"]


def _spread(row: Comparison, predicted: Run, measured: Run) -> list[str]:
    """A tail the real run has and the model not: its costs are fixed per event and per key, so its
    latencies vary only with GC pauses and cycles, the calibrated stalls and queueing."""
    if row.metric not in ("p99", "p99.99"):
        return []
    p = PERCENTILES[row.metric]
    ours, theirs = summarize(predicted).latency[0].percentiles, summarize(measured).latency[0].percentiles
    model, real = ours[p] / ours[50.0], theirs[p] / theirs[50.0]
    if real <= SPREAD_FACTOR * model:
        return []
    return [f"the real {row.metric} is {real:.1f}× its p50, the model's {model:.1f}×: the model's service times do "
            "not vary (only GC pauses and cycles, the calibrated stalls and queueing spread its latencies)"]


def _stall(row: Comparison, measured: Run) -> list[str]:
    if row.metric not in ("p99", "p99.99"):
        return []
    seen = slowest_against_chance(measured)
    if seen is None:
        return []
    coincided, chance = seen
    found = []
    if coincided.gc:
        found.append(f"the real run's slowest second fell in a GC pause or cycle (as {chance:.0%} of its seconds "
                     "do by chance); the model draws both at the calibration's rates, not at the times the "
                     "collector ran them")
    if coincided.host_lost_cpu:
        found.append("in the real run's slowest second the host lost CPU to other guests, which the model has not")
    return found


def _one_host(measured: Run) -> list[str]:
    members = (measured.info.fields.get("scenario") or {}).get("cluster", {}).get("members", 1)
    if members <= 1:
        return []
    return [f"{members} members share this machine: its network costs (network_hop_us, network_ns_per_byte, "
            "partial_ns_per_key) are the calibration's defaults, not measured (there is no second machine), and "
            "the members also share the JVMs' own threads on the same cores"]
