"""The calibration file (YAML): every parameter the model uses, each with its `value`, `unit`, what
it `means` and its `source` (the results folder and field it was derived from, or "default: <why>").

    format: 1
    parameters:
      source_ns_per_event: {value: 870, unit: ns, means: ..., source: ...}

Reading checks every parameter is there, known, in its unit and a number ≥ 0; a bad one is named
with the file, the field and the value. DEFAULTS holds each parameter's stated default.
"""
import hashlib
from dataclasses import dataclass
from numbers import Real
from pathlib import Path

import yaml

FORMAT = 1
SHARE = "share"  # a unit: a fraction in (0, 1]


@dataclass(frozen=True)
class Parameter:
    value: float
    unit: str
    means: str
    source: str


def _default(value, unit, means, why) -> Parameter:
    return Parameter(value, unit, means, f"default: {why}")


DEFAULTS: dict[str, Parameter] = {
    "source_ns_per_event": _default(
        870, "ns", "CPU per event from the source through local pre-aggregation (on one core)",
        "Q5 at 1 k-10 k keys made 1.15 M events/s per core on the 2-vCPU development VM (session 22's jet-fig7)"),
    "wakeup_span_us": _default(
        200, "us", "how long an idle worker leaves a source's items due before it wakes for them (it wakes once "
                   "this span of items is due, so the last of a frame's items waits up to it)",
        "the engine's generator source (GeneratorSourceP.WAKEUP_SPAN_NANOS), at rates where 3 items per "
        "source instance are due within it (above 15 000 events/s per instance)"),
    "partial_ns_per_key": _default(
        150, "ns", "CPU to emit one key's partial for a frame from the pre-aggregation (serialise, route)",
        "an estimate: a map entry read, a small object written to an outbox; not yet derived from a run"),
    "key_slide_ns": _default(
        300, "ns", "CPU per (key, slide) at the key's owner: combine the frame's partial, slide the window, compare",
        "an estimate of a few map operations per key per slide; derived when calibrate gets runs at two key counts"),
    "result_ns": _default(
        2000, "ns", "CPU to merge one machine's window result at the final reduction and emit it",
        "an estimate: a handful of objects per window; too small to matter next to the per-key costs"),
    "partial_bytes": _default(
        32, "B", "bytes on the wire per key partial (key, count, framing)",
        "a long key and a long count plus framing, as the engine's transport encodes them"),
    "network_hop_us": _default(
        50, "us", "one-way latency of one network hop between two machines",
        "the order of a same-placement-group hop on EC2 (tens of µs); the calibration host has no second machine"),
    "network_ns_per_byte": _default(
        0.8, "ns", "time on the wire per byte (10 Gbit/s is 0.8 ns/B)",
        "a 10 Gbit/s link; a machine profile sets its own"),
    "scheduler_task_us": _default(
        380, "us", "the scheduler's serial time to launch one task (micro-batch: every task of every stage of "
                   "every batch; group: every task of a group's stages once)",
        "Drizzle (SOSP '17) Fig. 4(a): Spark's ~195 ms per micro-batch on 128 machines of 4 cores, over its 512 tasks"),
    "batch_coordination_us": _default(
        500, "us", "the scheduler's bookkeeping once every member reported a stage of a batch done",
        "an estimate below the 1.26 ms per two-stage batch measured on one member (scenarios/MEASURED.md, "
        "2026-11-27, compute included); derived by calibrate from a micro-batch run's batches.csv"),
    "gc_pauses_per_s": _default(
        0.2, "1/s", "stop-the-world GC pauses per second per machine",
        "no GC log given: a young collection every few seconds, as G1 does at this allocation rate"),
    "gc_pause_mean_ms": _default(
        2.0, "ms", "mean length of a stop-the-world GC pause",
        "no GC log given: a short young pause of a small heap"),
    "gc_cycles_per_s": _default(
        0, "1/s", "concurrent GC cycles per second per machine (ZGC's come every 7-14 s at 1 to 4 M events/s: "
                  "proactive ones at low rates, the heap filled at high rates)",
        "none modelled until calibrate derives them from a run's gc.log"),
    "gc_cycle_mean_ms": _default(
        0, "ms", "length of a concurrent GC cycle",
        "none modelled until calibrate derives it from a run's gc.log"),
    "gc_cycle_speed": _default(
        0.5, SHARE, "the workers' speed while a concurrent GC cycle runs, as a share of their speed outside one "
                      "(its threads take cores from them, its barriers slow them)",
        "an estimate for ZGC on 2 vCPUs: its concurrent thread beside the two workers, and its barriers; Q5's "
        "slowest seconds at 4 M events/s fall in cycles at 20-29 ms (engine/MEASURED.md, 2026-11-28), as with one "
        "of the two cores lost"),
    "background_cores": _default(
        0, "cores", "cores a machine spends whatever the rate (the workers' wake-ups and timers, the member's "
                    "per-second reporting, the JIT), taken from the workers all the time",
        "none modelled until calibrate gets runs at two or more rates"),
    "core_contention": _default(
        0, "1", "how much longer the workers' work takes when the machine's other cores are busy too, as a share of "
                "its time alone (their caches and memory bandwidth are shared): with every other core busy a piece "
                "takes 1 + this times as long",
        "none modelled until calibrate gets runs at loads far apart (cluster.py's contended_cores)"),
    "stalls_per_busy_core_s": _default(
        0, "1/s", "stalls per second per core a machine keeps busy (a machine at 0.5 cores busy takes half as many "
                  "as at 1): every core unavailable to the job for a while (JIT, the OS's scheduling, the "
                  "hypervisor, a concurrent GC cycle's threads), beside the GC pauses; a stall delays the job only "
                  "when it takes a worker that has work",
        "none modelled until calibrate derives them from a run's latency.hlog (stall_estimate.py)"),
    "stall_mean_ms": _default(
        0, "ms", "mean length of a stall (lengths exponential about it)",
        "none modelled until calibrate derives it from a run's latency.hlog (stall_estimate.py)"),
}


class CalibrationError(ValueError):
    """A calibration file that cannot be used; the message names the file, the field and the value."""


def read_calibration(path: Path) -> dict[str, Parameter]:
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise CalibrationError(f"{path}: unreadable: {e}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise CalibrationError(f"{path}: field format must be {FORMAT}; is {_shown(document, 'format')}")
    given = document.get("parameters")
    if not isinstance(given, dict):
        raise CalibrationError(f"{path}: field parameters must be a mapping of parameter names; is {given!r}")
    unknown = sorted(set(given) - set(DEFAULTS))
    if unknown:
        raise CalibrationError(f"{path}: field parameters.{unknown[0]}: not a parameter of the model "
                               f"(known: {', '.join(DEFAULTS)})")
    return {name: _parameter(path, name, given.get(name), default.unit) for name, default in DEFAULTS.items()}


def _parameter(path: Path, name: str, entry, unit: str) -> Parameter:
    field = f"parameters.{name}"
    if not isinstance(entry, dict):
        raise CalibrationError(f"{path}: field {field}: missing or not a mapping with value, unit, means, source")
    value = entry.get("value")
    if not isinstance(value, Real) or isinstance(value, bool) or value < 0:
        raise CalibrationError(f"{path}: field {field}.value must be a number ≥ 0; is {value!r}")
    if entry.get("unit") != unit:
        raise CalibrationError(f"{path}: field {field}.unit must be {unit!r}; is {entry.get('unit')!r}")
    if unit == SHARE and not 0 < value <= 1:
        raise CalibrationError(f"{path}: field {field}.value must be a share in (0, 1]; is {value!r}")
    for text in ("means", "source"):
        if not isinstance(entry.get(text), str) or not entry[text]:
            raise CalibrationError(f"{path}: field {field}.{text} must be a non-empty string; is {entry.get(text)!r}")
    return Parameter(float(value), unit, entry["means"], entry["source"])


def _shown(document, field) -> str:
    return repr(document.get(field)) if isinstance(document, dict) else f"not a mapping ({document!r})"


def write_calibration(path: Path, parameters: dict[str, Parameter]) -> None:
    document = {"format": FORMAT, "parameters": {
        name: {"value": p.value, "unit": p.unit, "means": p.means, "source": p.source} for name, p in parameters.items()}}
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")


def content_hash(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
