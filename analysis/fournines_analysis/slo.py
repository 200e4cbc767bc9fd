"""A latency service-level objective: bounds on percentiles of a run's measured latency (after its
warm-up, its first series: per-event latency, or a window's first result), written as
`p99.99<=10ms` or several joined by commas, `p50<=1ms,p99.99<=10ms`. Units: us, ms, s."""
import re
from dataclasses import dataclass, replace

import numpy as np

from fournines_analysis import formatting, histograms
from fournines_analysis.results import Run
from fournines_analysis.summary import measured_counts

_BOUND = re.compile(r"^p(\d+(?:\.\d+)?)<=(\d+(?:\.\d+)?)(us|ms|s)$")
_MICROS = {"us": 1.0, "ms": 1_000.0, "s": 1_000_000.0}


class BadSlo(ValueError):
    """The SLO text cannot be read; the message names the part and the form expected."""


@dataclass(frozen=True)
class Bound:
    percentile: float
    limit_us: float
    text: str


@dataclass(frozen=True)
class Check:
    bound: Bound
    measured_us: float

    @property
    def met(self) -> bool:
        return self.measured_us <= self.bound.limit_us

    def __str__(self):
        return (f"{formatting.percentile_label(self.bound.percentile)} {formatting.micros(self.measured_us)} "
                f"{'≤' if self.met else '>'} {formatting.micros(self.bound.limit_us)}")


def parse_slo(text: str) -> tuple[Bound, ...]:
    bounds = []
    for part in (p.strip() for p in text.split(",")):
        match = _BOUND.match(part.replace(" ", ""))
        if not match:
            raise BadSlo(f"SLO {text!r}: cannot read {part!r}; write bounds like p99.99<=10ms "
                         f"(a percentile, <=, a number and us, ms or s), several joined by commas")
        percentile, limit, unit = float(match[1]), float(match[2]), match[3]
        if not 0 < percentile < 100:
            raise BadSlo(f"SLO {text!r}: percentile in {part!r} must be above 0 and below 100")
        if limit <= 0:
            raise BadSlo(f"SLO {text!r}: the bound in {part!r} must be above 0")
        bounds.append(Bound(percentile, limit * _MICROS[unit], part))
    return tuple(bounds)


def check_slo(bounds: tuple[Bound, ...], run: Run, leave_out: np.ndarray | None = None) -> list[Check]:
    """Each bound against the run's measured latency (its first series, intervals after the warm-up),
    without the intervals `leave_out` marks (a mask over the series' intervals), if given."""
    if not bounds:
        return []
    log = next(iter(run.latency.values()))
    counts = log.counts if leave_out is None else np.where(leave_out[:, None], 0, log.counts)
    pooled = measured_counts(replace(log, counts=counts), run.warmup_s).sum(axis=0)
    values = histograms.value_at_percentiles(pooled, log.layout, [b.percentile for b in bounds])
    return [Check(b, float(v)) for b, v in zip(bounds, np.atleast_1d(values))]
